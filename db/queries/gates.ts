import { readMissionState } from "./mission-state";
import { asc, desc, eq, sql } from "drizzle-orm";
import { gateApproval, gateResolved, proposalDecided } from "../../lib/mission/transitions";
import { timeoutRecord } from "../../lib/authority/authority";
import { AppError } from "../../lib/errors";
import { allowBinaryVerdict, type GateDecision, type GateState, type MissionState } from "../../lib/mission";
import { approvedDecision, checkDecider, SYSTEM_ACTOR_ID, timeoutReason } from "../../lib/mission/gate-policy";
import { SYSTEM_ACTOR, type AuditActor, type AuditVia } from "../../lib/audit";
import type { Db, Executor, Tx } from "../client";
import { actors, gates, missions } from "../schema";
import { recordAudit } from "./audit-log";
import { appendEvents } from "./events";
import { getActorNames } from "./views";
import { loadDecider } from "./users";
import { decideProposal, getDefaultPolicy } from "./authority";
import { env } from "../../lib/env";

export async function listOpenGates(db: Executor) {
  return db
    .select({ gate: gates, missionName: missions.name, startedBy: missions.createdBy })
    .from(gates)
    .innerJoin(missions, eq(missions.id, gates.missionId))
    .where(eq(gates.status, "open"))
    .orderBy(asc(gates.openedAt));
}

export async function getGateById(db: Executor, id: string) {
  const [row] = await db.select().from(gates).where(eq(gates.id, id));
  return row ?? null;
}

/** The gate a proposal holds its mission at (the newest, should a proposal ever have had two). */
export async function getGateByProposalId(db: Executor, proposalId: string) {
  const [row] = await db
    .select()
    .from(gates)
    .where(sql`${gates.kind} = 'proposal' and ${gates.error}->'technical'->>'proposalId' = ${proposalId}`)
    .orderBy(desc(gates.openedAt))
    .limit(1);
  return row ?? null;
}

export async function listGatesByMission(db: Executor, missionId: string) {
  return db.select().from(gates).where(eq(gates.missionId, missionId)).orderBy(asc(gates.openedAt));
}


function viaOf(actorId: string): AuditVia {
  return actorId.startsWith("cli:") ? "cli" : actorId.startsWith("worker:") ? "worker" : actorId.startsWith("system") ? "system" : "web";
}

export type DecideGateParams = { gateId: string; decision: GateDecision; note: string | null } & ({ actor: AuditActor } | { actorId: string; actorName: string });

/**
 * Records a decision on an open gate under the policy snapshotted on it (issue 6): the person must
 * qualify (roles, groups, starter rule), re-checked here for every path (console, REST, CLI). A gate
 * needing one decision is resolved at once (`gate.resolved`, audit `gate.decide`); a gate needing N
 * distinct approvals records `gate.approval` (audit `gate.approve`) and is resolved in the same
 * transaction when N people chose the same option. The mission row lock serialises concurrent choices.
 * Refusals are audited (outcome refused) and thrown as 403 / 409 with the reason in words.
 */
