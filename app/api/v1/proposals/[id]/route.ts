import { getDb } from "@/db/client";
import { getProposalRow } from "@/db/queries/authority";
import { getMissionById } from "@/db/queries/missions";
import { apiRoute, parseIdOr404, parseOr400 } from "@/server/api";
import { missionChanged } from "@/server/mission-signal";
import { api } from "@/server/api-contract";
import { toProposalView } from "@/server/proposal-view";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** One proposal with its decision record, and its HITL prompt while it is pending. */
export const GET = apiRoute<{ id: string }>(api.getProposal, async ({ req, params }) => {
  const id = parseIdOr404(params.id, "Proposal");
  const { wait } = parseOr400(api.getProposal.query, { wait: new URL(req.url).searchParams.get("wait") ?? undefined }, "query string");
  const db = getDb();
  let row = await getProposalRow(db, id);
  if (!row) throw new AppError("not_found", { userMessage: `Proposal ${id} does not exist.` });
  // Long poll: answer as soon as it is decided (the relay's wake-up, re-read from the table), or at the deadline.
  const until = Date.now() + wait * 1000;
  while (row.status === "pending" && Date.now() < until && !req.signal.aborted) {
    await missionChanged(row.missionId, Math.min(2000, until - Date.now()), req.signal);
    row = (await getProposalRow(db, id))!;
  }
  const mission = await getMissionById(db, row.missionId);
  const prompt = mission?.state.gates.find((g) => g.proposalId === id && g.status === "open")?.prompt ?? null;
  return Response.json({ proposal: toProposalView(row), decision: row.decision, prompt });
});
