"use server";

import { z } from "zod";
import { getDb } from "@/db/client";
import { revokeApiToken } from "@/db/queries/api-tokens";
import { createUser, resetUserPassword, updateUser } from "@/db/queries/users";
import { newUserSchema, resetModeSchema, userPatchSchema } from "@/lib/auth/user-admin";
import { authedAction } from "@/server/safe-action";

const id = z.guid("must be a user id");

/** An admin creates a user with an initial password, or invites one by a one-time link (returned once). */
export const createUserAction = authedAction({ name: "createUser", permission: "user.manage", input: newUserSchema }, async (input, { actor }) => {
  return createUser(getDb(), actor, input);
});

/** An admin changes a user's name, roles, groups or active flag (deactivate / reactivate). */
export const updateUserAction = authedAction({ name: "updateUser", permission: "user.manage", input: z.object({ id, patch: userPatchSchema }) }, async (input, { actor }) => {
  return updateUser(getDb(), actor, input.id, input.patch);
});

/** An admin resets a user's password: a temporary password or a one-time link, returned once. */
export const resetPasswordAction = authedAction({ name: "resetPassword", permission: "user.manage", input: resetModeSchema.extend({ id }) }, async (input, { actor }) => {
  return resetUserPassword(getDb(), actor, input.id, input.mode);
});

/** An admin revokes any user's API token. */
export const revokeUserTokenAction = authedAction({ name: "revokeUserToken", permission: "user.manage", input: z.object({ id: z.guid("must be a token id") }) }, async (input, { actor }) => {
  return revokeApiToken(getDb(), actor, { id: input.id });
});
