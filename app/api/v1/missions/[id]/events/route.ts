import { getDb } from "@/db/client";
import { listEventsAfter } from "@/db/queries/events";
import { getMissionLastSeq } from "@/db/queries/views";
import { AppError } from "@/lib/errors";
import { apiRoute, parseIdOr404, parseOr400 } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** Events with seq > after, ascending. */
export const GET = apiRoute<{ id: string }>(api.missionEvents, async ({ req, params }) => {
  const id = parseIdOr404(params.id, "Mission");
  const sp = new URL(req.url).searchParams;
  const q = parseOr400(api.missionEvents.query, { after: sp.get("after") ?? undefined, limit: sp.get("limit") ?? undefined }, "query string");
  const db = getDb();
  const lastSeq = await getMissionLastSeq(db, id);
  if (lastSeq === null) throw new AppError("not_found", { userMessage: `Mission ${id} does not exist.` });
  const events = await listEventsAfter(db, { missionId: id, afterSeq: q.after, limit: q.limit });
  return Response.json({ missionId: id, lastSeq, events });
});
