import { randomUUID } from "node:crypto";
import { and, asc, eq, gt, lte } from "drizzle-orm";
import { applyEvent, type MissionState } from "../../lib/mission";
import { driverOf, type Executor } from "../client";
import { events, missions, type EventRow } from "../schema";
import type { MissionEvent } from "../../lib/mission";

/**
 * A mission's state (issue 19: constant cost per step). The `missions.state` column is a snapshot: the
 * state as of `snapshot_seq`, without the definition (stored once in `missions.definition`). The state now
 * is that snapshot plus the events after it. Appends do not rewrite the snapshot; they write it again only
 * when the events after it outweigh it (`snapshotDue`), so its cost spreads evenly over the events.
 *
 * Each process keeps the states it last read or wrote, keyed by the `head` token every append writes: a
 * process that finds its own token on the row (read under the row lock by appendEvents) knows its state is
 * the latest and reads nothing else. A token never committed (the transaction rolled back) is never found,
 * so a rolled-back state is never used.
 */

export function rowToEvent(r: EventRow): MissionEvent {
  return {
    missionId: r.missionId,
    seq: r.seq,
    type: r.type,
    actorId: r.actorId,
    payload: r.payload,
    reason: r.reason,
    impact: r.impact,
    evidence: r.evidence as Record<string, unknown> | null,
    at: new Date(r.createdAt).toISOString(),
  } as MissionEvent;
}

/** At least this many events between two snapshots. */
export const SNAPSHOT_MIN_EVENTS = 64;
/** A snapshot of B bytes is written again after B / SNAPSHOT_BYTES_PER_EVENT events (events are ~1 KB stored). */
const SNAPSHOT_BYTES_PER_EVENT = 1000;
const CACHE_MAX = 256;

/** What this process knows of a mission's row as of its head token: the row's other columns an append needs, when known. */
export type KnownRow = Pick<MissionHead, "createdAt" | "snapshotSeq" | "snapshotBytes">;
const cache = new Map<string, { head: string; state: MissionState; row?: KnownRow }>();

/**
 * Notes the state a mission reached with the token written beside it (appendEvents, in its transaction).
 * `unlocked`: read without the row lock, so possibly older than an append of this process still in flight,
 * whose entry it then does not replace (a rolled-back entry is replaced by the next locked read).
 */
export function rememberState(id: string, head: string, state: MissionState, row?: KnownRow, opts: { unlocked?: boolean } = {}): void {
  if (opts.unlocked && (cache.get(id)?.state.seq ?? -1) > state.seq) return;
  cache.delete(id);
  cache.set(id, { head, state, row });
  if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
}

/**
 * The head this process last wrote or read for a mission, with its state and row, when it knows all of them
 * (an append that finds the same token on the row knows they are the latest; appendEvents' `expectHead`).
 */
export function knownHead(id: string): { head: string; state: MissionState; row: KnownRow } | null {
  const hit = cache.get(id);
  return hit?.row ? { head: hit.head, state: hit.state, row: hit.row } : null;
}

/** Forgets every state this process holds (tests: read as a process that has read nothing yet). */
export function forgetStates(): void {
  cache.clear();
}

export function newHead(): string {
  return randomUUID();
}

export interface MissionHead {
  state: MissionState;
  leaseOwner: string | null;
  createdBy: string;
  /** The mission's creation time as PostgreSQL writes it (the events' partition key, copied into each event). */
  createdAt: string;
  snapshotSeq: number;
  snapshotBytes: number;
}

/**
 * The mission row's head: every append reads it under the row lock (issue 19: a fixed text, prepared once
 * per connection, not built by drizzle at every step).
 */
const HEAD = `select head, last_seq as "lastSeq", lease_owner as "leaseOwner", created_by as "createdBy", created_at as "createdAt", snapshot_seq as "snapshotSeq", snapshot_bytes as "snapshotBytes" from missions where id = $1`;
const HEAD_FOR_UPDATE = `${HEAD} for update`;
type HeadRow = Omit<MissionHead, "state"> & { head: string | null; lastSeq: number };

/**
 * The mission's state now (null: no such mission). `forUpdate` locks the mission row first, as every
 * writer must before it appends; the state it returns is then the one the next event applies to.
 */
export async function readMissionState(db: Executor, id: string, opts: { forUpdate?: boolean } = {}): Promise<MissionHead | null> {
  const [row] = (await driverOf(db).unsafe(opts.forUpdate ? HEAD_FOR_UPDATE : HEAD, [id])) as unknown as HeadRow[];
  if (!row) return null;
  const hit = row.head ? cache.get(id) : undefined;
  if (hit && hit.head === row.head && hit.state.seq === row.lastSeq) {
    rememberState(id, hit.head, hit.state, { createdAt: row.createdAt, snapshotSeq: row.snapshotSeq, snapshotBytes: row.snapshotBytes });
    return { ...row, state: hit.state };
  }
  // One read of the snapshot and the row it belongs to, then the events after it up to that row's last seq.
  const [full] = await db
    .select({ head: missions.head, lastSeq: missions.lastSeq, snapshotSeq: missions.snapshotSeq, snapshot: missions.state, definition: missions.definition, createdAt: missions.createdAt })
    .from(missions)
    .where(eq(missions.id, id));
  let state: MissionState = { ...full.snapshot, definition: full.definition };
  if (full.lastSeq > full.snapshotSeq) {
    const tail = await snapshotTailQuery(db, { missionId: id, missionCreatedAt: full.createdAt, afterSeq: full.snapshotSeq, toSeq: full.lastSeq });
    for (const r of tail) state = applyEvent(state, rowToEvent(r));
  }
  if (full.head) rememberState(id, full.head, state, full.head === row.head ? { createdAt: row.createdAt, snapshotSeq: full.snapshotSeq, snapshotBytes: row.snapshotBytes } : undefined, { unlocked: !opts.forUpdate });
  return { ...row, state };
}

/**
 * The events after a snapshot, up to the row's last seq (tests read its plan). The mission's creation time is the
 * events' partition key (migration 0028): with it PostgreSQL opens the one month that holds the mission's events
 * instead of probing every monthly partition's index.
 */
export function snapshotTailQuery(db: Executor, p: { missionId: string; missionCreatedAt: string; afterSeq: number; toSeq: number }) {
  return db
    .select()
    .from(events)
    .where(and(eq(events.missionId, p.missionId), eq(events.missionCreatedAt, p.missionCreatedAt), gt(events.seq, p.afterSeq), lte(events.seq, p.toSeq)))
    .orderBy(asc(events.seq));
}

/** Whether an append that reached `seq` writes the snapshot again (always at the end of a mission). */
export function snapshotDue(h: Pick<MissionHead, "snapshotSeq" | "snapshotBytes">, state: MissionState, terminal: boolean): boolean {
  if (terminal) return true;
  return state.seq - h.snapshotSeq >= Math.max(SNAPSHOT_MIN_EVENTS, Math.ceil(h.snapshotBytes / SNAPSHOT_BYTES_PER_EVENT));
}

/** The snapshot of `state`: the state without its definition, as JSON text, the seq it is as of, and its size. */
export function snapshotOf(state: MissionState): { json: string; snapshotSeq: number; snapshotBytes: number } {
  const { definition: _definition, ...rest } = state;
  const json = JSON.stringify(rest);
  return { json, snapshotSeq: state.seq, snapshotBytes: Buffer.byteLength(json) };
}
