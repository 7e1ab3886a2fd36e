import { getDb } from "@/db/client";
import { heartbeatRun } from "@/db/queries/runs";
import { apiRoute, parseIdOr404 } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** The agent is alive; a run its silence paused resumes. */
export const POST = apiRoute<{ id: string }>(api.heartbeatRun, async ({ params }) => {
  const id = parseIdOr404(params.id, "Mission");
  return Response.json(await heartbeatRun(getDb(), id));
});
