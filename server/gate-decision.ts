import type { Db } from "@/db/client";
import { decideGate } from "@/db/queries/gates";
import type { AuditActor } from "@/lib/audit";
import type { Principal } from "@/lib/auth/roles";
import type { GateDecision } from "@/lib/mission/types";

/**
 * Records a person's decision (or approval) on a gate, shared by the server action and the REST route.
 * The gate's policy is checked in decideGate against the person's roles and groups as stored now.
 */
export async function decideGateAs(db: Db, user: Principal, actor: AuditActor, params: { gateId: string; decision: GateDecision; note: string | null }) {
  const state = await decideGate(db, { ...params, actor: { ...actor, name: user.name } });
  const gate = state.gates.find((g) => g.id === params.gateId)!;
  const required = gate.policy?.approvalsRequired ?? 1;
  const approvals = (gate.approvals ?? []).filter((a) => a.decision === params.decision).length;
  return { state, gate, resolved: gate.status === "resolved", approvals, required };
}
