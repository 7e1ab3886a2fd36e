import { z } from "zod";
import { getDb } from "@/db/client";
import { rollbackLibrary } from "@/db/queries/library";
import { userActorId } from "@/db/queries/users";
import { apiRoute, parseOr400, readJson } from "@/server/api";

export const dynamic = "force-dynamic";

const body = z.strictObject({ to: z.number({ error: "must be a library version number" }).int("must be a whole number").min(1, "must be at least 1") }, { error: (i) => (i.code === "unrecognized_keys" ? `only "to" is accepted (got ${i.keys.join(", ")})` : "must be a JSON object like {\"to\": 3}") });

/** Rolls the library back to version `to` as a NEW version (history is kept): `{ version, rolledBackTo }`; 400 for a version out of range (library.manage). */
export const POST = apiRoute({ name: "POST library rollback", permission: "library.manage" }, async ({ req, user, actor }) => {
  const { to } = parseOr400(body, await readJson(req), "rollback");
  const version = await rollbackLibrary(getDb(), { to, authorId: userActorId(user.id), audit: actor });
  return Response.json({ version, rolledBackTo: to, ...(version === null ? { message: `Nothing to do: the library already equals version ${to}.` } : {}) });
});
