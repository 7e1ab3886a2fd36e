import { canonicalJson } from "../authority/digest";
import type { Counterfactual } from "../authority/types";
import { agentDefinition } from "../mission/definition";
import { explainMission } from "../mission/explain";
import type { MissionState, ProposalState } from "../mission/types";
import { counterfactualReplay, type CounterfactualOptions, type CounterfactualReport } from "./counterfactual";
import type { CounterfactualChange } from "./counterfactual-input";
import type { Trace } from "./format";

/**
 * `faultline mission explain ID --verify` (seed 002 FDR-N015): each counterfactual the mission's record
 * states — its explanation's, and each rejected proposal's decision's ("what would change it") — is turned
 * into the change it names, replayed from the mission's trace, and judged against the outcome it expects:
 * held, did not hold, or undetermined (the change is not one a replay can make, or the changed run
 * stopped before the outcome could be seen), each with its evidence.
 */

export const VERDICTS = ["held", "did_not_hold", "undetermined"] as const;
export type Verdict = (typeof VERDICTS)[number];

/** Whose counterfactual: `mission` (the explanation's) or `proposal:<id>` (a decision's). */
export type Subject = "mission" | `proposal:${string}`;

export interface CounterfactualVerification {
  subject: Subject;
  counterfactual: Counterfactual;
  verdict: Verdict;
  /** The change replayed; null when the counterfactual names none a replay can make. */
  change: CounterfactualChange | null;
  /** One sentence: what the changed run did, against what was expected. */
  summary: string;
  /** What the sentence rests on: the decision in the changed run, its final status, where it parted, where it stopped. */
  evidence: Record<string, unknown>;
}

export interface Claim {
  subject: Subject;
  counterfactual: Counterfactual;
  proposal: ProposalState | null;
}

/** The counterfactuals a mission's record states: the explanation's, then each rejected proposal's. */
export function claimsOf(s: MissionState): Claim[] {
  const out: Claim[] = [];
  const cf = explainMission(s).explanation?.counterfactual;
  if (cf) out.push({ subject: "mission", counterfactual: cf, proposal: null });
  for (const p of s.proposals) if (p.status === "rejected" && p.decision?.counterfactual) out.push({ subject: `proposal:${p.id}`, counterfactual: p.decision.counterfactual, proposal: p });
  return out;
}

/** The change a counterfactual names, or why a replay cannot make it. */
export function changeOf(c: Claim, s: MissionState): { change: CounterfactualChange } | { unsupported: string } {
  const ch = c.counterfactual.change;
  if (ch.type !== "relax_constraint") {
    const why = { obtain_confirmation: `a confirmation from ${(ch as { from?: string }).from ?? "a person"}`, add_observation: "a new observation of the world", resolve_ambiguity: "an answer that resolves the ambiguity", increase_confidence: "more confidence" }[ch.type];
    return { unsupported: `It needs ${why}, which a replay cannot supply: only what the trace recorded is played back.` };
  }
  const k = ch.constraint;
  if (/^(rule|default-policy):/.test(k)) return { change: { withoutRules: [k] } };
  let m = /^allowedBinaries: add "(.+)"$/.exec(k);
  if (m) return { change: { sets: [{ path: "allowedBinaries", value: [...new Set([...s.definition.allowedBinaries, m[1]])] }] } };
  m = /^autonomous\.tools: add "(.+)"$/.exec(k);
  if (m && c.proposal) {
    const auto = agentDefinition(s.definition, c.proposal.agent).autonomous;
    if (auto) return { change: { sets: [{ path: `agents.${c.proposal.agent}.tools`, value: [...new Set([...auto.tools, m[1]])] }] } };
  }
  m = /^autonomous\.maxActions of "(.+)" above (\d+)$/.exec(k);
  if (m) return { change: { sets: [{ path: `agents.${m[1]}.maxActions`, value: Math.min(500, Number(m[2]) * 2) }] } };
  return { unsupported: `"${k}" is not a rule, an allowlist or a budget that a replay can change.` };
}

const sameAction = (a: ProposalState, b: ProposalState) => a.agent === b.agent && a.attempt === b.attempt && canonicalJson(a.action) === canonicalJson(b.action);

