"use server";

import { z } from "zod";
import { getDb } from "@/db/client";
import { redeemInvite } from "@/db/queries/users";
import { REMOTE_ADDR_HEADER } from "@/lib/audit";
import { passwordSchema } from "@/lib/auth/user-admin";
import { publicAction } from "@/server/safe-action";

const input = z
  .strictObject({ token: z.string().min(1).max(200), password: passwordSchema, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: "does not match the password" });

/**
 * PUBLIC (no session: the person has no password yet): sets a password from a one-time invitation or
 * reset link. The link is the credential; it works once and expires (db/queries/users redeemInvite).
 */
export const setPasswordFromLinkAction = publicAction({ name: "setPasswordFromLink", input }, ({ token, password }, { headers }) =>
  redeemInvite(getDb(), { token, password, ip: headers?.get(REMOTE_ADDR_HEADER), userAgent: headers?.get("user-agent") }),
);
