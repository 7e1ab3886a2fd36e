import { and, asc, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { AuditActor } from "../../lib/audit";
import { validateContributionEntry } from "../../lib/library/contribution";
import { MIN_SIGHTINGS, type FailureSighting } from "../../lib/lab/extract";
import type { LabReport, RunReport, SuiteMetrics } from "../../lib/lab/report";
import { WEAK_MATCH_BELOW, type LibraryDraft, type LibraryQuery } from "../../lib/mission/library";
import { sha256 } from "../../lib/trace/format";
import type { Db, Executor } from "../client";
import { labExtractions, labFailures, labRunTraces, labSuiteRuns, libraryContributions } from "../schema";
import { recordAudit } from "./audit-log";
import { consultLibrary } from "./library-protocol";

/**
 * The lab's suite runs in PostgreSQL (issue 17, docs/lab.md "Recording"): `faultline lab run` records
 * the suite run as it goes (each run's trace and the failures it saw, the progress) and its report at
 * the end; the Lab page and `/api/v1/lab/runs` read them; simulation extraction turns the recurring
 * failures the library does not cover into draft contributions (origin `simulation`) for reviewers.
 */

// ---------------------------------------------------------------------------------------------
// Recording

export async function startSuiteRun(db: Db, p: { suite: LabReport["suite"]; seed: number; repeat: number; total: number; actor: AuditActor }) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(labSuiteRuns)
      .values({ suiteName: p.suite.name, suiteFile: p.suite.file, suiteDigest: p.suite.digest, seed: p.seed, repeat: p.repeat, total: p.total, startedBy: p.actor.id })
      .returning();
    await recordAudit(tx, p.actor, {
      action: "lab.record",
      summary: `${p.actor.name} ran lab suite "${p.suite.name}" (seed ${p.seed}, ${p.repeat} repeat(s), ${p.total} run(s)) and recorded it.`,
      target: { type: "lab_run", id: row.id },
    });
    return row;
  });
}

/** One finished run of a suite run: its trace, the failures it saw, and the suite run's progress, in one transaction. */
export async function recordLabRun(db: Db, suiteRunId: string, p: { scenario: string; run: RunReport; trace: string; sightings: readonly FailureSighting[] }) {
  await db.transaction(async (tx) => {
    await tx.insert(labRunTraces).values({
      suiteRunId,
      scenario: p.scenario,
      repeat: p.run.repeat,
      runId: p.run.runId,
      missionId: p.run.missionId,
      finalStatus: p.run.finalStatus,
      passed: p.run.passed,
      trace: p.trace,
      sha256: sha256(p.trace),
      bytes: Buffer.byteLength(p.trace),
    });
    if (p.sightings.length) {
      await tx
        .insert(labFailures)
        .values(p.sightings.map((s) => ({ suiteRunId, scenario: p.scenario, repeat: p.run.repeat, seq: s.seq, agent: s.agent, step: s.step, signature: s.signature, errorType: s.errorType, injected: s.injected, query: s.query, draft: s.draft })))
        .onConflictDoNothing();
    }
    await tx
      .update(labSuiteRuns)
      .set({ done: sql`${labSuiteRuns.done} + 1`, passed: sql`${labSuiteRuns.passed} + ${p.run.passed ? 1 : 0}` })
      .where(eq(labSuiteRuns.id, suiteRunId));
  });
}

export async function finishSuiteRun(db: Executor, id: string, report: LabReport): Promise<void> {
  await db.update(labSuiteRuns).set({ status: "finished", report, finishedAt: sql`now()` }).where(eq(labSuiteRuns.id, id));
}

/** The suite run stopped before its report (a run threw, the process was interrupted): said on the page. */
export async function failSuiteRun(db: Executor, id: string, error: string): Promise<void> {
  await db.update(labSuiteRuns).set({ status: "failed", error: error.slice(0, 2000), finishedAt: sql`now()` }).where(eq(labSuiteRuns.id, id));
}

// ---------------------------------------------------------------------------------------------
// Reads

/** The key metrics of a suite run's list row (from its report). */
export type LabKeyMetrics = Pick<SuiteMetrics, "recoverySuccessRate" | "rootCauseAccuracy" | "stuckLoopRate" | "approvalRate" | "hitlRate">;

