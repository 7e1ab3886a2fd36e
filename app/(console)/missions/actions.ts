"use server";

import { z } from "zod";
import { getDb } from "@/db/client";
import { createMission } from "@/db/queries/events";
import { abortMission, pauseMission, resumeMission } from "@/db/queries/mission-control";
import { userActorId } from "@/db/queries/users";
import { AppError } from "@/lib/errors";
import { parseMissionDefinition } from "@/lib/mission/definition";
import { authedAction } from "@/server/safe-action";

const createMissionInput = z.object({
  text: z.string().max(1_000_000, "the definition must be at most 1 MB"),
});

/** Creates a mission from pasted or uploaded YAML/JSON (permission mission.create). */
export const createMissionAction = authedAction({ name: "createMission", permission: "mission.create", input: createMissionInput }, async ({ text }, { user, actor }) => {
  const parsed = parseMissionDefinition(text);
  if (!parsed.ok) {
    const n = parsed.errors.length;
    throw new AppError("unprocessable", {
      userMessage: `The definition has ${n} problem${n === 1 ? "" : "s"}; fix ${n === 1 ? "it" : "them"} and submit again.`,
      details: { fieldErrors: parsed.errors },
    });
  }
  const state = await createMission(getDb(), { definition: parsed.definition, actorId: userActorId(user.id), audit: actor });
  return { id: state.id, name: state.name };
});

const controlInput = z.object({ missionId: z.guid("must be a mission id"), note: z.string().trim().max(2000).nullish() });

/** Pauses a mission at its next step boundary (permission mission.control). */
export const pauseMissionAction = authedAction({ name: "pauseMission", permission: "mission.control", input: controlInput }, async ({ missionId, note }, { user, actor }) => {
  const s = await pauseMission(getDb(), { missionId, actorId: userActorId(user.id), kind: "operator", message: `${user.name} paused the mission${note ? `: ${note}` : "."}`, audit: actor });
  return { runState: s.runState };
});

/** Resumes a paused mission from its last checkpoint (permission mission.control). */
export const resumeMissionAction = authedAction({ name: "resumeMission", permission: "mission.control", input: controlInput }, async ({ missionId, note }, { user, actor }) => {
  const s = await resumeMission(getDb(), { missionId, actorId: userActorId(user.id), message: `${user.name} resumed the mission${note ? `: ${note}` : "."}`, audit: actor });
  return { runState: s.runState };
});

/** Aborts the whole mission: open gates close as abort, compensations run, it ends FAILED (permission mission.control). */
export const abortMissionAction = authedAction({ name: "abortMission", permission: "mission.control", input: controlInput }, async ({ missionId, note }, { actor }) => {
  const s = await abortMission(getDb(), { missionId, actor, note: note ?? null });
  return { runState: s.runState };
});
