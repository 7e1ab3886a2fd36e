import { getDb } from "@/db/client";
import { listVersions } from "@/db/queries/library-browse";
import { apiRoute } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** The library's numbered versions, newest first, each with its summary, changelog, author and time. */
export const GET = apiRoute(api.libraryVersions, async () => {
  const versions = await listVersions(getDb());
  return Response.json({ current: versions[0]?.version ?? null, versions });
});
