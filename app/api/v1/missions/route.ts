import { getDb } from "@/db/client";
import { createMission } from "@/db/queries/events";
import { userActorId } from "@/db/queries/users";
import { AppError } from "@/lib/errors";
import { parseMissionDefinition, validateMissionDefinition, type ParseDefinitionResult } from "@/lib/mission/definition";
import { apiRoute, readJson } from "@/server/api";
import { api, missionTextBody } from "@/server/api-contract";
import { loadMissionList } from "@/server/read-models";

export const dynamic = "force-dynamic";

export const GET = apiRoute(api.listMissions, async () => {
  return Response.json({ missions: await loadMissionList(getDb()) });
});

export const POST = apiRoute(api.createMission, async ({ req, user, actor }) => {
  const body = await readJson(req);
  const asText = missionTextBody.safeParse(body);
  const parsed: ParseDefinitionResult = asText.success ? parseMissionDefinition(asText.data.text) : validateMissionDefinition(body);
  if (!parsed.ok) {
    throw new AppError("unprocessable", {
      userMessage: `The mission definition is not valid: ${parsed.errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join("; ")}.`,
      details: { fieldErrors: parsed.errors },
    });
  }
  const mission = await createMission(getDb(), { definition: parsed.definition, actorId: userActorId(user.id), audit: actor });
  return Response.json({ mission }, { status: 201, headers: { Location: `/api/v1/missions/${mission.id}` } });
});
