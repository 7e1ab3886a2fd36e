import { getDb } from "@/db/client";
import { pauseMission } from "@/db/queries/mission-control";
import { userActorId } from "@/db/queries/users";
import { apiRoute, controlBody, parseIdOr404 } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** Pauses the mission at its next step boundary. Body (optional): `{ "note": "why" }`. */
export const POST = apiRoute<{ id: string }>(api.pauseMission, async ({ req, user, actor, params }) => {
  const id = parseIdOr404(params.id, "Mission");
  const { note } = await controlBody(req);
  const state = await pauseMission(getDb(), { missionId: id, actorId: userActorId(user.id), kind: "operator", message: `${user.name} paused the mission${note ? `: ${note}` : "."}`, audit: actor });
  return Response.json({ mission: { id: state.id, runState: state.runState, paused: state.paused } });
});
