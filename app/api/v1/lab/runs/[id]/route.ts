import { getDb } from "@/db/client";
import { getSuiteRun } from "@/db/queries/lab";
import { AppError } from "@/lib/errors";
import { apiRoute } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** One recorded suite run with its report and its runs' traces (names, sizes, digests). Needs lab.view. */
export const GET = apiRoute<{ id: string }>(api.labRun, async ({ params }) => {
  const run = await getSuiteRun(getDb(), params.id);
  if (!run) throw new AppError("not_found", { userMessage: `Lab run ${params.id} does not exist. The Lab page lists the recorded ones.` });
  return Response.json({ run });
});
