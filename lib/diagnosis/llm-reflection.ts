import { z } from "zod";
import { completeWithFallback, type Attempt } from "../llm/chain";
import type { ChatRequest } from "../llm/client";
import type { Provider } from "../llm/providers";
import { classify, type Classification, type Evidence, type Facts } from "./classify";
import { ERROR_TYPES, inputContextSchema, type DiagnosedType, type Diagnosis, type InputContext } from "./types";

/**
 * The optional LLM reflection of ADR-0003, as a checked proposal.
 *
 * The LLM is asked to diagnose the failure on its own (the deterministic diagnosis is not shown
 * to it) and to quote the lines it relies on. Its answer is only a proposal: `checkProposal`
 * holds it against the evidence the deterministic classifier read from the same failure —
 * quoted lines must really be in the output, the type must agree with a confident deterministic
 * type and with the hard rules below. The proposal never verifies itself.
 *
 * ADR-0003 open question 4 ("How to prevent diagnostic reflection from hallucinating root
 * causes?") is answered here: full error context in, validation against the known patterns out.
 */

// ---------------------------------------------------------------- the proposal

const line300 = z.string().trim().min(1).max(300);

export const proposalSchema = z.object({
  type: z.enum([...ERROR_TYPES, "unknown"]),
  rootCause: z.object({
    category: z.string().trim().min(1).max(80),
    description: z.string().trim().min(1).max(500),
    confidence: z.number().min(0).max(1),
  }),
  whyChain: z.array(line300).min(1).max(10),
  /** Lines quoted verbatim from the failure's message, stdout or stderr. */
  citedLines: z.array(line300).max(5),
  recoveryStrategy: z.string().trim().min(1).max(80).optional(),
});
export type DiagnosisProposal = z.output<typeof proposalSchema>;

// ---------------------------------------------------------------- the request

/** Deterministic below this confidence: a different type may win when a quoted line supports it. */
export const CONFIDENT_DETERMINISTIC = 0.6;
export const DEFAULT_REFLECTION_TIMEOUT_MS = 20_000;

const STDERR_LINES = 60;
const STDOUT_LINES = 30;
const STDERR_BUDGET = 1_600;
const STDOUT_BUDGET = 600;
const MESSAGE_LINES = 12;
const MESSAGE_BUDGET = 400;
const LINE_CHARS = 240;
/** The whole prompt (system + user), in characters. */
const MAX_PROMPT_CHARS = 6_000;
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

const TYPE_DEFINITIONS: Record<DiagnosedType, string> = {
  tool_not_found: "the agent called a tool that does not exist or is not allowed",
  command_not_found: "the program to run is not installed or not on PATH (exit 127, \"command not found\")",
  permission_denied: "a file, sandbox or credential permission was refused (EACCES, exit 126, 401/403)",
  invalid_arguments: "wrong arguments, options, paths or request fields (usage errors, 400/404/422)",
  timeout: "the call ran past a time limit (timed out, exit 124, 408/504)",
  output_too_large: "output, request or context exceeded a size limit (maxBuffer, 413, context length)",
  rate_limited: "a rate limit or quota refused the call (429, \"rate limit\", \"quota exceeded\")",
  network_error: "the host could not be reached or the connection failed (DNS, refused, reset, 5xx)",
  syntax_error: "code, configuration or data could not be parsed (SyntaxError, invalid JSON/YAML)",
  environment_missing: "a module, dependency, environment variable, credential or project setup is missing",
  unknown: "no evidence fits any type above",
};

const SYSTEM_PROMPT = [
  "You diagnose why a tool call of an autonomous agent failed. Judge only from the failure shown.",
  "",
  "Error types (pick exactly one):",
  ...(Object.entries(TYPE_DEFINITIONS) as Array<[DiagnosedType, string]>).map(([t, d]) => `- ${t}: ${d}`),
  "",
  "Answer with ONE JSON object and nothing else:",
  '{"type":"<a type above>","rootCause":{"category":"<snake_case, max 80 chars>","description":"<max 500 chars>","confidence":<0..1>},' +
    '"whyChain":["<why1: what failed>","<why2: why that happened>","… 1 to 10 entries, max 300 chars each"],' +
    '"citedLines":["<decisive line, quoted verbatim>","… 0 to 5 entries"],"recoveryStrategy":"<snake_case, max 80 chars; optional>"}',
  "",
  "Rules:",
  "- Quote decisive lines verbatim: copy each exactly from the error message, stderr or stdout, one line per entry. A quote not in the output voids the answer.",
  "- The type must follow from the quoted lines, exit code, signal or HTTP status; if nothing fits, \"unknown\".",
  "- A line ending in \"…\" was shortened: quote only the part before \"…\".",
].join("\n");

