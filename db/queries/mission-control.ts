import { readMissionState } from "./mission-state";
import { eq } from "drizzle-orm";
import { AppError } from "../../lib/errors";
import { isTerminal, transitions as t, type MissionState, type PauseKind } from "../../lib/mission";
import type { Db, Tx } from "../client";
import { missions } from "../schema";
import type { AuditActor } from "../../lib/audit";
import { recordAudit } from "./audit-log";
import { appendEvents } from "./events";

/**
 * Pause and resume (RFC 001 §3.4). A pause takes effect at the next step boundary: a step in flight
 * still records its result (its checkpoint); no new step starts until the mission is resumed.
 * `audit`: the person or agent who pauses (recorded in the same transaction); omitted for the
 * system's own pauses (health check, presence).
 */
export async function pauseMission(db: Db, params: { missionId: string; actorId: string; kind: PauseKind; message: string; audit?: AuditActor }): Promise<MissionState> {
  return db.transaction(async (tx) => {
    const s = await lockState(tx as unknown as Db, params.missionId);
    if (isTerminal(s)) throw new AppError("conflict", { userMessage: `Mission "${s.name}" has already ended (${s.finalStatus}); there is nothing to pause.` });
    if (s.paused) throw new AppError("conflict", { userMessage: `Mission "${s.name}" is already paused (${s.paused.kind}: ${s.paused.message}).` });
    const { state } = await appendEvents(tx, { missionId: params.missionId, actorId: params.actorId, events: [t.missionPaused(params.kind, params.message)] });
    if (params.audit) await auditControl(tx, params.audit, "mission.pause", s, state, params.message);
    return state;
  });
}

/** `audit`: the person or agent who resumes (recorded in the same transaction); omitted for the system's own resumes. */
export async function resumeMission(db: Db, params: { missionId: string; actorId: string; message: string; audit?: AuditActor }): Promise<MissionState> {
  return db.transaction(async (tx) => {
    const s = await lockState(tx as unknown as Db, params.missionId);
    if (!s.paused) {
      const gate = s.gates.find((g) => g.status === "open");
      throw new AppError("conflict", {
        userMessage: gate ? `Mission "${s.name}" is not paused but waiting at a gate: decide the gate to continue.` : `Mission "${s.name}" is not paused.`,
      });
    }
    const { state } = await appendEvents(tx, { missionId: params.missionId, actorId: params.actorId, events: [t.missionResumed(params.message)] });
    if (params.audit) await auditControl(tx, params.audit, "mission.resume", s, state, params.message);
    return state;
  });
}

/** A person's (or an agent's) pause or resume in the audit log: the run state and pause before and after. */
async function auditControl(tx: Tx, actor: AuditActor, action: "mission.pause" | "mission.resume", before: MissionState, after: MissionState, message: string): Promise<void> {
  const view = (m: MissionState) => ({ runState: m.runState, phase: m.phase, paused: m.paused ? `${m.paused.kind}: ${m.paused.message}` : null });
  await recordAudit(tx, actor, { action, summary: `${message.replace(/\.$/, "")} (mission "${before.name}").`, target: { type: "mission", id: before.id }, missionId: before.id, before: view(before), after: view(after) });
}

/**
 * Aborts the whole mission (a person's decision, or an agent's API call): open gates close as abort,
 * compensations undo completed steps, and it ends FAILED. A step in flight still records its result.
 * The audit row is written in the same transaction.
 */
export async function abortMission(db: Db, params: { missionId: string; actor: AuditActor; note: string | null }): Promise<MissionState> {
  return db.transaction(async (tx) => {
    const s = await lockState(tx as unknown as Db, params.missionId);
    if (isTerminal(s)) throw new AppError("conflict", { userMessage: `Mission "${s.name}" has already ended (${s.finalStatus}); there is nothing to abort.` });
    if (s.aborted) throw new AppError("conflict", { userMessage: `Mission "${s.name}" is already being aborted: its compensations are running, then it ends FAILED.` });
    const message = `${params.actor.name} aborted the mission${params.note ? `: ${params.note}` : "."}`;
    const openGates = s.gates.filter((g) => g.status === "open").map((g) => g.id);
    const { state } = await appendEvents(tx, { missionId: params.missionId, actorId: params.actor.id, events: [t.missionAborted(message)] });
    await recordAudit(tx, params.actor, {
      action: "mission.abort",
      summary: `${message}${openGates.length ? ` (closed ${openGates.length} open gate${openGates.length === 1 ? "" : "s"} as abort)` : ""}`,
      target: { type: "mission", id: s.id },
      missionId: s.id,
      before: { runState: s.runState, phase: s.phase, paused: s.paused?.kind ?? null, openGates },
      after: { runState: state.runState, aborted: true },
    });
    return state;
  });
}

async function lockState(db: Db, id: string): Promise<MissionState> {
  const row = await readMissionState(db, id, { forUpdate: true });
  if (!row) throw new AppError("not_found", { userMessage: `Mission ${id} does not exist.` });
  return row.state;
}
