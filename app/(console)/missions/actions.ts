"use server";

import { z } from "zod";
import { getDb } from "@/db/client";
import { createMission } from "@/db/queries/events";
import { userActorId } from "@/db/queries/users";
import { AppError } from "@/lib/errors";
import { parseMissionDefinition } from "@/lib/mission/definition";
import { authedAction } from "@/server/safe-action";

const createMissionInput = z.object({
  text: z.string().max(1_000_000, "the definition must be at most 1 MB"),
});

/** Creates a mission from pasted or uploaded YAML/JSON (permission mission.create). */
export const createMissionAction = authedAction({ name: "createMission", permission: "mission.create", input: createMissionInput }, async ({ text }, { user }) => {
  const parsed = parseMissionDefinition(text);
  if (!parsed.ok) {
    const n = parsed.errors.length;
    throw new AppError("unprocessable", {
      userMessage: `The definition has ${n} problem${n === 1 ? "" : "s"}; fix ${n === 1 ? "it" : "them"} and submit again.`,
      details: { fieldErrors: parsed.errors },
    });
  }
  const state = await createMission(getDb(), { definition: parsed.definition, actorId: userActorId(user.id) });
  return { id: state.id, name: state.name };
});
