import { z } from "zod";
import { roleSchema } from "./roles";

/**
 * Input rules of user administration and API tokens, shared by the server (actions, REST, queries)
 * and the forms, so both say the same thing about a field.
 */

export const PASSWORD_MIN = 10;
/** How long an invitation link is valid. */
export const INVITE_TTL_MS = 7 * 24 * 3600 * 1000;
/** How long a password-reset link is valid. */
export const RESET_TTL_MS = 24 * 3600 * 1000;
/** API tokens: `flt_` then 32 random bytes, base64url. */
export const API_TOKEN_PREFIX = "flt_";

export const GROUP_NAME_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const passwordSchema = z
  .string({ error: "is required" })
  .min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`)
  .max(200, "must be at most 200 characters");

export const emailSchema = z.string({ error: "is required" }).trim().toLowerCase().pipe(z.email("must be an email address like ana@example.org"));
export const userNameSchema = z.string({ error: "is required" }).trim().min(1, "is required").max(120, "must be at most 120 characters");
export const rolesSchema = z
  .array(roleSchema, { error: "must be a list of roles" })
  .min(1, "choose at least one role")
  .transform((r) => [...new Set(r)]);
export const groupNameSchema = z
  .string()
  .trim()
  .min(1, { error: "a group name cannot be empty", abort: true })
  .max(40, "a group name is at most 40 characters")
  .regex(GROUP_NAME_RE, "group names use lowercase letters, digits and dashes (e.g. night-shift)");
export const groupsSchema = z
  .array(groupNameSchema, { error: "must be a list of group names" })
  .max(20, "at most 20 groups")
  .transform((g) => [...new Set(g)].sort());

/** Splits "night-shift, on-call" or one per line into names (validated by groupsSchema). */
export function splitGroups(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((g) => g.trim())
    .filter(Boolean);
}

/** A new user: with an initial password (must change it at first sign-in by default), or invited by a one-time link. */
export const newUserSchema = z.discriminatedUnion(
  "mode",
  [
    z.strictObject({
      mode: z.literal("password"),
      email: emailSchema,
      name: userNameSchema,
      roles: rolesSchema,
      groups: groupsSchema.default([]),
      password: passwordSchema,
      mustChangePassword: z.boolean().default(true),
    }),
    z.strictObject({ mode: z.literal("invite"), email: emailSchema, name: userNameSchema, roles: rolesSchema, groups: groupsSchema.default([]) }),
  ],
  { error: 'mode must be "password" (set an initial password) or "invite" (a one-time link)' },
);
export type NewUserInput = z.output<typeof newUserSchema>;

/** A change to a user: any of name, roles, groups, active. */
export const userPatchSchema = z
  .strictObject({ name: userNameSchema.optional(), roles: rolesSchema.optional(), groups: groupsSchema.optional(), active: z.boolean({ error: "must be true or false" }).optional() })
  .refine((p) => Object.values(p).some((v) => v !== undefined), { message: "send at least one of name, roles, groups, active" });
export type UserPatch = z.output<typeof userPatchSchema>;

export const resetModeSchema = z.strictObject({
  mode: z.enum(["temporary", "link"], { error: 'mode must be "temporary" (a temporary password) or "link" (a one-time reset link)' }),
});

export const tokenNameSchema = z
  .string({ error: "is required" })
  .trim()
  .min(1, { error: "is required", abort: true })
  .max(60, "must be at most 60 characters")
  .regex(/^[\w .@-]+$/, "use letters, digits, spaces and . _ @ -");

/** A new API token: a name and an optional expiry (in days from now, or an ISO date in the future). */
export const newTokenSchema = z.strictObject({
  name: tokenNameSchema,
  expiresInDays: z.coerce.number({ error: "must be a number of days" }).int("must be a whole number of days").min(1, "must be at least 1 day").max(3650, "must be at most 3650 days").nullish(),
});
export type NewTokenInput = z.output<typeof newTokenSchema>;

export const newPasswordSchema = z.strictObject({ currentPassword: z.string().min(1, "enter your current password").max(200), newPassword: passwordSchema });

/**
 * When the session a next-auth JWT carries began (ms): our `authAt` sign-in time, or the JWT's iat for
 * tokens from before it was recorded. Not iat first: next-auth re-issues the JWT (new iat) whenever
 * the session is read, so iat says nothing about when the person signed in.
 */
export function sessionStart(claims: { authAt?: unknown; iat?: unknown } | null | undefined): number | null {
  if (typeof claims?.authAt === "number") return claims.authAt;
  return typeof claims?.iat === "number" ? claims.iat * 1000 : null;
}
