import { nextPhase, isSettled } from "./reducer";
import { deriveFinalStatus } from "./status";
import type { FinalStatus, MissionState } from "./types";
import type { Phase } from "./definition";

/** What the orchestrator must do next for a mission; a pure function of its state. */
export type NextAction =
  | { kind: "none" }
  | { kind: "wait"; gateId: string }
  | { kind: "startPhase"; phase: Phase }
  | { kind: "runAgent"; agent: string }
  /** The agent was running when its worker died: its unfinished step is reported INTERRUPTED. */
  | { kind: "interrupted"; agent: string }
  /** A failed agent awaits the response matrix (warning or gate). */
  | { kind: "respond"; agent: string }
  | { kind: "completePhase"; phase: Phase }
  | { kind: "checkObjective" }
  | { kind: "finish"; finalStatus: FinalStatus };

export function nextAction(s: MissionState): NextAction {
  if (s.runState === "completed" || s.runState === "failed") return { kind: "none" };
  const gate = s.gates.find((g) => g.status === "open");
  if (gate) return { kind: "wait", gateId: gate.id };
  if (s.aborted) return { kind: "finish", finalStatus: deriveFinalStatus(s) };
  const phase = nextPhase(s);
  if (phase === null) {
    return s.objective.checked ? { kind: "finish", finalStatus: deriveFinalStatus(s) } : { kind: "checkObjective" };
  }
  if (s.phase !== phase) return { kind: "startPhase", phase };
  for (const name of s.agentOrder) {
    const a = s.agents[name];
    if (a.phase !== phase || isSettled(a)) continue;
    if (a.status === "pending") return { kind: "runAgent", agent: name };
    if (a.status === "running") return { kind: "interrupted", agent: name };
    if (a.status === "failed") return { kind: "respond", agent: name };
  }
  return { kind: "completePhase", phase };
}
