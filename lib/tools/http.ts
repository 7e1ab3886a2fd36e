import { z } from "zod";
import { abortReason, errnoOf, errorCodes, errorMessage, isHttpUrl, readBodyCapped, rootMessage, type BodyRead } from "./util";
import { fail, ok, type Tool, type ToolContext, type ToolError, type ToolResult } from "./result";

/**
 * The `http` tool: one HTTP(S) request with the global fetch, a time limit, cancellation,
 * a streamed size cap on the response body and an Idempotency-Key header.
 */

export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
/** How much of an error response body is kept in `details.body`. */
export const ERROR_BODY_BYTES = 2 * 1024;
const EXCERPT_CHARS = 200;

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"] as const;


export const httpArgsSchema = z
  .strictObject({
    url: z.string().refine(isHttpUrl, "must be an absolute http:// or https:// URL"),
    method: z.enum(HTTP_METHODS).default("GET"),
    headers: z.record(z.string(), z.string()).default({}),
    body: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional(),
    maxResponseBytes: z.number().int().positive().default(DEFAULT_MAX_RESPONSE_BYTES),
    expectStatus: z.array(z.number().int().min(100).max(599)).min(1).optional(),
  })
  .refine((a) => a.body === undefined || (a.method !== "GET" && a.method !== "HEAD"), {
    path: ["body"],
    message: "GET and HEAD requests cannot have a body; use POST, PUT or PATCH",
  });
export type HttpArgs = z.infer<typeof httpArgsSchema>;

export type HttpData = { status: number; headers: Record<string, string>; body: string; json: unknown; durationMs: number };

// ---------- pure helpers ----------

/** Retry-After in ms: delta-seconds or an HTTP date (in the past → 0); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((k) => k.toLowerCase() === name.toLowerCase());
}

/** Request headers: the step's own, plus Idempotency-Key (unless the step set one) and a JSON content type for object bodies. */
export function buildRequestHeaders(args: Pick<HttpArgs, "headers" | "body">, idempotencyKey: string): Record<string, string> {
  const headers: Record<string, string> = { ...args.headers };
  if (!hasHeader(headers, "idempotency-key")) headers["Idempotency-Key"] = idempotencyKey;
  if (args.body !== undefined && typeof args.body !== "string" && !hasHeader(headers, "content-type")) headers["Content-Type"] = "application/json";
  return headers;
}

function encodeBody(body: HttpArgs["body"]): string | undefined {
  return body === undefined || typeof body === "string" ? body : JSON.stringify(body);
}

export function isJsonContentType(contentType: string | null): boolean {
  return !!contentType && /^[^;]*[/+]json\s*(;|$)/i.test(contentType);
}

function parseJsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function excerpt(text: string, chars = EXCERPT_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > chars ? `${flat.slice(0, chars)}…` : flat;
}

function isExpected(status: number, expectStatus: readonly number[] | undefined): boolean {
  return expectStatus ? expectStatus.includes(status) : status >= 200 && status <= 299;
}



/** errno → [what happened, what to do]. */
const NETWORK_EXPLANATIONS: Record<string, readonly [string, string]> = {
  ENOTFOUND: ["the host name could not be resolved", "Check the hostname"],
  EAI_AGAIN: ["DNS lookup failed temporarily", "Check the worker's network and DNS, then retry"],
  ECONNRESET: ["the connection was reset by the server", "Check the server's logs, then retry"],
  ETIMEDOUT: ["connecting timed out", "Check that the host is reachable from the worker"],
  EHOSTUNREACH: ["the host is unreachable", "Check the network route from the worker"],
  ENETUNREACH: ["the network is unreachable", "Check the worker's network"],
  UND_ERR_SOCKET: ["the server closed the connection before sending a complete response", "Check the server's logs"],
  UND_ERR_CONNECT_TIMEOUT: ["connecting timed out", "Check that the host is reachable from the worker"],
};

export type AbortCause = { kind: "timeout"; timeoutMs: number } | { kind: "cancelled"; reason?: string } | null;

