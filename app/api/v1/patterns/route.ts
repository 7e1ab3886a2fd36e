import { getDb } from "@/db/client";
import { listPatterns } from "@/db/queries/learning";
import { apiRoute } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** Learned recovery patterns (when → then, with their record and fast-path threshold), most recently updated first. */
export const GET = apiRoute(api.listPatterns, async () => {
  return Response.json({ patterns: await listPatterns(getDb()) });
});
