import { getDb } from "@/db/client";
import { getLabTrace, recordLabTraceExport } from "@/db/queries/lab";
import { AppError } from "@/lib/errors";
import { apiRoute } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/**
 * A lab run's trace, byte for byte as `faultline lab run` wrote it (JSON Lines), a download. Needs
 * lab.view (admins, operators, reviewers, auditors); audited as trace.export.
 */
export const GET = apiRoute<{ id: string; scenario: string; repeat: string }>(api.labTrace, async ({ params, actor }) => {
  const scenario = decoded(params.scenario);
  const repeat = /^\d{1,6}$/.test(params.repeat) ? Number(params.repeat) : Number.NaN;
  const db = getDb();
  const t = await getLabTrace(db, params.id, scenario, repeat);
  if (!t) throw new AppError("not_found", { userMessage: `Lab run ${params.id} has no trace for scenario "${scenario}" repeat ${params.repeat}. Open the run on the Lab page for the traces it has.` });
  await recordLabTraceExport(db, actor, { suiteRunId: t.suiteRunId, scenario: t.scenario, repeat: t.repeat, bytes: t.bytes });
  return new Response(t.trace, {
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="${t.scenario.toLowerCase().replace(/[^a-z0-9._-]+/g, "-")}.${t.repeat}.trace.jsonl"`,
      "x-trace-sha256": t.sha256,
      "cache-control": "no-store",
    },
  });
});

/** A path segment as the scenario's name (Next may hand it over encoded or not). */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