function clipLine(line: string, max = LINE_CHARS): string {
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function textLines(text: string | undefined): string[] {
  if (!text) return [];
  const lines = text.replace(ANSI, "").split(/\r?\n/).map((l) => l.trimEnd());
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  while (lines.length && !lines[0].trim()) lines.shift();
  return lines;
}

/** The last `maxLines` lines that fit in `budget` characters, with a note of what was left out. */
function tail(text: string | undefined, maxLines: number, budget: number): string {
  const lines = textLines(text);
  if (lines.length === 0) return "(empty)";
  const kept: string[] = [];
  let used = 0;
  for (let i = lines.length - 1; i >= 0 && kept.length < maxLines; i--) {
    const l = clipLine(lines[i]);
    if (used + l.length + 1 > budget) break;
    kept.unshift(l);
    used += l.length + 1;
  }
  const omitted = lines.length - kept.length;
  return `${omitted > 0 ? `[… ${omitted} earlier line${omitted === 1 ? "" : "s"} not shown]\n` : ""}${kept.join("\n")}`;
}

/** The first lines of the error message that fit in the budget. */
function head(text: string, maxLines: number, budget: number): string {
  const lines = textLines(text);
  if (lines.length === 0) return "(empty)";
  const kept: string[] = [];
  let used = 0;
  for (const line of lines.slice(0, maxLines)) {
    const l = clipLine(line);
    if (used + l.length + 1 > budget) break;
    kept.push(l);
    used += l.length + 1;
  }
  const omitted = lines.length - kept.length;
  return `${kept.join("\n")}${omitted > 0 ? `\n[… ${omitted} more line${omitted === 1 ? "" : "s"} not shown]` : ""}`;
}

function compactJson(value: unknown, max: number): string {
  let s: string;
  try {
    s = JSON.stringify(value) ?? String(value);
  } catch {
    s = String(value);
  }
  return clipLine(s.replace(/\s+/g, " "), max);
}

/**
 * The chat request of the reflection: the taxonomy and the answer's shape (system), the failure
 * and its context (user). The deterministic diagnosis is deliberately not included — the LLM must
 * judge independently, so that agreement means something. Bounded to about 6,000 characters
 * whatever the size of the output (the tail of stderr and stdout, where failures are decided).
 *
 * `model` is accepted for symmetry with the reflection settings, but an OpenAI-compatible
 * ChatRequest carries no model: each provider answers with its configured one.
 */
export function reflectionRequest(input: InputContext, deterministic: Diagnosis, cfg: { temperature: number; maxTokens: number; model?: string }): ChatRequest {
  void deterministic; // not shown to the LLM on purpose (see above)
  // The output budgets shrink until the whole prompt fits (only pathological inputs need a second pass).
  let user = userPrompt(input, 1);
  for (let scale = 0.8; SYSTEM_PROMPT.length + user.length > MAX_PROMPT_CHARS && scale > 0.1; scale -= 0.2) user = userPrompt(input, scale);
  return {
    messages: [
      { role: "system", content: SYSTEM_PROMPT },
      { role: "user", content: user },
    ],
    temperature: cfg.temperature,
    maxTokens: cfg.maxTokens,
    json: true,
  };
}

const oneLine = (s: string, max: number) => clipLine(s.replace(/\s+/g, " ").trim(), max);

function userPrompt(input: InputContext, scale: number): string {
  const e = input.failure.error;
  const ctx = input.context;
  const failure = [
    "## Failure",
    `tool: ${oneLine(input.failure.tool, 60)}`,
    `args: ${compactJson(input.failure.args, 300)}`,
    `error message:\n${head(e.message, MESSAGE_LINES, Math.round(MESSAGE_BUDGET * scale))}`,
    `exit code: ${e.code ?? "(none)"}`,
    `signal: ${e.signal ? oneLine(e.signal, 30) : "(none)"}`,
    ...(e.status !== undefined ? [`HTTP status: ${e.status}`] : []),
    ...(e.errno ? [`errno: ${oneLine(e.errno, 40)}`] : []),
    ...(e.toolCode ? [`tool error code: ${oneLine(e.toolCode, 40)}`] : []),
    "",
    `stderr (last ${STDERR_LINES} lines at most):`,
    tail(e.stderr, STDERR_LINES, Math.round(STDERR_BUDGET * scale)),
    "",
    `stdout (last ${STDOUT_LINES} lines at most):`,
    tail(e.stdout, STDOUT_LINES, Math.round(STDOUT_BUDGET * scale)),
  ];
  const actions = ctx.previousActions
    .slice(-3)
    .map((a) => `- ${oneLine(a.tool, 40)} ${compactJson(a.args, 100)} → ${a.success ? "succeeded" : "failed"}${a.result ? `: ${oneLine(a.result, 100)}` : ""}`);
  const context = [
    "## Context",
    `goal: ${ctx.taskGoal ? oneLine(ctx.taskGoal, 200) : "(not given)"}`,
    `iteration: ${ctx.iteration}`,
    `last actions:${actions.length ? `\n${actions.join("\n")}` : " (none)"}`,
  ];
  return [...failure, "", ...context, "", "Diagnose this failure. Answer with the JSON object only."].join("\n");
}

// ---------------------------------------------------------------- parsing the answer

export type ParsedProposal = { ok: true; proposal: DiagnosisProposal } | { ok: false; reason: string };

/** whyChain[2], rootCause.confidence */
function issuePath(path: readonly PropertyKey[]): string {
  return path.map((k) => (typeof k === "number" ? `[${k}]` : `.${String(k)}`)).join("").replace(/^\./, "") || "(root)";
}

/** Top-level balanced {…} spans of `text` (string-aware), in order. */
function objectSpans(text: string): string[] {
  const spans: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"' && depth > 0) inString = true;
    else if (ch === "{") {
      if (depth === 0) start = i;
      depth++;
    } else if (ch === "}" && depth > 0) {
      depth--;
      if (depth === 0) spans.push(text.slice(start, i + 1));
    }
  }
  return spans;
}

function tryJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** The one JSON value of a reply: the whole text, a ```json fenced block, or a single object inside prose. */
function extractJson(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  const trimmed = text.trim();
  if (!trimmed) return { ok: false, reason: "not JSON: the reply is empty" };
  const whole = tryJson(trimmed);
  if (whole.ok) return whole;
  const fence = /```[ \t]*(?:json|JSON)?[ \t]*\r?\n?([\s\S]*?)```/.exec(trimmed);
  if (fence) {
    const inner = tryJson(fence[1].trim());
    if (inner.ok) return inner;
    return { ok: false, reason: `not JSON: the fenced block does not parse (${inner.error})` };
  }
  const objects = objectSpans(trimmed)
    .map((s) => tryJson(s))
    .filter((r): r is { ok: true; value: unknown } => r.ok && typeof r.value === "object" && r.value !== null && !Array.isArray(r.value));
  if (objects.length === 1) return objects[0];
  if (objects.length > 1) return { ok: false, reason: `not JSON: the reply holds ${objects.length} JSON objects; expected exactly one` };
  const start = trimmed.replace(/\s+/g, " ").slice(0, 60);
  return { ok: false, reason: `not JSON: ${whole.error}; no JSON object found in the reply (it starts "${start}${trimmed.length > 60 ? "…" : ""}")` };
}

/**
 * Reads the LLM's answer: plain JSON, a ```json fenced block, or one JSON object with text around
 * it. Reasons say what is wrong: "not JSON: …", or "field rootCause.confidence: …" per zod issue.
 */
export function parseProposal(text: string): ParsedProposal {
  const json = extractJson(text);
  if (!json.ok) return { ok: false, reason: json.reason };
  if (typeof json.value !== "object" || json.value === null || Array.isArray(json.value)) {
    return { ok: false, reason: `not a JSON object: the reply is ${Array.isArray(json.value) ? "an array" : json.value === null ? "null" : `a ${typeof json.value}`}` };
  }
  const parsed = proposalSchema.safeParse(json.value);
  if (!parsed.success) return { ok: false, reason: parsed.error.issues.map((i) => `field ${issuePath(i.path)}: ${i.message}`).join("; ") };
  return { ok: true, proposal: parsed.data };
}

