import { getDb } from "@/db/client";
import { getProposalRow } from "@/db/queries/authority";
import { getMissionById } from "@/db/queries/missions";
import { apiRoute, parseIdOr404 } from "@/server/api";
import { api } from "@/server/api-contract";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

/**
 * The HITLPrompt of a pending proposal (FDR-N017): situation, currentState (the console's renderer),
 * yourProposal, whyPending, options, responseFormat. 409 once it was decided (the decision is on the proposal).
 */
export const GET = apiRoute<{ id: string }>(api.proposalPrompt, async ({ params }) => {
  const id = parseIdOr404(params.id, "Proposal");
  const db = getDb();
  const row = await getProposalRow(db, id);
  if (!row) throw new AppError("not_found", { userMessage: `Proposal ${id} does not exist.` });
  const prompt = (await getMissionById(db, row.missionId))?.state.gates.find((g) => g.proposalId === id && g.status === "open")?.prompt;
  if (!prompt) throw new AppError("conflict", { userMessage: `Proposal ${id} is ${row.status}: it waits for no decision, so it has no prompt. Its decision record is at GET /api/v1/proposals/${id}.`, details: { status: row.status } });
  return Response.json(prompt);
});
