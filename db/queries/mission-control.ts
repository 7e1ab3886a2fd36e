import { eq } from "drizzle-orm";
import { AppError } from "../../lib/errors";
import { isTerminal, transitions as t, type MissionState, type PauseKind } from "../../lib/mission";
import type { Db } from "../client";
import { missions } from "../schema";
import { appendEvents } from "./events";

/**
 * Pause and resume (RFC 001 §3.4). A pause takes effect at the next step boundary: a step in flight
 * still records its result (its checkpoint); no new step starts until the mission is resumed.
 */
export async function pauseMission(db: Db, params: { missionId: string; actorId: string; kind: PauseKind; message: string }): Promise<MissionState> {
  return db.transaction(async (tx) => {
    const s = await lockState(tx as unknown as Db, params.missionId);
    if (isTerminal(s)) throw new AppError("conflict", { userMessage: `Mission "${s.name}" has already ended (${s.finalStatus}); there is nothing to pause.` });
    if (s.paused) throw new AppError("conflict", { userMessage: `Mission "${s.name}" is already paused (${s.paused.kind}: ${s.paused.message}).` });
    return (await appendEvents(tx, { missionId: params.missionId, actorId: params.actorId, events: [t.missionPaused(params.kind, params.message)] })).state;
  });
}

export async function resumeMission(db: Db, params: { missionId: string; actorId: string; message: string }): Promise<MissionState> {
  return db.transaction(async (tx) => {
    const s = await lockState(tx as unknown as Db, params.missionId);
    if (!s.paused) {
      const gate = s.gates.find((g) => g.status === "open");
      throw new AppError("conflict", {
        userMessage: gate ? `Mission "${s.name}" is not paused but waiting at a gate: decide the gate to continue.` : `Mission "${s.name}" is not paused.`,
      });
    }
    return (await appendEvents(tx, { missionId: params.missionId, actorId: params.actorId, events: [t.missionResumed(params.message)] })).state;
  });
}

async function lockState(db: Db, id: string): Promise<MissionState> {
  const [row] = await db.select({ state: missions.state }).from(missions).where(eq(missions.id, id)).for("update");
  if (!row) throw new AppError("not_found", { userMessage: `Mission ${id} does not exist.` });
  return row.state;
}
