import { z } from "zod";
import { parse as parseYaml, YAMLParseError } from "yaml";
import { formatPath } from "../errors";
import { isRegExp } from "../regexp";
import { rulesSchema } from "../authority/rules";
import { detectLevel, type LevelResult } from "../authority/necessity";

/** Mission policy: `auto` applies the plan for recoverable failures of low-risk steps; `propose` offers it at the gate. */
export const RECOVERY_POLICIES = ["auto", "propose"] as const;
export type RecoveryPolicy = (typeof RECOVERY_POLICIES)[number];

/** RFC 001 §3.1 phase order. A definition may omit phases but never reorder them. */
export const PHASES = ["CONTEXT_ENRICHMENT", "PLANNING", "RESEARCH", "DESIGN", "EXECUTION", "REVIEW"] as const;
export type Phase = (typeof PHASES)[number];

export const PRIORITIES = ["critical", "important", "optional"] as const;
export type Priority = (typeof PRIORITIES)[number];

export const TOOL_NAMES = ["shell", "http", "file", "llm"] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export const DEFAULT_AGENT_TIMEOUT_MS = 120_000;

const name = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(80, "must be at most 80 characters")
  .regex(/^[A-Za-z0-9][A-Za-z0-9 _.-]*$/, "may contain letters, digits, spaces, '_', '.', '-' and must start with a letter or digit");

/**
 * Evidence checks: what proves a step worked (RFC 001 §3.3). Each is a one-key object in YAML:
 *   - exit_code: 0
 *   - file_exists: dist/app.tgz
 *   - output_matches: "^ok"
 *   - http_status: 200            (or [200, 201])
 *   - json_path: $.status          (with optional `equals`)
 */
export const evidenceCheckSchema = z.union([
  z.strictObject({ exit_code: z.number().int() }),
  z.strictObject({ file_exists: z.string().min(1) }),
  z.strictObject({
    output_matches: z.string().min(1).refine(isRegExp, "is not a valid regular expression"),
  }),
  z.strictObject({ http_status: z.union([z.number().int().min(100).max(599), z.array(z.number().int().min(100).max(599)).min(1)]) }),
  z.strictObject({ json_path: z.string().regex(/^\$(\.[A-Za-z0-9_-]+|\[\d+\])*$/, "must look like $.a.b[0]"), equals: z.unknown().optional() }),
]);
export type EvidenceCheck = z.infer<typeof evidenceCheckSchema>;

const toolCallShape = {
  name: z.string().trim().min(1).max(120).optional(),
  tool: z.enum(TOOL_NAMES, { error: `must be one of ${TOOL_NAMES.join(", ")}` }),
  args: z.record(z.string(), z.unknown()).default({}),
  /** When absent, the tool's default check applies (shell: exit_code 0; http: 2xx status; file: the operation completed). */
  evidence: z.array(evidenceCheckSchema).optional(),
  timeoutMs: z.number().int().positive().max(3_600_000).optional(),
};

/** A plain tool call with its evidence: objective checks and saga compensations. */
export const toolCallSchema = z.strictObject(toolCallShape);

export const stepSchema = z.strictObject({
  ...toolCallShape,
  /** Pause for an operator's approval before this step runs. */
  highRisk: z.boolean().default(false),
  /** Safe to re-run with the same idempotency key after a crash; default: the tool's own (http yes, shell and file no). */
  idempotent: z.boolean().optional(),
  /** Undoes this step when the mission is aborted (or its phase fails with compensateOnFailure). */
  compensate: toolCallSchema.optional(),
});
export type StepDefinition = z.infer<typeof stepSchema>;
export type ToolCallDefinition = z.infer<typeof toolCallSchema>;

/** Default proposal budget of an autonomous agent (seed 002: every model action is a proposal). */
export const DEFAULT_MAX_ACTIONS = 20;

/**
 * An agent whose next action a model chooses (issue 14, seed 002). Every tool call the model makes is
 * a proposal that the one authority decides; `finish` is approved only when `evidence` holds (FP-5).
 */
