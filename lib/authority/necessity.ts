import type { LevelDetection, NecessityLevel } from "./types";

/**
 * Necessity levels (FDR-N001, N006 to N008): computed from the mission, never configured.
 *  - observation (1): an agent acts on state it cannot observe directly: a model chooses actions from
 *    what it is told (its transcript), not from the world;
 *  - rules (2): success is open-ended: a scripted `llm` step without evidence rules has no formal check;
 *  - language (3): the input that defines success is natural language: an autonomous agent whose goal
 *    has no evidence rules (only a person can confirm it was reached).
 * effectiveLevel = max(observation, rules, language). A level-0 mission never calls a model.
 */

export interface LevelInput {
  agents: ReadonlyArray<{ name: string; steps: ReadonlyArray<{ tool: string; evidence?: readonly unknown[] }>; autonomous?: { evidence: readonly unknown[] } | null }>;
  /** The level the author declares; lower than the detected one is a warning. */
  declaredLevel?: NecessityLevel;
  now?: number;
}

export interface LevelResult extends LevelDetection {
  effective: NecessityLevel;
  declared: NecessityLevel | null;
  /** One sentence per dimension that raised the level. */
  why: string[];
  /** Set when the declared level is lower than the detected one. */
  warning: string | null;
}

export function detectLevel(input: LevelInput): LevelResult {
  const why: string[] = [];
  const autonomous = input.agents.filter((a) => a.autonomous);
  const observation: 0 | 1 = autonomous.length ? 1 : 0;
  if (observation) why.push(`observation: ${names(autonomous)} choose${autonomous.length === 1 ? "s" : ""} actions with a model, from what it is told rather than from the world it acts on`);
  const openEnded = input.agents.filter((a) => a.steps.some((s) => s.tool === "llm" && !s.evidence?.length));
  const rules: 0 | 2 = openEnded.length ? 2 : 0;
  if (rules) why.push(`rules: ${names(openEnded)} ${openEnded.length === 1 ? "has" : "have"} an llm step without evidence rules, so its success is open-ended`);
  const unformal = autonomous.filter((a) => !a.autonomous!.evidence.length);
  const language: 0 | 3 = unformal.length ? 3 : 0;
  if (language) why.push(`language: ${names(unformal)} ${unformal.length === 1 ? "has" : "have"} a natural-language goal and no evidence rules, so only a person can confirm it was reached`);
  const effective = Math.max(observation, rules, language) as NecessityLevel;
  const declared = input.declaredLevel ?? null;
  return { observation, rules, language, detectedAt: input.now ?? Date.now(), effective, declared, why, warning: levelWarning(declared, effective, why) };
}

/** The warning when a declared level is lower than the detected one (FDR-N008): the detected level applies. */
export function levelWarning(declared: NecessityLevel | null, detected: NecessityLevel, why: readonly string[]): string | null {
  if (declared === null || declared >= detected) return null;
  return `The mission declares necessity level ${declared}, but level ${detected} is detected (${why.join("; ")}). The detected level applies: its verification is used. Raise \`level\` to ${detected}, or remove it.`;
}

function names(agents: ReadonlyArray<{ name: string }>): string {
  return agents.map((a) => `"${a.name}"`).join(", ");
}
