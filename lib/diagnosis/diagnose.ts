import { ulid } from "ulid";
import { classify, type Classification } from "./classify";
import { describeCall, RECOVERY_TEMPLATES, type TemplateContext } from "./templates";
import { inputContextSchema, type Alternative, type Diagnosis, type InputContext, type InputContextInput, type RecoveryStep, type WhyChain } from "./types";

/**
 * The deterministic "5 whys" diagnosis of ADR-0003: classify the failure from its evidence, then
 * fill the type's template with what the evidence says (binary, path, status, module, variable).
 * Same input + same `now` + same `id` → the same diagnosis.
 */

export interface DiagnoseOptions {
  /** AUTONOMOUS_DIAGNOSTIC_WHY_DEPTH (default 5). */
  whyDepth?: number;
  /** Time of the diagnosis (default: now). */
  now?: Date | number;
  /** Diagnosis id (default: "diag_" + a new ULID). */
  id?: string;
  /** AUTONOMOUS_MAX_RECOVERY_ATTEMPTS (default 2): identical failures after which the user decides. */
  maxRecoveryAttempts?: number;
  /** Strategies already tried for this failure: still listed as alternatives, never planned again. */
  exclude?: readonly string[];
  /** A learned pattern's strategy: planned first when it applies to this failure (the fast path). */
  prefer?: string;
}

export const DEFAULT_WHY_DEPTH = 5;
const MIN_ALTERNATIVES = 3;

const round2 = (n: number) => Math.round(n * 100) / 100;

