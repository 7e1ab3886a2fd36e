import { agentDefinition, phaseDefinition, type Phase } from "./definition";
import { isSettled, isTerminal, nextPhase, openGate, phaseAgentsFailed } from "./reducer";
import { deriveFinalStatus } from "./status";
import { helperSteps } from "./recovery";
import { libraryAction, type LibraryAction } from "./library";
import type { AgentState, CompensationState, FinalStatus, MissionState } from "./types";
import { attemptProposals, noExecutableAction, runsAsStep } from "./steps";
import type { FailureReason } from "../authority/types";

/** What the orchestrator must do next for a mission; a pure function of its state. */
export type NextAction =
  | { kind: "none" }
  /** Held: a gate is open, or the mission is paused. */
  | { kind: "wait"; reason: "gate" | "paused" | "external"; gateId?: string }
  | { kind: "compensate"; compensation: CompensationState }
  | { kind: "startPhase"; phase: Phase }
  | { kind: "runAgent"; agent: string }
  /** Continue a running agent at its next step. */
  | { kind: "continueAgent"; agent: string }
  /** The next step is high-risk and not yet approved: ask an operator. */
  | { kind: "requestApproval"; agent: string; step: number }
  /** A step was started by a worker that died before recording its result. */
  | { kind: "interrupted"; agent: string; step: number }
  /** An operator chose to resume an interrupted step: run it again with the same key. */
  | { kind: "rerunStep"; agent: string; step: number }
  /** An operator chose "Apply recovery plan": record the recovery's start. */
  | { kind: "startRecovery"; agent: string }
  /** A recovery's next helper step runs. */
  | { kind: "recoveryStep"; agent: string; index: number }
  /** A recovery's helper steps are done: the failed step runs again. */
  | { kind: "recoveryRerun"; agent: string; step: number }
  /** A failed agent awaits the response matrix (warning or gate). */
  | { kind: "respond"; agent: string }
  /** A failed phase awaits its gate. */
  | { kind: "respondPhase"; phase: Phase }
  /** More than half of the phase's agents failed. */
  | { kind: "failPhase"; phase: Phase; failed: number; total: number }
  | { kind: "completePhase"; phase: Phase }
  | { kind: "checkObjective" }
  | { kind: "finish"; finalStatus: FinalStatus }
  /** An autonomous agent's model chooses its next action: a proposal the authority decides (seed 002). */
  | { kind: "propose"; agent: string }
  /** An approved proposal runs (its approval checked: unexpired, digest matching). */
  | { kind: "executeProposal"; agent: string; proposalId: string }
  /** An external agent reported a failed call: diagnose it, consult the library, apply the response matrix. */
  | { kind: "externalFailure"; agent: string; step: number }
  /** A proposal that waited for a gate to close (GATE_OPEN) is decided now. */
  | { kind: "redecide"; agent: string; proposalId: string }
  /** An autonomous agent stops for a structural reason (budget used, no executable action). */
  | { kind: "stopAgent"; agent: string; reason: FailureReason }
  /** The failure-mode library's walk over a failed step's hypotheses (lib/mission/library.ts). */
  | LibraryAction;

