import { and, asc, desc, eq, gt, lt, lte, sql, type SQL } from "drizzle-orm";
import type { MissionEvent } from "../../lib/mission";
import type { Executor } from "../client";
import { events } from "../schema";
import { rowToEvent } from "./mission-state";

/**
 * The timeline's pages (issue 19): keyset paging by seq over one mission's log, in both directions, with
 * optional server-side filters (event type, agent). Every page is seq ascending and says whether more
 * events (matching the filters) lie before and after it, so a client can page on without counting.
 */

export interface EventFilters {
  /** One event type ("tool.failed"). */
  type?: string;
  /** Events of one agent (payload.agent). */
  agent?: string;
}

export interface EventPageQuery extends EventFilters {
  missionId: string;
  limit: number;
  /** Which page: the newest events (nothing), those just before or after a seq, or those around one (the seq itself included). */
  before?: number;
  after?: number;
  around?: number;
  /** Never past this seq (a page read beside a state snapshot of that seq). */
  upTo?: number;
}

export interface EventPage {
  events: MissionEvent[];
  /** Some event (matching the filters) has a smaller seq than the first of this page. */
  hasOlder: boolean;
  /** Some event (matching the filters, up to `upTo`) has a larger seq than the last of this page. */
  hasNewer: boolean;
}

function filterConditions(q: EventPageQuery): SQL[] {
  const c: SQL[] = [eq(events.missionId, q.missionId)];
  if (q.type) c.push(eq(events.type, q.type));
  if (q.agent) c.push(sql`${events.payload}->>'agent' = ${q.agent}`);
  if (q.upTo !== undefined) c.push(lte(events.seq, q.upTo));
  return c;
}

type Side = "older" | "newer";

/** The events on one side of `seq` (not the seq itself). */
const beyond = (side: Side, seq: number) => (side === "older" ? lt(events.seq, seq) : gt(events.seq, seq));

/** The `limit` events nearest to `seq` on one side of it, seq ascending, and whether more lie beyond them. */
async function nextTo(db: Executor, q: EventPageQuery, side: Side, seq: number, limit: number): Promise<{ events: MissionEvent[]; more: boolean }> {
  if (limit <= 0) return { events: [], more: await exists(db, q, side, seq) };
  const rows = await db
    .select()
    .from(events)
    .where(and(...filterConditions(q), beyond(side, seq)))
    .orderBy(side === "older" ? desc(events.seq) : asc(events.seq))
    .limit(limit + 1);
  const page = rows.slice(0, limit).map(rowToEvent);
  return { events: side === "older" ? page.reverse() : page, more: rows.length > limit };
}

async function exists(db: Executor, q: EventPageQuery, side: Side, seq: number): Promise<boolean> {
  const rows = await db
    .select({ seq: events.seq })
    .from(events)
    .where(and(...filterConditions(q), beyond(side, seq)))
    .limit(1);
  return rows.length > 0;
}

export async function listEventPage(db: Executor, q: EventPageQuery): Promise<EventPage> {
  const limit = Math.max(1, Math.floor(q.limit));
  if (q.after !== undefined) {
    const n = await nextTo(db, q, "newer", q.after, limit);
    return { events: n.events, hasNewer: n.more, hasOlder: await exists(db, q, "older", n.events[0]?.seq ?? q.after + 1) };
  }
  if (q.around !== undefined) {
    // Half before the seq, the rest from it on; a short side gives its room to the other.
    const half = Math.floor(limit / 2);
    const o = await nextTo(db, q, "older", q.around, half);
    const n = await nextTo(db, q, "newer", q.around - 1, limit - o.events.length);
    const room = limit - o.events.length - n.events.length;
    if (room > 0 && o.more) {
      const more = await nextTo(db, q, "older", o.events[0]?.seq ?? q.around, room);
      return { events: [...more.events, ...o.events, ...n.events], hasOlder: more.more, hasNewer: n.more };
    }
    return { events: [...o.events, ...n.events], hasOlder: o.more, hasNewer: n.more };
  }
  const before = q.before ?? 2 ** 31 - 1;
  const o = await nextTo(db, q, "older", before, limit);
  return { events: o.events, hasOlder: o.more, hasNewer: q.before === undefined ? false : await exists(db, q, "newer", o.events.at(-1)?.seq ?? q.before - 1) };
}

/** Every event up to `upTo`, ascending, read in pages (no silent cap: a 50,000-event mission reads whole). */
export async function listAllEvents(db: Executor, missionId: string, upTo?: number): Promise<MissionEvent[]> {
  const all: MissionEvent[] = [];
  for (;;) {
    const page = await listEventPage(db, { missionId, after: all.at(-1)?.seq ?? 0, limit: 10_000, upTo });
    all.push(...page.events);
    if (!page.hasNewer) return all;
  }
}

/** The phase of the last phase.started event up to `upTo` (the phase bar's failed phase when the page holds only a window). */
export async function lastPhaseStarted(db: Executor, missionId: string, upTo?: number): Promise<string | null> {
  const rows = await db
    .select({ phase: sql<string>`${events.payload}->>'phase'` })
    .from(events)
    .where(and(eq(events.missionId, missionId), eq(events.type, "phase.started"), ...(upTo !== undefined ? [lte(events.seq, upTo)] : [])))
    .orderBy(desc(events.seq))
    .limit(1);
  return rows[0]?.phase ?? null;
}
