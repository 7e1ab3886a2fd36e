import { getDb } from "@/db/client";
import { createApiToken, listApiTokens } from "@/db/queries/api-tokens";
import { newTokenSchema } from "@/lib/auth/user-admin";
import { apiRoute, parseOr400, readJson } from "@/server/api";

export const dynamic = "force-dynamic";

/** Your API tokens (name, prefix, created, last used, expiry, revoked); never the tokens themselves. */
export const GET = apiRoute({ name: "GET tokens", permission: "token.manage" }, async ({ user }) => {
  return Response.json({ tokens: await listApiTokens(getDb(), user.id) });
});

/**
 * Creates an API token for yourself: `{name, expiresInDays?}`. 201 with `token` (`flt_…`), shown only
 * in this response: store it now. Send it as `Authorization: Bearer flt_…`.
 */
export const POST = apiRoute({ name: "POST token", permission: "token.manage" }, async ({ req, user, actor }) => {
  const input = parseOr400(newTokenSchema, await readJson(req), "token");
  const { token, view } = await createApiToken(getDb(), actor, { userId: user.id, name: input.name, expiresInDays: input.expiresInDays });
  return Response.json({ token, apiToken: view }, { status: 201 });
});
