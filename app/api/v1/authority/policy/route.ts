import { z } from "zod";
import { getDb } from "@/db/client";
import { getDefaultPolicy, publishDefaultPolicy } from "@/db/queries/authority";
import { apiRoute, parseOr400, readJson } from "@/server/api";

export const dynamic = "force-dynamic";

/** The admin's default authority policy in force (the built-in one until an admin publishes a version). */
export const GET = apiRoute({ name: "GET authority policy", permission: "mission.view" }, async () => Response.json(await getDefaultPolicy(getDb())));

const body = z.strictObject({ rules: z.array(z.unknown(), { error: "must be a list of rules" }), note: z.string().trim().max(2000).nullish() });

/** Publishes a new version of the default policy: rules validated (400 naming the rule and field), audited. */
export const PUT = apiRoute({ name: "PUT authority policy", permission: "policy.manage" }, async ({ req, actor }) => {
  const input = parseOr400(body, await readJson(req), "policy");
  const r = await publishDefaultPolicy(getDb(), actor, { rules: input.rules, note: input.note ?? null });
  return Response.json({ ...(await getDefaultPolicy(getDb())), version: r.version });
});
