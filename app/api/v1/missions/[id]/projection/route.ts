import { getDb } from "@/db/client";
import { getMissionById } from "@/db/queries/missions";
import { readDebugSource, readModelTapes } from "@/db/queries/traces";
import { can, describeMissingPermission } from "@/lib/auth/roles";
import { AppError } from "@/lib/errors";
import { debugAtSeq } from "@/lib/lab/debug";
import { domainFor } from "@/lib/lab/domains";
import { MODE_CAPABILITIES } from "@/lib/lab/modes";
import { reasoningLines } from "@/lib/lab/projection";
import { redactor, secretValues } from "@/lib/trace/redact";
import { apiRoute, parseIdOr404, parseOr400 } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/**
 * What a projection mode adds to the mission page (seed 002 FDR-N012): the model turns drawn by the
 * mission's renderers as the mode shows them, and in debug the state at a seq with its write's model
 * requests and responses (lib/lab/debug.ts). Debug shows what a trace holds: it needs trace.export too,
 * and secrets are redacted as in a trace.
 */
export const GET = apiRoute<{ id: string }>(api.missionProjection, async ({ req, params, user }) => {
  const id = parseIdOr404(params.id, "Mission");
  const sp = new URL(req.url).searchParams;
  const q = parseOr400(api.missionProjection.query, { mode: sp.get("mode") ?? undefined, seq: sp.get("seq") ?? undefined }, "query string");
  if (q.mode === "debug" && !can(user, "trace.export")) throw new AppError("forbidden", { userMessage: `Debug shows what the mission's trace holds (the state, tool outputs, model requests and responses). ${describeMissingPermission(user, "trace.export")} Watch and interactive show the mission without it.` });
  if (q.seq !== undefined && q.mode !== "debug") throw new AppError("bad_request", { userMessage: `seq=${q.seq}: the state at a seq is shown in debug mode only; ask with mode=debug, or leave seq out.` });
  const db = getDb();
  const row = await getMissionById(db, id);
  if (!row) throw new AppError("not_found", { userMessage: `Mission ${id} does not exist.` });
  if (q.seq !== undefined && q.seq > row.state.seq) throw new AppError("bad_request", { userMessage: `seq=${q.seq}: mission ${id} has ${row.state.seq} event(s) so far; choose a seq from 1 to ${row.state.seq}.` });
  const redact = redactor({ secrets: secretValues(process.env) });
  const components = domainFor(row.definition)?.components;
  const modelCalls = MODE_CAPABILITIES[q.mode].llmCalls === "none" ? [] : reasoningLines(await readModelTapes(db, id), { mode: q.mode, missionId: id, components });
  let debug = null;
  if (q.seq !== undefined) {
    const src = await readDebugSource(db, id, q.seq);
    debug = debugAtSeq(src.events, q.seq, src.tape, src.config);
  }
  return Response.json(redact({ mode: q.mode, capabilities: MODE_CAPABILITIES[q.mode], modelCalls, debug }), { headers: { "cache-control": "no-store" } });
});
