import { getDb } from "@/db/client";
import { listEventPage } from "@/db/queries/event-pages";
import { getActorNames, getMissionLastSeq } from "@/db/queries/views";
import { AppError } from "@/lib/errors";
import { apiRoute, parseIdOr404, parseOr400 } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** A page of events, ascending: seq > after (default), < before or around a seq; of one type or agent. */
export const GET = apiRoute<{ id: string }>(api.missionEvents, async ({ req, params }) => {
  const id = parseIdOr404(params.id, "Mission");
  const sp = new URL(req.url).searchParams;
  const param = (k: string) => sp.get(k) ?? undefined;
  const q = parseOr400(api.missionEvents.query, { after: param("after"), before: param("before"), around: param("around"), limit: param("limit"), type: param("type"), agent: param("agent") }, "query string");
  const db = getDb();
  const lastSeq = await getMissionLastSeq(db, id);
  if (lastSeq === null) throw new AppError("not_found", { userMessage: `Mission ${id} does not exist.` });
  const filters = { missionId: id, limit: q.limit, type: q.type, agent: q.agent };
  const page = await listEventPage(db, q.around !== undefined ? { ...filters, around: q.around } : q.before !== undefined ? { ...filters, before: q.before } : { ...filters, after: q.after });
  const actors = await getActorNames(db, page.events.map((e) => e.actorId));
  return Response.json({ missionId: id, lastSeq, events: page.events, hasOlder: page.hasOlder, hasNewer: page.hasNewer, actors });
});
