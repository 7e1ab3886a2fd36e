import { missionDefinitionSchema, type MissionDefinition } from "./definition";

/** Small definitions for tests: every agent runs `node -e` so no binary beyond node is needed. */
export function nodeStep(code: string, evidence?: unknown[]) {
  return { tool: "shell" as const, args: { command: "node", args: ["-e", code] }, ...(evidence ? { evidence } : {}) };
}

export function definition(overrides: Partial<MissionDefinition> & { agents?: Array<{ name: string; priority: "critical" | "important" | "optional"; steps: unknown[]; phase?: string; timeoutMs?: number }> } = {}): MissionDefinition {
  const agents = overrides.agents ?? [{ name: "builder", priority: "critical", steps: [nodeStep("console.log('ok')")] }];
  const byPhase = new Map<string, unknown[]>();
  for (const a of agents) {
    const phase = a.phase ?? "EXECUTION";
    byPhase.set(phase, [...(byPhase.get(phase) ?? []), { name: a.name, priority: a.priority, steps: a.steps, ...(a.timeoutMs ? { timeoutMs: a.timeoutMs } : {}) }]);
  }
  const order = ["CONTEXT_ENRICHMENT", "PLANNING", "RESEARCH", "DESIGN", "EXECUTION", "REVIEW"];
  return missionDefinitionSchema.parse({
    name: overrides.name ?? "test mission",
    objective: overrides.objective ?? "prove the engine works",
    allowedBinaries: overrides.allowedBinaries ?? ["node"],
    objectiveChecks: overrides.objectiveChecks ?? [],
    phases: [...byPhase.entries()].sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0])).map(([name, agents]) => ({ name, agents })),
  });
}

/**
 * An autonomous agent that keeps proposing a delete outside its workspace (the recorded model
 * "e2e-stubborn-cleaner" in db/seed/recordings/agents.json): refused, then refused again, it uses its two
 * actions up. The explanation's counterfactual ("more actions") does not hold: with four, the model
 * proposes the same again and the run ends with no executable action. Also e2e/counterfactual.spec.ts.
 */
export function stubbornCleaner(name: string) {
  return {
    name,
    objective: "Clear the shared build cache.",
    allowedBinaries: ["rm"],
    phases: [{ name: "EXECUTION" as const, agents: [{ name: "cleaner", priority: "critical" as const, autonomous: { goal: "E2E: clear the shared build cache before the next build.", tools: ["shell" as const], maxActions: 2, provider: "recorded" } }] }],
  };
}
