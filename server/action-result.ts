import { z } from "zod";
import { isAppError } from "@/lib/errors";

/** What every server action returns: never a thrown error, never a stack. */
export interface FieldError {
  path: string;
  message: string;
}
export type ActionResult<T> = { status: "ok"; data: T } | { status: "error"; error: { code: string; message: string; fieldErrors?: FieldError[] } };

export const INTERNAL_ACTION_MESSAGE = "The server could not complete this action because of an internal error. It has been logged; try again, and report it if it persists.";

export function zodFieldErrors(e: z.ZodError): FieldError[] {
  return e.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
}

function isFieldErrorList(v: unknown): v is FieldError[] {
  return Array.isArray(v) && v.every((x) => x && typeof x === "object" && typeof (x as FieldError).path === "string" && typeof (x as FieldError).message === "string");
}

/**
 * Turns anything thrown inside an action into words for people: an AppError's userMessage (with its
 * `details.fieldErrors`, if any), a zod error as field errors, anything else as a generic internal
 * message (the original is logged by the caller, never sent).
 */
export function toActionError(e: unknown): Extract<ActionResult<never>, { status: "error" }> {
  if (isAppError(e)) {
    const fe = e.details?.fieldErrors;
    return { status: "error", error: { code: e.code, message: e.userMessage, ...(isFieldErrorList(fe) ? { fieldErrors: fe } : {}) } };
  }
  if (e instanceof z.ZodError) {
    return { status: "error", error: { code: "bad_request", message: "Some fields are not valid; see the list below.", fieldErrors: zodFieldErrors(e) } };
  }
  return { status: "error", error: { code: "internal", message: INTERNAL_ACTION_MESSAGE } };
}
