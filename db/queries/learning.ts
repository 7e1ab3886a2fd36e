import { and, asc, desc, eq, gt, or, sql } from "drizzle-orm";
import { loadDiagnosisConfig } from "../../lib/diagnosis/config";
import type { MissionEvent } from "../../lib/mission/events";
import { patternConfidence, type PatternRef } from "../../lib/mission/recovery";
import { AppError } from "../../lib/errors";
import type { Db, Executor, Tx } from "../client";
import { episodicMemory, learnedPatterns, sessionMemory, type LearnedPatternRow } from "../schema";

/**
 * ADR-0003 memory on PostgreSQL: learned patterns (when → then, with outcome counts), session memory
 * (one record per diagnosed failure) and episodic memory (one per successful recovery). All three are
 * projections of the event log, written in the transaction of the events that change them.
 */

let storeFull: boolean | undefined;
/** AUTONOMOUS_STORE_FULL_DIAGNOSTICS, read once per process. */
function storeFullDiagnostics(): boolean {
  storeFull ??= loadDiagnosisConfig().AUTONOMOUS_STORE_FULL_DIAGNOSTICS;
  return storeFull;
}

/** Applies what a batch of appended events changes in the memory tables. */
export async function writeLearning(tx: Tx, list: readonly MissionEvent[]): Promise<void> {
  for (const e of list) {
    if (e.type === "diagnostic_reflection") {
      const d = e.payload.diagnosis;
      await tx
        .insert(sessionMemory)
        .values({
          id: d.id,
          missionId: e.missionId,
          agent: e.payload.agent,
          step: e.payload.step,
          attempt: e.payload.attempt,
          createdAt: e.at,
          failureDiagnosis: { immediate_cause: d.whyChain.why1 ?? "", root_cause: d.rootCause.category, why_chain: Object.values(d.whyChain), recovery_attempted: [] },
          fullDiagnostic: storeFullDiagnostics() ? { diagnosis: d, contextLog: e.payload.contextLog } : null,
        })
        .onConflictDoNothing();
    } else if (e.type === "recovery.finished") {
      const p = e.payload;
      const success = p.outcome === "succeeded";
      let confidence: number | null = null;
      if (p.outcome !== "abandoned") {
        // One statement: the counts and the confidence move together, whoever else is recording outcomes.
        const [row] = await tx
          .insert(learnedPatterns)
          .values({ when: p.when, then: p.strategy, errorType: p.errorType, tools: p.tools, successes: success ? 1 : 0, failures: success ? 0 : 1, confidence: patternConfidence(success ? 1 : 0, success ? 0 : 1), lastOutcome: p.outcome, lastMissionId: e.missionId, createdAt: e.at, updatedAt: e.at })
          .onConflictDoUpdate({
            target: [learnedPatterns.when, learnedPatterns.then],
            set: {
              successes: sql`${learnedPatterns.successes} + ${success ? 1 : 0}`,
              failures: sql`${learnedPatterns.failures} + ${success ? 0 : 1}`,
              confidence: sql`round(((${learnedPatterns.successes} + ${success ? 1 : 0} + 1)::numeric / (${learnedPatterns.successes} + ${learnedPatterns.failures} + 3)), 2)`,
              lastOutcome: p.outcome,
              lastMissionId: e.missionId,
              updatedAt: e.at,
            },
          })
          .returning({ confidence: learnedPatterns.confidence });
        confidence = row.confidence;
      }
      const attempt = { strategy: p.strategy, outcome: success ? "success" : p.outcome === "failed" ? "failure" : "abandoned", iterations_to_success: success ? p.iterations : null };
      await tx
        .update(sessionMemory)
        .set({
          failureDiagnosis: sql`jsonb_set(${sessionMemory.failureDiagnosis}, '{recovery_attempted}', (${sessionMemory.failureDiagnosis}->'recovery_attempted') || ${JSON.stringify([attempt])}::jsonb)`,
          ...(confidence !== null ? { learnedPattern: { when: p.when, then: p.strategy, confidence } } : {}),
        })
        .where(eq(sessionMemory.id, p.diagnosisId));
      if (success) {
        await tx.insert(episodicMemory).values({
          missionId: e.missionId,
          createdAt: e.at,
          errorEncountered: { type: p.errorType, tool: p.tools[0] ?? "", diagnosis: p.rootCause, root_cause: p.when },
          successfulRecovery: { strategy: p.strategy, tools: p.tools, iterations_to_success: p.iterations, confidence: confidence ?? 0 },
          reusablePattern: { trigger: p.when, action: p.strategy, success_rate: confidence ?? 0 },
        });
      }
    }
  }
}

