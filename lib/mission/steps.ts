import { agentDefinition, proposes, type StepDefinition } from "./definition";
import type { ToolError } from "../tools/result";
import type { AgentState, MissionState, ProposalState, StepState } from "./types";

/** The binaries the mission's own steps may run: its definition's allowlist and what people allowed at gates. */
export function allowedBinariesOf(s: Pick<MissionState, "definition" | "allowlistGrants">): string[] {
  return [...new Set([...s.definition.allowedBinaries, ...(s.allowlistGrants ?? []).map((g) => g.binary)])];
}

/** The binary a shell step was refused because it is not on the mission's allowlist, or null for any other failure. */
export function refusedBinary(e: ToolError | null | undefined): string | null {
  const binary = e?.code === "NOT_ALLOWED" ? (e.details as { binary?: unknown } | undefined)?.binary : null;
  return typeof binary === "string" && binary ? binary : null;
}

/**
 * The definition of step `index` of an agent's attempt: a scripted agent's from its definition; an
 * autonomous agent's from the approved proposal that step ran (its args as approved, possibly modified
 * by a person; the tool's default evidence). One place, so the failure model treats both alike.
 */
export function stepDefinitionOf(s: Pick<MissionState, "definition" | "proposals" | "agents">, agent: string, index: number, attempt = s.agents[agent]?.attempt): StepDefinition {
  const def = agentDefinition(s.definition, agent);
  if (!proposes(def)) return def.steps[index - (s.agents[agent]?.elided?.steps ?? 0)];
  const p = proposalOfStep(s, agent, attempt, index);
  if (!p) throw new Error(`Agent "${agent}" has no approved proposal for step ${index} of attempt ${attempt}`);
  return { name: `proposal ${p.id.slice(0, 8)}`, tool: p.action.tool as StepDefinition["tool"], args: approvedArgs(p), highRisk: false };
}

/**
 * Step `index` of an agent's current attempt, or undefined when it has none (or a view of the state left
 * it out: it succeeded). Steps are read through here and stepCount, never by position in `steps`.
 */
export function stepAt(a: Pick<AgentState, "steps" | "elided">, index: number): StepState | undefined {
  const i = index - (a.elided?.steps ?? 0);
  return i >= 0 ? a.steps[i] : undefined;
}

/** How many steps the agent's current attempt has started (left-out ones included). */
export function stepCount(a: Pick<AgentState, "steps" | "elided">): number {
  return (a.elided?.steps ?? 0) + a.steps.length;
}

/** Step `index` of a scripted agent's definition (undefined past its end, or left out of a view). */
export function definedStep(s: Pick<MissionState, "definition" | "agents">, agent: string, index: number): StepDefinition | undefined {
  const i = index - (s.agents[agent]?.elided?.steps ?? 0);
  return i >= 0 ? agentDefinition(s.definition, agent).steps[i] : undefined;
}

/** How many steps a scripted agent's definition has. */
export function definedStepCount(s: Pick<MissionState, "definition" | "agents">, agent: string): number {
  return s.agents[agent]?.elided?.definedSteps ?? agentDefinition(s.definition, agent).steps.length;
}

export function proposalOfStep(s: Pick<MissionState, "proposals">, agent: string, attempt: number, index: number): ProposalState | undefined {
  return s.proposals.find((p) => p.agent === agent && p.attempt === attempt && p.step === index);
}

/** Proposals of an agent's current attempt, newest last. */
export function attemptProposals(s: Pick<MissionState, "proposals">, a: { name: string; attempt: number }): ProposalState[] {
  return s.proposals.filter((p) => p.agent === a.name && p.attempt === a.attempt);
}

/** How many consecutive identical rejected proposals mean the agent has no executable action left. */
export const STUCK_REJECTIONS = 3;

/** The agent keeps proposing the same forbidden action: nothing it would do is permitted (NO_EXECUTABLE_ACTION). */
export function noExecutableAction(s: Pick<MissionState, "proposals">, a: { name: string; attempt: number }): boolean {
  const last = attemptProposals(s, a).slice(-STUCK_REJECTIONS);
  return last.length === STUCK_REJECTIONS && last.every((p) => p.status === "rejected" && p.argsDigest === last[0].argsDigest);
}

/** `finish` and `ask` are decided, never run as steps. */
export function runsAsStep(p: Pick<ProposalState, "action">): boolean {
  return p.action.tool !== "finish" && p.action.tool !== "ask";
}

/** The args an approved proposal runs: a decider's modification, or the args as proposed. */
export function approvedArgs(p: ProposalState): Record<string, unknown> {
  return p.decision?.modified?.args ?? p.action.args;
}
