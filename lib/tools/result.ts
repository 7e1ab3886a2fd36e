import { z } from "zod";

/**
 * The strict tool contract of RFC 001 §3.2:
 *   ok = TRUE  => data != NULL /\ error = NULL
 *   ok = FALSE => error != NULL
 * Enforced by the type (a discriminated union) and at runtime by `assertToolResult`.
 * A tool never throws across this boundary: `runTool` turns any throw into `{ ok: false }`.
 */

/** Specific, machine-readable failure codes a tool may report. */
export const TOOL_ERROR_CODES = [
  "EXIT_NONZERO", // process ran and exited with a non-zero code
  "COMMAND_NOT_FOUND", // binary could not be spawned (ENOENT, exit 127)
  "NOT_ALLOWED", // binary not on the allowlist, or path escaping the workspace
  "PERMISSION_DENIED", // EACCES / EPERM / exit 126
  "TIMEOUT", // tool exceeded its time limit
  "OUTPUT_TOO_LARGE", // stdout/stderr or response body over the cap
  "KILLED", // process ended by a signal we did not send for a timeout
  "CONNECTION_REFUSED", // ECONNREFUSED
  "NETWORK_ERROR", // ENOTFOUND, EAI_AGAIN, ECONNRESET, ...
  "HTTP_ERROR", // response with a non-success status (when the step asks for one)
  "RATE_LIMITED", // HTTP 429
  "NOT_FOUND", // file or resource does not exist
  "INVALID_ARGS", // arguments did not match the tool's schema
  "VALIDATION_FAILED", // tool returned ok but the step's evidence check failed
  "INTERRUPTED", // the step started but its worker died before it finished
  "UNKNOWN_TOOL", // no tool by that name
  "INTERNAL_ERROR", // a bug inside the tool
] as const;
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

export const toolErrorSchema = z.object({
  code: z.enum(TOOL_ERROR_CODES),
  message: z.string().min(1),
  exitCode: z.number().int().nullable().optional(),
  signal: z.string().nullable().optional(),
  stdout: z.string().optional(),
  stderr: z.string().optional(),
  status: z.number().int().optional(), // HTTP status
  errno: z.string().optional(), // Node errno name, e.g. ECONNREFUSED
  retryAfterMs: z.number().int().nonnegative().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ToolError = z.infer<typeof toolErrorSchema>;

export type ToolData = Record<string, unknown>;

export type ToolResult<D extends ToolData = ToolData> =
  | { ok: true; data: D; error: null }
  | { ok: false; data: D | null; error: ToolError };

export const toolResultSchema = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), data: z.record(z.string(), z.unknown()), error: z.null() }),
  z.object({ ok: z.literal(false), data: z.record(z.string(), z.unknown()).nullable(), error: toolErrorSchema }),
]);

export function ok<D extends ToolData>(data: D): ToolResult<D> {
  return { ok: true, data, error: null };
}

export function fail<D extends ToolData = ToolData>(error: ToolError, data: D | null = null): ToolResult<D> {
  return { ok: false, data, error };
}

export class ToolContractViolation extends Error {
  constructor(message: string) {
    super(`Tool contract violated: ${message}`);
    this.name = "ToolContractViolation";
  }
}

/** Runtime check of the RFC 001 invariants; throws ToolContractViolation naming the broken one. */
export function assertToolResult(value: unknown): asserts value is ToolResult {
  const parsed = toolResultSchema.safeParse(value);
  if (parsed.success) return;
  const v = value as { ok?: unknown; data?: unknown; error?: unknown } | null;
  if (v && v.ok === true && (v.data === null || v.data === undefined)) throw new ToolContractViolation("ok = TRUE requires data != NULL");
  if (v && v.ok === true && v.error != null) throw new ToolContractViolation("ok = TRUE requires error = NULL");
  if (v && v.ok === false && v.error == null) throw new ToolContractViolation("ok = FALSE requires error != NULL");
  throw new ToolContractViolation(parsed.error.issues.map((i) => `${i.path.join(".") || "result"}: ${i.message}`).join("; "));
}

/** What a tool receives besides its arguments. */
export interface ToolContext {
  /** Absolute path of the mission's workspace directory (exists). */
  workspace: string;
  /** Binaries the shell tool may run (names, not paths). */
  allowedBinaries: readonly string[];
  /** Aborts the tool: timeout of the agent, lease lost, shutdown. */
  signal: AbortSignal;
  /** Time limit for this call in ms. */
  timeoutMs: number;
  /** Idempotency key of this side effect: mission/agent/step/attempt. */
  idempotencyKey: string;
}

export interface Tool<A = unknown> {
  name: string;
  description: string;
  /** zod schema of the tool's arguments. */
  args: z.ZodType<A>;
  /** True when re-running with the same idempotency key cannot cause a duplicate side effect. */
  idempotent: boolean;
  run(args: A, ctx: ToolContext): Promise<ToolResult>;
}
