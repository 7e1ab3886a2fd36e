import { z } from "zod";
import { getDb } from "@/db/client";
import { countFailureHistory, listFailureHistory, MAX_PAGE_SIZE } from "@/db/queries/failure-history";
import { filterParams, historyFiltersSchema } from "@/lib/history/filters";
import { apiRoute, parseOr400 } from "@/server/api";

export const dynamic = "force-dynamic";

const pageSchema = z.object({
  cursor: z.string().max(400).optional(),
  limit: z.coerce.number({ error: `must be a number from 1 to ${MAX_PAGE_SIZE}` }).int(`must be a whole number from 1 to ${MAX_PAGE_SIZE}`).min(1).max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`).default(100),
});

/**
 * GET /api/v1/failures?<filters>&cursor=&limit= — one page of the failure history (newest first by
 * default), `nextCursor` for the next page (null at the end) and `total` ({count, capped}: exact up to
 * 10,000). Filters as on the /history page; a bad value is a 400 naming the field. Needs history.view.
 */
export const GET = apiRoute({ name: "GET failures", permission: "history.view" }, async ({ req }) => {
  const sp = new URL(req.url).searchParams;
  const filters = parseOr400(historyFiltersSchema, filterParams(sp), "filter");
  const page = parseOr400(pageSchema, { cursor: sp.get("cursor") || undefined, limit: sp.get("limit") || undefined }, "paging");
  const db = getDb();
  const now = Date.now();
  const [result, total] = await Promise.all([listFailureHistory(db, { filters, cursor: page.cursor, limit: page.limit, now }), countFailureHistory(db, filters, now)]);
  return Response.json({ ...result, total });
});
