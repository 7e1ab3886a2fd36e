import { stepCount } from "./steps";
import type { AgentState, FinalStatus, MissionState } from "./types";

/** An agent that completed every step with passing evidence. */
export function hasValidEvidence(a: AgentState): boolean {
  if (a.status !== "completed" || a.undone) return false;
  const stepsHold = a.steps.every((s) => s.status === "succeeded" && s.evidence.length > 0 && s.evidence.every((r) => r.passed));
  // An autonomous agent's evidence is its finish's: the agent's evidence rules checked by the authority (FP-5),
  // never the model's claim; every action it ran must also have held.
  if (a.autonomous) return stepsHold && Boolean(a.autonomous.finished?.evidence.length) && a.autonomous.finished!.evidence.every((r) => r.passed);
  return stepCount(a) > 0 && stepsHold;
}

/**
 * RFC 001 §3.3: the final status is derived from evidence, never assigned.
 * - FAILED: aborted, a critical agent without valid evidence (failed, skipped, never ran),
 *   objective checks failed or missing, or no agent produced evidence at all.
 * - SUCCESS: every agent completed with valid evidence and the objective checks pass.
 * - PARTIAL_SUCCESS: every critical agent has valid evidence and the objective checks pass,
 *   but some important or optional agent failed or was skipped.
 */
export function deriveFinalStatus(s: MissionState): FinalStatus {
  const agents = s.agentOrder.map((n) => s.agents[n]);
  if (s.aborted) return "FAILED";
  if (!s.objective.checked || s.objective.passed !== true) return "FAILED";
  if (agents.some((a) => a.priority === "critical" && !hasValidEvidence(a))) return "FAILED";
  if (!agents.some(hasValidEvidence)) return "FAILED";
  return agents.every(hasValidEvidence) ? "SUCCESS" : "PARTIAL_SUCCESS";
}

/** Why the status is what it is, in words, for the timeline and the CLI. */
export function explainFinalStatus(s: MissionState): string {
  const status = deriveFinalStatus(s);
  const agents = s.agentOrder.map((n) => s.agents[n]);
  const missing = agents.filter((a) => !hasValidEvidence(a));
  if (s.aborted) return "An operator aborted the mission.";
  if (!s.objective.checked) return "The objective was never checked.";
  if (!s.objective.passed) return "The objective checks did not pass.";
  const crit = missing.filter((a) => a.priority === "critical");
  if (crit.length) return `Critical agent${crit.length > 1 ? "s" : ""} ${crit.map((a) => `"${a.name}" (${a.status})`).join(", ")} produced no valid evidence.`;
  if (status === "FAILED") return "No agent produced valid evidence.";
  if (status === "PARTIAL_SUCCESS") return `Every critical agent has evidence; ${missing.map((a) => `"${a.name}" (${a.priority}, ${a.status})`).join(", ")} did not complete.`;
  return "Every agent completed with valid evidence and the objective checks passed.";
}
