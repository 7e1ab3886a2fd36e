import type { Diagnosis } from "../diagnosis/types";
import { stepDefinitionOf } from "./steps";
import type { ActionCheck, Category, ProbeAction, ResolutionAction, RiskLevel } from "../library/entry";
import type { ToolError, ToolResult } from "../tools/result";
import type { EvidenceRecord } from "../tools/evidence";
import type { StepDefinition } from "./definition";
import type { AgentState, GateDecision, HypothesisOutcome, LibraryGateInfo, LibraryGateStage, LibraryHypothesis, LibraryWalk, MissionState } from "./types";

export type { HypothesisOutcome, LibraryGateInfo, LibraryGateStage, LibraryHypothesis, LibraryWalk } from "./types";

/**
 * The Failure Mode Reference Library's Output Protocol in the orchestrator (000, "Output Protocol",
 * "Interaction with Other Layers"), the pure part: the query built from a failed step, the walk over
 * ranked hypotheses (highest first), placeholder substitution for probe/resolution actions, the probe's
 * verdict from its evidence, and the contribution draft of a novel failure. The engine drives the walk;
 * the reducer keeps it in `AgentState.library`.
 */

/** How many hypotheses a failure's walk considers (highest match first). */
export const LIBRARY_HYPOTHESES = 3;
/**
 * A hypothesis whose match score (a calibrated probability that it is the cause: docs/library-ranking.md)
 * is below this is a weak match: recorded and shown, never probed, never recommended. Below 0.3 a probe
 * is more than twice as likely to waste a person's time as to find the cause, and a gate that asks for
 * it misleads more than it helps (the demo's scp refusal once led to "probe CRLF line endings" at 0.14).
 */
export const WEAK_MATCH_BELOW = 0.3;
/** Time limit of one probe or resolution action. */
export const LIBRARY_ACTION_TIMEOUT_MS = 15_000;

/** The document's query (Query Interface). */
export interface LibraryQuery {
  observed_symptom: string;
  object_class?: string;
  force_applied?: string;
  environmental_context?: string[];
}

/** What the library answered for a failure. `error`: the query itself failed (the protocol is skipped). */
export interface LibraryConsultation {
  libraryVersion: number | null;
  abstained: boolean;
  hypotheses: LibraryHypothesis[];
  error?: string;
}

/** What the next library step of a walking agent is (nextAction's part). */
export type LibraryAction =
  | { kind: "libraryRecord"; agent: string }
  | { kind: "libraryExhausted"; agent: string }
  | { kind: "libraryGate"; agent: string; stage: LibraryGateStage }
  | { kind: "libraryProbe"; agent: string }
  | { kind: "libraryResolve"; agent: string }
  | { kind: "libraryRerun"; agent: string; step: number };

export function libraryAction(s: MissionState, a: AgentState): LibraryAction {
  const w = a.library!;
  if (w.decision) return { kind: "libraryRecord", agent: a.name };
  const h = w.hypotheses[w.current];
  if (!h) return { kind: "libraryExhausted", agent: a.name };
  if (w.stage === "rerun") return { kind: "libraryRerun", agent: a.name, step: w.step };
  const ctx = failureContext(s, a, w.step);
  if (w.stage === "probe") {
    const call = h.probe_action && !w.actionFailed ? substituteAction(h.probe_action, ctx) : null;
    // Layer 4 before an automatic probe of a Requires-Oversight entry; without a runnable probe the operator performs it anyway.
    if (call && "call" in call) return h.risk_level === "Requires-Oversight" && !w.oversightApproved ? { kind: "libraryGate", agent: a.name, stage: "oversight" } : { kind: "libraryProbe", agent: a.name };
    return { kind: "libraryGate", agent: a.name, stage: "probe" };
  }
  return resolutionRunsItself(h, ctx.step, w) === null ? { kind: "libraryResolve", agent: a.name } : { kind: "libraryGate", agent: a.name, stage: "resolution" };
}

/** Why a confirmed hypothesis's resolution is proposed at a gate instead of run, or null when it runs by itself. */
export function resolutionRunsItself(h: LibraryHypothesis, step: Pick<StepDefinition, "highRisk">, w: Pick<LibraryWalk, "actionFailed">): string | null {
  if (!h.resolution_action) return "The entry has no machine-executable resolution: an operator carries out its resolution path.";
  if (w.actionFailed) return "Its resolution action did not complete: an operator decides.";
  if (h.risk_level === "Requires-Oversight" || h.risk_level === "High") return `The entry's risk is ${h.risk_level}: its resolution is proposed, not applied.`;
  if (step.highRisk) return "The failed step is high-risk: its resolution is proposed, not applied.";
  return null;
}

