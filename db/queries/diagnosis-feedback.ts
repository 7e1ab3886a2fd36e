import { and, desc, eq, gte, inArray, sql } from "drizzle-orm";
import { reliabilityBins, expectedCalibrationError, type ReliabilityBin } from "../../lib/diagnosis/calibration";
import { patternTrigger } from "../../lib/diagnosis/diagnose";
import { DIAGNOSED_TYPES, type Diagnosis } from "../../lib/diagnosis/types";
import { AppError } from "../../lib/errors";
import type { AuditActor } from "../../lib/audit";
import type { Db, Executor } from "../client";
import { actors, diagnosisFeedback, events, sessionMemory } from "../schema";
import { recordAudit } from "./audit-log";
import { countCorrectionAgainstPatterns } from "./learning";

/**
 * Operators teach the diagnosis (issue 18): at a gate (or through the API) they confirm a diagnosis'
 * error type or correct it. Every verdict is kept (append-only; the latest per diagnosis counts), is
 * in the audit log, and a correction counts against the learned patterns of the diagnosis' trigger. The
 * verdicts are the live half of the Diagnostics page's calibration: stated confidence against what
 * operators found.
 */

export const FEEDBACK_VERDICTS = ["confirmed", "corrected"] as const;
export type FeedbackVerdict = (typeof FEEDBACK_VERDICTS)[number];

export interface DiagnosisFeedbackView {
  diagnosisId: string;
  statedType: string;
  statedConfidence: number;
  verdict: FeedbackVerdict;
  correctType: string;
  note: string | null;
  actorId: string;
  actorName: string;
  at: string;
  /** Learned patterns the correction counted against (0 for a confirmation). */
  patternsTouched?: number;
}

/** The diagnosis as its diagnostic_reflection event stated it. */
async function statedDiagnosis(db: Executor, diagnosisId: string): Promise<{ missionId: string; seq: number; diagnosis: Diagnosis } | null> {
  const [sm] = await db.select({ missionId: sessionMemory.missionId }).from(sessionMemory).where(eq(sessionMemory.id, diagnosisId));
  if (!sm) return null;
  const [e] = await db
    .select({ seq: events.seq, payload: events.payload })
    .from(events)
    .where(and(eq(events.missionId, sm.missionId), eq(events.type, "diagnostic_reflection"), sql`${events.payload}->'diagnosis'->>'id' = ${diagnosisId}`))
    .limit(1);
  return e ? { missionId: sm.missionId, seq: e.seq, diagnosis: (e.payload as { diagnosis: Diagnosis }).diagnosis } : null;
}

export async function recordDiagnosisFeedback(db: Db, actor: AuditActor, p: { diagnosisId: string; verdict: FeedbackVerdict; correctType?: string | null; note?: string | null }): Promise<DiagnosisFeedbackView> {
  return db.transaction(async (tx) => {
    const stated = await statedDiagnosis(tx, p.diagnosisId);
    if (!stated) throw new AppError("not_found", { userMessage: `Diagnosis ${p.diagnosisId} does not exist. Diagnosis ids are on the gate and in the diagnostic_reflection event of the failure.` });
    const statedType = stated.diagnosis.errorClassification.type;
    let correctType: string = statedType;
    if (p.verdict === "corrected") {
      if (!p.correctType) throw new AppError("bad_request", { userMessage: `A correction needs the right type: one of ${DIAGNOSED_TYPES.join(", ")}.` });
      if (!(DIAGNOSED_TYPES as readonly string[]).includes(p.correctType)) throw new AppError("bad_request", { userMessage: `"${p.correctType}" is not an error type. Use one of ${DIAGNOSED_TYPES.join(", ")}.` });
      if (p.correctType === statedType) throw new AppError("bad_request", { userMessage: `The diagnosis already says ${statedType}: confirm it instead of correcting it to the same type.` });
      correctType = p.correctType;
    }
    const at = new Date().toISOString();
    const note = p.note?.trim() || null;
    await tx.insert(diagnosisFeedback).values({ diagnosisId: p.diagnosisId, missionId: stated.missionId, seq: stated.seq, statedType, statedConfidence: stated.diagnosis.rootCause.confidence, verdict: p.verdict, correctType, note, actorId: actor.id, createdAt: at });
    const patternsTouched = p.verdict === "corrected" ? await countCorrectionAgainstPatterns(tx, patternTrigger(stated.diagnosis), at) : 0;
    await recordAudit(tx, actor, {
      action: "diagnosis.feedback",
      summary:
        p.verdict === "confirmed"
          ? `${actor.name} confirmed diagnosis ${p.diagnosisId}: ${statedType}${note ? `. Note: ${note}` : ""}`
          : `${actor.name} corrected diagnosis ${p.diagnosisId} from ${statedType} to ${correctType}${patternsTouched ? ` (${patternsTouched} learned pattern${patternsTouched === 1 ? "" : "s"} of its trigger counted a failure)` : ""}${note ? `. Note: ${note}` : ""}`,
      target: { type: "diagnosis", id: p.diagnosisId },
      missionId: stated.missionId,
      before: { type: statedType },
      after: { verdict: p.verdict, type: correctType },
    });
    return { diagnosisId: p.diagnosisId, statedType, statedConfidence: stated.diagnosis.rootCause.confidence, verdict: p.verdict, correctType, note, actorId: actor.id, actorName: actor.name, at, patternsTouched };
  });
}

