import { getDb } from "@/db/client";
import { getDefaultPolicy, publishDefaultPolicy } from "@/db/queries/authority";
import { apiRoute, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** The admin's default authority policy in force (the built-in one until an admin publishes a version). */
export const GET = apiRoute(api.getAuthorityPolicy, async () => Response.json(await getDefaultPolicy(getDb())));


/** Publishes a new version of the default policy: rules validated (400 naming the rule and field), audited. */
export const PUT = apiRoute(api.putAuthorityPolicy, async ({ req, actor }) => {
  const input = parseOr400(api.putAuthorityPolicy.body, await readJson(req), "policy");
  const r = await publishDefaultPolicy(getDb(), actor, { rules: input.rules, note: input.note ?? null });
  return Response.json({ ...(await getDefaultPolicy(getDb())), version: r.version });
});
