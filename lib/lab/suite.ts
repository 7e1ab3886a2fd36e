import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ERROR_TYPES } from "../diagnosis/types";
import { formatPath } from "../errors";
import { agentsInOrder, parseMissionDefinition, parseYamlText, validateMissionDefinition, type MissionDefinition } from "../mission/definition";
import { GATE_DECISIONS } from "../mission/gate-policy";
import { recordingsSchema, type RecordedTurn } from "../llm/recordings";

/**
 * A lab suite (`faultline lab run SUITE.yaml`, docs/lab.md): scenario missions with the faults injected
 * into their tools (each error type of seed 003), infrastructure outages, worker crashes, the answers of
 * a scripted operator at gates, the turns of scripted or recorded models, and what each run is expected
 * to end as. One place for the format: every field error says what is wrong, why, and what to write.
 */

const ERROR_TYPE_LIST = ERROR_TYPES.join(", ");
const DECISIONS = [...GATE_DECISIONS, "modify"] as const;
const GATE_KIND_LIST = ["agent", "phase", "recovery", "approval", "library", "proposal"] as const;

/** `agent/step`: the step (from 0) of an agent of the scenario's mission. */
const stepRef = z
  .string({ error: 'must say which step, as "agent/step" (the agent\'s name and the step\'s index from 0), e.g. "fetch/0"' })
  .regex(/^.+\/\d+$/, 'must be "agent/step": the agent\'s name, a slash and the step\'s index from 0, e.g. "fetch/0"');

const times = z.union([z.number().int().min(1, 'must be a number of calls (1 or more) or "always"'), z.literal("always")], { error: 'must be a number of calls (1 or more) or "always"' });
const probability = z.number({ error: "must be a number from 0 to 1" }).min(0, "must be from 0 to 1").max(1, "must be from 0 to 1");
const duration = (what: string) => z.number({ error: `must be ${what} in milliseconds` }).int(`must be a whole number of milliseconds (${what})`).min(0, `must not be negative (${what})`);

export const faultSchema = z.strictObject({
  /** The step whose tool calls fail. */
  at: stepRef,
  type: z.enum(ERROR_TYPES, { error: `must be one of seed 003's error types: ${ERROR_TYPE_LIST}` }),
  /** Which of the step's calls fail: the first N, or every one. */
  times: times.default(1),
  /** Each of those calls fails with this probability (drawn from the run's seed); default 1. */
  probability: probability.default(1),
  /**
   * The failure's own words instead of the catalogue's (lib/lab/faults.ts): a real tool output, say, to
   * measure the diagnosis on it. The injected type stays the ground truth.
   */
  error: z
    .strictObject({
      message: z.string().min(1, "must not be empty: the one-line message the tool reports").optional(),
      stderr: z.string().optional(),
      stdout: z.string().optional(),
      exitCode: z.number().int().optional(),
      status: z.number().int().min(100).max(599).optional(),
    })
    .optional(),
  /** The recovery helper steps run after this fault fail too (a recovery that cannot work). */
  helpers: z.enum(["ok", "fail"], { error: 'must be "ok" (the recovery\'s helper steps work) or "fail"' }).default("ok"),
});

export const outageSchema = z
  .strictObject({
    /** database: the worker's writes wait and the mission is paused (infrastructure) until it returns; network: http calls are refused; llm: every model provider fails. */
    service: z.enum(["database", "network", "llm"], { error: 'must be "database" (writes wait, the mission pauses), "network" (http calls are refused) or "llm" (every model provider fails)' }),
    /** Starts when this step first starts… */
    at: stepRef.optional(),
    /** …or this long after the mission was created (world clock). */
    startMs: duration("when the outage starts, after the mission was created").optional(),
    durationMs: duration("how long the outage lasts"),
  })
  .refine((o) => (o.at === undefined) !== (o.startMs === undefined), { message: 'say when the outage starts: either "at" (a step, "agent/step") or "startMs" (after the mission was created), not both', path: ["at"] });

export const crashSchema = z.strictObject({
  /** The worker dies right after recording this step's start (before its result). */
  at: stepRef,
  times: times.default(1),
});

