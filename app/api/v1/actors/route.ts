import { getDb } from "@/db/client";
import { listActorsWithCounts } from "@/db/queries/authority";
import { apiRoute } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** The actor registry (seed 002 FDR-N002): humans, agents and system actors, with their proposal counts. */
export const GET = apiRoute(api.listActors, async () => Response.json({ actors: await listActorsWithCounts(getDb()) }));
