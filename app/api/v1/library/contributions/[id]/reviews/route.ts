import { getDb } from "@/db/client";
import { reviewContribution } from "@/db/queries/contributions";
import { reviewInputSchema } from "@/lib/library/contribution";
import { userActorId } from "@/db/queries/users";
import { env } from "@/lib/env";
import { apiRoute, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/**
 * A reviewer's verdict `{ verdict: approve | request_changes | reject, reason }`: 200 with the outcome
 * (`status`, `approvals`, `required`, `publishedVersion`, `failureId`). 409 for one's own contribution
 * or one that is not pending / in review; 400 without a reason.
 */
export const POST = apiRoute<{ id: string }>(api.reviewContribution, async ({ req, user, actor, params }) => {
  const review = parseOr400(reviewInputSchema, await readJson(req), "review");
  const outcome = await reviewContribution(getDb(), { id: params.id, reviewerId: userActorId(user.id), ...review, approvalsRequired: env().FAULTLINE_LIBRARY_APPROVALS, audit: actor });
  return Response.json(outcome);
});
