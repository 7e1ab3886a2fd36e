import { getDb } from "@/db/client";
import { countFailureHistory, listFailureHistory } from "@/db/queries/failure-history";
import { filterParams } from "@/lib/history/filters";
import { apiRoute, parseOr400 } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/failures?<filters>&cursor=&limit= — one page of the failure history (newest first by
 * default), `nextCursor` for the next page (null at the end) and `total` ({count, capped}: exact up to
 * 10,000, with full text up to 1,000 (cappedWordsCount); capped means at least count). Filters as on the /history page; a bad value is a 400 naming the field. Needs history.view.
 */
export const GET = apiRoute(api.listFailures, async ({ req }) => {
  const sp = new URL(req.url).searchParams;
  const { cursor, limit, ...filters } = parseOr400(api.listFailures.query, { ...filterParams(sp), cursor: sp.get("cursor") || undefined, limit: sp.get("limit") || undefined }, "filter");
  const page = { cursor, limit };
  const db = getDb();
  const now = Date.now();
  const [result, total] = await Promise.all([listFailureHistory(db, { filters, cursor: page.cursor, limit: page.limit, now }), countFailureHistory(db, filters, now)]);
  return Response.json({ ...result, total });
});
