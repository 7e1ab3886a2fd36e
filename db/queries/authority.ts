import { readMissionState } from "./mission-state";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db, Executor } from "../client";
import { actors, authorityPolicies, events, missions, proposals } from "../schema";
import { decideByPerson } from "../../lib/authority/authority";
import { agentDefinition } from "../../lib/mission/definition";
import { actionArgsProblem } from "../../lib/mission/autonomous";
import { externalAllowlists } from "../../lib/mission/external";
import { checkDecider } from "../../lib/mission/gate-policy";
import { gateResolved, proposalDecided } from "../../lib/mission/transitions";
import type { MissionState, ProposalState } from "../../lib/mission/types";
import { appendEvents } from "./events";
import { loadDecider } from "./users";
import { getActorNames } from "./views";
import { DEFAULT_POLICY_RULES, rulesSchema, type Rule } from "../../lib/authority/rules";
import { recordAudit } from "./audit-log";
import type { AuditActor } from "../../lib/audit";
import { AppError } from "../../lib/errors";

/** The admin's default authority policy in force: the newest version, or the built-in default when none was published. */
export async function getDefaultPolicy(db: Executor): Promise<{ version: number; rules: Rule[]; note: string | null; createdBy: string | null; createdAt: string | null }> {
  const [row] = await db.select().from(authorityPolicies).orderBy(desc(authorityPolicies.version)).limit(1);
  if (!row) return { version: 0, rules: DEFAULT_POLICY_RULES, note: "Faultline's built-in default policy", createdBy: null, createdAt: null };
  return { version: row.version, rules: row.rules, note: row.note, createdBy: row.createdBy, createdAt: row.createdAt };
}

