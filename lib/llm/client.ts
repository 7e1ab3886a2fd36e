import { z } from "zod";
import { deadline } from "../deadline";
import { fail, ok, type ToolError, type ToolResult } from "../tools/result";
import { abortReason, errorCodes, errorMessage, readBodyCapped, rootMessage, type BodyRead } from "../tools/util";
import type { Provider } from "./providers";

/**
 * A minimal OpenAI-compatible HTTP client (global fetch, no SDK): `POST {baseUrl}/chat/completions`
 * for completions and `GET {baseUrl}/models` for health. Never throws: every outcome is a strict
 * ToolResult, and every failure is classified so the caller can decide (fall back, pause, ask):
 *
 *   kind            when                                              tool code                         recoverable
 *   rate_limited    429                                               RATE_LIMITED (+ retryAfterMs)     yes
 *   unavailable     5xx, 408, refused, DNS/reset, provider timeout    HTTP_ERROR / CONNECTION_REFUSED /
 *                                                                     NETWORK_ERROR / TIMEOUT           yes
 *   auth            401, 403                                          HTTP_ERROR                        no
 *   invalid_request 400, 404, 422 and other 4xx                       HTTP_ERROR                        no
 *   invalid_output  200 whose body is not a chat completion           HTTP_ERROR (status 200)           no
 *   cancelled       the caller's AbortSignal fired                    TIMEOUT                           yes
 *
 * `error.details` carries { kind, agentErrorCode (FAILURE_MODEL's code), recoverable, provider, model, latencyMs }.
 *
 * Function calling: `request.tools` / `toolChoice` go out as OpenAI `tools` / `tool_choice`; assistant
 * messages with `toolCalls` and `tool` messages (`toolCallId`) are sent as `tool_calls` / `tool_call_id`.
 * A completion carries `toolCalls` (empty when the model answered with text) and `content` ("" when it
 * only called tools). Malformed `tool_calls` and a reply with neither text nor calls are invalid_output;
 * toolChoice "required" without tools is invalid_request (INVALID_ARGS, nothing is sent).
 * `parseToolArguments` reads a call's arguments.
 */

/**
 * One function call a model asked for. `arguments` is the raw JSON text as the provider sent it
 * (read it with `parseToolArguments`); `id` pairs it with the `tool` message that answers it.
 */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** A message of the conversation. Tool calls and their results use the OpenAI wire format when sent. */
export type ChatMessage =
  | { role: "system" | "user"; content: string }
  /** A model turn: text, tool calls, or both (content null when it only called tools). */
  | { role: "assistant"; content: string | null; toolCalls?: ToolCall[] }
  /** The result of the tool call `toolCallId`, as text (usually JSON). */
  | { role: "tool"; toolCallId: string; content: string };
export type ChatRole = ChatMessage["role"];

/** A function the model may call: `parameters` is a JSON schema object for its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}
/** "auto": the model chooses text or a call; "required": it must call a tool; "none": text only. */
export type ToolChoice = "auto" | "required" | "none";

export interface ChatRequest {
  messages: ChatMessage[];
  maxTokens?: number;
  temperature?: number;
  /** Ask for a JSON object (`response_format: {type: "json_object"}`). */
  json?: boolean;
  /** Functions the model may call (sent as `tools: [{type: "function", function}]`). */
  tools?: ToolSpec[];
  /** Sent as `tool_choice`, only together with a non-empty `tools`. */
  toolChoice?: ToolChoice;
}

export type LlmFailureKind = "rate_limited" | "unavailable" | "auth" | "invalid_request" | "invalid_output" | "cancelled";
/** FAILURE_MODEL's agent error codes, as far as a provider call can cause them. */
export type LlmAgentErrorCode = "RATE_LIMIT_EXCEEDED" | "TIMEOUT" | "INVALID_OUTPUT" | "PROVIDER_ERROR";

export interface LlmFailureDetails {
  kind: LlmFailureKind;
  agentErrorCode: LlmAgentErrorCode;
  recoverable: boolean;
  provider: string;
  model: string;
  latencyMs: number;
  [key: string]: unknown;
}

export interface Usage {
  promptTokens?: number;
  completionTokens?: number;
  totalTokens?: number;
}

