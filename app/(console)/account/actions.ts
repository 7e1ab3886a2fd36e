"use server";

import { z } from "zod";
import { getDb } from "@/db/client";
import { createApiToken, revokeApiToken } from "@/db/queries/api-tokens";
import { changeOwnPassword, setUserTheme } from "@/db/queries/users";
import { THEME_CHOICES } from "@/lib/auth/roles";
import { newPasswordSchema, newTokenSchema } from "@/lib/auth/user-admin";
import { authedAction } from "@/server/safe-action";

/** Changes your own password (the current one must match; the new one must differ and have 10+ characters). */
export const changePasswordAction = authedAction({ name: "changePassword", permission: "account.manage", input: newPasswordSchema }, async (input, { user, actor }) => {
  await changeOwnPassword(getDb(), actor, user.id, input);
  return { email: user.email };
});

/** Creates an API token for yourself; the token is returned once. */
export const createTokenAction = authedAction({ name: "createToken", permission: "token.manage", input: newTokenSchema }, async (input, { user, actor }) => {
  const { token, view } = await createApiToken(getDb(), actor, { userId: user.id, name: input.name, expiresInDays: input.expiresInDays });
  return { token, apiToken: view };
});

/** Revokes one of your own API tokens. */
export const revokeTokenAction = authedAction({ name: "revokeToken", permission: "token.manage", input: z.object({ id: z.guid("must be a token id") }) }, async (input, { user, actor }) => {
  return revokeApiToken(getDb(), actor, { id: input.id, ownerId: user.id });
});

/** A person's theme (system, light or dark), kept with them so it follows them to any browser. */
export const setThemeAction = authedAction({ name: "setTheme", permission: "account.manage", input: z.object({ theme: z.enum(THEME_CHOICES, { error: `must be one of ${THEME_CHOICES.join(", ")}` }) }) }, async (input, { user }) => {
  await setUserTheme(getDb(), user.id, input.theme);
  return { theme: input.theme };
});
