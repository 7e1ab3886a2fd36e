import { and, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { pauseMission, resumeMission } from "../../db/queries/mission-control";
import { missions } from "../../db/schema";
import { isAppError } from "../../lib/errors";
import { pauseReasons, type HealthReport } from "../health";

/** Marks the pauses this module makes, so it resumes only those. */
export const HEALTH_PAUSE_PREFIX = "Infrastructure unavailable: ";

/**
 * FAILURE_MODEL health checks: "Unavailable → builds pause". When a check reports a shared dependency
 * unavailable (object storage, every LLM provider), every active mission pauses with the reason; when
 * it recovers, the missions this paused resume. A database outage is recorded by the runner instead
 * (nothing can be written while it lasts).
 */
export async function applyHealthReport(db: Db, actorId: string, report: HealthReport, log: (m: string) => void): Promise<{ paused: number; resumed: number }> {
  if (report.database === "unavailable") return { paused: 0, resumed: 0 };
  const reasons = pauseReasons(report).filter((r) => !r.startsWith("the database"));
  let paused = 0;
  let resumed = 0;
  if (reasons.length) {
    const active = await db
      .select({ id: missions.id })
      .from(missions)
      .where(and(inArray(missions.runState, ["queued", "running"]), isNull(missions.paused)));
    for (const { id } of active) {
      if (await tolerant(() => pauseMission(db, { missionId: id, actorId, kind: "infrastructure", message: `${HEALTH_PAUSE_PREFIX}${reasons.join("; ")}. The mission resumes when the health check passes again.` }))) paused++;
    }
  } else {
    const held = await db
      .select({ id: missions.id })
      .from(missions)
      .where(sql`${missions.paused}->>'kind' = 'infrastructure' and ${missions.paused}->>'message' like ${`${HEALTH_PAUSE_PREFIX}%`}`);
    for (const { id } of held) {
      if (await tolerant(() => resumeMission(db, { missionId: id, actorId, message: "The health check passes again (infrastructure recovered)." }))) resumed++;
    }
  }
  if (paused || resumed) log(`health: paused ${paused}, resumed ${resumed} mission(s)${reasons.length ? ` (${reasons.join("; ")})` : ""}`);
  return { paused, resumed };
}

/** Another worker may have paused or resumed it first: that is fine. */
async function tolerant(fn: () => Promise<unknown>): Promise<boolean> {
  try {
    await fn();
    return true;
  } catch (e) {
    if (isAppError(e)) return false;
    throw e;
  }
}