export interface Completion {
  [key: string]: unknown;
  /** The model's text; "" when it answered with tool calls only. */
  content: string;
  /** The functions the model asked to call, in order; empty when it answered with text. */
  toolCalls: ToolCall[];
  /** The model the provider says answered (falls back to the configured one). */
  model: string;
  finishReason: string | null;
  usage: Usage | null;
  latencyMs: number;
}

export interface CallOptions {
  /** The caller's signal (step timeout, lease lost, shutdown). The provider's own timeoutMs applies too. */
  signal?: AbortSignal;
  idempotencyKey?: string;
  /** Cap on the response body; default 4 MiB. */
  maxResponseBytes?: number;
}

export const DEFAULT_MAX_LLM_RESPONSE_BYTES = 4 * 1024 * 1024;
const EXCERPT_CHARS = 200;

// ---------- pure helpers ----------

/** Retry-After in ms: delta-seconds (fractions allowed) or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfterHeader(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const t = value.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const at = Date.parse(t);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** "1m2.5s", "20s", "350ms", "6m0s" (OpenAI/Groq style) → ms. */
export function parseDurationText(text: string): number | undefined {
  const m = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/.exec(text.trim());
  if (!m || !m.slice(1).some(Boolean)) return undefined;
  const [h, min, s, ms] = m.slice(1).map((x) => (x ? Number(x) : 0));
  return Math.round(h * 3_600_000 + min * 60_000 + s * 1000 + ms);
}

function numberAt(obj: unknown, ...keys: string[]): number | undefined {
  let cur: unknown = obj;
  for (const k of keys) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  if (typeof cur === "number" && Number.isFinite(cur) && cur >= 0) return cur;
  if (typeof cur === "string" && /^\d+(\.\d+)?$/.test(cur.trim())) return Number(cur);
  return undefined;
}

/**
 * How long a 429 asks us to wait: `retry-after-ms`, `Retry-After`, then the body
 * (`retry_after_ms`, `retry_after` in seconds, at the top level or under `error`, or
 * "try again in 1m2.5s" in the error message). Undefined when nothing says.
 */
export function retryAfterFrom(headers: Headers, bodyText: string, now = Date.now()): number | undefined {
  const ms = numberAt({ v: headers.get("retry-after-ms") }, "v");
  if (ms !== undefined) return Math.round(ms);
  const header = parseRetryAfterHeader(headers.get("retry-after"), now);
  if (header !== undefined) return header;
  let body: unknown = null;
  try {
    body = JSON.parse(bodyText);
  } catch {
    // not JSON: the text itself may still say "try again in 20s"
  }
  for (const base of [[], ["error"]] as string[][]) {
    const bms = numberAt(body, ...base, "retry_after_ms");
    if (bms !== undefined) return Math.round(bms);
    const bs = numberAt(body, ...base, "retry_after");
    if (bs !== undefined) return Math.round(bs * 1000);
  }
  const text = errorMessageFromBody(bodyText) ?? bodyText;
  const said = /try again in\s+([0-9hms.]+)/i.exec(text);
  return said ? parseDurationText(said[1].replace(/\.$/, "")) : undefined;
}

/** `error.message` (OpenAI style), `message` or `detail` from a JSON error body. */
export function errorMessageFromBody(bodyText: string): string | undefined {
  try {
    const body = JSON.parse(bodyText) as unknown;
    if (body && typeof body === "object") {
      const b = body as Record<string, unknown>;
      const err = b.error;
      if (typeof err === "string") return err;
      if (err && typeof err === "object" && typeof (err as Record<string, unknown>).message === "string") return (err as Record<string, string>).message;
      if (typeof b.message === "string") return b.message;
      if (typeof b.detail === "string") return b.detail;
    }
  } catch {
    // not JSON
  }
  return undefined;
}

function excerpt(text: string, chars = EXCERPT_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > chars ? `${flat.slice(0, chars)}…` : flat;
}

const toolCallSchema = z.object(
  {
    id: z.string({ error: "must be a string (the call's id)" }).nullish(),
    type: z.literal("function", { error: 'must be "function" (the only kind of tool this client offers)' }).nullish(),
    function: z.object(
      {
        name: z.string({ error: "must be a string (the name of the function to call)" }).trim().min(1, "must not be empty (the name of the function to call)"),
        arguments: z.unknown().optional(),
      },
      { error: "must be an object with the function's name and arguments" },
    ),
  },
  { error: "must be an object (one tool call)" },
);