export function nextAction(s: MissionState): NextAction {
  if (isTerminal(s)) return { kind: "none" };
  const gate = openGate(s);
  if (gate) return { kind: "wait", reason: "gate", gateId: gate.id };
  if (s.paused) return { kind: "wait", reason: "paused" };
  // Proposals that waited on a gate are decided once it closes: by the authority, or refused when their agent's work ended.
  const waited = s.proposals.find((p) => p.status === "pending" && p.decision?.pendingReason === "GATE_OPEN" && (s.aborted || s.agents[p.agent].status !== "running"));
  if (waited) return { kind: "redecide", agent: waited.agent, proposalId: waited.id };
  const owed = s.compensations.find((c) => c.status === "pending" || c.status === "running");
  if (owed) return { kind: "compensate", compensation: owed };
  if (s.aborted) return { kind: "finish", finalStatus: deriveFinalStatus(s) };
  if (s.phaseFailure) return { kind: "respondPhase", phase: s.phaseFailure.phase };
  const phase = nextPhase(s);
  if (phase === null) return s.objective.checked ? { kind: "finish", finalStatus: deriveFinalStatus(s) } : { kind: "checkObjective" };
  if (s.phase !== phase) return { kind: "startPhase", phase };
  let external = false;
  for (const name of s.agentOrder) {
    const a = s.agents[name];
    if (a.phase !== phase || isSettled(a)) continue;
    if (a.status === "pending") return { kind: "runAgent", agent: name };
    if (a.status === "failed") return { kind: "respond", agent: name };
    // running
    if (a.pendingRecovery) return { kind: "startRecovery", agent: name };
    if (a.recovery && a.steps[a.recovery.step]?.status === "failed") {
      const r = a.recovery;
      return r.done < helperSteps(r).length ? { kind: "recoveryStep", agent: name, index: r.done } : { kind: "recoveryRerun", agent: name, step: r.step };
    }
    if (a.library && a.steps[a.library.step]?.status === "failed") return libraryAction(s, a);
    const inFlight = a.steps.find((st) => st.status === "running");
    if (inFlight) return { kind: "interrupted", agent: name, step: inFlight.index };
    const held = a.steps.find((st) => st.status === "interrupted");
    if (held) return held.resumeApproved ? { kind: "rerunStep", agent: name, step: held.index } : { kind: "interrupted", agent: name, step: held.index };
    const def = agentDefinition(s.definition, name);
    if (def.external) {
      const x = externalAction(s, a);
      if (x) return x;
      external = true;
      continue;
    }
    if (def.autonomous) return autonomousAction(s, a, def.autonomous.maxActions);
    const next = a.steps.length;
    if (next < def.steps.length && def.steps[next].highRisk && !a.approvedSteps.includes(next)) return { kind: "requestApproval", agent: name, step: next };
    return { kind: "continueAgent", agent: name };
  }
  // Every unsettled agent of the phase runs elsewhere and has nothing for Faultline to do: wait for its calls.
  if (external) return { kind: "wait", reason: "external" };
  const { failed, total, tooMany } = phaseAgentsFailed(s, phase);
  if (tooMany) return { kind: "failPhase", phase, failed, total };
  return { kind: "completePhase", phase };
}

/** Milliseconds left before the current phase's timeout, or Infinity when it has none. */
export function phaseTimeLeft(s: MissionState, now: number): number {
  const phase = nextPhase(s);
  if (!phase || s.phase !== phase || !s.phaseStartedAt) return Infinity;
  const limit = phaseDefinition(s.definition, phase).timeoutMs;
  return limit ? Date.parse(s.phaseStartedAt) + limit - now : Infinity;
}

/**
 * An external agent (issue 15) acts elsewhere: Faultline records a failed call's follow-up, decides what
 * waited on a gate, and completes it once its finish was approved; otherwise it waits for the agent's calls.
 */
function externalAction(s: MissionState, a: AgentState): NextAction | null {
  const failed = a.steps.find((st) => st.status === "failed");
  if (failed) return { kind: "externalFailure", agent: a.name, step: failed.index };
  const waited = s.proposals.find((p) => p.agent === a.name && p.status === "pending" && p.decision?.pendingReason === "GATE_OPEN");
  if (waited) return { kind: "redecide", agent: a.name, proposalId: waited.id };
  if (a.autonomous?.finished) return { kind: "continueAgent", agent: a.name };
  return null;
}

/** The loop of an autonomous agent: run what was approved, stop where nothing can go on, else propose. */
function autonomousAction(s: MissionState, a: AgentState, maxActions: number): NextAction {
  if (a.autonomous?.finished) return { kind: "continueAgent", agent: a.name };
  const ready = attemptProposals(s, a).find((p) => p.status === "approved" && p.step === null && runsAsStep(p));
  if (ready) return { kind: "executeProposal", agent: a.name, proposalId: ready.id };
  if (noExecutableAction(s, a)) return { kind: "stopAgent", agent: a.name, reason: "NO_EXECUTABLE_ACTION" };
  if ((a.autonomous?.actions ?? 0) >= maxActions) return { kind: "stopAgent", agent: a.name, reason: "RESOURCE_EXHAUSTED" };
  return { kind: "propose", agent: a.name };
}