const gateMatch = z.strictObject({
  kind: z.enum(GATE_KIND_LIST, { error: `must be a gate kind: ${GATE_KIND_LIST.join(", ")}` }).optional(),
  agent: z.string().min(1).optional(),
  step: z.number().int().min(0).optional(),
});

export const operatorAnswerSchema = z.strictObject({
  /** Which gates this answer is for (every field optional: no field = any gate). */
  gate: gateMatch.default({}),
  decision: z.enum(DECISIONS, { error: `must be a gate decision: ${DECISIONS.join(", ")}` }),
  note: z.string().optional(),
  /** modify: the args the proposal runs with instead. */
  args: z.record(z.string(), z.unknown()).optional(),
  /** How many gates it answers (then the next answer, or \`otherwise\`). */
  times: times.default(1),
});

export const operatorSchema = z.strictObject({
  answers: z.array(operatorAnswerSchema).default([]),
  /** What the operator does at a gate no answer matches: the gate's recommended option, or a decision. */
  otherwise: z.union([z.literal("recommended"), z.enum(DECISIONS)], { error: `must be "recommended" or a gate decision: ${DECISIONS.join(", ")}` }).default("recommended"),
  /** How long the operator takes to decide (world clock). */
  delayMs: duration("how long the operator takes to decide").default(30_000),
});

const turnSchema = z.union(
  [
    z.strictObject({ call: z.string().min(1), args: z.record(z.string(), z.unknown()).default({}) }),
    z.strictObject({ finish: z.string() }),
    z.strictObject({ ask: z.string().min(1) }),
    z.strictObject({ text: z.string() }),
    z.strictObject({ error: z.enum(["providers_down", "rate_limited", "timeout"], { error: 'must be "providers_down", "rate_limited" or "timeout"' }) }),
  ],
  { error: "must be one model turn: {call: TOOL, args: {…}}, {finish: SUMMARY}, {ask: QUESTION}, {text: TEXT} or {error: providers_down | rate_limited | timeout}" },
);
export type ScriptedTurn = z.infer<typeof turnSchema>;
/** A model turn as the lab plays it: a recorded provider's turn, or a scripted provider failure. */
export type LabTurn = RecordedTurn & { error?: "providers_down" | "rate_limited" | "timeout" };

export const modelSchema = z.union(
  [
    /** Scripted: the n-th turn answers the agent's n-th model turn; the last repeats. */
    z.strictObject({ turns: z.array(turnSchema).min(1, "a scripted model needs at least one turn") }),
    /** Recorded: a recording of the recorded provider's file (db/seed/recordings/agents.json format), by id. */
    z.strictObject({ recorded: z.strictObject({ file: z.string().min(1), id: z.string().min(1) }) }),
  ],
  { error: "must be {turns: [...]} (a scripted model) or {recorded: {file, id}} (a recording of the recorded provider)" },
);

const FINAL_STATUSES = ["SUCCESS", "PARTIAL_SUCCESS", "FAILED"] as const;
const statuses = z.enum(FINAL_STATUSES, { error: `must be one of ${FINAL_STATUSES.join(", ")}` });

export const expectSchema = z.strictObject({
  /** The final status(es) a passing run ends with. */
  finalStatus: z.union([statuses, z.array(statuses).min(1)]).default("SUCCESS"),
  /** true: at least one recovery succeeded; false: none did. */
  recovered: z.boolean().optional(),
});

const patternSeedSchema = z.strictObject({
  when: z.string().min(1),
  then: z.string().min(1),
  successes: z.number().int().min(0),
  failures: z.number().int().min(0).default(0),
  threshold: z.number().min(0.5).max(1).optional(),
});

const name = z
  .string({ error: "is required: a short name for the scenario (it names its traces)" })
  .trim()
  .min(1, "must not be empty")
  .max(80, "must be at most 80 characters")
  .regex(/^[A-Za-z0-9][A-Za-z0-9 _.-]*$/, "may contain letters, digits, spaces, '_', '.', '-' and must start with a letter or digit (it names the scenario's trace files)");

