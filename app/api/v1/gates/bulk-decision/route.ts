import { getDb } from "@/db/client";
import { decideGatesInBulk } from "@/server/gate-decision";
import { apiRoute, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/**
 * One decision and one note for many gates or proposals: each item is decided on its own (its own
 * transaction, audit row and policy check); 200 with one result per item, refused ones with the reason.
 * 400 names the bad field; 401 / 403 without gate.decide.
 */
export const POST = apiRoute(api.bulkDecideGates, async ({ req, user, actor }) => {
  const input = parseOr400(api.bulkDecideGates.body, await readJson(req), "bulk decision");
  const results = await decideGatesInBulk(getDb(), user, actor, { items: input.items, decision: input.decision, note: input.note || null });
  return Response.json({ results });
});
