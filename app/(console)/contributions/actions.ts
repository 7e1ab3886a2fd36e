"use server";

import { z } from "zod";
import { getDb } from "@/db/client";
import { addComment, createContribution, reviewContribution, similarEntries, updateContribution, withdrawContribution } from "@/db/queries/contributions";
import { commentInputSchema, contributionInputSchema, reviewInputSchema, validateContributionEntry } from "@/lib/library/contribution";
import { userActorId } from "@/db/queries/users";
import { env } from "@/lib/env";
import { isAppError } from "@/lib/errors";
import type { FieldError } from "@/server/action-result";
import { authedAction } from "@/server/safe-action";

const id = z.guid("must be a contribution id");

/**
 * "Check for similar entries": validates the entry as it would be submitted (field errors, if any) and
 * returns the most similar existing entries with their match_score, or that the library abstains.
 */
export const checkContributionAction = authedAction(
  { name: "checkContribution", permission: "library.contribute", input: z.object({ entry: z.record(z.string(), z.unknown()) }) },
  async ({ entry }) => {
    let fieldErrors: FieldError[] = [];
    try {
      validateContributionEntry(entry, "submit");
    } catch (e) {
      if (!isAppError(e)) throw e;
      fieldErrors = (e.details?.fieldErrors as FieldError[] | undefined) ?? [];
    }
    const symptom = typeof entry.surface_symptom === "string" ? entry.surface_symptom : "";
    const tags = Array.isArray(entry.context_tags) ? entry.context_tags.filter((t): t is string => typeof t === "string") : [];
    const title = typeof entry.title === "string" ? entry.title : undefined;
    return { fieldErrors, similar: await similarEntries(getDb(), { surface_symptom: symptom, context_tags: tags, title }) };
  },
);

/** Creates a contribution, or changes an existing one (the author's, or an orchestrator draft being picked up); submit or keep as draft. */
export const saveContributionAction = authedAction(
  { name: "saveContribution", permission: "library.contribute", input: z.object({ id: id.optional(), input: contributionInputSchema }) },
  async ({ id: existing, input }, { user, actor }) => {
    const actorId = userActorId(user.id);
    const row = existing ? await updateContribution(getDb(), { id: existing, actorId, input, audit: actor }) : await createContribution(getDb(), { actorId, input, audit: actor });
    return { id: row.id, status: row.status };
  },
);

/** The author takes a submitted contribution back to draft. */
export const withdrawContributionAction = authedAction({ name: "withdrawContribution", permission: "library.contribute", input: z.object({ id }) }, async (input, { user, actor }) => {
  const row = await withdrawContribution(getDb(), { id: input.id, actorId: userActorId(user.id), audit: actor });
  return { id: row.id, status: row.status };
});

/** A reviewer's verdict with its required reason; never on one's own contribution (refused by the query layer). */
export const reviewContributionAction = authedAction(
  { name: "reviewContribution", permission: "library.review", input: reviewInputSchema.extend({ id }) },
  async (input, { user, actor }) => reviewContribution(getDb(), { id: input.id, reviewerId: userActorId(user.id), verdict: input.verdict, reason: input.reason, approvalsRequired: env().FAULTLINE_LIBRARY_APPROVALS, audit: actor }),
);

/** A comment or a reply. */
export const commentContributionAction = authedAction(
  { name: "commentContribution", permission: "library.contribute", input: commentInputSchema.extend({ id }) },
  async (input, { user, actor }) => {
    const row = await addComment(getDb(), { id: input.id, authorId: userActorId(user.id), body: input.body, parentId: input.parent_id, audit: actor });
    return { id: row.id };
  },
);
