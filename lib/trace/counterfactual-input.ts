import { z } from "zod";
import { diagnosisConfigSchema } from "../diagnosis/config";
import { rulesSchema, type Rule } from "../authority/rules";
import { missionDefinitionSchema, parseYamlText, type MissionDefinition } from "../mission/definition";
import type { TapeConfig } from "./format";

/**
 * The changes of a counterfactual replay (seed 002 FDR-N015, docs/traces.md "Counterfactual replay"):
 * `--set PATH=VALUE` on the mission definition, `--rules FILE` for the default policy in force, `--flag
 * NAME=VALUE` for the worker's flags. Each is parsed and checked here, and bad input is an error that
 * names what is wrong and what is allowed.
 */

/** Bad counterfactual input: the message says what, why and what to give instead. */
export class CounterfactualInputError extends Error {}

export interface DefinitionEdit {
  /** As given: `agents.writer.maxActions`. */
  path: string;
  value: unknown;
}

/** A worker flag as the product defines it: the ADR-0003 diagnosis settings, the approval lifetime, the library protocol. */
export interface FlagSetting {
  name: FlagName;
  value: boolean | number;
}

export interface CounterfactualChange {
  /** Edits of the mission definition (applied to `mission.created`, validated as a whole). */
  sets?: DefinitionEdit[];
  /** The admin's default policy in force for the replay, instead of the recorded one. */
  policy?: { source: string; rules: Rule[] };
  flags?: FlagSetting[];
  /** Rules left out, by the name decisions give them: `rule:<id>` (the mission's) or `default-policy:<id>`. */
  withoutRules?: string[];
}

/** The flags a replay can change, each with the TapeConfig field it sets (the worker records them in its config). */
export const FLAGS = {
  AUTONOMOUS_DIAGNOSTIC_REFLECTION_ENABLED: { schema: diagnosisConfigSchema.shape.AUTONOMOUS_DIAGNOSTIC_REFLECTION_ENABLED, what: "diagnosis after every tool failure (1/0)" },
  AUTONOMOUS_DIAGNOSTIC_WHY_DEPTH: { schema: diagnosisConfigSchema.shape.AUTONOMOUS_DIAGNOSTIC_WHY_DEPTH, what: "depth of the why-chain (1-10)" },
  AUTONOMOUS_MAX_RECOVERY_ATTEMPTS: { schema: diagnosisConfigSchema.shape.AUTONOMOUS_MAX_RECOVERY_ATTEMPTS, what: "recovery attempts per failure (0-10)" },
  AUTONOMOUS_FAST_RECOVERY_ENABLED: { schema: diagnosisConfigSchema.shape.AUTONOMOUS_FAST_RECOVERY_ENABLED, what: "apply learned patterns without full reflection (1/0)" },
  FAULTLINE_APPROVAL_TTL_MS: { schema: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1000, "must be at least 1000"), what: "how long an approval stays valid, in ms" },
  FAULTLINE_LIBRARY_PROTOCOL: { schema: diagnosisConfigSchema.shape.AUTONOMOUS_FAST_RECOVERY_ENABLED, what: "consult the failure-mode library after a diagnosis (1/0)" },
} as const;
export type FlagName = keyof typeof FLAGS;
export const FLAG_NAMES = Object.keys(FLAGS) as FlagName[];

/** `NAME=VALUE` of `--flag`. */
export function parseFlag(text: string): FlagSetting {
  const eq = text.indexOf("=");
  if (eq <= 0) throw new CounterfactualInputError(`--flag "${text}" is not NAME=VALUE. Flags: ${FLAG_NAMES.join(", ")}.`);
  const name = text.slice(0, eq).trim();
  const raw = text.slice(eq + 1).trim();
  if (!(name in FLAGS)) throw new CounterfactualInputError(`--flag ${name}: there is no such flag. A replay can change: ${FLAG_NAMES.map((n) => `${n} (${FLAGS[n as FlagName].what})`).join(", ")}.`);
  const f = FLAGS[name as FlagName];
  const parsed = (f.schema as z.ZodType).safeParse(raw);
  if (!parsed.success || raw === "") throw new CounterfactualInputError(`--flag ${name}=${raw}: ${parsed.success ? "needs a value" : parsed.error.issues[0].message} (${f.what}).`);
  return { name: name as FlagName, value: parsed.data as boolean | number };
}

