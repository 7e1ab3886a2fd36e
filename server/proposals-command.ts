import type { DbHandle } from "../db/client";
import { decideProposal, getProposalRow, listMissionProposals, listPendingProposals, type ProposalAnswer } from "../db/queries/authority";
import { getMissionById } from "../db/queries/missions";
import { proposalDecisionInput } from "../lib/authority/decision-input";
import type { AuditActor } from "../lib/audit";
import { explainMission, type MissionExplanation } from "../lib/mission/explain";
import type { MissionState } from "../lib/mission";
import { describeProposal } from "../lib/views/state-render";
import { toProposalView, type ProposalView } from "./proposal-view";
import { isUuid } from "../lib/ids";

/**
 * `faultline proposals …` and `faultline mission explain` (issue 14): the same reads and the same
 * authority path (decideProposal) as the REST API and the console.
 */

export class ProposalsUsageError extends Error {}


function proposalId(v: string | undefined): string {
  if (!v) throw new ProposalsUsageError("Missing PROPOSAL_ID; list pending proposals with: faultline proposals list");
  if (!isUuid(v)) throw new ProposalsUsageError(`"${v}" is not a proposal ID (a UUID); list them with: faultline proposals list`);
  return v;
}

export function oneLine(p: ProposalView): string {
  const who = p.decidedByName ?? p.decidedBy ?? "";
  const why = p.decision?.failureReason ?? p.decision?.pendingReason ?? "";
  return `${p.id}  ${p.status.padEnd(8)} ${describeProposal(p)}${who ? `  [${who}]` : ""}${why && !describeProposal(p).includes(why) ? `  ${why}` : ""}`;
}

export function detail(p: ProposalView): string {
  const d = p.decision;
  const lines = [
    `Proposal ${p.id} (mission ${p.missionId})`,
    `  actor:    ${p.actorName ?? p.actorId} [${p.actorId}]`,
    `  action:   ${describeProposal(p)}`,
    `  args:     ${JSON.stringify(p.action.args)}`,
    `  digest:   ${p.argsDigest}   level ${p.level}`,
    `  status:   ${p.status}${p.step !== null ? ` (ran as step ${p.step + 1})` : ""}`,
  ];
  if (d) {
    lines.push(`  decided:  ${d.decision} by ${p.decidedByName ?? d.decidedBy} via ${d.authority} at ${d.decidedAt} (${d.decisionTimeMs} ms)`, `  reason:   ${d.reason}`);
    if (d.failureReason) lines.push(`  failure:  ${d.failureReason}`);
    if (d.pendingReason) lines.push(`  pending:  ${d.pendingReason}`);
    if (d.counterfactual) lines.push(`  would change it: ${JSON.stringify(d.counterfactual.change)} → ${d.counterfactual.expectedOutcome} (${d.counterfactual.confidence} confidence)`);
    if (d.modified) lines.push(`  modified: ${JSON.stringify(d.modified.args)}${d.modified.scope?.allowedPaths ? ` within ${d.modified.scope.allowedPaths.join(", ")}` : ""}`);
    if (d.note) lines.push(`  note:     ${d.note}`);
    if (d.expiresAt) lines.push(`  expires:  ${d.expiresAt}`);
  }
  if (p.status === "pending") lines.push(`  decide:   faultline proposals approve ${p.id} | reject ${p.id} --note "…" | modify ${p.id} --args '{…}'`);
  return lines.join("\n");
}

export async function proposalsList(h: DbHandle, missionId: string | undefined): Promise<ProposalView[]> {
  if (missionId !== undefined && !isUuid(missionId)) throw new ProposalsUsageError(`--mission "${missionId}" is not a mission ID (a UUID); list them with: faultline mission list`);
  const rows = missionId ? await listMissionProposals(h.db, missionId) : await listPendingProposals(h.db);
  return rows.map(toProposalView);
}

export async function proposalShow(h: DbHandle, id: string | undefined): Promise<{ proposal: ProposalView; prompt: unknown } | null> {
  const pid = proposalId(id);
  const row = await getProposalRow(h.db, pid);
  if (!row) return null;
  const prompt = (await getMissionById(h.db, row.missionId))?.state.gates.find((g) => g.proposalId === pid && g.status === "open")?.prompt ?? null;
  return { proposal: toProposalView(row), prompt };
}

/** Parses the CLI's answer with the schema the REST API uses, so both refuse the same input the same way. */
export function parseAnswer(answer: "approve" | "reject" | "modify", opts: { args?: string; scope?: string; note?: string }): { answer: ProposalAnswer; args?: Record<string, unknown>; scope?: { allowedPaths: string[] }; note: string | null } {
  let args: unknown;
  if (opts.args !== undefined) {
    try {
      args = JSON.parse(opts.args);
    } catch (err) {
      throw new ProposalsUsageError(`--args is not valid JSON (${(err as Error).message}); give the args that will run as a JSON object, e.g. --args '{"op":"write","path":"notes.txt","content":"hi"}'`);
    }
  }
  const scope = opts.scope !== undefined ? { allowedPaths: opts.scope.split(",").map((s) => s.trim()).filter(Boolean) } : undefined;
  const parsed = proposalDecisionInput.safeParse({ decision: answer, args, scope, note: opts.note });
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    const field = i.path.join(".") || "(answer)";
    throw new ProposalsUsageError(`${field === "args" ? "--args" : field === "note" ? "--note" : field.startsWith("scope") ? "--scope" : field} ${i.message}.`);
  }
  return { answer, args: parsed.data.args, scope: parsed.data.scope, note: parsed.data.note ?? null };
}

export async function proposalDecide(h: DbHandle, id: string | undefined, answer: ReturnType<typeof parseAnswer>, actor: AuditActor, approvalTtlMs: number): Promise<{ state: MissionState; proposal: ProposalView }> {
  const pid = proposalId(id);
  await decideProposal(h.db, { proposalId: pid, ...answer, actor: { ...actor, kind: "human" }, approvalTtlMs });
  const row = await getProposalRow(h.db, pid);
  const m = await getMissionById(h.db, row!.missionId);
  return { state: m!.state, proposal: toProposalView(row!) };
}

export function explainText(s: MissionState, e: MissionExplanation): string {
  const lines = [`Mission ${s.id} "${s.name}": ${e.finalStatus ?? `${s.runState} (not finished)`}`, `  necessity level ${e.level.effective}${e.level.why.length ? `: ${e.level.why.join("; ")}` : " (no model involved)"}`];
  if (e.level.warning) lines.push(`  WARNING: ${e.level.warning}`);
  if (!e.explanation) {
    lines.push(e.finalStatus === "SUCCESS" ? "  It succeeded: the evidence holds; nothing to explain." : "  Nothing has failed or waits for a decision yet.");
    return lines.join("\n");
  }
  const x = e.explanation;
  lines.push(`  failure reason: ${e.failureReason} (${x.kind})`, `  ${x.title}`, `  ${x.description}`);
  if (x.counterfactual) lines.push(`  what would change it: ${JSON.stringify(x.counterfactual.change)} → ${x.counterfactual.expectedOutcome} (${x.counterfactual.confidence} confidence)`);
  if (x.evidence.length) {
    lines.push("  evidence:");
    for (const ev of x.evidence) lines.push(`    - ${JSON.stringify(ev)}`);
  }
  return lines.join("\n");
}

export { explainMission };