// ---------------------------------------------------------------- checking the proposal

export interface ProposalCheck {
  verdict: "accepted" | "rejected";
  reasons: string[];
}

const TYPE_PHRASES: Record<DiagnosedType, string> = {
  tool_not_found: "a missing tool (tool_not_found)",
  command_not_found: "a missing command (command_not_found)",
  permission_denied: "a permission problem (permission_denied)",
  invalid_arguments: "an argument error (invalid_arguments)",
  timeout: "a timeout",
  output_too_large: "an oversized output (output_too_large)",
  rate_limited: "a rate limit (rate_limited)",
  network_error: "a network error",
  syntax_error: "a syntax error",
  environment_missing: "a missing environment (environment_missing)",
  unknown: "unknown",
};

interface RuleFacts {
  exitCode?: number;
  status?: number;
  signal?: string;
  /** The failure says it ran into a time limit (message, output, tool code, errno or a time-limited command line). */
  timeoutNote: boolean;
}

/**
 * Hard rules: evidence that settles the type whatever the classifier's confidence. A rule names
 * the evidence when it applies, and either the only types it allows or the types it excludes.
 */
interface HardRule {
  evidence: (f: RuleFacts) => string | null;
  only?: readonly DiagnosedType[];
  never?: readonly DiagnosedType[];
}

// prettier-ignore
const HARD_RULES: readonly HardRule[] = [
  // evidence                                                                                                   the type
  { evidence: (f) => (f.exitCode === 127 ? "exit code 127 (command not found)" : null),                         never: ["timeout", "rate_limited", "network_error"] },
  { evidence: (f) => (f.status === 429 ? "HTTP 429 (Too Many Requests)" : null),                                only: ["rate_limited"] },
  { evidence: (f) => (f.status === 413 ? "HTTP 413 (Content Too Large)" : null),                                only: ["output_too_large", "invalid_arguments"] },
  { evidence: (f) => (f.exitCode === 124 ? "exit code 124 (stopped by timeout)" : null),                        only: ["timeout"] },
  { evidence: (f) => ((f.signal === "SIGKILL" || f.signal === "SIGTERM") && f.timeoutNote ? `${f.signal} with a timeout note` : null), only: ["timeout"] },
];

const TIMEOUT_NOTE = /\btimed out\b|\btime-?out\b|\btime ?limit\b|\bdeadline exceeded\b|\bdid not (?:finish|complete|answer) within\b/i;

function ruleFacts(input: InputContext, facts: Facts): RuleFacts {
  const e = input.failure.error;
  const text = [e.message, e.stderr, e.stdout].filter(Boolean).join("\n");
  const timeLimitedCommand = /(?:^|\s)timeout\s|--?(?:max-)?time(?:out)?\b/.test(facts.commandLine ?? "");
  return {
    exitCode: facts.exitCode,
    status: facts.status,
    signal: facts.signal,
    timeoutNote: TIMEOUT_NOTE.test(text) || e.toolCode === "TIMEOUT" || facts.errnos.includes("ETIMEDOUT") || timeLimitedCommand,
  };
}

/** The proposal's type against the hard rules: one reason per broken rule. */
function hardRuleViolations(type: DiagnosedType, f: RuleFacts): string[] {
  const out: string[] = [];
  for (const rule of HARD_RULES) {
    const evidence = rule.evidence(f);
    if (evidence === null) continue;
    if (rule.never?.includes(type)) out.push(`${evidence} cannot be ${TYPE_PHRASES[type]}`);
    if (rule.only && !rule.only.includes(type)) out.push(`${evidence} must be ${rule.only.join(" or ")}, not ${type}`);
  }
  return out;
}

const EXIT_MEANINGS: Record<number, string> = { 124: "stopped by timeout", 126: "not executable", 127: "command not found" };

