import { getDb } from "@/db/client";
import { abortMission } from "@/db/queries/mission-control";
import { apiRoute, controlBody, parseIdOr404 } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** Aborts the whole mission: it ends FAILED after its compensations. Body (optional): `{ "note": "why" }`. */
export const POST = apiRoute<{ id: string }>(api.abortMission, async ({ req, actor, params }) => {
  const id = parseIdOr404(params.id, "Mission");
  const { note } = await controlBody(req);
  const state = await abortMission(getDb(), { missionId: id, actor, note });
  return Response.json({ mission: { id: state.id, runState: state.runState, aborted: state.aborted } });
});
