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
