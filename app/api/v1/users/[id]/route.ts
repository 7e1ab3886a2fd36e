import { getDb } from "@/db/client";
import { getUserOr404, toUserView, updateUser } from "@/db/queries/users";
import { userPatchSchema } from "@/lib/auth/user-admin";
import { apiRoute, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** One user (permission user.manage). */
export const GET = apiRoute<{ id: string }>(api.getUser, async ({ params }) => {
  return Response.json({ user: toUserView(await getUserOr404(getDb(), params.id)) });
});

/**
 * Changes a user (permission user.manage): any of `name`, `roles`, `groups`, `active` (false
 * deactivates: no sign-in, sessions and tokens stop at once). 409 for yourself or the last active admin.
 */
export const PATCH = apiRoute<{ id: string }>(api.patchUser, async ({ req, actor, params }) => {
  const db = getDb();
  await getUserOr404(db, params.id);
  const patch = parseOr400(userPatchSchema, await readJson(req), "change");
  return Response.json({ user: await updateUser(db, actor, params.id, patch) });
});
