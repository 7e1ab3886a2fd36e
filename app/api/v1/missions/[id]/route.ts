import { getDb } from "@/db/client";
import { AppError } from "@/lib/errors";
import { apiRoute, parseIdOr404, parseOr400 } from "@/server/api";
import { api } from "@/server/api-contract";
import { loadMissionDetail } from "@/server/read-models";

export const dynamic = "force-dynamic";

/** The mission: state, derived final status (once terminal) with its explanation, open gates, events. */
export const GET = apiRoute<{ id: string }>(api.getMission, async ({ req, params }) => {
  const id = parseIdOr404(params.id, "Mission");
  const sp = new URL(req.url).searchParams;
  const q = parseOr400(api.getMission.query!, { window: sp.get("window") ?? undefined, around: sp.get("around") ?? undefined }, "query string");
  // window=N: the newest N events (or those around `around`) only — the mission page's refetch; the timeline pages in the rest.
  const detail = await loadMissionDetail(getDb(), id, q.window ? { window: { limit: q.window, around: q.around } } : {});
  if (!detail) throw new AppError("not_found", { userMessage: `Mission ${id} does not exist.` });
  return Response.json(detail);
});
