"use server";

import { headers } from "next/headers";
import { z } from "zod";
import { getDb } from "@/db/client";
import { redeemInvite } from "@/db/queries/users";
import { REMOTE_ADDR_HEADER } from "@/lib/audit";
import { passwordSchema } from "@/lib/auth/user-admin";
import { AppError } from "@/lib/errors";
import { toActionError, zodFieldErrors, type ActionResult } from "@/server/action-result";

const input = z
  .strictObject({ token: z.string().min(1).max(200), password: passwordSchema, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: "does not match the password" });

/** The request's headers (for the audit row's ip and user agent), or null outside a request. */
async function requestHeaders(): Promise<Headers | null> {
  try {
    return await headers();
  } catch {
    return null;
  }
}

/**
 * PUBLIC (no session: the person has no password yet): sets a password from a one-time invitation or
 * reset link. The link is the credential; it works once and expires (db/queries/users redeemInvite).
 */
export async function setPasswordFromLinkAction(raw: z.input<typeof input>): Promise<ActionResult<{ email: string }>> {
  try {
    const parsed = input.safeParse(raw);
    if (!parsed.success) throw new AppError("bad_request", { userMessage: "Some fields are not valid; see the list below.", details: { fieldErrors: zodFieldErrors(parsed.error) } });
    const h = await requestHeaders();
    return { status: "ok", data: await redeemInvite(getDb(), { token: parsed.data.token, password: parsed.data.password, ip: h?.get(REMOTE_ADDR_HEADER), userAgent: h?.get("user-agent") }) };
  } catch (e) {
    if (!(e instanceof AppError) || e.status >= 500) console.error("[action setPasswordFromLink]", e);
    return toActionError(e);
  }
}