/** The deciding evidence, in words: `the line "…"`, `exit code 127 (command not found)`, `HTTP 429`. */
function describeEvidence(ev: Evidence, facts: Facts): string {
  if (ev.source === "output" || ev.source === "exception") return `the line "${clipLine(ev.detail, 160)}"`;
  if (ev.source === "exit_code" && facts.exitCode !== undefined && EXIT_MEANINGS[facts.exitCode] && ev.detail === `exit code ${facts.exitCode}`) {
    return `${ev.detail} (${EXIT_MEANINGS[facts.exitCode]})`;
  }
  return ev.detail;
}

/** Trimmed, ANSI-free, whitespace collapsed. */
function normalize(s: string): string {
  return s.replace(ANSI, "").replace(/\s+/g, " ").trim();
}

const MIN_SUBSTRING = 12;

/** Is `cited` a line (or a ≥ 12-character part of a line) of the failure's message, stdout or stderr? */
function citedLineFound(cited: string, lines: readonly string[]): boolean {
  const candidates = [normalize(cited)];
  const unshortened = candidates[0].replace(/\s*(?:…|\.\.\.)$/, "");
  if (unshortened !== candidates[0]) candidates.push(unshortened); // quoted from a line the prompt shortened
  return candidates.some((c) => c.length > 0 && lines.some((l) => l === c || (c.length >= MIN_SUBSTRING && l.includes(c))));
}

function outputLines(input: InputContext): string[] {
  const e = input.failure.error;
  return [e.message, e.stdout, e.stderr]
    .filter((t): t is string => !!t)
    .flatMap((t) => t.split(/\r?\n/))
    .map(normalize)
    .filter(Boolean);
}

/** Evidence for `type` that the deterministic classifier finds in this one line, on its own. */
const LINE_EVIDENCE_MIN_SCORE = 0.3;
function lineSupports(line: string, type: DiagnosedType, tool: string): boolean {
  if (type === "unknown") return true; // "no type fits" needs no type's evidence, only a real line
  const cls = classify(inputContextSchema.parse({ failure: { tool, args: {}, error: { message: "", stderr: line } } }));
  return cls.scores[type] >= LINE_EVIDENCE_MIN_SCORE;
}

const c2 = (n: number) => String(Math.round(n * 100) / 100);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * Holds an LLM proposal against the evidence the deterministic diagnosis read from the same
 * failure. Rejected when a cited line is not in the output, when the type contradicts a confident
 * deterministic type (c ≥ 0.6) or a hard rule; a different type wins over a low-confidence one
 * only when a cited line in the output carries evidence for it. Pure and deterministic.
 */
export function checkProposal(proposal: DiagnosisProposal, input: InputContext, deterministic: Diagnosis, classification: Classification): ProposalCheck {
  const rejected: string[] = [];
  const detType = classification.type;
  const detConfidence = classification.confidence;

  if (deterministic.errorClassification.type !== detType) {
    rejected.push(`the deterministic diagnosis (${deterministic.errorClassification.type}) and the classification (${detType}) disagree: both must come from the same failure`);
  }

  // 1. Every cited line must be in the output.
  const lines = outputLines(input);
  const found: string[] = [];
  for (const cited of proposal.citedLines) {
    if (citedLineFound(cited, lines)) found.push(cited);
    else rejected.push(`cited line not found in the failure's message, stdout or stderr: "${clipLine(normalize(cited), 160)}"`);
  }
  const citedSummary = proposal.citedLines.length === 0 ? "no lines cited" : `${plural(found.length, "cited line")} found`;

  // 2. Hard rules, whatever the confidence.
  rejected.push(...hardRuleViolations(proposal.type, ruleFacts(input, classification.facts)));

  // 3. Agreement with the deterministic type.
  let accepted: string | undefined;
  if (proposal.type === detType) {
    accepted = `agrees with the deterministic type ${detType}; ${citedSummary}`;
  } else if (detType !== "unknown" && detConfidence >= CONFIDENT_DETERMINISTIC) {
    const decisive = classification.evidence[0];
    const why = decisive ? describeEvidence(decisive, classification.facts) : `the evidence for ${detType}`;
    rejected.push(`${why} decides ${detType} (c=${c2(detConfidence)} ≥ ${CONFIDENT_DETERMINISTIC}); it cannot be ${TYPE_PHRASES[proposal.type]}`);
  } else {
    const supporting = found.find((l) => lineSupports(l, proposal.type, input.failure.tool));
    if (supporting === undefined) {
      rejected.push(
        found.length === 0
          ? `${proposal.type} differs from the low-confidence deterministic type ${detType} (c=${c2(detConfidence)}) and no cited line in the output supports it`
          : `${proposal.type} differs from the low-confidence deterministic type ${detType} (c=${c2(detConfidence)}) and none of the cited lines shows ${TYPE_PHRASES[proposal.type]}`,
      );
    } else {
      accepted = `accepted over a low-confidence deterministic type ${detType} (c=${c2(detConfidence)}): the cited line "${clipLine(normalize(supporting), 160)}" shows ${TYPE_PHRASES[proposal.type]}; ${citedSummary}`;
    }
  }

  if (rejected.length > 0 || accepted === undefined) return { verdict: "rejected", reasons: rejected };
  return { verdict: "accepted", reasons: [accepted] };
}

