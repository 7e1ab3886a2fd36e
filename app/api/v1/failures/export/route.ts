import { getDb } from "@/db/client";
import { EXPORT_COLUMNS, exportFailureHistory, recordHistoryExport } from "@/db/queries/failure-history";
import { filterParams } from "@/lib/history/filters";
import { apiRoute, exportResponse, parseOr400 } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/failures/export?<filters>&format=csv|jsonl — every failure of the filtered view, streamed
 * page by page (constant memory), as `failures-<date>.csv` or `.jsonl`. The export is recorded in the
 * audit log. Needs history.view.
 */
export const GET = apiRoute(api.exportFailures, async ({ req, actor }) => {
  const sp = new URL(req.url).searchParams;
  const { format, ...filters } = parseOr400(api.exportFailures.query, { ...filterParams(sp), format: sp.get("format") || undefined }, "query string");
  const db = getDb();
  await recordHistoryExport(db, actor, { filters, format });
  const filename = `failures-${new Date().toISOString().slice(0, 10)}.${format}`;
  return exportResponse(exportFailureHistory(db, filters), { filename, format, columns: EXPORT_COLUMNS });
});
