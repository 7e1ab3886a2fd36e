import { getDb } from "@/db/client";
import { createApiToken, listApiTokens } from "@/db/queries/api-tokens";
import { newTokenSchema } from "@/lib/auth/user-admin";
import { apiRoute, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** Your API tokens (name, prefix, created, last used, expiry, revoked); never the tokens themselves. */
export const GET = apiRoute(api.listTokens, async ({ user }) => {
  return Response.json({ tokens: await listApiTokens(getDb(), user.id) });
});

/**
 * Creates an API token for yourself: `{name, expiresInDays?}`. 201 with `token` (`flt_…`), shown only
 * in this response: store it now. Send it as `Authorization: Bearer flt_…`.
 */
export const POST = apiRoute(api.createToken, async ({ req, user, actor }) => {
  const input = parseOr400(newTokenSchema, await readJson(req), "token");
  const { token, view } = await createApiToken(getDb(), actor, { userId: user.id, name: input.name, expiresInDays: input.expiresInDays });
  return Response.json({ token, apiToken: view }, { status: 201 });
});