/** Suite runs, newest first, with their key metrics (no report, no traces). */
export async function listSuiteRuns(db: Executor, opts: { limit?: number } = {}) {
  const rows = await db
    .select({
      id: labSuiteRuns.id,
      suiteName: labSuiteRuns.suiteName,
      suiteFile: labSuiteRuns.suiteFile,
      seed: labSuiteRuns.seed,
      repeat: labSuiteRuns.repeat,
      status: labSuiteRuns.status,
      total: labSuiteRuns.total,
      done: labSuiteRuns.done,
      passed: labSuiteRuns.passed,
      startedBy: labSuiteRuns.startedBy,
      startedAt: labSuiteRuns.startedAt,
      finishedAt: labSuiteRuns.finishedAt,
      error: labSuiteRuns.error,
      metrics: sql<LabKeyMetrics | null>`case when ${labSuiteRuns.report} is null then null else jsonb_build_object(
        'recoverySuccessRate', ${labSuiteRuns.report}->'metrics'->'recoverySuccessRate',
        'rootCauseAccuracy', ${labSuiteRuns.report}->'metrics'->'rootCauseAccuracy',
        'stuckLoopRate', ${labSuiteRuns.report}->'metrics'->'stuckLoopRate',
        'approvalRate', ${labSuiteRuns.report}->'metrics'->'approvalRate',
        'hitlRate', ${labSuiteRuns.report}->'metrics'->'hitlRate') end`,
    })
    .from(labSuiteRuns)
    .orderBy(desc(labSuiteRuns.startedAt), desc(labSuiteRuns.id))
    .limit(Math.max(1, Math.min(500, opts.limit ?? 200)));
  return rows;
}
export type LabSuiteRunSummary = Awaited<ReturnType<typeof listSuiteRuns>>[number];

/** One suite run with its report and its runs' traces (names, sizes and digests, not the text); null when it does not exist. */
export async function getSuiteRun(db: Executor, id: string) {
  if (!z.guid().safeParse(id).success) return null;
  const [row] = await db.select().from(labSuiteRuns).where(eq(labSuiteRuns.id, id));
  if (!row) return null;
  const traces = await db
    .select({ scenario: labRunTraces.scenario, repeat: labRunTraces.repeat, runId: labRunTraces.runId, finalStatus: labRunTraces.finalStatus, passed: labRunTraces.passed, sha256: labRunTraces.sha256, bytes: labRunTraces.bytes })
    .from(labRunTraces)
    .where(eq(labRunTraces.suiteRunId, id))
    .orderBy(asc(labRunTraces.createdAt), asc(labRunTraces.scenario), asc(labRunTraces.repeat));
  return { ...row, report: row.report as LabReport | null, traces };
}
export type LabSuiteRunDetail = NonNullable<Awaited<ReturnType<typeof getSuiteRun>>>;

/** A run's trace (JSON Lines); null when the suite run, scenario or repeat does not exist. */
export async function getLabTrace(db: Executor, id: string, scenario: string, repeat: number) {
  if (!z.guid().safeParse(id).success || !Number.isSafeInteger(repeat)) return null;
  const [row] = await db
    .select()
    .from(labRunTraces)
    .where(and(eq(labRunTraces.suiteRunId, id), eq(labRunTraces.scenario, scenario), eq(labRunTraces.repeat, repeat)));
  return row ?? null;
}

/** The download path of a run's trace (the route handler app/api/v1/lab/runs/[id]/traces/[scenario]/[repeat]). */
export function labTracePath(suiteRunId: string, scenario: string, repeat: number): string {
  return `/api/v1/lab/runs/${suiteRunId}/traces/${encodeURIComponent(scenario)}/${repeat}`;
}

/** Who downloaded which lab trace (the audit log; as for a mission's trace). */
export async function recordLabTraceExport(db: Executor, actor: AuditActor, t: { suiteRunId: string; scenario: string; repeat: number; bytes: number }): Promise<void> {
  await recordAudit(db, actor, {
    action: "trace.export",
    summary: `${actor.name} downloaded the lab trace of "${t.scenario}" repeat ${t.repeat} (suite run ${t.suiteRunId}, ${t.bytes} bytes).`,
    target: { type: "lab_run", id: t.suiteRunId },
  });
}

// ---------------------------------------------------------------------------------------------
// Simulation extraction (000 "Population Methods")

export interface ExtractionOptions {
  actor: AuditActor;
  /** A signature is recurring when seen in at least this many runs (default MIN_SIGHTINGS = 2). */
  minSightings?: number;
  /** The library covers a failure when an entry scores at least this (default WEAK_MATCH_BELOW = 0.3, below which a mission never probes an entry). */
  coveredAt?: number;
  /** Traces cited as evidence per draft. */
  evidence?: number;
}

export interface ExtractionResult {
  /** Drafts created, one per signature. */
  created: Array<{ signature: string; contributionId: string; sightings: number }>;
  /** Recurring signatures the library covers: the best entry and its score. */
  covered: Array<{ signature: string; failureId: string; matchScore: number; sightings: number }>;
  /** Recurring signatures whose library query failed (nothing decided; tried again next time). */
  unanswered: Array<{ signature: string; error: string }>;
}

/**
 * Recurring failures of recorded lab runs that the library does not cover become draft contributions
 * (origin `simulation`, source `simulation_extraction`), with their traces as evidence. The rule:
 *
 * - **recurring**: a failure signature (lib/lab/extract.ts: diagnosed type + learned-pattern trigger)
 *   seen in at least `minSightings` distinct runs (suite run × scenario × repeat) of every recorded
 *   suite run;
 * - **not covered**: the library's answer to the failure's query (the one a mission would ask, on its
 *   latest sighting) has no entry scoring at least `coveredAt`;
 * - **once**: a signature already extracted (lab_extractions) is never proposed again, whatever became
 *   of its draft. Drafts are never submitted, approved or published here: reviewers decide.
 */
