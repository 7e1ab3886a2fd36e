import { getDb } from "@/db/client";
import { AUDIT_EXPORT_COLUMNS, auditLogRecords, recordAudit } from "@/db/queries/audit-log";
import { describeAuditFilters, auditFilterParams } from "@/lib/audit/filters";
import { apiRoute, exportResponse, parseOr400 } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/**
 * The filtered audit log as a download (audit.view), streamed: `?format=csv|jsonl` plus the filters of
 * GET /api/v1/audit. The export is itself recorded (audit.export) with the filters it used.
 */
export const GET = apiRoute(api.exportAudit, async ({ req, actor }) => {
  const sp = new URL(req.url).searchParams;
  const { format, ...filters } = parseOr400(api.exportAudit.query, { ...auditFilterParams(sp), format: sp.get("format") ?? undefined }, "query string");
  const db = getDb();
  await recordAudit(db, actor, {
    action: "audit.export",
    summary: `${actor.name} exported the audit log as ${format === "csv" ? "CSV" : "JSON Lines"} (${describeAuditFilters(filters)}).`,
    target: { type: "audit_log", id: format },
    after: { format, filters },
  });
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-");
  return exportResponse(auditLogRecords(db, filters), { filename: `audit-log-${stamp}.${format}`, format, columns: AUDIT_EXPORT_COLUMNS });
});
