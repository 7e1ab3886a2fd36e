import { and, asc, desc, eq, gte, isNull, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { failureAudit } from "../schema";

/** FAILURE_MODEL's three audit queries, and the trail of one mission. */

/** "Show me all failures for this build." */
export function listFailuresByMission(db: Executor, missionId: string) {
  return db.select().from(failureAudit).where(eq(failureAudit.missionId, missionId)).orderBy(asc(failureAudit.seq));
}

/** "Show me all unresolved failures." */
export function listUnresolvedFailures(db: Executor, limit = 500) {
  return db.select().from(failureAudit).where(isNull(failureAudit.resolvedAt)).orderBy(asc(failureAudit.timestamp)).limit(limit);
}

/** "Show me rate limit failures in the last hour." */
export function listRecentFailuresByCode(db: Executor, params: { code: string; sinceMs: number }) {
  return db
    .select()
    .from(failureAudit)
    .where(and(sql`${failureAudit.context}->>'code' = ${params.code}`, gte(failureAudit.timestamp, sql`now() - (${params.sinceMs}::int * interval '1 millisecond')`)))
    .orderBy(desc(failureAudit.timestamp));
}