export async function extractSimulationDrafts(db: Db, opts: ExtractionOptions): Promise<ExtractionResult> {
  const min = opts.minSightings ?? MIN_SIGHTINGS;
  const coveredAt = opts.coveredAt ?? WEAK_MATCH_BELOW;
  const result: ExtractionResult = { created: [], covered: [], unanswered: [] };
  const recurring = (await db.execute(sql`
    select f.signature, count(distinct (f.suite_run_id, f.scenario, f.repeat))::int as runs
    from lab_failures f
    where not exists (select 1 from lab_extractions x where x.signature = f.signature)
    group by f.signature
    having count(distinct (f.suite_run_id, f.scenario, f.repeat)) >= ${min}
    order by f.signature`)) as unknown as Array<{ signature: string; runs: number }>;
  for (const r of recurring) {
    const sightings = await db
      .select({ suiteRunId: labFailures.suiteRunId, scenario: labFailures.scenario, repeat: labFailures.repeat, seq: labFailures.seq, query: labFailures.query, draft: labFailures.draft, suiteName: labSuiteRuns.suiteName })
      .from(labFailures)
      .innerJoin(labSuiteRuns, eq(labSuiteRuns.id, labFailures.suiteRunId))
      .where(eq(labFailures.signature, r.signature))
      .orderBy(desc(labFailures.createdAt), asc(labFailures.scenario), asc(labFailures.repeat))
      .limit(Math.max(1, opts.evidence ?? 5));
    const latest = sightings[0];
    const answer = await consultLibrary(db, latest.query as LibraryQuery, 3);
    if (answer.error) {
      result.unanswered.push({ signature: r.signature, error: answer.error });
      continue;
    }
    const best = answer.hypotheses[0];
    if (best && best.match_score >= coveredAt) {
      result.covered.push({ signature: r.signature, failureId: best.failure_id, matchScore: best.match_score, sightings: r.runs });
      continue;
    }
    const base = latest.draft as LibraryDraft;
    const references = sightings.map((s) => clip(`Lab trace ${labTracePath(s.suiteRunId, s.scenario, s.repeat)} (suite "${s.suiteName}", scenario "${s.scenario}", repeat ${s.repeat}, event ${s.seq})`, 300));
    const entry = validateContributionEntry({ ...base, source: "simulation_extraction", references }, "draft");
    const created = await db.transaction(async (tx) => {
      // One draft per signature, even with two recorders extracting at once: the row is claimed first.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('lab_extractions'), hashtext(${r.signature}))`);
      const [known] = await tx.select({ s: labExtractions.signature }).from(labExtractions).where(eq(labExtractions.signature, r.signature));
      if (known) return null;
      const [row] = await tx
        .insert(libraryContributions)
        .values({
          kind: "new",
          entry,
          status: "draft",
          origin: "simulation",
          authorId: opts.actor.id,
          summary: clip(`Recurring in ${r.runs} lab runs (${r.signature}): ${base.surface_symptom}`, 500),
        })
        .returning();
      await tx.insert(labExtractions).values({ signature: r.signature, contributionId: row.id, sightings: r.runs });
      await recordAudit(tx, opts.actor, {
        action: "library.contribute",
        summary: `${opts.actor.name} drafted a new entry from a recurring lab failure (${r.signature}, seen in ${r.runs} runs) for reviewers (saved as a draft).`,
        target: { type: "contribution", id: row.id },
        after: { status: row.status, kind: row.kind, origin: row.origin, signature: r.signature },
      });
      return row;
    });
    if (created) result.created.push({ signature: r.signature, contributionId: created.id, sightings: r.runs });
  }
  return result;
}

/** The simulation drafts' signatures and evidence, for a contribution's page: the runs that saw it. */
export async function simulationEvidence(db: Executor, contributionId: string) {
  if (!z.guid().safeParse(contributionId).success) return null;
  const [x] = await db.select().from(labExtractions).where(eq(labExtractions.contributionId, contributionId));
  if (!x) return null;
  const runs = await db
    .selectDistinct({ suiteRunId: labFailures.suiteRunId, scenario: labFailures.scenario, repeat: labFailures.repeat, suiteName: labSuiteRuns.suiteName, startedAt: labSuiteRuns.startedAt })
    .from(labFailures)
    .innerJoin(labSuiteRuns, eq(labSuiteRuns.id, labFailures.suiteRunId))
    .where(eq(labFailures.signature, x.signature))
    .orderBy(desc(labSuiteRuns.startedAt), asc(labFailures.scenario), asc(labFailures.repeat))
    .limit(50);
  return { signature: x.signature, sightingsAtExtraction: x.sightings, runs: runs.map((r) => ({ ...r, trace: labTracePath(r.suiteRunId, r.scenario, r.repeat) })) };
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
