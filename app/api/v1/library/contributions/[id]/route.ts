import { getDb } from "@/db/client";
import { getContribution, updateContribution } from "@/db/queries/contributions";
import type { ContributionInput } from "@/lib/library/contribution";
import { userActorId } from "@/db/queries/users";
import { AppError } from "@/lib/errors";
import { apiRoute, readJson } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** One contribution with its reviews, comments, approvals of the current round, its target and the field diff of an edit. */
export const GET = apiRoute<{ id: string }>(api.getContribution, async ({ user, params }) => {
  const detail = await getContribution(getDb(), params.id, userActorId(user.id));
  if (!detail) throw new AppError("not_found", { userMessage: `Contribution ${params.id} does not exist.` });
  return Response.json(detail);
});

/**
 * The author changes the contribution and submits it (`submit`, default true) or keeps it as a draft;
 * an orchestrator's draft is picked up by whoever completes it. 200; 400 field errors; 403 not the
 * author; 409 when it is approved, rejected or already approved in this round.
 */
export const PATCH = apiRoute<{ id: string }>(api.patchContribution, async ({ req, user, actor, params }) => {
  const contribution = await updateContribution(getDb(), { id: params.id, actorId: userActorId(user.id), input: (await readJson(req)) as ContributionInput, audit: actor });
  return Response.json({ contribution });
});
