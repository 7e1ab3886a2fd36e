import type { Db } from "@/db/client";
import { decideProposal } from "@/db/queries/authority";
import { decideGate, getGateById, getGateByProposalId } from "@/db/queries/gates";
import type { AuditActor } from "@/lib/audit";
import type { Principal } from "@/lib/auth/roles";
import { env } from "@/lib/env";
import { AppError, isAppError, type AppErrorCode } from "@/lib/errors";
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

/** One item of a bulk decision: a gate, or a pending proposal (its proposal gate). */
export type BulkItem = { gateId: string } | { proposalId: string };

/** What happened to one item: decided (or, under an N-of-M policy, one approval recorded), or refused with the reason in words. */
export type BulkItemResult =
  | { id: string; ok: true; status: "resolved" | "approval_recorded"; gateId: string; missionId: string; decision: GateDecision; approvals: number; required: number }
  | { id: string; ok: false; gateId: string | null; missionId: string | null; error: { code: AppErrorCode; status: number; message: string } };

const INTERNAL_ITEM_MESSAGE = "The server could not decide this item because of an internal error. It has been logged; the other items were not affected. Try this one again, and report it if it persists.";

/**
 * Decides many gates (or proposals) with one decision and one note (issue 15, bulk decisions). Each
 * item goes, one after the other, through the single-item path in its own transaction: decideGate for
 * failure and approval gates, decideProposal (the authority) for proposal gates. So each decision is
 * its own event, its own audit row and its own check of the gate's policy; an item that is refused
 * (not one of its options, already decided, refused by its policy or the authority, gone) is reported
 * with the reason and the others still go through. Results come back in the order of the items.
 */
export async function decideGatesInBulk(db: Db, user: Principal, actor: AuditActor, params: { items: BulkItem[]; decision: GateDecision; note: string | null }): Promise<BulkItemResult[]> {
  const results: BulkItemResult[] = [];
  for (const item of params.items) results.push(await decideOne(db, user, actor, item, params.decision, params.note));
  return results;
}

async function decideOne(db: Db, user: Principal, actor: AuditActor, item: BulkItem, decision: GateDecision, note: string | null): Promise<BulkItemResult> {
  const id = "gateId" in item ? item.gateId : item.proposalId;
  let gateId: string | null = null;
  let missionId: string | null = null;
  try {
    const gate = "gateId" in item ? await getGateById(db, item.gateId) : await getGateByProposalId(db, item.proposalId);
    if (!gate) {
      throw new AppError("not_found", {
        userMessage: "gateId" in item ? `Gate ${item.gateId} does not exist. It may have been mistyped; list open gates with GET /api/v1/gates or the Gates page.` : `No gate holds proposal ${item.proposalId}: it does not exist or never waited for a person. List a mission's proposals with GET /api/v1/missions/:id/proposals.`,
      });
    }
    gateId = gate.id;
    missionId = gate.missionId;
    const proposalId = gate.kind === "proposal" ? proposalOf(gate.error) : null;
    // A gate already decided is reported by its own path (409, who and when); an open one must offer the decision.
    // A proposal gate's options never change (approve, reject, abort), so they are checked whatever its status.
    if ((gate.status === "open" || proposalId) && !gate.options.some((o) => o.action === decision)) {
      throw new AppError("unprocessable", { userMessage: `This gate does not offer ${decision}; it offers ${gate.options.map((o) => o.action).join(", ")}. Nothing was changed: decide it on its own, or select gates that all offer ${decision}.` });
    }
    if (proposalId) {
      // A proposal is answered through the authority (decideProposal), never around it.
      if (decision === "reject" && !note) throw new AppError("bad_request", { userMessage: "Rejecting a proposal needs a note: the agent receives it as your reason. Nothing was changed: write a note and decide again." });
      const { state } = await decideProposal(db, { proposalId, answer: decision as "approve" | "reject" | "abort", note, actor: { ...actor, name: user.name, kind: "human" }, approvalTtlMs: env().FAULTLINE_APPROVAL_TTL_MS });
      return { id, ok: true, status: "resolved", gateId: gate.id, missionId: state.id, decision, approvals: 1, required: 1 };
    }
    const r = await decideGateAs(db, user, actor, { gateId: gate.id, decision, note });
    return { id, ok: true, status: r.resolved ? "resolved" : "approval_recorded", gateId: gate.id, missionId: r.state.id, decision, approvals: r.approvals, required: r.required };
  } catch (e) {
    if (!isAppError(e) || e.status >= 500) console.error(`[bulk decision] item ${id}`, e);
    const error = isAppError(e) && e.status < 500 ? { code: e.code, status: e.status, message: e.userMessage } : { code: "internal" as const, status: 500, message: INTERNAL_ITEM_MESSAGE };
    return { id, ok: false, gateId, missionId, error };
  }
}

function proposalOf(error: { technical?: Record<string, unknown> }): string | null {
  const p = error.technical?.proposalId;
  return typeof p === "string" ? p : null;
}