const chatCompletionSchema = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        message: z.object({
          role: z.string().optional(),
          content: z.string({ error: "must be a string or null (the provider sent no text)" }).nullish(),
          tool_calls: z.array(toolCallSchema, { error: "must be an array of tool calls" }).nullish(),
        }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1, "must contain at least one choice"),
  usage: z
    .object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional(), total_tokens: z.number().optional() })
    .nullable()
    .optional(),
});

/** A validated chat completion, reduced to what a caller uses (choices[0]). */
export interface ParsedChatCompletion {
  model?: string;
  /** "" when the model only called tools. */
  content: string;
  toolCalls: ToolCall[];
  finishReason: string | null;
  usage: Usage | null;
}

/**
 * Validates a 200 body as a chat completion; the reason in words when it is not one. A completion
 * must carry text or tool calls: `content` may be null or absent only when `tool_calls` is non-empty.
 * A call without an id gets `call_<index>`; arguments sent as a JSON value instead of text are
 * re-serialized, absent ones become "".
 */
export function parseChatCompletion(bodyText: string): { ok: true; value: ParsedChatCompletion } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    return { ok: false, reason: bodyText.trim() ? `the body is not JSON ("${excerpt(bodyText, 80)}")` : "the body is empty" };
  }
  const parsed = chatCompletionSchema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, reason: parsed.error.issues.map((i) => `${i.path.map((k) => (typeof k === "number" ? `[${k}]` : `.${String(k)}`)).join("").replace(/^\./, "") || "body"}: ${i.message}`).join("; ") };
  }
  const choice = parsed.data.choices[0];
  const content = choice.message.content ?? null;
  const toolCalls: ToolCall[] = (choice.message.tool_calls ?? []).map((c, i) => ({
    id: c.id?.trim() ? c.id : `call_${i}`,
    name: c.function.name,
    arguments: typeof c.function.arguments === "string" ? c.function.arguments : c.function.arguments == null ? "" : JSON.stringify(c.function.arguments),
  }));
  if (toolCalls.length === 0) {
    if (content === null) return { ok: false, reason: `choices[0].message.content is ${choice.message.content === null ? "null" : "absent"} and there are no tool_calls: the provider sent neither text nor a tool call` };
    if (!content.trim()) return { ok: false, reason: "choices[0].message.content is empty and there are no tool_calls" };
  }
  const u = parsed.data.usage;
  return {
    ok: true,
    value: {
      ...(parsed.data.model !== undefined ? { model: parsed.data.model } : {}),
      content: content ?? "",
      toolCalls,
      finishReason: choice.finish_reason ?? null,
      usage: u ? { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens, totalTokens: u.total_tokens } : null,
    },
  };
}

/** JSON from a model's text: the whole text, or the body of a single ``` fenced block (as parseModelJson in lib/tools/llm.ts). */
function parseFencedJson(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/i.exec(trimmed);
  try {
    return { ok: true, value: JSON.parse(fenced ? fenced[1] : trimmed) };
  } catch (e) {
    return { ok: false, reason: errorMessage(e) };
  }
}