export async function decideGate(db: Db, params: DecideGateParams): Promise<MissionState> {
  const actor: AuditActor = "actor" in params ? params.actor : { id: params.actorId, name: params.actorName, via: viaOf(params.actorId) };
  // A proposal gate is answered through the authority (FDR-N013), never around it.
  const [kind] = await db.select({ kind: gates.kind, options: gates.options, proposalId: sql<string | null>`${gates.error}->'technical'->>'proposalId'` }).from(gates).where(eq(gates.id, params.gateId));
  if (kind?.kind === "proposal" && kind.proposalId) {
    // Only its own options (approve, reject, abort): any other decision is refused, never read as abort.
    if (!kind.options.some((o) => o.action === params.decision)) {
      throw new AppError("unprocessable", { userMessage: `"${params.decision}" is not an option of this gate. Choose one of: ${kind.options.map((o) => o.action).join(", ")}.` });
    }
    const answer = params.decision === "approve" ? "approve" : params.decision === "reject" ? "reject" : "abort";
    return (await decideProposal(db, { proposalId: kind.proposalId, answer, note: params.note, actor: { ...actor, kind: "human" }, approvalTtlMs: env().FAULTLINE_APPROVAL_TTL_MS })).state;
  }
  let refusal: { error: AppError; missionId: string } | null = null;
  const state = await db.transaction(async (tx) => {
    const [g] = await tx.select({ missionId: gates.missionId }).from(gates).where(eq(gates.id, params.gateId));
    if (!g) throw new AppError("not_found", { userMessage: `Gate ${params.gateId} does not exist. It may have been mistyped; list open gates with \`faultline gate list\` or the Gates page.` });
    const m = (await readMissionState(tx, g.missionId, { forUpdate: true }))!;
    const gate = m.state.gates.find((x) => x.id === params.gateId)!;
    if (gate.status !== "open") {
      const [by] = gate.decidedBy ? await tx.select({ name: actors.displayName }).from(actors).where(eq(actors.id, gate.decidedBy)) : [];
      const who = gate.decidedBy === actor.id ? "you" : (by?.name ?? gate.decidedBy);
      throw new AppError("conflict", {
        userMessage: `This gate was already resolved: ${gate.decision} by ${who} at ${gate.decidedAt}. Nothing was changed.`,
        details: { decision: gate.decision, decidedBy: gate.decidedBy, decidedByName: by?.name ?? null },
      });
    }
    if (!gate.options.some((o) => o.action === params.decision)) {
      throw new AppError("unprocessable", { userMessage: `"${params.decision}" is not an option of this gate. Choose one of: ${gate.options.map((o) => o.action).join(", ")}.` });
    }
    // Allowing a refused binary is a decision the authority checks first (issue 18): a deny rule refuses it.
    let allowance: string | null = null;
    if (params.decision === "allow_binary") {
      const verdict = allowBinaryVerdict(m.state, gate.agent, (await getDefaultPolicy(tx)).rules);
      if (!verdict.ok) {
        refusal = { error: new AppError("forbidden", { userMessage: verdict.reason }), missionId: g.missionId };
        return null;
      }
      allowance = `Allowed "${verdict.binary}" for this mission. ${verdict.reason}`;
    }
    const policy = gate.policy ?? null;
    const approvals = gate.approvals ?? [];
    const check = checkDecider(policy, await loadDecider(tx, actor.id), { starterActorId: m.createdBy, approvals });
    if (!check.ok) {
      refusal = { error: new AppError(check.code, { userMessage: check.reason }), missionId: g.missionId };
      return null;
    }
    const at = new Date().toISOString();
    const target = { type: "gate", id: gate.id };
    let state: MissionState;
    if (policy && policy.approvalsRequired > 1) {
      const mine = { actorId: actor.id, decision: params.decision, note: params.note, at };
      const count = [...approvals, mine].filter((a) => a.decision === params.decision).length;
      const reached = approvedDecision(policy, [...approvals, mine]) === params.decision;
      const names = await getActorNames(tx, approvals.map((a) => a.actorId));
      const approvers = [...approvals.filter((a) => a.decision === params.decision).map((a) => names[a.actorId] ?? a.actorId), actor.name];
      const note = `Approved by ${approvers.join(", ")} (${count} of ${policy.approvalsRequired})${params.note ? `: ${params.note}` : ""}`;
      ({ state } = await appendEvents(tx, {
        missionId: g.missionId,
        actorId: actor.id,
        events: [gateApproval(gate, params.decision, params.note, actor.name, count, policy.approvalsRequired), ...(reached ? [gateResolved(gate, params.decision, note, at, actor.name)] : [])],
      }));
      await recordAudit(tx, actor, {
        action: "gate.approve",
        summary: `${actor.name} chose ${params.decision} on gate "${gate.agent}" (${gate.kind}) of mission "${m.state.name}": ${count} of ${policy.approvalsRequired} approvals${reached ? ", the gate is decided" : ""}${params.note ? `. Note: ${params.note}` : ""}`,
        target,
        missionId: g.missionId,
        before: { status: "open", approvals: approvals.length },
        after: reached ? { status: "resolved", decision: params.decision, approvers } : { status: "open", approvals: approvals.length + 1, decision: params.decision },
      });
    } else {
      ({ state } = await appendEvents(tx, { missionId: g.missionId, actorId: actor.id, events: [gateResolved(gate, params.decision, params.note, at, actor.name)] }));
      await recordAudit(tx, actor, {
        action: "gate.decide",
        summary: `${actor.name} chose ${params.decision} on gate "${gate.agent}" (${gate.kind}) of mission "${m.state.name}"${allowance ? `. ${allowance}` : ""}${params.note ? `. Note: ${params.note}` : ""}`,
        target,
        missionId: g.missionId,
        before: { status: "open" },
        after: { status: "resolved", decision: params.decision, note: params.note },
      });
    }
    await afterResolution(tx, state, gate, params.decision);
    return state;
  });
  if (refusal) {
    const r = refusal as { error: AppError; missionId: string };
    await recordAudit(db, actor, { action: "gate.decide", outcome: "refused", summary: `${actor.name} was refused ${params.decision} on gate ${params.gateId}: ${r.error.userMessage}`, target: { type: "gate", id: params.gateId }, missionId: r.missionId });
    throw r.error;
  }
  return state!;
}

