/**
 * Errors. `AppError` carries a stable code mapped to an HTTP status; internal detail is logged,
 * never sent. People see a `UserFacingError` (FAILURE_MODEL "Failure Communication"):
 * what happened, why, what they can do, and technical details behind a disclosure.
 */

export const APP_ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  unavailable: 503,
  internal: 500,
} as const;
export type AppErrorCode = keyof typeof APP_ERROR_STATUS;

export interface ErrorOption {
  action: string;
  label: string;
  description: string;
  recommended: boolean;
}

export interface UserFacingError {
  /** What happened (past tense, factual). */
  what: string;
  /** Why it happened, if known. */
  why: string | null;
  /** What the user can do. */
  options: ErrorOption[];
  /** Technical details (expandable). */
  technical: {
    code: string;
    timestamp: string;
    missionId?: string;
    agentId?: string;
    step?: string;
    [key: string]: unknown;
  };
}

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly userMessage: string;
  readonly details?: Record<string, unknown>;
  constructor(code: AppErrorCode, opts: { message?: string; userMessage: string; details?: Record<string, unknown> }) {
    super(opts.message ?? opts.userMessage);
    this.name = "AppError";
    this.code = code;
    this.userMessage = opts.userMessage;
    this.details = opts.details;
  }
  get status(): number {
    return APP_ERROR_STATUS[this.code];
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

/** JSON body for API responses: `{ error: { code, message, details? } }`. Never includes stacks. */
export function toErrorBody(e: unknown): { status: number; body: { error: { code: string; message: string; details?: Record<string, unknown> } } } {
  if (isAppError(e)) return { status: e.status, body: { error: { code: e.code, message: e.userMessage, ...(e.details ? { details: e.details } : {}) } } };
  return { status: 500, body: { error: { code: "internal", message: "The server could not complete this request because of an internal error. It has been logged; try again, and report it if it persists." } } };
}

/** A zod issue path as `phases[0].agents[1].name`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, key) => (typeof key === "number" ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)), "");
}
