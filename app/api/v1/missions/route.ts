import { z } from "zod";
import { getDb } from "@/db/client";
import { createMission } from "@/db/queries/events";
import { userActorId } from "@/db/queries/users";
import { AppError } from "@/lib/errors";
import { parseMissionDefinition, validateMissionDefinition, type ParseDefinitionResult } from "@/lib/mission/definition";
import { apiRoute, readJson } from "@/server/api";
import { loadMissionList } from "@/server/read-models";

export const dynamic = "force-dynamic";

export const GET = apiRoute({ name: "GET missions", permission: "mission.view" }, async () => {
  return Response.json({ missions: await loadMissionList(getDb()) });
});

/** `{ text: "<yaml or json>" }` carries a definition as text; any other object is the definition itself. */
const textBody = z.object({ text: z.string() }).strict();

export const POST = apiRoute({ name: "POST missions", permission: "mission.create" }, async ({ req, user, actor }) => {
  const body = await readJson(req);
  const asText = textBody.safeParse(body);
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
