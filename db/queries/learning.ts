import { and, asc, desc, eq, gt, or, sql, type SQL } from "drizzle-orm";
import { loadDiagnosisConfig } from "../../lib/diagnosis/config";
import type { MissionEvent } from "../../lib/mission/events";
import type { MissionDefinition } from "../../lib/mission/definition";
import type { PatternRef } from "../../lib/mission/recovery";
import { AppError } from "../../lib/errors";
import type { AuditActor } from "../../lib/audit";
import type { Db, Executor, Tx } from "../client";
import { recordAudit } from "./audit-log";
import { episodicMemory, learnedPatterns, sessionMemory, type LearnedPatternRow } from "../schema";
import { isUuid } from "../../lib/ids";

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

/**
 * A pattern's confidence: its Laplace-smoothed success rate (successes + 1) / (attempts + 2), rounded to
 * two decimals, so it is earned from outcomes, not from one lucky run. Computed in the statement that
 * changes the counts, so counts and confidence always move together.
 */
function patternConfidence(successes: SQL, failures: SQL): SQL<number> {
  return sql<number>`round(((${successes}) + 1)::numeric / ((${successes}) + (${failures}) + 2), 2)`;
}

/** Whether writeLearning has anything to write for these events. */
export function touchesLearning(list: readonly MissionEvent[]): boolean {
  return list.some((e) => e.type === "diagnostic_reflection" || e.type === "recovery.finished");
}

/** Applies what a batch of appended events changes in the memory tables (`definition`: the mission's, for the failed step's tool). */
export async function writeLearning(tx: Tx, list: readonly MissionEvent[], definition?: MissionDefinition): Promise<void> {
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
          .values({ when: p.when, then: p.strategy, errorType: p.errorType, tools: p.tools, successes: success ? 1 : 0, failures: success ? 0 : 1, confidence: patternConfidence(sql`${success ? 1 : 0}::int`, sql`${success ? 0 : 1}::int`), lastOutcome: p.outcome, lastMissionId: e.missionId, createdAt: e.at, updatedAt: e.at })
          .onConflictDoUpdate({
            target: [learnedPatterns.when, learnedPatterns.then],
            set: {
              successes: sql`${learnedPatterns.successes} + ${success ? 1 : 0}`,
              failures: sql`${learnedPatterns.failures} + ${success ? 0 : 1}`,
              confidence: patternConfidence(sql`${learnedPatterns.successes} + ${success ? 1 : 0}`, sql`${learnedPatterns.failures} + ${success ? 0 : 1}`),
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
          // The tool that failed (the step's), not the first tool of the recovery strategy.
          errorEncountered: { type: p.errorType, tool: failedTool(definition, p.agent, p.step) ?? p.tools[0] ?? "", diagnosis: p.rootCause, root_cause: p.when },
          successfulRecovery: { strategy: p.strategy, tools: p.tools, iterations_to_success: p.iterations, confidence: confidence ?? 0 },
          reusablePattern: { trigger: p.when, action: p.strategy, success_rate: confidence ?? 0 },
        });
      }
    }
  }
}

/**
 * An operator corrected a diagnosis (issue 18): the patterns learned for its trigger were learned from a
 * wrong reading of the failure, so each counts one failure (its confidence drops, the fast path trusts
 * it less). Returns how many patterns it touched.
 */
export async function countCorrectionAgainstPatterns(tx: Executor, when: string, at: string): Promise<number> {
  const rows = await tx
    .update(learnedPatterns)
    .set({ failures: sql`${learnedPatterns.failures} + 1`, confidence: patternConfidence(sql`${learnedPatterns.successes}`, sql`${learnedPatterns.failures} + 1`), updatedAt: at })
    .where(eq(learnedPatterns.when, when))
    .returning({ id: learnedPatterns.id });
  return rows.length;
}

function failedTool(definition: MissionDefinition | undefined, agent: string, step: number): string | undefined {
  for (const phase of definition?.phases ?? []) for (const a of phase.agents) if (a.name === agent) return a.steps[step]?.tool;
  return undefined;
}

/** Memory timestamps as ISO-8601 (the driver hands timestamptz over as PostgreSQL text). */
const iso = (ts: string) => new Date(ts).toISOString();

export function toPatternRef(r: LearnedPatternRow): PatternRef {
  return { id: r.id, when: r.when, then: r.then, successes: r.successes, failures: r.failures, confidence: r.confidence, threshold: r.threshold, enabled: r.enabled };
}

/** The learned patterns of a failure trigger (the engine's fast-path lookup). */
export async function findPatterns(db: Executor, when: string): Promise<PatternRef[]> {
  const rows = await db.select().from(learnedPatterns).where(eq(learnedPatterns.when, when));
  return rows.map(toPatternRef);
}

/** A pattern row with ISO-8601 timestamps (the driver hands timestamptz over as PostgreSQL text). */
function isoRow(r: LearnedPatternRow): LearnedPatternRow {
  return { ...r, createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt) };
}

export async function listPatterns(db: Executor): Promise<LearnedPatternRow[]> {
  return (await db.select().from(learnedPatterns).orderBy(desc(learnedPatterns.updatedAt)).limit(1000)).map(isoRow);
}

/** Limits of a pattern's fast-path threshold: below 0.5 a pattern that fails more often than it works would be trusted. */
export const PATTERN_THRESHOLD_MIN = 0.5;
export const PATTERN_THRESHOLD_MAX = 1;

