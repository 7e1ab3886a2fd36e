import { z } from "zod";
import { getDb } from "@/db/client";
import { listEventsAfter } from "@/db/queries/events";
import { getMissionLastSeq } from "@/db/queries/views";
import { AppError } from "@/lib/errors";
import { apiRoute, parseIdOr404, parseOr400 } from "@/server/api";

export const dynamic = "force-dynamic";

const query = z.object({
  after: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(0, "must be 0 or more").default(0),
  limit: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1).max(10_000).default(1000),
});

/** Events with seq > after, ascending. */
export const GET = apiRoute<{ id: string }>({ name: "GET mission events", permission: "mission.view" }, async ({ req, params }) => {
  const id = parseIdOr404(params.id, "Mission");
  const sp = new URL(req.url).searchParams;
  const q = parseOr400(query, { after: sp.get("after") ?? undefined, limit: sp.get("limit") ?? undefined }, "query string");
  const db = getDb();
  const lastSeq = await getMissionLastSeq(db, id);
  if (lastSeq === null) throw new AppError("not_found", { userMessage: `Mission ${id} does not exist.` });
  const events = await listEventsAfter(db, { missionId: id, afterSeq: q.after, limit: q.limit });
  return Response.json({ missionId: id, lastSeq, events });
});
