import { getDb } from "@/db/client";
import { getActorSummary } from "@/db/queries/authority";
import { apiRoute } from "@/server/api";
import { api } from "@/server/api-contract";
import { toProposalView } from "@/server/proposal-view";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** One actor: what it proposed, how that was decided (approval rate), what it decided, rejections by FailureReason per day. */
export const GET = apiRoute<{ id: string }>(api.getActor, async ({ params }) => {
  const id = decodeURIComponent(params.id);
  const s = await getActorSummary(getDb(), id);
  if (!s) throw new AppError("not_found", { userMessage: `Actor ${id} does not exist. GET /api/v1/actors lists them.` });
  return Response.json({ ...s, recent: s.recent.map(toProposalView), recentDecisions: s.recentDecisions.map(toProposalView) });
});