/** Publishes a new version of the default policy (validated; the previous versions stay), with its audit row. */
export async function publishDefaultPolicy(db: Executor, actor: AuditActor, params: { rules: unknown; note: string | null }): Promise<{ version: number }> {
  const parsed = rulesSchema.safeParse(params.rules);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new AppError("bad_request", { userMessage: `The policy was not saved: rule ${first.path.join(".") || "(list)"}: ${first.message}. Fix that rule and save again.`, details: { issues: parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) } });
  }
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('authority_policies'))`);
    const before = await getDefaultPolicy(tx);
    const version = before.version + 1;
    await tx.insert(authorityPolicies).values({ version, rules: parsed.data, note: params.note, createdBy: actor.id });
    await recordAudit(tx, actor, {
      action: "authority.policy",
      summary: `${actor.name} published default authority policy version ${version} (${parsed.data.length} rule(s))${params.note ? `: ${params.note}` : ""}`,
      target: { type: "authority_policy", id: String(version) },
      before: { version: before.version, rules: before.rules.length },
      after: { version, rules: parsed.data.length },
    });
    return { version };
  });
}

export type ProposalListRow = typeof proposals.$inferSelect & { actorName: string | null; deciderName: string | null };

/** A mission's proposals in submission order, with actor names. */
export async function listMissionProposals(db: Executor, missionId: string): Promise<ProposalListRow[]> {
  const rows = await db.select().from(proposals).where(eq(proposals.missionId, missionId)).orderBy(proposals.submittedSeq);
  return withNames(db, rows);
}

export async function getProposalRow(db: Executor, id: string): Promise<ProposalListRow | null> {
  const [row] = await db.select().from(proposals).where(eq(proposals.id, id));
  return row ? (await withNames(db, [row]))[0] : null;
}

/** Pending proposals across missions (the decision inbox), oldest first. */
export async function listPendingProposals(db: Executor, limit = 200): Promise<ProposalListRow[]> {
  const rows = await db.select().from(proposals).where(eq(proposals.status, "pending")).orderBy(proposals.submittedAt).limit(limit);
  return withNames(db, rows);
}

async function withNames(db: Executor, rows: Array<typeof proposals.$inferSelect>): Promise<ProposalListRow[]> {
  const ids = [...new Set(rows.flatMap((r) => [r.actorId, r.decidedBy].filter((x): x is string => Boolean(x))))];
  const names = ids.length ? await db.select({ id: actors.id, name: actors.displayName }).from(actors).where(sql`${actors.id} in ${ids}`) : [];
  const byId = Object.fromEntries(names.map((n) => [n.id, n.name]));
  return rows.map((r) => ({ ...r, actorName: byId[r.actorId] ?? null, deciderName: r.decidedBy ? (byId[r.decidedBy] ?? null) : null }));
}

/** The last successful result of an agent's attempt (what `finish` evidence such as exit_code or output_matches is checked against). */
export async function lastAgentResult(db: Executor, missionId: string, agent: string, attempt: number): Promise<{ tool: string; data: Record<string, unknown> } | null> {
  const [row] = await db
    .select({ payload: events.payload })
    .from(events)
    .where(and(eq(events.missionId, missionId), eq(events.type, "tool.succeeded"), sql`${events.payload}->>'agent' = ${agent}`, sql`(${events.payload}->>'attempt')::int = ${attempt}`))
    .orderBy(desc(events.seq))
    .limit(1);
  if (!row) return null;
  const p = row.payload as { step: number; data: Record<string, unknown> };
  const [started] = await db
    .select({ payload: events.payload })
    .from(events)
    .where(and(eq(events.missionId, missionId), eq(events.type, "step.started"), sql`${events.payload}->>'agent' = ${agent}`, sql`(${events.payload}->>'attempt')::int = ${attempt}`, sql`(${events.payload}->>'step')::int = ${p.step}`))
    .orderBy(desc(events.seq))
    .limit(1);
  return { tool: (started?.payload as { tool?: string } | undefined)?.tool ?? "shell", data: p.data };
}

export type ProposalAnswer = "approve" | "reject" | "modify" | "abort";

export interface DecideProposalParams {
  proposalId: string;
  answer: ProposalAnswer;
  /** modify: the args that will run instead. */
  args?: Record<string, unknown>;
  /** modify: narrow the scope (allowed path globs) the approval covers. */
  scope?: { allowedPaths?: string[] };
  note: string | null;
  /** Who decides: a person (console, REST, CLI) or a reviewer agent a rule allows. */
  actor: AuditActor & { kind: "human" | "agent" };
  approvalTtlMs: number;
}

/**
 * A person's (or a reviewer agent's) answer to a pending proposal, through the authority (FDR-N013): the
 * authority checks it (nobody decides their own proposal; a modification is re-checked against the rules,
 * and deny still wins; the approval binds to the digest of the args that will run, and expires), then
 * `proposal.decided` and the gate's `gate.resolved` are appended in one transaction with the audit row.
 * 404 unknown; 409 already decided; 403 not allowed; 400 naming the bad field.
 */
export async function decideProposal(db: Db, params: DecideProposalParams): Promise<{ state: MissionState; proposal: ProposalState }> {
  const { actor } = params;
  let refusal: AppError | null = null;
  let missionId: string | null = null;
  const out = await db.transaction(async (tx) => {
    const [row] = await tx.select({ missionId: proposals.missionId }).from(proposals).where(eq(proposals.id, params.proposalId));
    if (!row) throw new AppError("not_found", { userMessage: `Proposal ${params.proposalId} does not exist. List a mission's proposals with GET /api/v1/missions/:id/proposals or \`faultline proposals list\`.` });
    missionId = row.missionId;
    const m = (await readMissionState(tx, row.missionId, { forUpdate: true }))!;
    const p = m.state.proposals.find((x) => x.id === params.proposalId)!;
    if (p.status !== "pending") {
      const by = p.decision?.decidedBy ? ((await getActorNames(tx, [p.decision.decidedBy]))[p.decision.decidedBy] ?? p.decision.decidedBy) : "nobody";
      throw new AppError("conflict", { userMessage: `This proposal was already decided: ${p.status} by ${by}${p.decision?.decidedAt ? ` at ${p.decision.decidedAt}` : ""}. Nothing was changed.`, details: { status: p.status, decidedBy: p.decision?.decidedBy ?? null } });
    }
    const gate = m.state.gates.find((g) => g.proposalId === p.id && g.status === "open");
    if (!gate) throw new AppError("conflict", { userMessage: `This proposal no longer waits for a decision (its mission is ${m.state.runState}). Nothing was changed.` });
    // The gate policy of the proposal gate applies as on every gate (roles, groups, starter rule).
    const check = checkDecider(gate.policy ?? null, await loadDecider(tx, actor.id), { starterActorId: m.createdBy, approvals: gate.approvals ?? [] });
    if (!check.ok) {
      refusal = new AppError(check.code, { userMessage: check.reason });
      return null;
    }
    const def = agentDefinition(m.state.definition, p.agent);
    const policy = await getDefaultPolicy(tx);
    const now = Date.now();
    const answer = params.answer === "abort" ? "reject" : params.answer;
    // A person's modification is checked against the same allowlists the proposal was: an external agent's own.
    const lists = def.external ? externalAllowlists(m.state, p.agent) : { tools: def.autonomous?.tools ?? [], binaries: m.state.definition.allowedBinaries };
    const r = decideByPerson({
      proposal: { id: p.id, actorId: p.actorId, agent: p.agent, action: p.action, argsDigest: p.argsDigest },
      pendingRecord: p.decision!,
      decider: { actorId: actor.id, kind: actor.kind },
      proposerActorId: p.actorId,
      answer,
      args: params.args,
      scope: params.scope,
      note: params.answer === "abort" ? (params.note ?? "The mission was aborted at this proposal.") : params.note,
      now,
      approvalTtlMs: params.approvalTtlMs,
      rules: m.state.definition.rules,
      defaultPolicy: policy.rules,
      allowedTools: lists.tools,
      allowedBinaries: lists.binaries,
      // A reviewer agent answers only where a rule names it, and never in a mission where it proposes itself.
      reviewerAllowed: actor.kind === "agent" && reviewerAllowed(m.state.definition.rules, actor.id) && !m.state.proposals.some((x) => x.actorId === actor.id),
      argsProblem: (args) => actionArgsProblem(p.action.tool, args),
    });
    if (!r.ok) {
      const code = r.code === "invalid" ? "bad_request" : r.code;
      refusal = new AppError(code, { userMessage: r.message, details: r.field ? { field: r.field } : undefined });
      return null;
    }
    const at = new Date(now).toISOString();
    const gateDecision = params.answer === "abort" ? "abort" : r.record.decision === "approved" ? "approve" : "reject";
    const { state } = await appendEvents(tx, { missionId: row.missionId, actorId: actor.id, events: [proposalDecided(p.id, r.record), gateResolved(gate, gateDecision, params.note, at, actor.name)] });
    const modified = r.record.modified ? { before: { args: p.action.args, argsDigest: p.argsDigest }, after: { args: r.record.modified.args, argsDigest: r.record.argsDigest, scope: r.record.modified.scope ?? null } } : null;
    await recordAudit(tx, actor, {
      action: modified ? "proposal.modify" : "proposal.decide",
      summary: modified
        ? `${actor.name} modified the args of "${p.agent}"'s ${p.action.tool} proposal before approving it in mission "${m.state.name}"${params.note ? `. Note: ${params.note}` : ""}`
        : `${actor.name} ${params.answer === "abort" ? "aborted the mission at" : r.record.decision === "approved" ? "approved" : "rejected"} "${p.agent}"'s ${p.action.tool} proposal in mission "${m.state.name}"${params.note ? `. Note: ${params.note}` : ""}`,
      target: { type: "proposal", id: p.id },
      missionId: row.missionId,
      before: modified?.before ?? { status: "pending", args: p.action.args },
      after: modified?.after ?? { status: r.record.decision, decision: gateDecision },
    });
    return { state, proposal: state.proposals.find((x) => x.id === p.id)! };
  });
  if (refusal) {
    const e = refusal as AppError;
    await recordAudit(db, actor, { action: "proposal.decide", outcome: "refused", summary: `${actor.name} was refused ${params.answer} on proposal ${params.proposalId}: ${e.userMessage}`, target: { type: "proposal", id: params.proposalId }, missionId });
    throw e;
  }
  return out!;
}