/** The failed step and what it reported: the source of the query and of placeholder values. */
export interface FailureContext {
  step: StepDefinition;
  error: ToolError | null;
}

export function failureContext(s: MissionState, a: AgentState, index: number): FailureContext {
  return { step: stepDefinitionOf(s, a.name, index), error: a.steps[index]?.error ?? null };
}

// ---------------------------------------------------------------- the query

/** What a tool reported in the document's query terms (an embodied tool may answer them directly in JSON). */
function reported(data: Record<string, unknown> | null, error: ToolError | null): Partial<LibraryQuery> {
  const candidates = [data?.json, parseJson(data?.body), parseJson(data?.stdout), parseJson(error?.details?.body), parseJson(error?.stdout)];
  for (const c of candidates) {
    if (!c || typeof c !== "object" || Array.isArray(c)) continue;
    const o = c as Record<string, unknown>;
    const symptom = str(o.observed_symptom) ?? str(o.error) ?? str(o.message);
    if (!symptom && !str(o.object_class)) continue;
    const env = Array.isArray(o.environmental_context) ? o.environmental_context.filter((x): x is string => typeof x === "string") : str(o.environmental_context) ? [str(o.environmental_context)!] : undefined;
    return { observed_symptom: symptom, object_class: str(o.object_class), force_applied: str(o.force_applied), environmental_context: env };
  }
  return {};
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v.trim() : undefined);
function parseJson(v: unknown): unknown {
  if (typeof v !== "string" || !/^\s*[{[]/.test(v)) return null;
  try {
    return JSON.parse(v);
  } catch {
    return null;
  }
}

/** The target of a step in a few words: `shell: git`, `http: api.example.com`, `file: data/in.csv`. */
export function objectClass(step: Pick<StepDefinition, "tool" | "args">): string {
  const a = step.args as { command?: unknown; url?: unknown; path?: unknown };
  if (step.tool === "shell") return `shell: ${String(a.command ?? "")}`;
  if (step.tool === "http") return `http: ${hostOf(String(a.url ?? "")) ?? String(a.url ?? "")}`;
  if (step.tool === "file") return `file: ${String(a.path ?? "")}`;
  return step.tool;
}

/**
 * The query for a failed step (Layer 1 Stage 3 → the library): the observed symptom is the tool's
 * error (its decisive output line) and the diagnosis's immediate cause; the object class is the tool
 * and its target; the context is the tool, the error code and the diagnosed error type. A tool that
 * reports the document's query fields itself (a robot's JSON answer) is taken at its word.
 */
export function buildLibraryQuery(step: Pick<StepDefinition, "tool" | "args">, error: ToolError, data: Record<string, unknown> | null, diagnosis: Diagnosis | null): LibraryQuery {
  const own = reported(data, error);
  const lastLine = (error.stderr ?? error.stdout ?? "").trim().split("\n").filter(Boolean).at(-1) ?? "";
  const symptom = own.observed_symptom ?? [error.message.split("\n")[0], lastLine && !error.message.includes(lastLine) ? lastLine : "", diagnosis?.whyChain.why1 ?? ""].filter(Boolean).join(". ");
  const context = [step.tool, error.code.toLowerCase().replaceAll("_", "-"), ...(error.exitCode != null ? [`exit-${error.exitCode}`] : []), ...(error.status !== undefined ? [`http-${error.status}`] : []), ...(diagnosis ? [diagnosis.errorClassification.type.replaceAll("_", "-")] : [])];
  return {
    observed_symptom: clip(symptom.length >= 3 ? symptom : `${error.code} ${error.message}`, 1000),
    object_class: clip(own.object_class ?? objectClass(step), 300),
    ...(own.force_applied ? { force_applied: clip(own.force_applied, 300) } : {}),
    // An embodied tool's own context is the query's; a software tool's is its tool, error code and diagnosed type.
    environmental_context: [...new Set(own.environmental_context ?? context)].slice(0, 30).map((x) => clip(x, 300)),
  };
}

const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n) : s);

// ---------------------------------------------------------------- placeholders

/**
 * Placeholder values of a failed step ({{binary}}, {{host}}, …; see db/seed/library/software.yaml),
 * taken from the step's own definition and the error it reported. Unknown ones are absent.
 */
