import { getDb } from "@/db/client";
import { apiRoute } from "@/server/api";
import { loadOpenGates } from "@/server/read-models";

export const dynamic = "force-dynamic";

/** Open gates, oldest first. */
export const GET = apiRoute({ name: "GET gates", permission: "gate.view" }, async () => {
  return Response.json({ gates: await loadOpenGates(getDb()) });
});