/** The worker configuration the replay runs with: the recorded one with the flags applied. */
export function applyFlags(cfg: TapeConfig, flags: readonly FlagSetting[]): TapeConfig {
  const out: TapeConfig = { ...cfg, diagnosis: cfg.diagnosis ? { ...cfg.diagnosis } : null, capabilities: [...cfg.capabilities] };
  for (const f of flags) {
    if (f.name === "FAULTLINE_APPROVAL_TTL_MS") out.approvalTtlMs = f.value as number;
    else if (f.name === "FAULTLINE_LIBRARY_PROTOCOL") out.capabilities = f.value ? [...new Set([...out.capabilities, "library"])] : out.capabilities.filter((c) => c !== "library");
    else {
      const d = (out.diagnosis ??= { enabled: false, whyDepth: 5, maxRecoveryAttempts: 2, fastPath: true });
      if (f.name === "AUTONOMOUS_DIAGNOSTIC_REFLECTION_ENABLED") d.enabled = f.value as boolean;
      if (f.name === "AUTONOMOUS_DIAGNOSTIC_WHY_DEPTH") d.whyDepth = f.value as number;
      if (f.name === "AUTONOMOUS_MAX_RECOVERY_ATTEMPTS") d.maxRecoveryAttempts = f.value as number;
      if (f.name === "AUTONOMOUS_FAST_RECOVERY_ENABLED") d.fastPath = f.value as boolean;
    }
  }
  return out;
}

/** `PATH=VALUE` of `--set`: the value is JSON when it reads as JSON (10, true, ["ls","rm"]), else a string. */
export function parseSet(text: string): DefinitionEdit {
  const eq = text.indexOf("=");
  if (eq <= 0) throw new CounterfactualInputError(`--set "${text}" is not PATH=VALUE, e.g. --set agents.writer.maxActions=10 or --set allowedBinaries='["ls","rm"]'.`);
  const path = text.slice(0, eq).trim();
  const raw = text.slice(eq + 1);
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // a plain string
  }
  return { path, value };
}

type Schema = { _zod: { def: Record<string, unknown> & { type: string } } };

/** The object schema under optional/default/nullable/pipe wrappers, or null. */
function objectShape(s: Schema | undefined): Record<string, Schema> | null {
  for (let i = 0; s && i < 10; i++) {
    const d = s._zod.def;
    if (d.type === "object") return d.shape as Record<string, Schema>;
    s = (d.innerType ?? d.in) as Schema | undefined;
  }
  return null;
}
function arrayElement(s: Schema | undefined): Schema | null {
  for (let i = 0; s && i < 10; i++) {
    const d = s._zod.def;
    if (d.type === "array") return d.element as Schema;
    s = (d.innerType ?? d.in) as Schema | undefined;
  }
  return null;
}

const defShape = objectShape(missionDefinitionSchema as unknown as Schema)!;
const phaseSchema = arrayElement(defShape.phases)!;
const agentSchema = arrayElement(objectShape(phaseSchema)!.agents)!;
const agentShape = objectShape(agentSchema)!;
const autonomousShape = objectShape(agentShape.autonomous)!;

/**
 * Applies `--set` edits to a definition and validates the result as a whole. Paths: a top-level field
 * (`allowedBinaries`, `level`, `recovery`, `rules`…), `agents.NAME.FIELD` (an autonomous agent's
 * `maxActions`, `tools`… directly, or `agents.NAME.autonomous.FIELD`), `phases.NAME.FIELD`, and below
 * those, object members and array indexes (`agents.deploy.steps.0.args.command`).
 */
export function applySets(definition: MissionDefinition, sets: readonly DefinitionEdit[]): MissionDefinition {
  const def = structuredClone(definition) as Record<string, unknown>;
  for (const edit of sets) setPath(def, edit);
  const parsed = missionDefinitionSchema.safeParse(def);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw new CounterfactualInputError(`--set ${sets.map((s) => s.path).join(", ")}: the changed definition is not valid at ${i.path.join(".") || "(definition)"}: ${i.message}.`);
  }
  return parsed.data;
}

