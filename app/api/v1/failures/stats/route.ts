import { getDb } from "@/db/client";
import { failureHistoryStats } from "@/db/queries/failure-history";
import { filterParams } from "@/lib/history/filters";
import { apiRoute, parseOr400 } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/failures/stats?<filters> — the charts' data for a filtered view: failures over time by
 * error type (hourly up to 3 days, else daily), time to resolution by level (median, p90), top failure
 * modes, recovery outcomes. Needs history.view.
 */
export const GET = apiRoute(api.failureStats, async ({ req }) => {
  const filters = parseOr400(api.failureStats.query, filterParams(new URL(req.url).searchParams), "filter");
  return Response.json(await failureHistoryStats(getDb(), filters));
});