export const scenarioSchema = z.strictObject({
  name,
  description: z.string().optional(),
  /** The mission: a definition, or the path of a definition file (YAML/JSON) relative to the suite. */
  mission: z.union([z.string().min(1), z.record(z.string(), z.unknown())], { error: "is required: a mission definition, or the path of one (YAML or JSON) relative to the suite file" }),
  /** scripted: tool calls are scripted (no process, no file, no network); real: calls without a fault run the real tools in a temporary workspace. */
  tools: z.enum(["scripted", "real"], { error: 'must be "scripted" (no process, file or network) or "real" (the real tools, in a temporary workspace)' }).default("scripted"),
  faults: z.array(faultSchema).default([]),
  outages: z.array(outageSchema).default([]),
  crashes: z.array(crashSchema).default([]),
  operator: operatorSchema.optional(),
  /** The models of autonomous agents, by agent name. */
  models: z.record(z.string(), modelSchema).default({}),
  /** Learned patterns the scenario's runs start with (ADR-0003 pattern memory; they replace what earlier runs learned for them). */
  patterns: z.array(patternSeedSchema).default([]),
  expect: expectSchema.default({ finalStatus: "SUCCESS" }),
  /** The necessity level the scenario declares (FDR-N008); default: the detected one. */
  necessityLevel: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], { error: "must be 0, 1, 2 or 3" }).optional(),
});

export const suiteSchema = z.strictObject({
  name,
  description: z.string().optional(),
  /** shared: recoveries teach the patterns later runs of the suite find (in run order); per-run: every run starts with only its scenario's patterns. */
  memory: z.enum(["shared", "per-run"], { error: 'must be "shared" (later runs find the patterns earlier ones learned) or "per-run"' }).default("shared"),
  /** The operator every scenario gets unless it has its own. */
  operator: operatorSchema.default({ answers: [], otherwise: "recommended", delayMs: 30_000 }),
  /** The ADR-0003 settings the runs' engine uses (AUTONOMOUS_MAX_RECOVERY_ATTEMPTS, AUTONOMOUS_FAST_RECOVERY_ENABLED). */
  diagnosis: z.strictObject({ maxRecoveryAttempts: z.number().int().min(0).max(10).default(2), fastPath: z.boolean().default(true) }).default({ maxRecoveryAttempts: 2, fastPath: true }),
  scenarios: z.array(scenarioSchema).min(1, "a suite needs at least one scenario"),
});

export type FaultSpec = z.infer<typeof faultSchema>;
export type OutageSpec = z.infer<typeof outageSchema>;
export type OperatorSpec = z.infer<typeof operatorSchema>;
export type ModelSpec = z.infer<typeof modelSchema>;
export type ScenarioSpec = z.infer<typeof scenarioSchema>;

/** A scenario ready to run: its mission parsed, its models' turns loaded. */
export interface Scenario extends Omit<ScenarioSpec, "mission" | "models" | "operator"> {
  mission: MissionDefinition;
  operator: OperatorSpec;
  models: Record<string, { source: string; turns: LabTurn[] }>;
}

export interface Suite {
  name: string;
  description?: string;
  memory: "shared" | "per-run";
  diagnosis: { maxRecoveryAttempts: number; fastPath: boolean };
  scenarios: Scenario[];
  /** The suite file (for reports), and the sha-256 of its text (a baseline of another suite is said to be). */
  file: string | null;
}

export interface SuiteFieldError {
  path: string;
  message: string;
}

export type ParseSuiteResult = { ok: true; suite: Suite } | { ok: false; errors: SuiteFieldError[] };

/** "Invalid input: expected string, received undefined" says, in words, that a field is missing. */
function readable(message: string): string {
  const missing = /^Invalid input: expected (\w+), received undefined$/.exec(message);
  if (missing) return `is required (${missing[1] === "array" ? "a list" : missing[1] === "record" || missing[1] === "object" ? "a mapping" : `a ${missing[1]}`})`;
  const unknown = /^Unrecognized keys?: (.+)$/.exec(message);
  if (unknown) return `has unknown field(s) ${unknown[1]}: remove them or check their spelling against docs/lab.md`;
  return message;
}