export function placeholderValues(ctx: FailureContext): Record<string, string> {
  const { step, error } = ctx;
  const v: Record<string, string> = {};
  const a = step.args as { command?: unknown; args?: unknown; url?: unknown; path?: unknown };
  const text = [error?.message, error?.stderr, error?.stdout].filter(Boolean).join("\n");
  if (step.tool === "shell") {
    const argv = [String(a.command ?? ""), ...(Array.isArray(a.args) ? a.args.map(String) : [])];
    v.command = argv.map(shellQuote).join(" ");
    const missing = /(?:^|[\s:])([A-Za-z0-9._+-]+): (?:command )?not found/m.exec(text)?.[1] ?? /spawn ([A-Za-z0-9._+-]+) ENOENT/.exec(text)?.[1];
    v.binary = missing ?? String(a.command ?? "");
  }
  if (step.tool === "http" && typeof a.url === "string") {
    v.url = a.url;
    try {
      const u = new URL(a.url);
      v.host = u.hostname;
      v.port = u.port || (u.protocol === "https:" ? "443" : "80");
    } catch {
      /* not a URL: no host */
    }
  }
  const hostPort = /\b((?:\d{1,3}\.){3}\d{1,3}|localhost|[a-z0-9-]+(?:\.[a-z0-9-]+)+):(\d{2,5})\b/i.exec(text);
  if (hostPort) {
    v.host ??= hostPort[1];
    v.port ??= hostPort[2];
  }
  if (step.tool === "file" && typeof a.path === "string") v.path = a.path;
  const pathInText = /(?:open|stat|access|scandir|mkdir|unlink|rename) '([^']+)'/.exec(text)?.[1] ?? /(?:^|\s)((?:\.{0,2}\/)[^\s'":]+)/m.exec(text)?.[1];
  if (pathInText) v.path ??= pathInText;
  const envVar = /\b([A-Z][A-Z0-9_]{2,})\b(?: environment variable)? (?:is )?(?:not set|unset|missing|undefined|required)/.exec(text)?.[1] ?? /environment variable "?([A-Z][A-Z0-9_]{2,})"?/.exec(text)?.[1];
  if (envVar) v.env_var = envVar;
  const mod = /Cannot find (?:module|package) '([^']+)'/.exec(text)?.[1] ?? /No module named '([^']+)'/.exec(text)?.[1];
  if (mod) {
    v.module = mod;
    v.package = mod.split("/")[0].startsWith("@") ? mod.split("/").slice(0, 2).join("/") : mod.split("/")[0].split(".")[0];
  }
  return v;
}

/** A value safe to place inside double quotes in a POSIX sh script (software.yaml's rule). */
export function safePlaceholderValue(value: string): boolean {
  return value.length > 0 && value.length <= 500 && !/["\\$`\n\r]/.test(value);
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9._\/=:@%+-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

/**
 * The action with its placeholders filled from the failed step, or the placeholders that cannot be
 * filled (unknown, or a value with shell metacharacters). `{{command}}` comes only from the step's own
 * definition and is quoted word by word.
 */
export function substituteAction<A extends ProbeAction | ResolutionAction>(action: A, ctx: FailureContext): { call: A } | { missing: string[] } {
  const values = placeholderValues(ctx);
  const missing = new Set<string>();
  const fill = (x: unknown): unknown => {
    if (typeof x === "string")
      return x.replace(/\{\{([a-z_]+)\}\}/g, (_m, name: string) => {
        const val = values[name];
        if (val === undefined || (name !== "command" && !safePlaceholderValue(val))) {
          missing.add(name);
          return "";
        }
        return val;
      });
    if (Array.isArray(x)) return x.map(fill);
    if (x && typeof x === "object") return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, fill(y)]));
    return x;
  };
  const args = fill(action.args) as Record<string, unknown>;
  return missing.size ? { missing: [...missing] } : { call: { ...action, args } };
}

// ---------------------------------------------------------------- verdicts

/**
 * A probe's verdict from its real result: `confirm_when` (or a resolution's `expect`) checked against
 * the exit code, the output (stdout + stderr, or the response body; multiline) or the HTTP status.
 * A probe that exits non-zero still answers (exit codes are evidence); a probe that could not run at
 * all (not allowed, timed out, bad arguments) is inconclusive.
 */