/** Judges one claim on the changed run. */
export function judge(c: Claim, original: MissionState, changed: MissionState | null, report: CounterfactualReport): Pick<CounterfactualVerification, "verdict" | "summary" | "evidence"> {
  const expected = c.counterfactual.expectedOutcome;
  const base = { firstDifference: report.firstDifference ? { seq: report.firstDifference.seq, type: report.firstDifference.type, why: report.firstDifference.why } : null, finalStatus: report.changed.finalStatus, stop: report.changed.stop };
  const stopped = report.changed.stop ? ` The changed run stopped at seq ${report.changed.stop.seq}: ${report.changed.stop.why}` : "";
  if (c.proposal) {
    const p = c.proposal;
    // The same proposal in the changed run: the n-th proposal of the same action by the same agent in the same attempt.
    const nth = original.proposals.filter((x) => sameAction(x, p)).findIndex((x) => x.id === p.id);
    const again = changed?.proposals.filter((x) => sameAction(x, p))[nth] ?? null;
    if (!again || !again.decision) return { verdict: "undetermined", summary: `The changed run did not propose ${p.action.tool} again for "${p.agent}", so its decision cannot be seen.${stopped}`, evidence: base };
    const d = again.decision;
    const ev = { ...base, decision: { proposalId: again.id, decision: d.decision, authority: d.authority, reason: d.reason }, originalDecision: { authority: p.decision!.authority, reason: p.decision!.reason } };
    // Predicted held for a person (low confidence): that is what a replay can check; their answer it cannot know.
    if (expected === "success" && d.decision === "pending" && c.counterfactual.confidence === "low") {
      return { verdict: "undetermined", summary: `With the change the proposal waits for a person, as the counterfactual expected (${d.authority}): ${d.reason} Whether it succeeds is their decision, which a replay cannot know.`, evidence: ev };
    }
    if (expected === "success") {
      return d.decision === "approved"
        ? { verdict: "held", summary: `With the change the authority approves the proposal (${d.authority}): ${d.reason}`, evidence: ev }
        : { verdict: "did_not_hold", summary: `With the change the proposal is ${d.decision === "rejected" ? "still rejected" : `${d.decision}, not approved`} (${d.authority}): ${d.reason}`, evidence: ev };
    }
    if (d.decision === "rejected" && d.authority !== p.decision!.authority) return { verdict: "held", summary: `With the change another constraint refuses the proposal, as expected (${d.authority}): ${d.reason}`, evidence: ev };
    return { verdict: "did_not_hold", summary: d.decision === "rejected" ? `With the change the same constraint still refuses the proposal (${d.authority}).` : `With the change the proposal is ${d.decision} (${d.authority}), not refused by another constraint: ${d.reason}`, evidence: ev };
  }
  // Expected success, and the changed run has an agent failed again, waiting for a person: the change alone did not lead there.
  const failedAgain = changed && !report.changed.ended && expected === "success" ? changed.agentOrder.map((n) => changed.agents[n]).find((a) => a.status === "failed") : undefined;
  if (failedAgain) {
    const reason = failedAgain.error?.failureReason ?? failedAgain.error?.code ?? null;
    return { verdict: "did_not_hold", summary: `With the change "${failedAgain.name}" still fails${reason ? ` (${reason})` : ""} and the run waits for a person: the change alone does not lead to success.${stopped}`, evidence: { ...base, failureReason: reason, originalFailureReason: explainMission(original).failureReason } };
  }
  if (!changed || !report.changed.ended) return { verdict: "undetermined", summary: `The changed run did not end, so its outcome cannot be seen.${stopped}`, evidence: base };
  const was = explainMission(original).failureReason;
  const now = explainMission(changed).failureReason;
  const ev = { ...base, failureReason: now, originalFailureReason: was };
  if (expected === "success") {
    return changed.finalStatus === "SUCCESS" ? { verdict: "held", summary: "With the change the mission ends SUCCESS.", evidence: ev } : { verdict: "did_not_hold", summary: `With the change the mission still ends ${changed.finalStatus}${now ? ` (${now})` : ""}.`, evidence: ev };
  }
  if (changed.finalStatus !== "SUCCESS" && now !== was) return { verdict: "held", summary: `With the change the mission fails otherwise: ${changed.finalStatus} (${now ?? "no reason"}, was ${was ?? "none"}).`, evidence: ev };
  return { verdict: "did_not_hold", summary: changed.finalStatus === "SUCCESS" ? "With the change the mission ends SUCCESS, not in a different failure." : `With the change the mission fails the same way (${now ?? changed.finalStatus}).`, evidence: ev };
}

/** Replays the mission's trace once per counterfactual of its record and judges each. */
export async function verifyCounterfactuals(trace: Trace, state: MissionState, opts: CounterfactualOptions = {}): Promise<CounterfactualVerification[]> {
  const out: CounterfactualVerification[] = [];
  for (const c of claimsOf(state)) {
    const made = changeOf(c, state);
    if ("unsupported" in made) {
      out.push({ subject: c.subject, counterfactual: c.counterfactual, verdict: "undetermined", change: null, summary: made.unsupported, evidence: {} });
      continue;
    }
    const r = await counterfactualReplay(trace, made.change, opts);
    out.push({ subject: c.subject, counterfactual: c.counterfactual, change: made.change, ...judge(c, r.originalState ?? state, r.state, r.report) });
  }
  return out;
}