const split = (ref: string) => {
  const i = ref.lastIndexOf("/");
  return { agent: ref.slice(0, i), step: Number(ref.slice(i + 1)) };
};

/**
 * Parses a suite's text (YAML or JSON). `file` is the suite's path: mission files and recordings are
 * read relative to it. Field errors carry their path (`scenarios[2].faults[0].type`).
 */
export function parseSuite(text: string, file: string | null = null): ParseSuiteResult {
  if (!text.trim()) return { ok: false, errors: [{ path: "", message: "The suite is empty: write its name and scenarios (docs/lab.md shows one)." }] };
  const yaml = parseYamlText(text);
  if (!yaml.ok) return { ok: false, errors: [{ path: "", message: `The suite is not valid YAML or JSON${yaml.problem}. Fix the syntax there.` }] };
  const raw = yaml.value;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return { ok: false, errors: [{ path: "", message: "The suite must be a mapping with name and scenarios (docs/lab.md shows one)." }] };
  const parsed = suiteSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, errors: parsed.error.issues.map((i) => ({ path: formatPath(i.path), message: readable(i.message) })) };
  const s = parsed.data;
  const dir = file ? path.dirname(path.resolve(file)) : process.cwd();
  const errors: SuiteFieldError[] = [];
  const scenarios: Scenario[] = [];
  const names = new Set<string>();
  s.scenarios.forEach((sc, i) => {
    const at = (p: string) => `scenarios[${i}]${p}`;
    if (names.has(sc.name)) errors.push({ path: at(".name"), message: `"${sc.name}" names another scenario too: names must be unique in a suite (they name the traces).` });
    names.add(sc.name);
    const mission = loadMission(sc.mission, dir, at(".mission"), errors);
    if (!mission) return;
    const agents = agentsInOrder(mission);
    const checkStep = (ref: string, where: string) => {
      const { agent, step } = split(ref);
      const a = agents.find((x) => x.name === agent);
      if (!a) return errors.push({ path: where, message: `names agent "${agent}", which the mission does not have (its agents: ${agents.map((x) => x.name).join(", ")}).` });
      if (!a.steps.length) return errors.push({ path: where, message: `names a step of "${agent}", which has no scripted steps (its model proposes its actions): inject faults into scripted steps.` });
      if (step >= a.steps.length) errors.push({ path: where, message: `names step ${step} of "${agent}", which has ${a.steps.length} step(s): steps count from 0.` });
    };
    sc.faults.forEach((f, j) => checkStep(f.at, at(`.faults[${j}].at`)));
    sc.crashes.forEach((c, j) => checkStep(c.at, at(`.crashes[${j}].at`)));
    sc.outages.forEach((o, j) => o.at && checkStep(o.at, at(`.outages[${j}].at`)));
    for (const a of agents) {
      if (a.external) errors.push({ path: at(".mission"), message: `agent "${a.name}" is external (it runs elsewhere and calls Faultline): the lab runs only agents Faultline runs itself. Make it scripted or autonomous.` });
      if (a.autonomous && !sc.models[a.name]) errors.push({ path: at(".models"), message: `agent "${a.name}" is autonomous and has no model: add models: { ${a.name}: { turns: [...] } } (scripted) or { recorded: { file, id } }.` });
    }
    for (const m of Object.keys(sc.models)) {
      const a = agents.find((x) => x.name === m);
      if (!a?.autonomous) errors.push({ path: at(`.models.${m}`), message: `"${m}" is not an autonomous agent of the mission: only an autonomous agent has a model (its agents: ${agents.map((x) => `${x.name}${x.autonomous ? " (autonomous)" : ""}`).join(", ")}).` });
    }
    if (sc.tools === "scripted") {
      const fileChecks = agents.some((a) => a.steps.some((st) => st.evidence?.some((e) => "file_exists" in e)) || a.autonomous?.evidence.some((e) => "file_exists" in e)) || mission.objectiveChecks.some((c) => c.evidence?.some((e) => "file_exists" in e));
      if (fileChecks) errors.push({ path: at(".tools"), message: "the mission checks file_exists, and scripted tools write no files: set tools: real (its calls without a fault then run in a temporary workspace)." });
    }
    const models: Scenario["models"] = {};
    for (const [agent, m] of Object.entries(sc.models)) {
      if ("turns" in m) models[agent] = { source: "scripted", turns: m.turns.map(toRecordedTurn) };
      else {
        const turns = loadRecording(m.recorded, dir, at(`.models.${agent}.recorded`), errors);
        if (turns) models[agent] = { source: `recorded:${m.recorded.id}`, turns };
      }
    }
    scenarios.push({ ...sc, mission, models, operator: sc.operator ?? s.operator });
  });
  if (errors.length) return { ok: false, errors };
  return { ok: true, suite: { name: s.name, description: s.description, memory: s.memory, diagnosis: s.diagnosis, scenarios, file } };
}