/** A reviewer agent may answer only holds of rules that name it (FDR-N017 agent-to-agent review). */
function reviewerAllowed(rules: readonly Rule[], actorId: string): boolean {
  return rules.some((r) => r.reviewers?.includes(actorId));
}

export interface ActorSummary {
  actor: { id: string; kind: string; name: string; meta: Record<string, unknown>; createdAt: string };
  proposed: { total: number; approved: number; rejected: number; pending: number; expired: number; approvalRate: number | null };
  decided: { total: number; approved: number; rejected: number };
  /** Rejections of this actor's proposals per day and FailureReason (the chart). */
  failureReasonsByDay: Array<{ day: string; reason: string; count: number }>;
  recent: ProposalListRow[];
  /** Proposals this actor decided (a person or a reviewer agent), newest first. */
  recentDecisions: ProposalListRow[];
}

/** An actor's page (seed 002 FDR-N002): what it proposed, how that was decided, what it decided. */
export async function getActorSummary(db: Executor, actorId: string, opts: { days?: number } = {}): Promise<ActorSummary | null> {
  const [a] = await db.select().from(actors).where(eq(actors.id, actorId));
  if (!a) return null;
  const days = opts.days ?? 30;
  const [counts] = await db
    .select({
      total: sql<number>`count(*)::int`,
      approved: sql<number>`count(*) filter (where ${proposals.status} = 'approved')::int`,
      rejected: sql<number>`count(*) filter (where ${proposals.status} = 'rejected')::int`,
      pending: sql<number>`count(*) filter (where ${proposals.status} = 'pending')::int`,
      expired: sql<number>`count(*) filter (where ${proposals.status} = 'expired')::int`,
    })
    .from(proposals)
    .where(eq(proposals.actorId, actorId));
  const [dec] = await db
    .select({ total: sql<number>`count(*)::int`, approved: sql<number>`count(*) filter (where ${proposals.status} in ('approved', 'expired'))::int`, rejected: sql<number>`count(*) filter (where ${proposals.status} = 'rejected')::int` })
    .from(proposals)
    .where(eq(proposals.decidedBy, actorId));
  const byDay = await db
    .select({ day: sql<string>`to_char(date_trunc('day', ${proposals.submittedAt} at time zone 'UTC'), 'YYYY-MM-DD')`, reason: sql<string>`coalesce(${proposals.failureReason}, 'UNKNOWN')`, count: sql<number>`count(*)::int` })
    .from(proposals)
    .where(and(eq(proposals.actorId, actorId), eq(proposals.status, "rejected"), sql`${proposals.submittedAt} > now() - (${days}::int * interval '1 day')`))
    .groupBy(sql`1`, sql`2`)
    .orderBy(sql`1`, sql`2`);
  const recent = await db.select().from(proposals).where(eq(proposals.actorId, actorId)).orderBy(desc(proposals.submittedAt)).limit(50);
  const decisions = await db.select().from(proposals).where(eq(proposals.decidedBy, actorId)).orderBy(desc(proposals.decidedAt)).limit(50);
  const decidedOnes = counts.approved + counts.rejected + counts.expired;
  return {
    actor: { id: a.id, kind: a.kind, name: a.displayName, meta: a.meta, createdAt: a.createdAt.toISOString() },
    proposed: { ...counts, approvalRate: decidedOnes ? (counts.approved + counts.expired) / decidedOnes : null },
    decided: dec,
    failureReasonsByDay: byDay,
    recent: await withNames(db, recent),
    recentDecisions: await withNames(db, decisions),
  };
}

