import { getDb } from "@/db/client";
import { revokeApiToken } from "@/db/queries/api-tokens";
import { can } from "@/lib/auth/roles";
import { apiRoute } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** Revokes an API token: your own (token.manage), or anyone's for an admin (user.manage). 404 for a token that is not yours. */
export const DELETE = apiRoute<{ id: string }>(api.revokeToken, async ({ user, actor, params }) => {
  const apiToken = await revokeApiToken(getDb(), actor, { id: params.id, ownerId: can(user, "user.manage") ? undefined : user.id });
  return Response.json({ apiToken });
});
