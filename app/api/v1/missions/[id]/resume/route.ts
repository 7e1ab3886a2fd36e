import { getDb } from "@/db/client";
import { resumeMission } from "@/db/queries/mission-control";
import { userActorId } from "@/db/queries/users";
import { apiRoute, controlBody, parseIdOr404 } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** Resumes a paused mission from its last checkpoint. Body (optional): `{ "note": "why" }`. */
export const POST = apiRoute<{ id: string }>(api.resumeMission, async ({ req, user, actor, params }) => {
  const id = parseIdOr404(params.id, "Mission");
  const { note } = await controlBody(req);
  const state = await resumeMission(getDb(), { missionId: id, actorId: userActorId(user.id), message: `${user.name} resumed the mission${note ? `: ${note}` : "."}`, audit: actor });
  return Response.json({ mission: { id: state.id, runState: state.runState, paused: state.paused } });
});
