import { getDb } from "@/db/client";
import { loadRun, runView } from "@/db/queries/runs";
import { apiRoute, parseIdOr404, parseOr400 } from "@/server/api";
import { api } from "@/server/api-contract";
import { missionChanged } from "@/server/mission-signal";

export const dynamic = "force-dynamic";

/** A run; with `?wait=N` the answer comes when it ends, or after N seconds as it is then. */
export const GET = apiRoute<{ id: string }>(api.getRun, async ({ req, params }) => {
  const id = parseIdOr404(params.id, "Mission");
  const { wait } = parseOr400(api.getRun.query, { wait: new URL(req.url).searchParams.get("wait") ?? undefined }, "query string");
  const db = getDb();
  const until = Date.now() + wait * 1000;
  let s = await loadRun(db, id);
  while ((s.runState !== "completed" && s.runState !== "failed") && Date.now() < until && !req.signal.aborted) {
    await missionChanged(id, Math.min(2000, until - Date.now()), req.signal);
    s = await loadRun(db, id);
  }
  return Response.json({ run: runView(s) });
});
