import { getDb } from "@/db/client";
import { revokeApiToken } from "@/db/queries/api-tokens";
import { can } from "@/lib/auth/roles";
import { apiRoute } from "@/server/api";

export const dynamic = "force-dynamic";

/** Revokes an API token: your own (token.manage), or anyone's for an admin (user.manage). 404 for a token that is not yours. */
export const DELETE = apiRoute<{ id: string }>({ name: "DELETE token", permission: "token.manage" }, async ({ user, actor, params }) => {
  const apiToken = await revokeApiToken(getDb(), actor, { id: params.id, ownerId: can(user, "user.manage") ? undefined : user.id });
  return Response.json({ apiToken });
});