/** A rate-limited agent is retried only after the provider's Retry-After, as the option said. */
async function afterResolution(tx: Tx, state: MissionState, gate: GateState, decision: GateDecision): Promise<void> {
  const resolved = state.gates.find((x) => x.id === gate.id)?.status === "resolved";
  const retryAfter = resolved && decision === "retry" ? state.agents[gate.agent]?.error?.retryAfter : undefined;
  if (retryAfter) await tx.update(missions).set({ runnableAt: new Date(Date.now() + retryAfter).toISOString() }).where(eq(missions.id, state.id));
}

/**
 * The worker's timeout sweep (issue 6): every open gate whose policy deadline passed is decided by
 * the system with the policy's outcome, the policy named as the reason, and an audit row
 * `gate.timeout`. One mission per transaction, its row locked with SKIP LOCKED so several workers
 * never decide the same gate twice (and a person deciding at that moment either wins or sees it decided).
 */
export async function resolveTimedOutGates(db: Db, opts: { missionId?: string; limit?: number } = {}): Promise<Array<{ missionId: string; gateId: string; decision: GateDecision }>> {
  const done: Array<{ missionId: string; gateId: string; decision: GateDecision }> = [];
  for (let i = 0; i < (opts.limit ?? 50); i++) {
    const one = await db.transaction(async (tx) => {
      const only = opts.missionId ? sql`and m.id = ${opts.missionId}::uuid` : sql``;
      const due = await tx.execute<{ id: string; gate_id: string }>(sql`
        select m.id, g.id as gate_id from missions m join gates g on g.mission_id = m.id
        where g.status = 'open' and g.deadline_at is not null and g.deadline_at <= now() ${only}
        order by g.deadline_at limit 1
        for update of m skip locked`);
      const missionId = due[0]?.id;
      if (!missionId) return null;
      const m = (await readMissionState(tx, missionId))!;
      // The projection and the snapshot are written in one transaction: the gate is open in both.
      const gate = m.state.gates.find((x) => x.id === due[0].gate_id)!;
      const policy = gate.policy!;
      const wanted = policy.timeoutOutcome ?? "abort";
      // Policies only allow outcomes every gate of the kind offers; abort is always offered.
      let decision: GateDecision = gate.options.some((o) => o.action === wanted) ? wanted : "abort";
      // A pending proposal is never approved on silence: the system rejects it through its record (or aborts).
      const proposal = gate.kind === "proposal" ? m.state.proposals.find((p) => p.id === gate.proposalId && p.status === "pending") : undefined;
      if (proposal && decision !== "abort") decision = "reject";
      const reason = `${timeoutReason(policy)}${decision !== wanted ? ` (${proposal ? "a pending proposal is rejected, never approved, on silence" : `this gate does not offer ${wanted}: abort instead`})` : ""}`;
      const at = new Date().toISOString();
      const { state } = await appendEvents(tx, {
        missionId,
        actorId: SYSTEM_ACTOR_ID,
        events: [...(proposal && decision === "reject" ? [proposalDecided(proposal.id, timeoutRecord(proposal.decision!, SYSTEM_ACTOR_ID, timeoutReason(policy), Date.now()))] : []), gateResolved(gate, decision, reason, at, SYSTEM_ACTOR.name)],
      });
      await recordAudit(tx, SYSTEM_ACTOR, {
        action: "gate.timeout",
        summary: `${reason}: gate "${gate.agent}" (${gate.kind}) of mission "${m.state.name}" decided by the system`,
        target: { type: "gate", id: gate.id },
        missionId,
        before: { status: "open", approvals: (gate.approvals ?? []).length, deadlineAt: gate.deadlineAt },
        after: { status: "resolved", decision, policyId: policy.id },
      });
      await afterResolution(tx, state, gate, decision);
      return { missionId, gateId: gate.id, decision };
    });
    if (!one) break;
    done.push(one);
  }
  return done;
}
