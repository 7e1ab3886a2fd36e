import { getDb } from "@/db/client";
import { apiRoute } from "@/server/api";
import { api } from "@/server/api-contract";
import { loadOpenGates } from "@/server/read-models";

export const dynamic = "force-dynamic";

/** Open gates, oldest first. */
export const GET = apiRoute(api.listGates, async () => {
  return Response.json({ gates: await loadOpenGates(getDb()) });
});