export const autonomousSchema = z.strictObject({
  goal: z.string().trim().min(1, "must say what the agent is to achieve").max(4000, "must be at most 4000 characters"),
  /** The only tools the model is offered. */
  tools: z.array(z.enum(TOOL_NAMES, { error: `must be one of ${TOOL_NAMES.join(", ")}` })).min(1, "offer the model at least one tool"),
  /** Proposals, approved or not, before the agent stops with RESOURCE_EXHAUSTED. */
  maxActions: z.number().int().min(1).max(500).default(DEFAULT_MAX_ACTIONS),
  /** The evidence rules scripted steps use, checked in the workspace when the model proposes `finish`. */
  evidence: z.array(evidenceCheckSchema).default([]),
  /** A provider name from FAULTLINE_LLM_PROVIDERS to try first (the others stay as fallback). */
  provider: z.string().trim().min(1).max(80).optional(),
  /** Sampling temperature (replay plays recorded outputs back: temperature 0 is still not deterministic). */
  temperature: z.number().min(0).max(2).default(0),
});
export type AutonomousDefinition = z.infer<typeof autonomousSchema>;

/** Default silence after which a run's external agent counts as gone: the run pauses, saying so (issue 15). */
export const DEFAULT_HEARTBEAT_TIMEOUT_MS = 60_000;

/**
 * An agent that runs outside Faultline (issue 15: a run created over REST, the MCP gateway, a Claude Code
 * hook): it asks before every tool call (a proposal the one authority decides), runs the approved call
 * itself, reports the ToolResult, and finishes; Faultline records, diagnoses and derives the status.
 */
