import { describeCall } from "../mission/failure";
import type { MissionState, ProposalState } from "../mission/types";

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
    const steps = a.steps.map((st) => `${st.index + 1}:${st.tool}=${st.status}`).join(" ");
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