export function actionVerdict(check: ActionCheck, result: ToolResult): { verdict: "confirmed" | "rejected" | "inconclusive"; evidence: EvidenceRecord } {
  const data = (result.ok ? result.data : result.data ?? {}) as Record<string, unknown>;
  const err = result.ok ? null : result.error;
  if (err && ["NOT_ALLOWED", "TIMEOUT", "INVALID_ARGS", "KILLED", "OUTPUT_TOO_LARGE", "UNKNOWN_TOOL", "INTERNAL_ERROR", "INTERRUPTED"].includes(err.code)) {
    return { verdict: "inconclusive", evidence: { check: Object.keys(check)[0], expected: Object.values(check)[0], actual: `${err.code}: ${err.message.split("\n")[0]}`, passed: false } };
  }
  const output = [data.stdout ?? err?.stdout, data.stderr ?? err?.stderr, data.body, typeof data.content === "string" ? data.content : undefined].filter((x): x is string => typeof x === "string").join("\n") || (err?.message ?? "");
  if ("exit_code" in check) {
    const actual = typeof data.exitCode === "number" ? data.exitCode : (err?.exitCode ?? null);
    const passed = actual === check.exit_code;
    return { verdict: passed ? "confirmed" : "rejected", evidence: { check: "exit_code", expected: check.exit_code, actual, passed } };
  }
  if ("http_status" in check) {
    const actual = typeof data.status === "number" ? data.status : (err?.status ?? null);
    const passed = actual === check.http_status;
    return { verdict: passed ? "confirmed" : "rejected", evidence: { check: "http_status", expected: check.http_status, actual: actual ?? err?.code ?? null, passed } };
  }
  const passed = new RegExp(check.output_matches, "m").test(output);
  const tail = output.trim().slice(-300);
  return { verdict: passed ? "confirmed" : "rejected", evidence: { check: "output_matches", expected: check.output_matches, actual: tail, passed } };
}

// ---------------------------------------------------------------- novel failures

/** A contribution draft in the document's schema (no failure_id: curation assigns it when the draft is approved). */
export interface LibraryDraft {
  title: string;
  category: Category;
  surface_symptom: string;
  hidden_reality: string;
  diagnostic_probe: string;
  resolution_path: string;
  risk_level: RiskLevel;
  context_tags: string[];
  references: string[];
  source: "incident_analysis";
}

const CATEGORY_BY_TYPE: Record<string, Category> = {
  tool_not_found: "Environmental",
  command_not_found: "Environmental",
  environment_missing: "Environmental",
  network_error: "Environmental",
  permission_denied: "Constraint",
  timeout: "Constraint",
  rate_limited: "Constraint",
  output_too_large: "Constraint",
  invalid_arguments: "State",
  syntax_error: "State",
};

/**
 * The pre-filled draft of a novel failure (000: "log as novel failure … flag for library addition"):
 * the symptom from the error, the hidden reality from the diagnosis's root cause, probe and resolution
 * from its plan, the category guessed from the error type (Physical when the tool reported an object),
 * a conservative risk (High when the failure needs a person, else Medium).
 */
export function noveltyDraft(query: LibraryQuery, error: ToolError, diagnosis: Diagnosis | null, where: { missionId: string; failedSeq: number; physical: boolean }): LibraryDraft {
  const pad = (s: string, min: number, max: number, filler: string) => clip(s.trim().length >= min ? s.trim() : `${s.trim()} ${filler}`.trim(), max);
  const d = diagnosis;
  const type = d?.errorClassification.type ?? "unknown";
  const severity = d?.errorClassification.severity ?? "user_action_required";
  const steps = d?.recoveryPlan.steps.map((s) => s.action).filter(Boolean) ?? [];
  const tags = [...new Set((query.environmental_context ?? []).map((t) => t.toLowerCase().replace(/[^a-z0-9_.+-]+/g, "-").replace(/^[^a-z0-9]+/, "").slice(0, 40)).filter(Boolean))].slice(0, 20);
  const root = d ? d.rootCause.description : error.message;
  return {
    title: clip(root.split(/[.;:]/)[0].trim() || error.code, 80).padEnd(2, "?"),
    category: where.physical ? "Physical" : (CATEGORY_BY_TYPE[type] ?? "State"),
    surface_symptom: pad(query.observed_symptom, 10, 400, `(${error.code})`),
    hidden_reality: pad(root, 10, 1000, `(${type})`),
    diagnostic_probe: pad(d ? [...Object.values(d.whyChain).slice(0, 2)].join(" ") || `Reproduce the failure of ${query.object_class}.` : `Reproduce the failure of ${query.object_class ?? "the step"} and read its output.`, 5, 1000, "Reproduce it."),
    resolution_path: pad(d ? `${d.recoveryPlan.strategy.replaceAll("_", " ")}${steps.length ? `: ${steps.join("; ")}` : ""}` : "Escalate to an operator.", 5, 1000, "Escalate."),
    risk_level: severity === "recoverable" ? "Medium" : "High",
    context_tags: tags,
    references: [`Faultline mission ${where.missionId}, event ${where.failedSeq}`],
    source: "incident_analysis",
  };
}
