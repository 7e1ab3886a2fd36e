import { and, asc, eq, gt } from "drizzle-orm";
import type { TraceSource } from "../../lib/trace/export";
import type { Executor } from "../client";
import { eventIo, events, missions } from "../schema";
import { rowToEvent } from "./events";
import { recordAudit } from "./audit-log";
import type { AuditActor } from "../../lib/audit";

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

/** The audit record of a trace download (it holds tool outputs and model answers). */
export async function recordTraceExport(db: Executor, actor: AuditActor, missionId: string, lines: number): Promise<void> {
  await recordAudit(db, actor, {
    action: "trace.export",
    summary: `${actor.name} downloaded the trace of mission ${missionId} (${lines} lines).`,
    target: { type: "mission", id: missionId },
    missionId,
  });
}
