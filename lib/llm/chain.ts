import { fail, ok, type ToolError, type ToolErrorCode, type ToolResult } from "../tools/result";
import { chatCompletion, errorMessageFromBody, failureKindOf, type CallOptions, type ChatRequest, type LlmFailureKind, type ToolCall, type Usage } from "./client";
import type { Provider } from "./providers";

/**
 * Explicit fallback across providers (FAILURE_MODEL: "LLM provider fails → fallback to next provider";
 * "all providers fail → build pauses with explicit message"). Providers are tried in configured
 * order; every attempt — failed or not — is returned in `attempts`, so a fallback is never silent.
 * There is no retry of the same provider, no waiting out a rate limit and no placeholder output:
 * when every provider fails the result is a failure with `details.allProvidersFailed = true`,
 * which the mission runner turns into a pause for the operator.
 */

export interface Attempt {
  [key: string]: unknown;
  provider: string;
  model: string;
  ok: boolean;
  /** Tool error code of the failure; null when the attempt succeeded. */
  code: ToolErrorCode | null;
  kind: LlmFailureKind | null;
  /** "completed", or the full failure message. */
  message: string;
  /** Short form for the combined message: `500 "boom"`, `refused`, `timed out after 2000 ms`, … */
  summary: string;
  status?: number;
  retryAfterMs?: number;
  latencyMs: number;
}

export interface FallbackData {
  [key: string]: unknown;
  /** The model's text; "" when it answered with tool calls only. */
  content: string;
  /** The functions the answering model asked to call (empty when it answered with text). */
  toolCalls: ToolCall[];
  /** The provider that answered. */
  provider: string;
  model: string;
  finishReason: string | null;
  usage: Usage | null;
  /** Every attempt in order, the answering one last. More than one means a fallback happened. */
  attempts: Attempt[];
}

export interface AllProvidersFailedDetails {
  [key: string]: unknown;
  allProvidersFailed: true;
  attempts: Attempt[];
  /** FAILURE_MODEL agent error code for the whole call. */
  agentErrorCode: "RATE_LIMIT_EXCEEDED" | "PROVIDER_ERROR" | "INVALID_OUTPUT";
  recoverable: boolean;
}

/** True when a ToolResult error means every configured provider failed (the runner should pause). */
export function isAllProvidersFailed(error: ToolError | null | undefined): error is ToolError & { details: AllProvidersFailedDetails } {
  return !!error && error.details?.allProvidersFailed === true;
}

function quote(text: string, chars = 80): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > chars ? `"${flat.slice(0, chars)}…"` : `"${flat}"`;
}

function summarize(error: ToolError, kind: LlmFailureKind | undefined): string {
  const raw = typeof error.details?.body === "string" ? error.details.body : "";
  const body = errorMessageFromBody(raw) ?? raw;
  if (error.code === "RATE_LIMITED") return `429 rate limited${error.retryAfterMs !== undefined ? `, retry after ${Math.max(1, Math.ceil(error.retryAfterMs / 1000))} s` : ""}`;
  if (error.code === "CONNECTION_REFUSED") return `refused (${error.errno ?? "ECONNREFUSED"})`;
  if (error.code === "NETWORK_ERROR") return `network error${error.errno ? ` (${error.errno})` : ""}`;
  if (kind === "invalid_output") return `${error.status ?? 200} with an invalid body (INVALID_OUTPUT)`;
  if (kind === "auth") return `${error.status} credentials rejected`;
  if (error.status !== undefined) return `${error.status}${body.trim() ? ` ${quote(body)}` : ""}`;
  return error.message;
}

function attemptFrom(provider: Provider, result: ToolResult): Attempt {
  if (result.ok) {
    return { provider: provider.name, model: String(result.data.model ?? provider.model), ok: true, code: null, kind: null, message: "completed", summary: "ok", latencyMs: Number(result.data.latencyMs ?? 0) };
  }
  const e = result.error;
  const kind = failureKindOf(e) ?? null;
  const timedOut = e.details?.reason === "timeout";
  return {
    provider: provider.name,
    model: provider.model,
    ok: false,
    code: e.code,
    kind,
    message: e.message,
    summary: timedOut ? `timed out after ${provider.timeoutMs} ms` : summarize(e, kind ?? undefined),
    ...(e.status !== undefined ? { status: e.status } : {}),
    ...(e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {}),
    latencyMs: Number(e.details?.latencyMs ?? 0),
  };
}