export const externalSchema = z.strictObject({
  /** The only tool names it may call (fail closed); absent = any tool, under the rules and binary allowlist. */
  tools: z.array(z.string().trim().min(1).max(120)).min(1, "list at least one tool, or leave tools out to allow any").optional(),
  /** Binaries its shell-like calls may run (fail closed); absent = the mission's allowedBinaries, or any when that is empty too. */
  allowedBinaries: z.array(z.string().regex(/^[A-Za-z0-9._+-]+$/, "must be a binary name, not a path")).optional(),
  /** Evidence checked at finish against the results it reported (output_matches, json_path, exit_code, http_status). */
  evidence: z
    .array(evidenceCheckSchema)
    .default([])
    .refine((checks) => !checks.some((c) => "file_exists" in c), "file_exists cannot be checked for an agent that runs elsewhere (Faultline does not see its files): use output_matches or json_path on a result it reports"),
  /** The absolute path of the agent's project on its machine: absolute paths under it count as inside the workspace. */
  workspace: z.string().regex(/^\//, "must be an absolute path, e.g. /home/me/project").max(1000).optional(),
  /** No call or heartbeat for this long: the run pauses with an explicit event (it never stays running forever). */
  heartbeatTimeoutMs: z.number().int().min(1000).max(86_400_000).default(DEFAULT_HEARTBEAT_TIMEOUT_MS),
  /** Who calls: "rest", "mcp", "claude-code", a client library's name (shown on the run's page). */
  via: z.string().trim().min(1).max(80).default("rest"),
});
export type ExternalDefinition = z.infer<typeof externalSchema>;

export const agentSchema = z
  .strictObject({
    name,
    priority: z.enum(PRIORITIES, { error: `must be one of ${PRIORITIES.join(", ")}` }),
    timeoutMs: z.number().int().positive().max(86_400_000).default(DEFAULT_AGENT_TIMEOUT_MS),
    /** Scripted steps; an autonomous agent has none (the model proposes them). */
    steps: z.array(stepSchema).default([]),
    autonomous: autonomousSchema.optional(),
    external: externalSchema.optional(),
  })
  .superRefine(
    (a, ctx) => {
      // Runs even when another field is invalid (every field's error at once); steps may be unparsed then.
      const steps = Array.isArray(a.steps) ? a.steps : [];
      if (a.autonomous && a.external) ctx.addIssue({ code: "custom", path: ["external"], message: "an agent is either autonomous (Faultline runs its model) or external (it runs elsewhere and asks Faultline), not both" });
      if ((a.autonomous || a.external) && steps.length) ctx.addIssue({ code: "custom", path: ["steps"], message: `an ${a.external ? "external" : "autonomous"} agent has no steps: ${a.external ? "it proposes each call over the runs API" : "its model proposes each action"} (remove steps)` });
      if (!a.autonomous && !a.external && steps.length === 0) ctx.addIssue({ code: "custom", path: ["steps"], message: "an agent needs at least one step (or `autonomous` with a goal and tools)" });
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  );
export type AgentDefinition = z.infer<typeof agentSchema>;

export const phaseSchema = z.strictObject({
  name: z.enum(PHASES, { error: `must be one of ${PHASES.join(", ")}` }),
  agents: z.array(agentSchema).min(1, "a phase needs at least one agent"),
  /** The phase fails when it runs longer than this (from its start). */
  timeoutMs: z.number().int().positive().max(86_400_000).optional(),
  /** Whether a failed phase's gate may offer "Skip phase". */
  skippable: z.boolean().default(false),
  /** Run the compensations of this phase's completed steps when the phase fails. */
  compensateOnFailure: z.boolean().default(false),
});
export type PhaseDefinition = z.infer<typeof phaseSchema>;

export const missionDefinitionSchema = z
  .strictObject({
    name,
    objective: z.string().trim().min(1, "must say what the mission is for").max(2000),
    objectiveChecks: z.array(toolCallSchema).default([]),
    allowedBinaries: z.array(z.string().regex(/^[A-Za-z0-9._+-]+$/, "must be a binary name, not a path")).default([]),
    /** ADR-0003 recovery policy: `auto` applies the recovery plan of a recoverable failure of a low-risk step; `propose` offers it at the gate. */
    recovery: z.enum(RECOVERY_POLICIES, { error: `must be one of ${RECOVERY_POLICIES.join(", ")}` }).default("propose"),
    /** Consult the failure-mode library after a failure's diagnosis (000 Output Protocol); false = ADR-0003 recovery only. */
    library: z.boolean({ error: "must be true or false" }).default(true),
    /** Rules the authority applies to every proposal of this mission, beside the admin's default policy (deny wins). */
    rules: rulesSchema.default([]),
    /** The necessity level the author declares (0-3); the detected level is computed, and a lower declaration is a warning (FDR-N008). */
    level: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], { error: "must be 0, 1, 2 or 3" }).optional(),
    phases: z.array(phaseSchema).min(1, "a mission needs at least one phase"),
  })
  .superRefine((def, ctx) => {
    let last = -1;
    def.phases.forEach((p, i) => {
      const idx = PHASES.indexOf(p.name);
      if (idx <= last) {
        ctx.addIssue({ code: "custom", path: ["phases", i, "name"], message: `${p.name} is out of order or repeated: phases must follow ${PHASES.join(" → ")}` });
      }
      last = Math.max(last, idx);
    });
    const seen = new Map<string, string>();
    def.phases.forEach((p, i) =>
      p.agents.forEach((a, j) => {
        const prev = seen.get(a.name);
        if (prev) ctx.addIssue({ code: "custom", path: ["phases", i, "agents", j, "name"], message: `agent name "${a.name}" is already used in ${prev}; agent names must be unique in a mission` });
        seen.set(a.name, p.name);
      }),
    );
  });
export type MissionDefinition = z.infer<typeof missionDefinitionSchema>;

export interface FieldError {
  path: string;
  message: string;
}

export type ParseDefinitionResult = { ok: true; definition: MissionDefinition } | { ok: false; errors: FieldError[] };

/** YAML (JSON is YAML) to its value, or where it is not valid and why (" at line 3, column 7: …"). */
export function parseYamlText(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  try {
    return { ok: true, value: parseYaml(text, { prettyErrors: true }) };
  } catch (e) {
    const where = e instanceof YAMLParseError && e.linePos ? ` at line ${e.linePos[0].line}, column ${e.linePos[0].col}` : "";
    return { ok: false, problem: `${where}: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}` };
  }
}

