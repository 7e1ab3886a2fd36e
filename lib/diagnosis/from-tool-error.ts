import type { ToolError } from "../tools/result";
import { diagnosisContextSchema, inputContextSchema, type DiagnosisContextInput, type InputContext } from "./types";

/**
 * The ADR Input Context of a failed Faultline tool call, as the worker has it: the tool, its
 * arguments, the ToolError (and the result's data, which holds an HTTP response body) and the
 * mission context. ToolError fields the document has no name for travel as optional extras
 * (errno, status, retryAfterMs, toolCode); the diagnosis works without them.
 */

export interface FailedToolCall {
  tool: string;
  args: Record<string, unknown>;
  error: ToolError;
  /** `data` of the failed ToolResult (http: {status, headers, body, …}). */
  data?: Record<string, unknown> | null;
}

/** How much of each captured stream is kept (the start and the end, where errors are reported). */
export const MAX_CAPTURED_CHARS = 8 * 1024;
const HEAD_CHARS = 2 * 1024;

export function clipOutput(text: string, max = MAX_CAPTURED_CHARS): string {
  if (text.length <= max) return text;
  const tail = max - HEAD_CHARS;
  return `${text.slice(0, HEAD_CHARS)}\n[… ${text.length - max} characters omitted …]\n${text.slice(-tail)}`;
}

function responseBody(call: FailedToolCall): string | undefined {
  const body = call.data?.body ?? call.error.details?.body;
  return typeof body === "string" && body.length > 0 ? body : undefined;
}

export function inputContextFromToolError(call: FailedToolCall, context: DiagnosisContextInput = {}): InputContext {
  const e = call.error;
  const stdout = e.stdout ?? (e.status !== undefined || call.tool === "http" ? responseBody(call) : undefined);
  return inputContextSchema.parse({
    failure: {
      tool: call.tool,
      args: call.args,
      error: {
        message: e.message,
        ...(e.exitCode !== undefined && e.exitCode !== null ? { code: e.exitCode } : {}),
        ...(stdout ? { stdout: clipOutput(stdout) } : {}),
        ...(e.stderr ? { stderr: clipOutput(e.stderr) } : {}),
        signal: e.signal ?? null,
        ...(e.errno ? { errno: e.errno } : {}),
        ...(e.status !== undefined ? { status: e.status } : {}),
        ...(e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {}),
        toolCode: e.code,
      },
    },
    context: diagnosisContextSchema.parse(context),
  });
}