/** why1: what was observed — the call and how it ended. */
function symptom(c: TemplateContext): string {
  const { f, input } = c;
  const how =
    f.status !== undefined
      ? `returned HTTP ${f.status}`
      : f.exitCode !== undefined
        ? `failed with exit code ${f.exitCode}${f.signal ? ` (${f.signal})` : ""}`
        : f.signal
          ? `was terminated by ${f.signal}`
          : f.errnos[0]
            ? `failed with ${f.errnos[0]}`
            : `failed: ${firstLine(input.failure.error.message)}`;
  return `${describeCall(c)} ${how}`;
}

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max)}…` : s);

function firstLine(s: string): string {
  return clip(s.split("\n").find((l) => l.trim()) ?? s, 160);
}

/** Whys beyond the template's five, from the mission context and the evidence itself. */
function contextWhys(c: TemplateContext): string[] {
  const prev = c.input.context.previousActions;
  const failed = prev.filter((a) => !a.success);
  const history = prev.length
    ? `${failed.length} of the last ${prev.length} actions failed${failed.length ? ` (${[...new Set(failed.map((a) => a.tool))].join(", ")})` : ""}, at iteration ${c.input.context.iteration}`
    : `The failure came at iteration ${c.input.context.iteration} with no earlier actions recorded`;
  const evidence = c.cls.evidence.map((e) => `Evidence: ${e.detail} (${e.source}, weight ${round2(e.weight)})`);
  return [history, ...evidence, "Deeper causes need information outside this failure (the worker's provisioning and the mission definition)"];
}

function whyChain(c: TemplateContext, depth: number): WhyChain {
  const t = RECOVERY_TEMPLATES[c.cls.type];
  const [assumption, safeguard, systemic] = t.deeper(c);
  const repeated = c.cls.repeatedFailure ? "The agent repeated an action that had already failed instead of changing approach" : assumption;
  const whys = [symptom(c), t.cause(c), repeated, safeguard, systemic, ...contextWhys(c)];
  while (whys.length < depth) whys.push(whys.at(-1)!);
  return Object.fromEntries(whys.slice(0, depth).map((w, i) => [`why${i + 1}`, w])) as WhyChain;
}

/** A ranked strategy with its concrete steps, and whether the orchestrator may apply it on its own. */
export type PlannedAlternative = Alternative & { steps: RecoveryStep[]; auto: boolean };

function alternatives(c: TemplateContext): PlannedAlternative[] {
  const available = c.input.context.availableTools;
  const certainty = 0.5 + 0.5 * c.cls.confidence;
  return RECOVERY_TEMPLATES[c.cls.type].strategies
    .filter((s) => !s.applies || s.applies(c))
    .map((s) => {
      const prior = typeof s.confidence === "function" ? s.confidence(c) : s.confidence;
      const asksUser = s.tools.length === 1 && s.tools[0] === "gate";
      const usable = asksUser || available.length === 0 || s.tools.filter((t) => t !== "gate").every((t) => available.includes(t)) ? 1 : 0.5;
      const leads = asksUser && c.cls.severity === "user_action_required" ? Math.max(prior, 0.8) : prior;
      return {
        strategy: s.strategy,
        tools: s.tools,
        description: s.describe(c),
        confidence: round2(Math.min(0.99, leads * (asksUser ? 1 : certainty) * usable)),
        estimatedIterations: s.estimatedIterations,
        steps: s.steps(c),
        auto: s.auto === true,
      };
    })
    .sort((a, b) => b.confidence - a.confidence);
}

const TASK_TYPES: Array<[RegExp, string]> = [
  [/\b(?:clone|repo(?:sitory)?|git)\b/i, "repository_clone"],
  [/\b(?:download|fetch|curl|wget|tarball)\b/i, "code_download"],
  [/\b(?:install|dependenc|package|npm|pip|module)\w*/i, "dependency_install"],
  [/\b(?:llm|model|completion|openai|anthropic|chat|prompt)\b/i, "llm_api_call"],
  [/\b(?:api|endpoint|request|http|webhook)\b/i, "http_api_call"],
  [/\b(?:test|build|compile|lint)\w*/i, "build_and_test"],
  [/\b(?:script|python|node|bash|run)\b/i, "script_execution"],
  [/\b(?:file|read|write|directory|folder)\b/i, "file_io"],
];
const TOOL_TASK: Record<string, string> = { shell: "command_execution", http: "http_api_call", file: "file_io" };

function applicableTaskTypes(c: TemplateContext): string[] {
  const hay = `${c.input.context.taskGoal} ${c.f.commandLine ?? ""} ${c.f.url ?? ""}`;
  const types = TASK_TYPES.filter(([re]) => re.test(hay)).map(([, t]) => t);
  return [...new Set([...types, TOOL_TASK[c.input.failure.tool] ?? `${c.input.failure.tool}_call`])];
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 80) || "failure";

/** The strategy to plan: the preferred one when it applies, else the best not yet tried (else the best). */
function planned(alts: PlannedAlternative[], opts: Pick<DiagnoseOptions, "exclude" | "prefer">): PlannedAlternative {
  const fresh = alts.filter((a) => !opts.exclude?.includes(a.strategy));
  return fresh.find((a) => a.strategy === opts.prefer) ?? fresh[0] ?? alts[0];
}

/**
 * A failure read and classified once: diagnose() and recoveryCandidates() take it in place of the raw input,
 * so a failure that needs both (and a second diagnosis with another plan) is classified once, not each time.
 */
export interface FailureAnalysis {
  readonly kind: "failure-analysis";
  readonly input: InputContext;
  readonly cls: Classification;
  readonly maxRecoveryAttempts: number | undefined;
}

export function analyseFailure(raw: InputContextInput | InputContext, opts: Pick<DiagnoseOptions, "maxRecoveryAttempts"> = {}): FailureAnalysis {
  const input = inputContextSchema.parse(raw);
  return { kind: "failure-analysis", input, cls: classify(input, { maxRecoveryAttempts: opts.maxRecoveryAttempts }), maxRecoveryAttempts: opts.maxRecoveryAttempts };
}

/** The analysis to use: the one given if it was made with the same settings, else a fresh one. */
function analysed(raw: InputContextInput | InputContext | FailureAnalysis, opts: Pick<DiagnoseOptions, "maxRecoveryAttempts">): FailureAnalysis {
  const given = (raw as Partial<FailureAnalysis>).kind === "failure-analysis" ? (raw as FailureAnalysis) : null;
  if (given && given.maxRecoveryAttempts === opts.maxRecoveryAttempts) return given;
  return analyseFailure(given ? given.input : (raw as InputContextInput), opts);
}

/** Every strategy for this failure, ranked as in the diagnosis, with its steps (the planner's input). */
export function recoveryCandidates(raw: InputContextInput | InputContext | FailureAnalysis, opts: Pick<DiagnoseOptions, "maxRecoveryAttempts"> = {}): PlannedAlternative[] {
  const { input, cls } = analysed(raw, opts);
  return alternatives({ input, cls, f: cls.facts });
}

/** The learned-pattern trigger (`when`) of a diagnosis: its learning pattern without the `_use_<strategy>` suffix. */
export function patternTrigger(d: Diagnosis): string {
  const suffix = `_use_${d.recoveryPlan.strategy}`;
  return d.learningOpportunity.pattern.endsWith(suffix) ? d.learningOpportunity.pattern.slice(0, -suffix.length) : d.learningOpportunity.pattern;
}

export function diagnose(raw: InputContextInput | InputContext | FailureAnalysis, opts: DiagnoseOptions = {}): Diagnosis {
  const { input, cls } = analysed(raw, opts);
  const c: TemplateContext = { input, cls, f: cls.facts };
  const template = RECOVERY_TEMPLATES[cls.type];
  const now = opts.now === undefined ? new Date() : new Date(opts.now);
  const depth = Math.max(1, Math.floor(opts.whyDepth ?? DEFAULT_WHY_DEPTH));

  const alts = alternatives(c);
  if (alts.length < MIN_ALTERNATIVES) throw new Error(`Template "${cls.type}" produced ${alts.length} alternatives for this failure; at least ${MIN_ALTERNATIVES} are required`);
  const plan = planned(alts, opts);
  const fallbacks = alts.filter((a) => a !== plan && !opts.exclude?.includes(a.strategy));
  const learned = template.learning(c);
  // A trigger names the failing thing, not where it ran: a port (a service restarted elsewhere) is left out.
  const trigger = slug(learned.trigger.replace(/:\d+(?!\d)/g, ""));

  return {
    id: opts.id ?? `diag_${ulid(now.getTime())}`,
    timestamp: now.toISOString(),
    iteration: input.context.iteration,
    whyChain: whyChain(c, depth),
    rootCause: { category: cls.category, description: template.cause(c), confidence: cls.probability },
    errorClassification: { type: cls.type, severity: cls.severity, canRecover: cls.canRecover },
    alternatives: alts.map(({ steps: _steps, auto: _auto, ...a }) => a),
    recoveryPlan: { priority: 1, strategy: plan.strategy, steps: plan.steps, fallbackChain: fallbacks.map((a) => a.strategy) },
    learningOpportunity: {
      pattern: `${trigger}_use_${plan.strategy}`,
      rule: `When ${trigger.replace(/_/g, " ")} (${clip(cls.evidence[0]?.detail ?? cls.type, 120)}), ${plan.description.charAt(0).toLowerCase()}${plan.description.slice(1)}`,
      applicableTaskTypes: applicableTaskTypes(c),
      generalizability: learned.generalizability,
    },
  };
}