const notFound = (id: string, already = "") => new AppError("not_found", { userMessage: `Pattern ${id} does not exist (it may have been deleted${already}). List patterns with \`faultline patterns list\` or the Patterns page.` });

export async function getPattern(db: Executor, id: string): Promise<LearnedPatternRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(learnedPatterns).where(eq(learnedPatterns.id, id));
  return row ? isoRow(row) : null;
}

/**
 * The one place a person changes a pattern: enable/disable it and/or set its fast-path threshold
 * (PATTERN_THRESHOLD_MIN..MAX). Its record (successes, failures, confidence) is learned, never edited.
 * `audit`: who changes it, recorded with the before and after in the same transaction.
 */
export async function updatePattern(db: Db, id: string, change: { enabled?: boolean; threshold?: number }, audit?: AuditActor): Promise<LearnedPatternRow> {
  if (change.enabled === undefined && change.threshold === undefined) throw new AppError("bad_request", { userMessage: "Nothing to change: give enabled (true or false) and/or threshold (0.5 to 1)." });
  if (change.threshold !== undefined && !(Number.isFinite(change.threshold) && change.threshold >= PATTERN_THRESHOLD_MIN && change.threshold <= PATTERN_THRESHOLD_MAX)) {
    throw new AppError("bad_request", { userMessage: `threshold must be a number from ${PATTERN_THRESHOLD_MIN} to ${PATTERN_THRESHOLD_MAX} (got ${change.threshold}).` });
  }
  if (!isUuid(id)) throw notFound(id);
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(learnedPatterns).where(eq(learnedPatterns.id, id)).for("update");
    if (!before) throw notFound(id);
    const [row] = await tx
      .update(learnedPatterns)
      .set({ ...(change.enabled !== undefined ? { enabled: change.enabled } : {}), ...(change.threshold !== undefined ? { threshold: change.threshold } : {}), updatedAt: new Date().toISOString() })
      .where(eq(learnedPatterns.id, id))
      .returning();
    if (audit) {
      const words = [
        before.enabled !== row.enabled ? (row.enabled ? "enabled" : "disabled") : null,
        before.threshold !== row.threshold ? `set the threshold from ${pct(before.threshold)} to ${pct(row.threshold)} for` : null,
      ].filter(Boolean);
      await recordAudit(tx, audit, {
        action: "pattern.update",
        summary: `${audit.name} ${words.length ? words.join(" and ") : "saved without change"} learned pattern "${row.when} → ${row.then}".`,
        target: { type: "pattern", id },
        before: { enabled: before.enabled, threshold: before.threshold },
        after: { enabled: row.enabled, threshold: row.threshold },
      });
    }
    return isoRow(row);
  });
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** Deletes a pattern and its record; `audit`: who, recorded with what was deleted in the same transaction. */
export async function deletePattern(db: Db, id: string, audit?: AuditActor): Promise<void> {
  if (!isUuid(id)) throw notFound(id);
  await db.transaction(async (tx) => {
    const rows = await tx.delete(learnedPatterns).where(eq(learnedPatterns.id, id)).returning();
    if (!rows.length) throw notFound(id, " already");
    const p = rows[0];
    if (audit) {
      await recordAudit(tx, audit, {
        action: "pattern.delete",
        summary: `${audit.name} deleted learned pattern "${p.when} → ${p.then}" (${p.successes} succeeded, ${p.failures} failed).`,
        target: { type: "pattern", id },
        before: { when: p.when, then: p.then, enabled: p.enabled, threshold: p.threshold, successes: p.successes, failures: p.failures, confidence: p.confidence },
      });
    }
  });
}

/** A person's (or script's) export of memory in the audit log: what was exported, never the records. */
export async function recordMemoryExport(db: Executor, actor: AuditActor, kind: MemoryKind, missionId?: string): Promise<void> {
  await recordAudit(db, actor, {
    action: "memory.export",
    summary: `${actor.name} exported ${kind} memory${missionId ? ` of mission ${missionId}` : " of all missions"} as JSON Lines.`,
    target: { type: "memory", id: kind },
    missionId: missionId ?? null,
  });
}

export const MEMORY_KINDS = ["session", "episodic"] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];
const PAGE = 500;

/**
 * Memory records as the ADR's JSON Lines objects, oldest first, read page by page (keyset) so an export
 * of any size streams in constant memory.
 */
export async function* memoryRecords(db: Executor, kind: MemoryKind, filter: { missionId?: string } = {}): AsyncGenerator<Record<string, unknown>> {
  if (filter.missionId !== undefined && !isUuid(filter.missionId)) throw new AppError("bad_request", { userMessage: `missionId must be a mission id (a UUID); got "${filter.missionId}".` });
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
        yield { id: r.id, ts: iso(r.createdAt), conv_id: r.missionId, agent: r.agent, step: r.step, attempt: r.attempt, failure_diagnosis: r.failureDiagnosis, learned_pattern: r.learnedPattern, ...(r.fullDiagnostic ? { full_diagnostic: r.fullDiagnostic } : {}) };
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
    for (const r of page) yield { id: r.id, ts: iso(r.createdAt), conv_id: r.missionId, error_encountered: r.errorEncountered, successful_recovery: r.successfulRecovery, reusable_pattern: r.reusablePattern };
    if (page.length < PAGE) return;
    afterId = page[page.length - 1].id;
  }
}
