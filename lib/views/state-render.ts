import { describeCall } from "../mission/failure";
import { domainFor } from "../lab/domains";
import { MODE_CAPABILITIES } from "../lab/modes";
import type { HITLAction, HITLPrompt } from "../authority/types";
import type { GateDecision, GateState, MissionState, ProposalState } from "../mission/types";

/**
 * The one renderer of a mission's current state as text (FDR-N016/N017): the console shows it beside a
 * pending proposal, and the HITL prompt sends the same text to whoever decides (a person or a reviewer
 * agent). Pure: same state, same text.
 */
export function renderMissionState(s: MissionState, opts: { proposals?: number } = {}): string {
  const lines: string[] = [];
  lines.push(`Mission "${s.name}" — ${s.phase}, ${s.runState}${s.finalStatus ? `, ${s.finalStatus}` : ""}`);
  lines.push(`Objective: ${s.definition.objective}`);
  for (const name of s.agentOrder) {
    const a = s.agents[name];
    // A view of the state (lib/views/state-view.ts) left out steps that all succeeded: one range says so.
    const steps = [...(a.elided ? [`1–${a.elided.steps}=succeeded`] : []), ...a.steps.map((st) => `${st.index + 1}:${st.tool}=${st.status}`)].join(" ");
    const budget = a.autonomous ? `, ${a.autonomous.actions} action(s) proposed${a.autonomous.finished ? ", finish approved" : ""}` : "";
    lines.push(`- ${a.name} (${a.priority}, ${a.phase}): ${a.status}, attempt ${a.attempt}${budget}${steps ? `; steps ${steps}` : ""}`);
  }
  const recent = s.proposals.slice(-(opts.proposals ?? 8));
  if (recent.length) {
    lines.push(`Recent proposals (${s.proposals.length} in all):`);
    for (const p of recent) lines.push(`- ${describeProposal(p)}`);
  }
  const open = s.gates.filter((g) => g.status === "open");
  for (const g of open) lines.push(`Open gate (${g.kind}) for "${g.agent}": ${g.error.what}`);
  // FDR-N017: a domain's snapshot renderer fills the prompt too (the grid-world board), so whoever decides
  // sees what a person watching sees.
  const domain = domainFor(s.definition);
  const drawn = domain?.components.renderSnapshot ? domain.components.renderSnapshot(s, { mode: "interactive", capabilities: MODE_CAPABILITIES.interactive, missionId: s.id, seq: s.seq }) : null;
  if (drawn) lines.push(`${domain!.name}:`, drawn);
  return lines.join("\n");
}

/** What a proposal asks for, in one line: the tool and its args summarised (console, CLI, prompts). */
export function actionLine(action: ProposalState["action"]): string {
  if (action.tool === "finish") return `finish: “${String(action.args.summary ?? "").slice(0, 120)}”`;
  if (action.tool === "ask") return `ask: “${String(action.args.question ?? "").slice(0, 160)}”`;
  return `${action.tool} ${describeCall(action.tool, action.args) ?? JSON.stringify(action.args).slice(0, 160)}`;
}

/** One proposal in one line: who, what, and how it was decided. */
export function describeProposal(p: Pick<ProposalState, "agent" | "action" | "decision" | "status">): string {
  const call = actionLine(p.action);
  const d = p.decision;
  const how = !d ? p.status : d.decision === "pending" ? `pending (${d.pendingReason})` : d.decision === "rejected" ? `rejected (${d.failureReason}: ${d.reason})` : `${p.status === "expired" ? "approval expired" : "approved"} by ${d.authority}${d.modified ? " with modified args" : ""}`;
  return `${p.agent}: ${call} → ${how}`;
}

/** Decisions that give up on the gate's work (the agent's, the phase's or the hypothesis's goal), in HITLAction terms. */
const GIVE_UP: readonly GateDecision[] = ["abort", "skip", "skip_phase", "skip_hypothesis"];

/**
 * FDR-N017 for failure gates: the same structured prompt a pending proposal gets (pendingReason GATE_OPEN),
 * from the same renderer, so a person or a reviewer agent decides any gate from the same information. Each
 * option keeps the gate's own decision key (`decision`) beside its HITLAction type.
 */
export function gatePrompt(s: MissionState, g: GateState): HITLPrompt {
  if (g.prompt) return g.prompt;
  const options = g.options.map((o): HITLAction & { decision: GateDecision } => ({ type: GIVE_UP.includes(o.action) ? "abort" : "retry", description: `${o.label}: ${o.description}`, decision: o.action }));
  return {
    situation: `${g.error.what}${g.error.why ? ` Why: ${g.error.why}` : ""}`,
    currentState: renderMissionState(s),
    yourProposal: { gateId: g.id, kind: g.kind, agent: g.agent, phase: g.phase, step: g.step, error: g.error.technical ?? null, diagnosis: g.diagnosis ? { rootCause: g.diagnosis.rootCause, recoveryStrategy: g.diagnosis.recoveryStrategy } : null },
    whyPending: { reason: "GATE_OPEN", details: { kind: g.kind, agent: g.agent, code: (g.error.technical as { code?: unknown } | undefined)?.code ?? null } },
    options,
    responseFormat: {
      type: "object",
      properties: { decision: { enum: g.options.map((o) => o.action) }, note: { type: "string", description: "why (recorded with the decision)" } },
      required: ["decision"],
      additionalProperties: false,
    },
  };
}