function jsonKind(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * The named arguments of a tool call as an object. Tolerated: "" or whitespace (no arguments → {}),
 * a ``` fenced JSON block, and an object encoded twice (a JSON string holding the object's JSON).
 * Anything else — not JSON, or JSON that is not an object — is `{ ok: false, reason }` in words;
 * the caller decides (the runner turns it into a proposal the authority rejects).
 */
export function parseToolArguments(call: ToolCall): { ok: true; args: Record<string, unknown> } | { ok: false; reason: string } {
  const raw = call.arguments ?? "";
  if (!raw.trim()) return { ok: true, args: {} };
  const parsed = parseFencedJson(raw);
  if (!parsed.ok) return { ok: false, reason: `the arguments of "${call.name}" are not JSON (${parsed.reason}): "${excerpt(raw, 80)}"` };
  let value = parsed.value;
  if (typeof value === "string") {
    const inner = parseFencedJson(value);
    if (inner.ok && inner.value !== null && typeof inner.value === "object" && !Array.isArray(inner.value)) value = inner.value;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, reason: `the arguments of "${call.name}" are ${jsonKind(value)}, not a JSON object of named arguments: "${excerpt(raw, 80)}"` };
  }
  return { ok: true, args: value as Record<string, unknown> };
}

/** A message in the OpenAI wire format. */
function wireMessage(m: ChatMessage): Record<string, unknown> {
  if (m.role === "tool") return { role: "tool", tool_call_id: m.toolCallId, content: m.content };
  if (m.role === "assistant") {
    const calls = m.toolCalls ?? [];
    if (calls.length === 0) return { role: "assistant", content: m.content ?? "" };
    return { role: "assistant", content: m.content, tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })) };
  }
  return { role: m.role, content: m.content };
}

const AGENT_CODE: Record<LlmFailureKind, LlmAgentErrorCode> = {
  rate_limited: "RATE_LIMIT_EXCEEDED",
  unavailable: "PROVIDER_ERROR",
  auth: "PROVIDER_ERROR",
  invalid_request: "PROVIDER_ERROR",
  invalid_output: "INVALID_OUTPUT",
  cancelled: "TIMEOUT",
};
const RECOVERABLE: Record<LlmFailureKind, boolean> = {
  rate_limited: true,
  unavailable: true,
  auth: false,
  invalid_request: false,
  invalid_output: false,
  cancelled: true,
};

/** HTTP status → failure kind (for a non-2xx response). */
export function classifyStatus(status: number): LlmFailureKind {
  if (status === 429) return "rate_limited";
  if (status === 401 || status === 403) return "auth";
  if (status >= 500 || status === 408) return "unavailable";
  return "invalid_request";
}

/** The failure kind of a ToolError this client produced (undefined for other errors). */
export function failureKindOf(error: ToolError): LlmFailureKind | undefined {
  const k = error.details?.kind;
  return typeof k === "string" && k in AGENT_CODE ? (k as LlmFailureKind) : undefined;
}

function llmError(base: Omit<ToolError, "details">, kind: LlmFailureKind, provider: Provider, latencyMs: number, extra: Record<string, unknown> = {}): ToolError {
  const details: LlmFailureDetails = { kind, agentErrorCode: AGENT_CODE[kind], recoverable: RECOVERABLE[kind], provider: provider.name, model: provider.model, latencyMs, ...extra };
  return { ...base, details };
}





function authHeaders(provider: Provider): Record<string, string> {
  return provider.apiKey ? { Authorization: `Bearer ${provider.apiKey}` } : {};
}

type Aborts = { signal: AbortSignal; which: () => "cancelled" | "timeout" | null; cleanup: () => void };

function combineSignals(caller: AbortSignal | undefined, timeoutMs: number): Aborts {
  const timeout = new AbortController();
  const cancel = deadline(timeoutMs, () => timeout.abort(new Error(`no answer within ${timeoutMs} ms`)));
  const signal = caller ? AbortSignal.any([caller, timeout.signal]) : timeout.signal;
  return {
    signal,
    which: () => (caller?.aborted ? "cancelled" : timeout.signal.aborted ? "timeout" : null),
    cleanup: cancel,
  };
}

/** A request that produced no response: cancelled by the caller, timed out, refused, or another network failure. */
function transportError(err: unknown, label: string, provider: Provider, aborted: "cancelled" | "timeout" | null, caller: AbortSignal | undefined, latencyMs: number): ToolError {
  if (aborted === "cancelled") {
    const why = caller ? abortReason(caller) : undefined;
    return llmError({ code: "TIMEOUT", message: `${label} was stopped because the step was cancelled${why ? ` (${why})` : ""} before the provider answered.` }, "cancelled", provider, latencyMs);
  }
  if (aborted === "timeout") {
    return llmError(
      { code: "TIMEOUT", message: `${label} did not answer within ${provider.timeoutMs} ms (the provider's timeoutMs). The provider is slow or unreachable.` },
      "unavailable",
      provider,
      latencyMs,
      { reason: "timeout", agentErrorCode: "TIMEOUT" },
    );
  }
  const codes = errorCodes(err);
  const errno = codes.find((c) => /^E[A-Z_]+$/.test(c)) ?? codes.find((c) => c.startsWith("UND_ERR")) ?? codes[0];
  if (errno === "ECONNREFUSED") {
    return llmError({ code: "CONNECTION_REFUSED", errno, message: `${label} failed: connection refused (ECONNREFUSED). Is the provider running and listening at ${provider.baseUrl}?` }, "unavailable", provider, latencyMs, { reason: "refused" });
  }
  return llmError(
    { code: "NETWORK_ERROR", ...(errno ? { errno } : {}), message: `${label} failed: ${rootMessage(err)}${errno ? ` (${errno})` : ""}. Check the provider's baseUrl and the worker's network.` },
    "unavailable",
    provider,
    latencyMs,
    { reason: "network" },
  );
}