export interface ActorListRow {
  id: string;
  kind: string;
  name: string;
  meta: Record<string, unknown>;
  /** Proposals it made, and how many of them were approved (an expired approval was an approval) or rejected. */
  proposed: number;
  approved: number;
  rejected: number;
  /** approved / (approved + rejected), as on the actor's page; null while none of its proposals is decided. */
  approvalRate: number | null;
  /** Proposals it decided (a person or a reviewer agent). */
  decided: number;
}

/** Every actor with how many proposals it made (and how they were decided) and decided (the actors list). */
export async function listActorsWithCounts(db: Executor): Promise<ActorListRow[]> {
  const rows = await db.execute<Omit<ActorListRow, "approvalRate">>(sql`
    select a.id, a.kind, a.display_name as name, a.meta,
      coalesce(p.proposed, 0) as proposed, coalesce(p.approved, 0) as approved, coalesce(p.rejected, 0) as rejected,
      (select count(*)::int from proposals d where d.decided_by = a.id) as decided
    from actors a
    left join (
      select actor_id,
        count(*)::int as proposed,
        (count(*) filter (where status in ('approved', 'expired')))::int as approved,
        (count(*) filter (where status = 'rejected'))::int as rejected
      from proposals group by actor_id
    ) p on p.actor_id = a.id
    order by a.kind, a.display_name`);
  return rows.map((r) => ({ ...r, approvalRate: r.approved + r.rejected ? r.approved / (r.approved + r.rejected) : null }));
}
