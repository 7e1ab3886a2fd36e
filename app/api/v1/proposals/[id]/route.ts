import { getDb } from "@/db/client";
import { getProposalRow } from "@/db/queries/authority";
import { getMissionById } from "@/db/queries/missions";
import { apiRoute, parseIdOr404 } from "@/server/api";
import { api } from "@/server/api-contract";
import { toProposalView } from "@/server/proposal-view";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** One proposal with its decision record, and its HITL prompt while it is pending. */
export const GET = apiRoute<{ id: string }>(api.getProposal, async ({ params }) => {
  const id = parseIdOr404(params.id, "Proposal");
  const db = getDb();
  const row = await getProposalRow(db, id);
  if (!row) throw new AppError("not_found", { userMessage: `Proposal ${id} does not exist.` });
  const mission = await getMissionById(db, row.missionId);
  const prompt = mission?.state.gates.find((g) => g.proposalId === id && g.status === "open")?.prompt ?? null;
  return Response.json({ proposal: toProposalView(row), prompt });
});