function statusError(label: string, provider: Provider, res: Response, bodyText: string, latencyMs: number): ToolError {
  const status = res.status;
  const kind = classifyStatus(status);
  const statusLine = `${status}${res.statusText ? ` ${res.statusText}` : ""}`;
  const said = errorMessageFromBody(bodyText) ?? bodyText;
  const quoted = said.trim() ? `: "${excerpt(said)}"` : " with an empty body";
  if (kind === "rate_limited") {
    const retryAfterMs = retryAfterFrom(res.headers, bodyText);
    const when = retryAfterMs === undefined ? "it did not say when to retry" : `it asks to retry after ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s`;
    return llmError({ code: "RATE_LIMITED", status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }), message: `${label} was rate limited (429); ${when}${quoted}.` }, kind, provider, latencyMs);
  }
  const advice: Record<Exclude<LlmFailureKind, "rate_limited" | "invalid_output" | "cancelled">, string> = {
    unavailable: "The provider is failing on its side; another provider or a later retry may work.",
    auth: "The provider rejected the credentials: check this provider's apiKey in FAULTLINE_LLM_PROVIDERS. Retrying will not help.",
    invalid_request: "The provider rejected the request (model name, parameters or prompt size). Retrying the same request will not help.",
  };
  return llmError({ code: "HTTP_ERROR", status, message: `${label} returned ${statusLine}${quoted}. ${advice[kind as keyof typeof advice]}` }, kind, provider, latencyMs, { body: bodyText.slice(0, 2048) });
}

// ---------- calls ----------

/** The JSON body a chat request is sent as to a provider serving `model` (OpenAI's chat completions). */
export function wireBody(model: string, request: ChatRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { model, messages: request.messages.map(wireMessage), stream: false };
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.json) body.response_format = { type: "json_object" };
  const tools = request.tools ?? [];
  if (tools.length > 0) {
    body.tools = tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));
    if (request.toolChoice !== undefined) body.tool_choice = request.toolChoice;
  }
  return body;
}

/** One chat completion from one provider. */
export async function chatCompletion(provider: Provider, request: ChatRequest, opts: CallOptions = {}): Promise<ToolResult<Completion>> {
  const label = `LLM provider "${provider.name}" (POST ${provider.baseUrl}/chat/completions, model ${provider.model})`;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const aborts = combineSignals(opts.signal, provider.timeoutMs);
  const body = wireBody(provider.model, request);
  const tools = request.tools ?? [];
  try {
    if (request.toolChoice === "required" && tools.length === 0) {
      return fail(
        llmError(
          { code: "INVALID_ARGS", message: `${label} was not called: toolChoice is "required" but the request offers no tools, so the model could not comply. Pass the tools, or leave toolChoice out.` },
          "invalid_request",
          provider,
          0,
        ),
      );
    }
    if (opts.signal?.aborted) return fail(transportError(opts.signal.reason, label, provider, "cancelled", opts.signal, 0));
    let res: Response;
    let read: BodyRead;
    try {
      res = await fetch(`${provider.baseUrl}/chat/completions`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          ...authHeaders(provider),
          ...(opts.idempotencyKey ? { "Idempotency-Key": opts.idempotencyKey } : {}),
        },
        body: JSON.stringify(body),
        signal: aborts.signal,
      });
      read = await readBodyCapped(res, opts.maxResponseBytes ?? DEFAULT_MAX_LLM_RESPONSE_BYTES);
    } catch (err) {
      return fail(transportError(err, label, provider, aborts.which(), opts.signal, elapsed()));
    }
    const latencyMs = elapsed();
    if (res.status < 200 || res.status > 299) return fail(statusError(label, provider, res, read.text, latencyMs));
    if (read.tooLarge) {
      return fail(
        llmError(
          { code: "OUTPUT_TOO_LARGE", status: res.status, message: `${label} returned more than ${opts.maxResponseBytes ?? DEFAULT_MAX_LLM_RESPONSE_BYTES} bytes, so reading stopped. Lower maxTokens.` },
          "invalid_output",
          provider,
          latencyMs,
        ),
      );
    }
    const parsed = parseChatCompletion(read.text);
    if (!parsed.ok) {
      return fail(
        llmError(
          { code: "HTTP_ERROR", status: res.status, message: `${label} answered ${res.status} but the body is not a valid chat completion (INVALID_OUTPUT): ${parsed.reason}.` },
          "invalid_output",
          provider,
          latencyMs,
          { body: read.text.slice(0, 2048) },
        ),
      );
    }
    const c = parsed.value;
    return ok({ content: c.content, toolCalls: c.toolCalls, model: c.model ?? provider.model, finishReason: c.finishReason, usage: c.usage, latencyMs });
  } finally {
    aborts.cleanup();
  }
}