/** Parse a mission definition from YAML or JSON text (JSON is YAML), with field-level errors. */
export function parseMissionDefinition(text: string): ParseDefinitionResult {
  if (!text.trim()) return { ok: false, errors: [{ path: "", message: "The definition is empty: paste YAML or JSON describing name, objective and phases." }] };
  const yaml = parseYamlText(text);
  if (!yaml.ok) return { ok: false, errors: [{ path: "", message: `Not valid YAML or JSON${yaml.problem}` }] };
  return validateMissionDefinition(yaml.value);
}

export function validateMissionDefinition(raw: unknown): ParseDefinitionResult {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return { ok: false, errors: [{ path: "", message: "The definition must be an object with name, objective and phases." }] };
  }
  const parsed = missionDefinitionSchema.safeParse(raw);
  if (parsed.success) return { ok: true, definition: parsed.data };
  return { ok: false, errors: parsed.error.issues.map((i) => ({ path: formatPath(i.path), message: readable(i.message) })) };
}

/** zod's "Invalid input: expected string, received undefined" says, in words, that a field is missing. */
function readable(message: string): string {
  const missing = /^Invalid input: expected (\w+), received undefined$/.exec(message);
  return missing ? `is required (${missing[1] === "array" ? "a list" : `a ${missing[1]}`})` : message;
}


/** An agent whose actions are proposals the authority decides: autonomous (a model here) or external (an agent elsewhere). */
export function proposes(def: Pick<AgentDefinition, "autonomous" | "external">): boolean {
  return Boolean(def.autonomous || def.external);
}

/** Agents in execution order with their phase. */
export function agentsInOrder(def: MissionDefinition): Array<AgentDefinition & { phase: Phase }> {
  return def.phases.flatMap((p) => p.agents.map((a) => ({ ...a, phase: p.name })));
}

/**
 * agentDefinition's answers, one per agent definition (and its phase): the engine and the reducer ask for an
 * agent's definition several times per event, and copying it each time was the reducer's largest cost. Frozen,
 * so that a caller that changed the shared answer would fail at once instead of changing other callers' answers.
 */
const agentDefinitions = new WeakMap<AgentDefinition, Readonly<AgentDefinition & { phase: Phase }>>();

export function agentDefinition(def: MissionDefinition, agent: string): AgentDefinition & { phase: Phase } {
  // The first agent of that name in execution order, as agentsInOrder gives it (without copying the others).
  for (const p of def.phases)
    for (const a of p.agents)
      if (a.name === agent) {
        let found = agentDefinitions.get(a);
        if (found?.phase !== p.name) agentDefinitions.set(a, (found = Object.freeze({ ...a, phase: p.name })));
        return found;
      }
  throw new Error(`No agent "${agent}" in mission "${def.name}"`);
}

export function phaseDefinition(def: MissionDefinition, phase: Phase): PhaseDefinition {
  const found = def.phases.find((p) => p.name === phase);
  if (!found) throw new Error(`No phase ${phase} in mission "${def.name}"`);
  return found;
}

/**
 * The words a definition's work is described by, lower-case: its tools (shell, http, file, llm), the
 * binaries it may run and runs, and the hosts it calls. The governance map matches them against
 * library entries' context tags ("which definitions could meet this failure mode").
 */
export function definitionVocabulary(def: MissionDefinition): Set<string> {
  const words = new Set<string>(def.allowedBinaries.map((b) => b.toLowerCase()));
  const calls = [...agentsInOrder(def).flatMap((a) => a.steps.flatMap((s) => (s.compensate ? [s, s.compensate] : [s]))), ...def.objectiveChecks];
  for (const c of calls) {
    words.add(c.tool);
    const { command, url } = c.args as { command?: unknown; url?: unknown };
    if (typeof command === "string") words.add(command.split("/").pop()!.toLowerCase());
    if (typeof url === "string") {
      try {
        words.add(new URL(url).hostname.toLowerCase());
      } catch {
        // not a URL: nothing to add
      }
    }
  }
  if (calls.some((c) => c.tool === "http")) words.add("network");
  return words;
}

/** The necessity level of a mission definition, computed (FDR-N008). */
export function missionLevel(def: MissionDefinition): LevelResult {
  return detectLevel({ agents: agentsInOrder(def).map((a) => ({ name: a.name, steps: a.steps, autonomous: a.autonomous })), declaredLevel: def.level });
}