// ---------------------------------------------------------------- the call

export type ReflectionStatus = "accepted" | "rejected" | "invalid" | "unavailable";

export interface ReflectionOutcome {
  status: ReflectionStatus;
  proposal: DiagnosisProposal | null;
  reasons: string[];
  provider: string | null;
  model: string | null;
  elapsedMs: number;
}

export interface ReflectionConfig {
  providers: Provider[];
  temperature: number;
  maxTokens: number;
  /** Limit for the whole reflection, all providers together (default 20 s). Each provider's timeoutMs applies too. */
  timeoutMs?: number;
  signal?: AbortSignal;
  now?: () => number;
}

/** A completion is capped well below the client's 4 MiB default: a proposal is a few KiB. */
const MAX_REFLECTION_RESPONSE_BYTES = 256 * 1024;

/**
 * Asks the configured providers (in order, with explicit fallback) for a diagnosis proposal and
 * checks it. Never throws:
 * - `unavailable`: no provider answered (one reason per provider, its error message);
 * - `invalid`: the answer is not a proposal (the reason from parseProposal);
 * - `accepted` / `rejected`: the verdict of checkProposal, with its reasons.
 */
export async function reflectWithLlm(input: InputContext, deterministic: Diagnosis, classification: Classification, cfg: ReflectionConfig): Promise<ReflectionOutcome> {
  const now = cfg.now ?? Date.now;
  const started = now();
  const elapsed = () => Math.max(0, Math.round(now() - started));
  const timeoutMs = cfg.timeoutMs ?? DEFAULT_REFLECTION_TIMEOUT_MS;
  const limit = new AbortController();
  const timer = setTimeout(() => limit.abort(new Error(`the LLM reflection's time limit of ${timeoutMs} ms ran out`)), timeoutMs);
  const signal = cfg.signal ? AbortSignal.any([cfg.signal, limit.signal]) : limit.signal;
  let provider: string | null = null;
  let model: string | null = null;
  try {
    const request = reflectionRequest(input, deterministic, { temperature: cfg.temperature, maxTokens: cfg.maxTokens });
    const result = await completeWithFallback(cfg.providers, request, signal, { maxResponseBytes: MAX_REFLECTION_RESPONSE_BYTES });
    if (!result.ok) {
      const attempts = Array.isArray(result.error.details?.attempts) ? (result.error.details.attempts as Attempt[]) : [];
      const reasons = attempts.length ? attempts.map((a) => `${a.provider}: ${a.message}`) : [result.error.message];
      return { status: "unavailable", proposal: null, reasons, provider: null, model: null, elapsedMs: elapsed() };
    }
    provider = result.data.provider;
    model = result.data.model;
    const parsed = parseProposal(result.data.content);
    if (!parsed.ok) return { status: "invalid", proposal: null, reasons: [parsed.reason], provider, model, elapsedMs: elapsed() };
    const check = checkProposal(parsed.proposal, input, deterministic, classification);
    return { status: check.verdict, proposal: parsed.proposal, reasons: check.reasons, provider, model, elapsedMs: elapsed() };
  } catch (err) {
    // Not expected (the client never throws); reported rather than thrown, as promised.
    return { status: "unavailable", proposal: null, reasons: [`the LLM reflection failed unexpectedly: ${err instanceof Error ? err.message : String(err)}`], provider, model, elapsedMs: elapsed() };
  } finally {
    clearTimeout(timer);
  }
}
