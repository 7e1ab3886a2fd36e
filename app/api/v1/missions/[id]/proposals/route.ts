import { getDb } from "@/db/client";
import { listMissionProposals } from "@/db/queries/authority";
import { getMissionById } from "@/db/queries/missions";
import { apiRoute, parseIdOr404 } from "@/server/api";
import { api } from "@/server/api-contract";
import { toProposalView } from "@/server/proposal-view";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** Every proposal of a mission's agents in submission order, with its decision record (seed 002). */
export const GET = apiRoute<{ id: string }>(api.missionProposals, async ({ params }) => {
  const id = parseIdOr404(params.id, "Mission");
  const db = getDb();
  if (!(await getMissionById(db, id))) throw new AppError("not_found", { userMessage: `Mission ${id} does not exist.` });
  return Response.json({ proposals: (await listMissionProposals(db, id)).map(toProposalView) });
});
