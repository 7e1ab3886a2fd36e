import { getDb } from "@/db/client";
import { rollbackLibrary } from "@/db/queries/library";
import { userActorId } from "@/db/queries/users";
import { apiRoute, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** Rolls the library back to version `to` as a NEW version (history is kept): `{ version, rolledBackTo }`; 400 for a version out of range (library.manage). */
export const POST = apiRoute(api.rollbackLibrary, async ({ req, user, actor }) => {
  const { to } = parseOr400(api.rollbackLibrary.body, await readJson(req), "rollback");
  const version = await rollbackLibrary(getDb(), { to, authorId: userActorId(user.id), audit: actor });
  return Response.json({ version, rolledBackTo: to, ...(version === null ? { message: `Nothing to do: the library already equals version ${to}.` } : {}) });
});