/** Reads and parses a suite file; a missing or unreadable file is one field error saying so. */
export function readSuite(file: string): ParseSuiteResult {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, errors: [{ path: "", message: code === "ENOENT" ? `There is no suite file "${file}". Give the path of a suite (YAML), e.g. lab/default.yaml.` : code === "EISDIR" ? `"${file}" is a directory: give the suite file inside it, e.g. ${path.join(file, "default.yaml")}.` : `"${file}" cannot be read (${code ?? (e as Error).message}).` }] };
  }
  return parseSuite(text, file);
}

function loadMission(m: string | Record<string, unknown>, dir: string, where: string, errors: SuiteFieldError[]): MissionDefinition | null {
  let v: ReturnType<typeof validateMissionDefinition>;
  if (typeof m === "string") {
    const file = path.resolve(dir, m);
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      errors.push({ path: where, message: code === "ENOENT" ? `names the file "${m}", which does not exist (paths are relative to the suite file: ${file}).` : `names "${m}", which cannot be read (${code ?? (e as Error).message}).` });
      return null;
    }
    v = parseMissionDefinition(text);
  } else v = validateMissionDefinition(m);
  if (v.ok) return v.definition;
  for (const e of v.errors) errors.push({ path: `${where}${e.path ? `.${e.path}` : ""}`, message: e.message });
  return null;
}

function loadRecording(r: { file: string; id: string }, dir: string, where: string, errors: SuiteFieldError[]): RecordedTurn[] | null {
  const file = path.resolve(dir, r.file);
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    errors.push({ path: `${where}.file`, message: code === "ENOENT" ? `names "${r.file}", which does not exist (paths are relative to the suite file: ${file}).` : `names "${r.file}", which is not a JSON recordings file (${e instanceof Error ? e.message.split("\n")[0] : String(e)}).` });
    return null;
  }
  const parsed = recordingsSchema.safeParse(json);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    errors.push({ path: `${where}.file`, message: `"${r.file}" is not in the recorded provider's format ({recordings: [{id, goal, turns}]}): ${formatPath(i.path) || "(file)"}: ${i.message}.` });
    return null;
  }
  const rec = parsed.data.recordings.find((x) => x.id === r.id);
  if (!rec) {
    errors.push({ path: `${where}.id`, message: `"${r.id}" is not a recording of ${r.file} (its recordings: ${parsed.data.recordings.map((x) => x.id).join(", ")}).` });
    return null;
  }
  return rec.turns;
}

/** A scripted turn in the recorded provider's shape (one shape for both kinds of model). */
function toRecordedTurn(t: ScriptedTurn): LabTurn {
  if ("call" in t) return { toolCalls: [{ name: t.call, arguments: t.args }] };
  if ("finish" in t) return { toolCalls: [{ name: "finish", arguments: { summary: t.finish } }] };
  if ("ask" in t) return { toolCalls: [{ name: "ask", arguments: { question: t.ask } }] };
  if ("text" in t) return { content: t.text };
  return { error: t.error };
}
