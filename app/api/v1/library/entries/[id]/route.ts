import { getDb } from "@/db/client";
import { entryDetail } from "@/db/queries/library-browse";
import { FAILURE_ID } from "@/lib/library/entry";
import { AppError } from "@/lib/errors";
import { apiRoute } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** One entry (all fields, revision, deprecated), its history (newest first, with diffs) and the mission failures that matched it. 404 for an unknown id. */
export const GET = apiRoute<{ id: string }>(api.libraryEntry, async ({ params }) => {
  const id = params.id.toUpperCase();
  const detail = FAILURE_ID.test(id) ? await entryDetail(getDb(), id) : null;
  if (!detail) throw new AppError("not_found", { userMessage: `Failure mode ${params.id} does not exist. Ids look like FM-PHY-0001 or PHYS-042; search with GET /api/v1/library/entries?q=…` });
  return Response.json(detail);
});
