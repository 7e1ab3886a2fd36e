import { readMissionState } from "./mission-state";
import { and, desc, eq, getTableColumns, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { missions } from "../schema";
import type { MissionState } from "../../lib/mission/types";

export type MissionSummary = Pick<
  typeof missions.$inferSelect,
  "id" | "name" | "phase" | "runState" | "progress" | "openGates" | "finalStatus" | "lastSeq" | "createdAt" | "startedAt" | "endedAt" | "createdBy"
>;

const summaryColumns = {
  id: missions.id,
  name: missions.name,
  phase: missions.phase,
  runState: missions.runState,
  progress: missions.progress,
  openGates: missions.openGates,
  finalStatus: missions.finalStatus,
  lastSeq: missions.lastSeq,
  createdAt: missions.createdAt,
  startedAt: missions.startedAt,
  endedAt: missions.endedAt,
  createdBy: missions.createdBy,
};

export async function listMissions(db: Executor, params: { limit?: number } = {}): Promise<MissionSummary[]> {
  return db.select(summaryColumns).from(missions).orderBy(desc(missions.createdAt)).limit(params.limit ?? 500);
}

/** A mission's row with its state now (the snapshot column plus the events after it); null when there is none. */
export async function getMissionById(db: Executor, id: string) {
  const { state: _snapshot, definition: _definition, ...columns } = getTableColumns(missions);
  const [row] = await db.select(columns).from(missions).where(eq(missions.id, id));
  const current = row && (await readMissionState(db, id));
  return row && current ? { ...row, definition: current.state.definition, state: current.state } : null;
}

/** A mission's state snapshot alone (what the worker runs on); null when there is no such mission. */
export async function getMissionState(db: Executor, id: string): Promise<MissionState | null> {
  return (await readMissionState(db, id))?.state ?? null;
}

const RUNNABLE = ["queued", "running"];

/**
 * Claims one runnable mission for a worker: a mission is runnable when queued or running and its
 * lease is free or expired. `FOR UPDATE SKIP LOCKED` lets many workers claim without blocking.
 */
export async function claimMission(db: Executor, params: { workerId: string; leaseMs: number; excludeIds?: string[]; onlyId?: string }): Promise<string | null> {
  const only = params.onlyId ? sql`and id = ${params.onlyId}::uuid` : sql``;
  const exclude = params.excludeIds?.length ? sql`and id not in (${sql.join(params.excludeIds.map((i) => sql`${i}::uuid`), sql`, `)})` : sql``;
  const res = await db.execute<{ id: string }>(sql`
    update missions set lease_owner = ${params.workerId}, lease_expires_at = now() + (${params.leaseMs}::int * interval '1 millisecond')
    where id = (
      select id from missions
      where run_state in ('queued', 'running')
        and (lease_owner is null or lease_expires_at < now())
        and (runnable_at is null or runnable_at <= now())
        ${exclude}
        ${only}
      order by created_at
      for update skip locked
      limit 1
    )
    returning id`);
  return res[0]?.id ?? null;
}

/** Extends the leases a worker holds; returns the ids it still holds. */
export async function renewLeases(db: Executor, params: { workerId: string; ids: string[]; leaseMs: number }): Promise<string[]> {
  if (params.ids.length === 0) return [];
  const rows = await db
    .update(missions)
    .set({ leaseExpiresAt: sql`now() + (${params.leaseMs}::int * interval '1 millisecond')` })
    .where(and(inArray(missions.id, params.ids), eq(missions.leaseOwner, params.workerId)))
    .returning({ id: missions.id });
  return rows.map((r) => r.id);
}

export async function releaseMission(db: Executor, params: { id: string; workerId: string }): Promise<void> {
  await db
    .update(missions)
    .set({ leaseOwner: null, leaseExpiresAt: null })
    .where(and(eq(missions.id, params.id), eq(missions.leaseOwner, params.workerId)));
}

export async function countRunnableMissions(db: Executor): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(missions)
    .where(and(inArray(missions.runState, RUNNABLE), or(isNull(missions.leaseOwner), lt(missions.leaseExpiresAt, sql`now()`))));
  return r.n;
}
