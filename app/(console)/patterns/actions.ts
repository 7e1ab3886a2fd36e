"use server";

import { z } from "zod";
import { getDb } from "@/db/client";
import { proposePattern } from "@/db/queries/contributions";
import { deletePattern, updatePattern } from "@/db/queries/learning";
import { userActorId } from "@/db/queries/users";
import { authedAction } from "@/server/safe-action";

const id = z.guid("must be a pattern id");

/** An admin disables or enables a learned pattern, or changes its fast-path threshold (permission pattern.manage). */
export const updatePatternAction = authedAction(
  { name: "updatePattern", permission: "pattern.manage", input: z.object({ id, enabled: z.boolean().optional(), threshold: z.number().min(0.5).max(1).optional() }) },
  async (input, { actor }) => {
    const row = await updatePattern(getDb(), input.id, { enabled: input.enabled, threshold: input.threshold }, actor);
    return { id: row.id, enabled: row.enabled, threshold: row.threshold };
  },
);

/** An admin deletes a learned pattern; later recoveries start a new record (permission pattern.manage). */
export const deletePatternAction = authedAction({ name: "deletePattern", permission: "pattern.manage", input: z.object({ id }) }, async (input, { actor }) => {
  await deletePattern(getDb(), input.id, actor);
  return { id: input.id };
});

/**
 * "Propose to library": a proven learned pattern (confidence at or above its threshold) becomes a draft
 * contribution (origin learned_pattern, source incident_analysis) prefilled from its trigger, strategy
 * and record; proposing it again opens the existing one (permission library.contribute).
 */
export const proposePatternAction = authedAction({ name: "proposePattern", permission: "library.contribute", input: z.object({ id }) }, async (input, { user, actor }) => {
  const { contribution, created } = await proposePattern(getDb(), { patternId: input.id, actorId: userActorId(user.id), audit: actor });
  return { contributionId: contribution.id, created };
});
