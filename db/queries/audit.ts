import { asc, eq } from "drizzle-orm";
import type { Executor } from "../client";
import { failureAudit } from "../schema";

/** The failure audit trail of one mission (FAILURE_MODEL's other queries are the failure history's built-in saved queries). */

/** "Show me all failures for this build." */
export function listFailuresByMission(db: Executor, missionId: string) {
  return db.select().from(failureAudit).where(eq(failureAudit.missionId, missionId)).orderBy(asc(failureAudit.seq));
}