/** The combined failure when no provider answered. Exported for tests and for the runner's messages. */
export function allFailedError(attempts: Attempt[]): ToolError {
  const n = attempts.length;
  const list = attempts.map((a) => `${a.provider}: ${a.summary}`).join("; ");
  const kinds = new Set(attempts.map((a) => a.kind));
  const allRateLimited = kinds.size === 1 && kinds.has("rate_limited");
  const onlyTransient = [...kinds].every((k) => k === "rate_limited" || k === "unavailable");
  const waits = attempts.map((a) => a.retryAfterMs).filter((x): x is number => x !== undefined);
  const retryAfterMs = waits.length ? Math.min(...waits) : undefined;

  let code: ToolErrorCode;
  let agentErrorCode: AllProvidersFailedDetails["agentErrorCode"];
  let status: number | undefined;
  let todo: string;
  if (allRateLimited) {
    code = "RATE_LIMITED";
    agentErrorCode = "RATE_LIMIT_EXCEEDED";
    todo = retryAfterMs !== undefined ? `Wait at least ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s for quota, then retry.` : "Wait for quota to return, then retry.";
  } else if (onlyTransient) {
    code = "NETWORK_ERROR";
    agentErrorCode = "PROVIDER_ERROR";
    todo = "Check the providers (or add one to FAULTLINE_LLM_PROVIDERS), then retry.";
  } else {
    // At least one provider rejected the request or answered garbage: retrying as is will not help.
    const hard = attempts.find((a) => a.kind === "auth" || a.kind === "invalid_request" || a.kind === "invalid_output");
    code = "HTTP_ERROR";
    status = hard?.status;
    agentErrorCode = attempts.every((a) => a.kind === "invalid_output") ? "INVALID_OUTPUT" : "PROVIDER_ERROR";
    todo = "Fix the provider configuration or the request (see each provider's error), then retry.";
  }
  const details: AllProvidersFailedDetails = { allProvidersFailed: true, attempts, agentErrorCode, recoverable: onlyTransient };
  return {
    code,
    ...(status !== undefined ? { status } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    message: `All ${n} LLM provider${n === 1 ? "" : "s"} failed: ${list}. No output was produced and nothing was substituted. ${todo}`,
    details,
  };
}

/**
 * Try each provider in order until one returns a valid completion. The request (tools and tool
 * messages included) goes unchanged to each provider, so a fallback provider sees the same conversation.
 * - success: `{ ok: true, data: { content, provider, model, attempts, … } }` (attempts include the failures before it);
 * - the caller cancelled (signal): that failure, at once, with `details.attempts` so far — no further provider is tried;
 * - no provider configured: NOT_FOUND with `details.noProvidersConfigured`;
 * - every provider failed: see `allFailedError` (`details.allProvidersFailed = true`).
 */
export async function completeWithFallback(providers: readonly Provider[], request: ChatRequest, signal?: AbortSignal, opts: Omit<CallOptions, "signal"> = {}): Promise<ToolResult<FallbackData>> {
  if (providers.length === 0) {
    return fail({
      code: "NOT_FOUND",
      message:
        "No LLM provider is configured, so this LLM call cannot run. Set FAULTLINE_LLM_PROVIDERS to a JSON array of OpenAI-compatible providers ([{name, baseUrl, model, apiKey?, timeoutMs?}]) and restart the worker.",
      details: { noProvidersConfigured: true, allProvidersFailed: false, attempts: [] },
    });
  }
  const attempts: Attempt[] = [];
  for (const provider of providers) {
    const result = await chatCompletion(provider, request, { ...opts, signal });
    const attempt = attemptFrom(provider, result);
    attempts.push(attempt);
    if (result.ok) {
      const d = result.data;
      return ok({ content: d.content, toolCalls: d.toolCalls, provider: provider.name, model: d.model, finishReason: d.finishReason, usage: d.usage, attempts });
    }
    if (attempt.kind === "cancelled" || signal?.aborted) {
      const e = result.error;
      return fail({ ...e, details: { ...e.details, allProvidersFailed: false, attempts } });
    }
  }
  return fail(allFailedError(attempts));
}
