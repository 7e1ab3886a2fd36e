import { and, asc, desc, eq, gt, lte, sql } from "drizzle-orm";
import type { TraceSource } from "../../lib/trace/export";
import type { TapeConfig } from "../../lib/trace/format";
import type { Executor } from "../client";
import { eventIo, events, missions } from "../schema";
import { rowToEvent } from "./events";
import { recordAudit } from "./audit-log";
import type { AuditActor } from "../../lib/audit";
import type { MissionEvent } from "../../lib/mission/events";

/**
 * What a mission's trace is made of (FDR-N004, lib/trace): the mission, its whole event log in seq order
 * and the engine's readings recorded beside it (event_io). Null when the mission does not exist.
 */
export async function readTraceSource(db: Executor, missionId: string): Promise<TraceSource | null> {
  const [m] = await db.select({ id: missions.id, name: missions.name, definition: missions.definition }).from(missions).where(eq(missions.id, missionId));
  if (!m) return null;
  const [rows, tapes] = await Promise.all([
    db.select().from(events).where(eq(events.missionId, missionId)).orderBy(asc(events.seq)),
    db.select({ seq: eventIo.seq, count: eventIo.count, tape: eventIo.tape }).from(eventIo).where(eq(eventIo.missionId, missionId)).orderBy(asc(eventIo.seq)),
  ]);
  return { mission: m, events: rows.map(rowToEvent), tapes };
}

/** The engine's readings of a mission's writes after `afterSeq` (keyed by each write's first seq): `faultline mission watch --mode debug`. */
export async function readTapesAfter(db: Executor, missionId: string, afterSeq: number): Promise<TraceSource["tapes"]> {
  return db.select({ seq: eventIo.seq, count: eventIo.count, tape: eventIo.tape }).from(eventIo).where(and(eq(eventIo.missionId, missionId), gt(eventIo.seq, afterSeq))).orderBy(asc(eventIo.seq));
}

/** The readings of a mission's writes that asked a model (an agent's turn or a diagnosis's reflection): the console's model-call lines. */
export async function readModelTapes(db: Executor, missionId: string): Promise<TraceSource["tapes"]> {
  return db
    .select({ seq: eventIo.seq, count: eventIo.count, tape: eventIo.tape })
    .from(eventIo)
    .where(and(eq(eventIo.missionId, missionId), sql`(${eventIo.tape}->'reads' @> '[{"k":"think"}]'::jsonb or ${eventIo.tape}->'reads' @> '[{"k":"reflect"}]'::jsonb)`))
    .orderBy(asc(eventIo.seq));
}

/** Debug at one seq (lib/lab/debug.ts): the events from 1 through `seq`, and the readings of the write that may hold it (the last write starting at or before it). */
export async function readDebugSource(db: Executor, missionId: string, seq: number): Promise<{ events: MissionEvent[]; tape: TraceSource["tapes"][number] | null; config: TapeConfig | null }> {
  const upTo = and(eq(eventIo.missionId, missionId), lte(eventIo.seq, seq));
  const [rows, [tape], [configured]] = await Promise.all([
    db.select().from(events).where(and(eq(events.missionId, missionId), lte(events.seq, seq))).orderBy(asc(events.seq)),
    db.select({ seq: eventIo.seq, count: eventIo.count, tape: eventIo.tape }).from(eventIo).where(upTo).orderBy(desc(eventIo.seq)).limit(1),
    // The worker's configuration in force: written on the first write of each worker's run of the mission.
    db.select({ config: sql<TapeConfig>`${eventIo.tape}->'config'` }).from(eventIo).where(and(upTo, sql`${eventIo.tape} ? 'config'`)).orderBy(desc(eventIo.seq)).limit(1),
  ]);
  return { events: rows.map(rowToEvent), tape: tape ?? null, config: configured?.config ?? null };
}

/** The audit record of a trace download (it holds tool outputs and model answers). */
export async function recordTraceExport(db: Executor, actor: AuditActor, missionId: string, lines: number): Promise<void> {
  await recordAudit(db, actor, {
    action: "trace.export",
    summary: `${actor.name} downloaded the trace of mission ${missionId} (${lines} lines).`,
    target: { type: "mission", id: missionId },
    missionId,
  });
}
