import { sql } from "drizzle-orm";
import type { Executor } from "../client";

/** Read-only queries for the health check (server/health.ts). */

export interface WorkerCounts {
  /** Workers not stopped whose last heartbeat is younger than `staleAfterMs`. */
  active: number;
  /** Workers not stopped whose heartbeat is older: killed or hung (their leases expire and are taken over). */
  stale: number;
}

/**
 * Counts live and stale workers from their heartbeats, against the database clock (no skew between
 * the web and worker hosts). Workers that stopped cleanly (`active = false`) are not counted.
 */
export async function countWorkers(db: Executor, opts: { staleAfterMs: number }): Promise<WorkerCounts> {
  const ms = Math.max(0, Math.round(opts.staleAfterMs));
  const result = await db.execute<{ active: number | string; stale: number | string }>(sql`
    select
      count(*) filter (where heartbeat_at >= now() - make_interval(secs => ${ms}::double precision / 1000)) as active,
      count(*) filter (where heartbeat_at <  now() - make_interval(secs => ${ms}::double precision / 1000)) as stale
    from workers
    where active`);
  const row = result[0];
  return { active: Number(row?.active ?? 0), stale: Number(row?.stale ?? 0) };
}

/** `select 1`: the cheapest round trip that proves a connection can be had and used. */
export async function pingDatabase(db: Executor): Promise<void> {
  await db.execute(sql`select 1`);
}