/** The latest verdict of each of these diagnoses (absent: nobody said yet). */
export async function latestFeedback(db: Executor, diagnosisIds: readonly string[]): Promise<Record<string, DiagnosisFeedbackView>> {
  if (diagnosisIds.length === 0) return {};
  const rows = await db
    .selectDistinctOn([diagnosisFeedback.diagnosisId], { f: diagnosisFeedback, actorName: actors.displayName })
    .from(diagnosisFeedback)
    .innerJoin(actors, eq(actors.id, diagnosisFeedback.actorId))
    .where(inArray(diagnosisFeedback.diagnosisId, [...diagnosisIds]))
    .orderBy(diagnosisFeedback.diagnosisId, desc(diagnosisFeedback.createdAt), desc(diagnosisFeedback.id));
  return Object.fromEntries(rows.map(({ f, actorName }) => [f.diagnosisId, toView(f, actorName)]));
}

function toView(f: typeof diagnosisFeedback.$inferSelect, actorName: string): DiagnosisFeedbackView {
  return { diagnosisId: f.diagnosisId, statedType: f.statedType, statedConfidence: f.statedConfidence, verdict: f.verdict, correctType: f.correctType, note: f.note, actorId: f.actorId, actorName, at: new Date(f.createdAt).toISOString() };
}

export interface FeedbackReport {
  /** Diagnoses with a verdict in the period (the latest verdict each). */
  total: number;
  confirmed: number;
  corrected: number;
  reliability: ReliabilityBin[];
  ece: number | null;
  /** Per day (UTC) of the verdict: how many, and the share confirmed. */
  byDay: Array<{ day: string; confirmed: number; corrected: number; accuracy: number | null }>;
  /** What operators corrected: stated → right type, how often. */
  corrections: Array<{ from: string; to: string; count: number }>;
}

/** Operators' verdicts of the last `days` days, as calibration and accuracy over time. */
export async function feedbackReport(db: Executor, opts: { days: number; now?: Date }): Promise<FeedbackReport> {
  const now = opts.now ?? new Date();
  const since = new Date(now.getTime() - opts.days * 86_400_000).toISOString();
  const latest = await db
    .selectDistinctOn([diagnosisFeedback.diagnosisId], { statedType: diagnosisFeedback.statedType, statedConfidence: diagnosisFeedback.statedConfidence, verdict: diagnosisFeedback.verdict, correctType: diagnosisFeedback.correctType, createdAt: diagnosisFeedback.createdAt })
    .from(diagnosisFeedback)
    .where(gte(diagnosisFeedback.createdAt, since))
    .orderBy(diagnosisFeedback.diagnosisId, desc(diagnosisFeedback.createdAt), desc(diagnosisFeedback.id));
  const cases = latest.map((r) => ({ confidence: r.statedConfidence, correct: r.verdict === "confirmed" }));
  const days = new Map<string, { confirmed: number; corrected: number }>();
  for (let i = opts.days - 1; i >= 0; i--) days.set(new Date(now.getTime() - i * 86_400_000).toISOString().slice(0, 10), { confirmed: 0, corrected: 0 });
  const corrections = new Map<string, number>();
  for (const r of latest) {
    const d = days.get(new Date(r.createdAt).toISOString().slice(0, 10));
    if (d) d[r.verdict] += 1;
    if (r.verdict === "corrected") corrections.set(`${r.statedType}\u0000${r.correctType}`, (corrections.get(`${r.statedType}\u0000${r.correctType}`) ?? 0) + 1);
  }
  return {
    total: latest.length,
    confirmed: cases.filter((c) => c.correct).length,
    corrected: cases.filter((c) => !c.correct).length,
    reliability: reliabilityBins(cases),
    ece: expectedCalibrationError(cases),
    byDay: [...days].map(([day, c]) => ({ day, ...c, accuracy: c.confirmed + c.corrected ? c.confirmed / (c.confirmed + c.corrected) : null })),
    corrections: [...corrections]
      .map(([k, count]) => {
        const [from, to] = k.split("\u0000");
        return { from, to, count };
      })
      .sort((a, b) => b.count - a.count),
  };
}