/** FAILURE_MODEL's ProviderHealth. */
export interface ProviderHealth {
  status: "healthy" | "rate_limited" | "unavailable";
  remainingQuota?: number;
  resetAt?: string;
  latencyMs?: number;
}

export interface ProbeResult {
  health: ProviderHealth;
  /** Why the provider is not healthy, in words (never contains the API key). */
  problem: string | null;
}

/**
 * Health probe: `GET {baseUrl}/models` within `timeoutMs` (default: the provider's timeoutMs, capped
 * at 5 s). 2xx → healthy; 429 → rate_limited with resetAt; anything else → unavailable.
 * remainingQuota comes from `x-ratelimit-remaining-requests` when the provider sends it.
 */
export async function probeProvider(provider: Provider, opts: { signal?: AbortSignal; timeoutMs?: number; now?: () => number } = {}): Promise<ProbeResult> {
  const timeoutMs = opts.timeoutMs ?? Math.min(provider.timeoutMs, 5_000);
  const now = opts.now ?? Date.now;
  const started = performance.now();
  const aborts = combineSignals(opts.signal, timeoutMs);
  const label = `GET ${provider.baseUrl}/models`;
  try {
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${provider.baseUrl}/models`, { headers: { Accept: "application/json", ...authHeaders(provider) }, signal: aborts.signal });
      text = (await readBodyCapped(res, 1024 * 1024)).text;
    } catch (err) {
      const latencyMs = Math.round(performance.now() - started);
      const which = aborts.which();
      let problem: string;
      if (which === "timeout") problem = `${label} did not answer within ${timeoutMs} ms`;
      else if (which === "cancelled") problem = `${label} was cancelled`;
      else {
        const codes = errorCodes(err);
        const errno = codes.find((c) => /^E[A-Z_]+$/.test(c)) ?? codes[0];
        problem = errno === "ECONNREFUSED" ? `${label}: connection refused (ECONNREFUSED)` : `${label} failed: ${rootMessage(err)}${errno ? ` (${errno})` : ""}`;
      }
      return { health: { status: "unavailable", latencyMs }, problem };
    }
    const latencyMs = Math.round(performance.now() - started);
    const remaining = numberAt({ v: res.headers.get("x-ratelimit-remaining-requests") }, "v");
    const quota = remaining === undefined ? {} : { remainingQuota: remaining };
    if (res.status === 429) {
      const wait = retryAfterFrom(res.headers, text, now()) ?? parseDurationText(res.headers.get("x-ratelimit-reset-requests") ?? "");
      const resetAt = wait === undefined ? undefined : new Date(now() + wait).toISOString();
      return {
        health: { status: "rate_limited", ...quota, ...(resetAt ? { resetAt } : {}), latencyMs },
        problem: `${label} answered 429 (rate limited)${resetAt ? ` until ${resetAt}` : ""}`,
      };
    }
    if (res.status < 200 || res.status > 299) {
      const said = errorMessageFromBody(text) ?? text;
      return { health: { status: "unavailable", ...quota, latencyMs }, problem: `${label} answered ${res.status}${said.trim() ? `: "${excerpt(said, 120)}"` : ""}` };
    }
    return { health: { status: "healthy", ...quota, latencyMs }, problem: null };
  } finally {
    aborts.cleanup();
  }
}
