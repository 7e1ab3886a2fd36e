import { getDb } from "@/db/client";
import { createUser, listUsers } from "@/db/queries/users";
import { newUserSchema } from "@/lib/auth/user-admin";
import { apiRoute, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";
import { absoluteLink } from "./link";

export const dynamic = "force-dynamic";

/** Every user with roles, groups, status and last activity (permission user.manage). */
export const GET = apiRoute(api.listUsers, async () => {
  return Response.json({ users: await listUsers(getDb()) });
});

/**
 * Creates a user (permission user.manage): `{mode:"password", email, name, roles, groups?, password,
 * mustChangePassword?}` or `{mode:"invite", email, name, roles, groups?}`. 201 with the user and, for an
 * invitation, the one-time link (`invite.url`, valid 7 days, shown only in this response). 400 with
 * field errors; 409 for an email already used.
 */
export const POST = apiRoute(api.createUser, async ({ req, actor }) => {
  const input = parseOr400(newUserSchema, await readJson(req), "user");
  const { user, invite } = await createUser(getDb(), actor, input);
  return Response.json({ user, invite: invite ? { ...invite, url: absoluteLink(req, invite.path) } : null }, { status: 201 });
});