function setPath(def: Record<string, unknown>, edit: DefinitionEdit): void {
  const parts = edit.path.split(".");
  if (parts.some((p) => p === "")) throw new CounterfactualInputError(`--set ${edit.path}: a path is names joined by dots, e.g. agents.writer.maxActions.`);
  const phases = def.phases as Array<Record<string, unknown>>;
  const agents = phases.flatMap((p) => p.agents as Array<Record<string, unknown>>);
  let target: Record<string, unknown> | unknown[];
  let schema: Schema | undefined;
  let rest: string[];
  let where: string;
  if (parts[0] === "agents") {
    const name = parts[1];
    const agent = agents.find((a) => a.name === name);
    if (!name || !agent) throw new CounterfactualInputError(`--set ${edit.path}: ${name ? `there is no agent "${name}"` : "agents needs an agent's name"} in this mission. Agents: ${agents.map((a) => a.name).join(", ")}.`);
    rest = parts.slice(2);
    where = `agents.${name}`;
    target = agent;
    schema = agentSchema;
    // An autonomous agent's own fields directly: agents.writer.maxActions.
    if (rest[0] && !(rest[0] in agentShape) && rest[0] in autonomousShape && agent.autonomous) {
      target = agent.autonomous as Record<string, unknown>;
      schema = agentShape.autonomous;
      where += ".autonomous";
    }
  } else if (parts[0] === "phases" && parts[1] !== undefined && !/^\d+$/.test(parts[1])) {
    const phase = phases.find((p) => p.name === parts[1]);
    if (!phase) throw new CounterfactualInputError(`--set ${edit.path}: there is no phase "${parts[1]}" in this mission. Phases: ${phases.map((p) => p.name).join(", ")}.`);
    rest = parts.slice(2);
    where = `phases.${parts[1]}`;
    target = phase;
    schema = phaseSchema;
  } else {
    rest = parts;
    where = "";
    target = def;
    schema = missionDefinitionSchema as unknown as Schema;
  }
  if (!rest.length) throw new CounterfactualInputError(`--set ${edit.path}: name a field of ${where}: ${Object.keys(objectShape(schema) ?? {}).join(", ")}.`);
  for (let i = 0; i < rest.length; i++) {
    const key = rest[i];
    let next: unknown;
    let nextSchema: Schema | undefined;
    if (Array.isArray(target)) {
      const n = /^\d+$/.test(key) ? Number(key) : -1;
      if (n < 0 || n >= target.length) throw new CounterfactualInputError(`--set ${edit.path}: ${where} is a list of ${target.length}; "${key}" is not one of its indexes (0-${Math.max(0, target.length - 1)}).`);
      if (i === rest.length - 1) {
        target[n] = edit.value;
        return;
      }
      next = target[n];
      nextSchema = arrayElement(schema) ?? undefined;
    } else {
      const shape = objectShape(schema);
      if (shape && !(key in shape)) {
        const also = where.startsWith("agents.") && !where.endsWith(".autonomous") && target.autonomous ? `; and the autonomous agent's own ${Object.keys(autonomousShape).join(", ")}` : "";
        throw new CounterfactualInputError(`--set ${edit.path}: "${key}" is not a field of ${where || "the mission definition"}. Allowed: ${Object.keys(shape).join(", ")}${also}.`);
      }
      if (i === rest.length - 1) {
        target[key] = edit.value;
        return;
      }
      next = target[key];
      nextSchema = shape?.[key];
    }
    where = where ? `${where}.${key}` : key;
    if (next === null || typeof next !== "object") throw new CounterfactualInputError(`--set ${edit.path}: ${where} is ${next === undefined ? "not set" : `a ${typeof next}`} in this mission, so it has no "${rest[i + 1]}" to set; set ${where} as a whole (a JSON value).`);
    target = next as Record<string, unknown> | unknown[];
    schema = nextSchema;
  }
}

/** A rules file: the default policy's JSON or YAML (`{"rules": […]}` as the policy API answers, or the list alone). */
export function parseRulesText(text: string, file: string): Rule[] {
  const y = parseYamlText(text);
  if (!y.ok) throw new CounterfactualInputError(`--rules ${file}: not valid JSON or YAML${y.problem}.`);
  const list = Array.isArray(y.value) ? y.value : y.value && typeof y.value === "object" && Array.isArray((y.value as { rules?: unknown }).rules) ? (y.value as { rules: unknown[] }).rules : null;
  if (!list) throw new CounterfactualInputError(`--rules ${file}: a rules file is a list of rules, or {"rules": [...]} as GET /api/v1/authority/policy answers (each rule {id?, effect: allow|deny|hold, tool?, binary?, path?, host?, args?, outsideWorkspace?, reason?}).`);
  const parsed = rulesSchema.safeParse(list);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    const [index, ...field] = i.path;
    const rule = typeof index === "number" ? list[index] : null;
    const id = rule && typeof rule === "object" && typeof (rule as { id?: unknown }).id === "string" ? ` (id ${(rule as { id: string }).id})` : "";
    throw new CounterfactualInputError(`--rules ${file}: ${typeof index === "number" ? `rule ${index + 1}${id}${field.length ? `, field ${field.join(".")}` : ""}` : "the list"}: ${i.message}.`);
  }
  return parsed.data;
}

/** Whether a change changes anything. */
export function isEmptyChange(c: CounterfactualChange): boolean {
  return !c.sets?.length && !c.policy && !c.flags?.length && !c.withoutRules?.length;
}
