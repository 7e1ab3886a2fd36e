import { getDb } from "@/db/client";
import { readTraceSource, recordTraceExport } from "@/db/queries/traces";
import { AppError } from "@/lib/errors";
import { traceLines } from "@/lib/trace/export";
import { secretValues } from "@/lib/trace/redact";
import { apiRoute, parseIdOr404 } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** The mission's trace (FDR-N004) as JSON Lines, a download. Needs trace.export (admins, operators, auditors); audited. */
export const GET = apiRoute<{ id: string }>(api.missionTrace, async ({ params, actor }) => {
  const id = parseIdOr404(params.id, "Mission");
  const db = getDb();
  const src = await readTraceSource(db, id);
  if (!src) throw new AppError("not_found", { userMessage: `Mission ${id} does not exist.` });
  const lines = [...traceLines(src, { secrets: secretValues(process.env) })];
  await recordTraceExport(db, actor, id, lines.length);
  const text = `${lines.join("\n")}\n`;
  return new Response(text, { headers: { "content-type": "application/x-ndjson; charset=utf-8", "content-disposition": `attachment; filename="mission-${id}.trace.jsonl"`, "cache-control": "no-store" } });
});
