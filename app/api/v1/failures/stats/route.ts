import { getDb } from "@/db/client";
import { failureHistoryStats } from "@/db/queries/failure-history";
import { filterParams, historyFiltersSchema } from "@/lib/history/filters";
import { apiRoute, parseOr400 } from "@/server/api";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/failures/stats?<filters> — the charts' data for a filtered view: failures over time by
 * error type (hourly up to 3 days, else daily), time to resolution by level (median, p90), top failure
 * modes, recovery outcomes. Needs history.view.
 */
export const GET = apiRoute({ name: "GET failures stats", permission: "history.view" }, async ({ req }) => {
  const filters = parseOr400(historyFiltersSchema, filterParams(new URL(req.url).searchParams), "filter");
  return Response.json(await failureHistoryStats(getDb(), filters));
});
