import { getDb } from "@/db/client";
import { listSuiteRuns } from "@/db/queries/lab";
import { apiRoute } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** Recorded lab suite runs (docs/lab.md "Recording"). Needs lab.view. */
export const GET = apiRoute(api.labRuns, async () => Response.json({ runs: await listSuiteRuns(getDb()) }));
