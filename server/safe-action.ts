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
  return guarded(opts, async (input, headers) => {
    const user = await getPrincipal();
    if (!user) throw new AppError("unauthorized", { userMessage: describeMissingPermission(null, opts.permission) });
    if (!can(user, opts.permission)) throw new AppError("forbidden", { userMessage: describeMissingPermission(user, opts.permission) });
    return body(await parse(opts.input, input), { user, actor: personActor(user, "web", headers) });
  });
}

/**
 * A server action anyone may call without a session (setting a password from a one-time link: the link
 * is the credential). Same parsing and error handling as `authedAction`; the body gets the request's
 * headers (for the audit row's ip and user agent).
 */
export function publicAction<S extends z.ZodType, R>(opts: { input: S; name: string }, body: (input: z.output<S>, ctx: { headers: Headers | null }) => Promise<R>): (input: z.input<S>) => Promise<ActionResult<R>> {
  return guarded(opts, async (input, headers) => body(await parse(opts.input, input), { headers }));
}

/** Runs an action body: nothing raw ever reaches the client; unexpected errors are logged. */
function guarded<I, R>(opts: { name: string }, run: (raw: I, headers: Headers | null) => Promise<R>): (raw: I) => Promise<ActionResult<R>> {
  return async (raw) => {
    try {
      return { status: "ok", data: await run(raw, await requestHeaders()) };
    } catch (e) {
      if (!isAppError(e) || e.status >= 500) console.error(`[action ${opts.name}]`, e);
      return toActionError(e);
    }
  };
}

async function parse<S extends z.ZodType>(schema: S, raw: unknown): Promise<z.output<S>> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new AppError("bad_request", { userMessage: "Some fields are not valid; see the list below.", details: { fieldErrors: zodFieldErrors(parsed.error) } });
  return parsed.data;
}

/** The request's headers, or null outside a request (scripts, tests). */
async function requestHeaders(): Promise<Headers | null> {
  try {
    return await headers();
  } catch {
    return null;
  }
}
