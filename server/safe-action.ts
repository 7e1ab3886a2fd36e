import { headers } from "next/headers";
import { z } from "zod";
import { personActor, type AuditActor } from "@/lib/audit";
import type { Action, Principal } from "@/lib/auth/roles";
import { can, describeMissingPermission } from "@/lib/auth/roles";
import { AppError, isAppError } from "@/lib/errors";
import { getPrincipal } from "./auth";
import { toActionError, zodFieldErrors, type ActionResult } from "./action-result";

export type { ActionResult, FieldError } from "./action-result";

/**
 * The one wrapper every server action goes through: loads the principal, checks the permission,
 * parses the input with zod, runs the body, and returns `{status:'ok', data}` or
 * `{status:'error', error:{code, message, fieldErrors?}}`. Nothing raw ever reaches the client.
 */
export function authedAction<S extends z.ZodType, R>(
  opts: { permission: Action; input: S; name: string },
  body: (input: z.output<S>, ctx: { user: Principal; actor: AuditActor }) => Promise<R>,
): (input: z.input<S>) => Promise<ActionResult<R>> {
  return async (raw) => {
    try {
      const user = await getPrincipal();
      if (!user) throw new AppError("unauthorized", { userMessage: describeMissingPermission(null, opts.permission) });
      if (!can(user, opts.permission)) throw new AppError("forbidden", { userMessage: describeMissingPermission(user, opts.permission) });
      const parsed = opts.input.safeParse(raw);
      if (!parsed.success) {
        throw new AppError("bad_request", { userMessage: "Some fields are not valid; see the list below.", details: { fieldErrors: zodFieldErrors(parsed.error) } });
      }
      return { status: "ok", data: await body(parsed.data, { user, actor: personActor(user, "web", await requestHeaders()) }) };
    } catch (e) {
      if (!isAppError(e) || e.status >= 500) console.error(`[action ${opts.name}]`, e);
      return toActionError(e);
    }
  };
}

/** The request's headers, or null outside a request (scripts, tests). */
async function requestHeaders(): Promise<Headers | null> {
  try {
    return await headers();
  } catch {
    return null;
  }
}