export function toPatternRef(r: LearnedPatternRow): PatternRef {
  return { id: r.id, when: r.when, then: r.then, successes: r.successes, failures: r.failures, confidence: r.confidence, threshold: r.threshold, enabled: r.enabled };
}

/** The learned patterns of a failure trigger (the engine's fast-path lookup). */
export async function findPatterns(db: Executor, when: string): Promise<PatternRef[]> {
  const rows = await db.select().from(learnedPatterns).where(eq(learnedPatterns.when, when));
  return rows.map(toPatternRef);
}

export async function listPatterns(db: Executor): Promise<LearnedPatternRow[]> {
  return db.select().from(learnedPatterns).orderBy(desc(learnedPatterns.updatedAt)).limit(1000);
}

export async function setPatternEnabled(db: Db, id: string, enabled: boolean): Promise<LearnedPatternRow> {
  const [row] = await db.update(learnedPatterns).set({ enabled, updatedAt: new Date().toISOString() }).where(eq(learnedPatterns.id, id)).returning();
  if (!row) throw new AppError("not_found", { userMessage: `Pattern ${id} does not exist (it may have been deleted).` });
  return row;
}

export async function deletePattern(db: Db, id: string): Promise<void> {
  const rows = await db.delete(learnedPatterns).where(eq(learnedPatterns.id, id)).returning({ id: learnedPatterns.id });
  if (!rows.length) throw new AppError("not_found", { userMessage: `Pattern ${id} does not exist (it may have been deleted already).` });
}

export type MemoryKind = "session" | "episodic";
const PAGE = 500;

/**
 * Memory records as the ADR's JSON Lines objects, oldest first, read page by page (keyset) so an export
 * of any size streams in constant memory.
 */
export async function* memoryRecords(db: Executor, kind: MemoryKind, filter: { missionId?: string } = {}): AsyncGenerator<Record<string, unknown>> {
  if (kind === "session") {
    let after: { at: string; id: string } | null = null;
    for (;;) {
      const page: Array<typeof sessionMemory.$inferSelect> = await db
        .select()
        .from(sessionMemory)
        .where(and(filter.missionId ? eq(sessionMemory.missionId, filter.missionId) : undefined, after ? or(gt(sessionMemory.createdAt, after.at), and(eq(sessionMemory.createdAt, after.at), gt(sessionMemory.id, after.id))) : undefined))
        .orderBy(asc(sessionMemory.createdAt), asc(sessionMemory.id))
        .limit(PAGE);
      for (const r of page) {
        yield { id: r.id, ts: r.createdAt, conv_id: r.missionId, agent: r.agent, step: r.step, attempt: r.attempt, failure_diagnosis: r.failureDiagnosis, learned_pattern: r.learnedPattern, ...(r.fullDiagnostic ? { full_diagnostic: r.fullDiagnostic } : {}) };
      }
      if (page.length < PAGE) return;
      const last = page[page.length - 1];
      after = { at: last.createdAt, id: last.id };
    }
  }
  let afterId = 0;
  for (;;) {
    const page = await db
      .select()
      .from(episodicMemory)
      .where(and(filter.missionId ? eq(episodicMemory.missionId, filter.missionId) : undefined, gt(episodicMemory.id, afterId)))
      .orderBy(asc(episodicMemory.id))
      .limit(PAGE);
    for (const r of page) yield { id: r.id, ts: r.createdAt, conv_id: r.missionId, error_encountered: r.errorEncountered, successful_recovery: r.successfulRecovery, reusable_pattern: r.reusablePattern };
    if (page.length < PAGE) return;
    afterId = page[page.length - 1].id;
  }
}
