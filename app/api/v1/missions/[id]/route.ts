import { getDb } from "@/db/client";
import { AppError } from "@/lib/errors";
import { apiRoute, parseIdOr404 } from "@/server/api";
import { api } from "@/server/api-contract";
import { loadMissionDetail } from "@/server/read-models";

export const dynamic = "force-dynamic";

/** The mission: state, derived final status (once terminal) with its explanation, open gates, events. */
export const GET = apiRoute<{ id: string }>(api.getMission, async ({ params }) => {
  const id = parseIdOr404(params.id, "Mission");
  const detail = await loadMissionDetail(getDb(), id);
  if (!detail) throw new AppError("not_found", { userMessage: `Mission ${id} does not exist.` });
  return Response.json(detail);
});
