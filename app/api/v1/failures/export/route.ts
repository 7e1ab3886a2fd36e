import { z } from "zod";
import { getDb } from "@/db/client";
import { EXPORT_COLUMNS, exportFailureHistory, recordHistoryExport } from "@/db/queries/failure-history";
import { filterParams, historyFiltersSchema } from "@/lib/history/filters";
import { apiRoute, EXPORT_FORMATS, exportResponse, parseOr400 } from "@/server/api";

export const dynamic = "force-dynamic";

const formatSchema = z.object({ format: z.enum(EXPORT_FORMATS, { error: "must be csv or jsonl" }).default("csv") });

/**
 * GET /api/v1/failures/export?<filters>&format=csv|jsonl — every failure of the filtered view, streamed
 * page by page (constant memory), as `failures-<date>.csv` or `.jsonl`. The export is recorded in the
 * audit log. Needs history.view.
 */
export const GET = apiRoute({ name: "GET failures export", permission: "history.view" }, async ({ req, actor }) => {
  const sp = new URL(req.url).searchParams;
  const filters = parseOr400(historyFiltersSchema, filterParams(sp), "filter");
  const { format } = parseOr400(formatSchema, { format: sp.get("format") || undefined }, "format");
  const db = getDb();
  await recordHistoryExport(db, actor, { filters, format });
  const filename = `failures-${new Date().toISOString().slice(0, 10)}.${format}`;
  return exportResponse(exportFailureHistory(db, filters), { filename, format, columns: EXPORT_COLUMNS });
});