/** A failed request (no usable response): timeout, cancellation, refused connection or other network failure. */
export function requestError(err: unknown, label: string, abort: AbortCause): ToolError {
  if (abort?.kind === "timeout") {
    return { code: "TIMEOUT", message: `${label} did not complete within ${abort.timeoutMs} ms. The server may be slow or unreachable; raise the step's timeoutMs or check the service.` };
  }
  if (abort?.kind === "cancelled") {
    return { code: "TIMEOUT", message: `${label} was stopped because the step was cancelled${abort.reason ? ` (${abort.reason})` : ""} before it completed.` };
  }
  const codes = errorCodes(err);
  const errno = codes.find((c) => /^E[A-Z_]+$/.test(c)) ?? codes[0];
  if (errno === "ECONNREFUSED") {
    return { code: "CONNECTION_REFUSED", errno, message: `${label} failed: connection refused (ECONNREFUSED). Is the service running and listening on that host and port?` };
  }
  const [what, todo] = (errno && NETWORK_EXPLANATIONS[errno]) || [rootMessage(err), "Check the URL and the worker's network"];
  return { code: "NETWORK_ERROR", ...(errno ? { errno } : {}), message: `${label} failed: ${what}${errno ? ` (${errno})` : ""}. ${todo}.` };
}



type ResponseInfo = { status: number; statusText: string; headers: Record<string, string>; durationMs: number };

/** Interpret a received response (status + capped body) as a ToolResult; failures carry the response in data. */
export function interpretResponse(label: string, res: ResponseInfo, body: BodyRead, args: Pick<HttpArgs, "maxResponseBytes" | "expectStatus">): ToolResult<HttpData> {
  const { status } = res;
  const json = isJsonContentType(res.headers["content-type"] ?? null) ? parseJsonOrNull(body.text) : null;
  const data: HttpData = { status, headers: res.headers, body: body.text, json, durationMs: res.durationMs };
  const statusLine = `${status}${res.statusText ? ` ${res.statusText}` : ""}`;

  if (body.tooLarge) {
    return fail(
      {
        code: "OUTPUT_TOO_LARGE",
        status,
        message: `${label} returned a body larger than ${args.maxResponseBytes} bytes (status ${statusLine}), so reading stopped. Raise maxResponseBytes or request less data (pagination, filters).`,
      },
      data,
    );
  }
  if (isExpected(status, args.expectStatus)) return ok(data);

  const said = body.text.trim() ? `: "${excerpt(body.text)}"` : " with an empty body";
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(res.headers["retry-after"]);
    const when = retryAfterMs === undefined ? "later" : `after ${Math.ceil(retryAfterMs / 1000)} s`;
    return fail({ code: "RATE_LIMITED", status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }), message: `${label} was rate limited (429); the server asks to retry ${when}.` }, data);
  }
  const expected = args.expectStatus ? `one of ${args.expectStatus.join(", ")}` : "a 2xx status";
  return fail(
    {
      code: "HTTP_ERROR",
      status,
      message: `${label} returned ${statusLine} (expected ${expected})${said}`,
      details: { body: Buffer.from(body.text, "utf8").subarray(0, ERROR_BODY_BYTES).toString("utf8") },
    },
    data,
  );
}

function abortCause(ctxSignal: AbortSignal, timeout: AbortSignal, timeoutMs: number): AbortCause {
  if (ctxSignal.aborted) return { kind: "cancelled", reason: abortReason(ctxSignal) };
  return timeout.aborted ? { kind: "timeout", timeoutMs } : null;
}

export async function runHttp(args: HttpArgs, ctx: ToolContext): Promise<ToolResult> {
  const label = `${args.method} ${args.url}`;
  const started = performance.now();
  const timeout = AbortSignal.timeout(ctx.timeoutMs);
  const signal = AbortSignal.any([ctx.signal, timeout]);
  try {
    const res = await fetch(args.url, {
      method: args.method,
      headers: buildRequestHeaders(args, ctx.idempotencyKey),
      body: encodeBody(args.body),
      signal,
      redirect: "follow",
    });
    const body = await readBodyCapped(res, args.maxResponseBytes);
    const info: ResponseInfo = {
      status: res.status,
      statusText: res.statusText,
      headers: Object.fromEntries(res.headers.entries()),
      durationMs: Math.round(performance.now() - started),
    };
    return interpretResponse(label, info, body, args);
  } catch (err) {
    return fail(requestError(err, label, abortCause(ctx.signal, timeout, ctx.timeoutMs)));
  }
}

export const httpTool: Tool<HttpArgs> = {
  name: "http",
  description: "Make one HTTP(S) request (with an Idempotency-Key header), with a time limit and a response size cap.",
  args: httpArgsSchema,
  idempotent: true, // every request carries the step attempt's Idempotency-Key
  run: runHttp,
};
