import type { DiagnosticsCounts } from "../diagnosis/metrics";
import type { MissionEvent } from "../mission/events";
import type { LabRecord } from "./lab";

/**
 * What one lab run measured, from the events the lab observed and the ground truth of the faults the
 * world injected, and the statistics a suite reports over runs: Wilson score intervals for rates,
 * Student's t intervals for means, and pass^k (the chance that k repeats of a scenario all succeed).
 */

/** ADR-0003's counts (the Diagnostics page's, db/queries/diagnostics.ts), counted from one run's events. */
export function diagnosticsCounts(events: readonly MissionEvent[]): DiagnosticsCounts {
  const c: DiagnosticsCounts = { diagnosed: 0, recoveriesStarted: 0, fastPath: 0, recovered: 0, recoveryFailed: 0, iterationsToSuccess: 0, loops: 0, gates: 0, proposalsAccepted: 0, proposalsRejected: 0 };
  for (const e of events) {
    if (e.type === "diagnostic_reflection") c.diagnosed++;
    else if (e.type === "recovery.started") c.recoveriesStarted++;
    else if (e.type === "recovery.fast_path") {
      c.recoveriesStarted++;
      c.fastPath++;
    } else if (e.type === "recovery.finished" && e.payload.outcome === "succeeded") {
      c.recovered++;
      c.iterationsToSuccess += e.payload.iterations;
    } else if (e.type === "recovery.finished" && e.payload.outcome === "failed") c.recoveryFailed++;
    else if (e.type === "recovery.loop_detected") c.loops++;
    else if (e.type === "gate.opened" && (e.payload.kind ?? "agent") === "agent" && e.payload.diagnosis) c.gates++;
    else if (e.type === "diagnosis.proposal" && e.payload.proposal.status === "accepted") c.proposalsAccepted++;
    else if (e.type === "diagnosis.proposal" && e.payload.proposal.status === "rejected") c.proposalsRejected++;
  }
  return c;
}

/** One diagnosis judged against the fault injected into the call that failed. */
export interface JudgedDiagnosis {
  seq: number;
  agent: string;
  step: number;
  /** The injected fault's type; null when the failure was not injected (nothing to judge against). */
  injected: string | null;
  diagnosed: string;
}

/**
 * Each diagnosis with the fault behind it: a `diagnostic_reflection` explains the latest `tool.failed`
 * of its agent's step, which reports the latest call of that step before it.
 */
export function judgeDiagnoses(record: Pick<LabRecord, "events" | "calls">): JudgedDiagnosis[] {
  const failedAt = new Map<string, number>();
  const out: JudgedDiagnosis[] = [];
  for (const e of record.events) {
    if (e.type === "tool.failed") failedAt.set(`${e.payload.agent}/${e.payload.step}`, e.seq);
    if (e.type !== "diagnostic_reflection") continue;
    const key = `${e.payload.agent}/${e.payload.step}`;
    const failed = failedAt.get(key);
    const call = failed === undefined ? undefined : record.calls.findLast((c) => c.kind === "step" && `${c.agent}/${c.step}` === key && c.afterSeq < failed);
    out.push({ seq: e.seq, agent: e.payload.agent, step: e.payload.step, injected: call?.injected?.type ?? null, diagnosed: e.payload.diagnosis.errorClassification.type });
  }
  return out;
}

/** Each proposal's last decision (the authority's, or a person's through it): approved or rejected; still pending is neither. */
export function proposalDecisions(events: readonly MissionEvent[]): { approved: number; rejected: number; held: number; submitted: number } {
  const last = new Map<string, string>();
  let held = 0;
  let submitted = 0;
  for (const e of events) {
    if (e.type === "proposal.submitted") submitted++;
    if (e.type !== "proposal.decided") continue;
    if (e.payload.decision === "pending") held++;
    last.set(e.payload.proposalId, e.payload.decision);
  }
  const values = [...last.values()];
  return { approved: values.filter((d) => d === "approved").length, rejected: values.filter((d) => d === "rejected").length, held, submitted };
}

// ─── statistics

export interface Rate {
  value: number | null;
  successes: number;
  trials: number;
  /** 95% Wilson score interval; null without trials. */
  ci: [number, number] | null;
}

export interface Mean {
  value: number | null;
  n: number;
  /** 95% Student's t interval; null below two observations. */
  ci: [number, number] | null;
}

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/** The Wilson score interval of s successes in n trials (95%): never outside [0, 1], sensible at 0 and n. */
export function wilson(s: number, n: number): [number, number] | null {
  if (n <= 0) return null;
  const p = s / n;
  const z2 = Z95 * Z95;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  // At 0 and n the bound is exactly 0 or 1 (the formula reaches it only up to rounding).
  return [s === 0 ? 0 : Math.max(0, center - half), s === n ? 1 : Math.min(1, center + half)];
}

export function rate(successes: number, trials: number): Rate {
  return { value: trials > 0 ? successes / trials : null, successes, trials, ci: wilson(successes, trials) };
}

/** Two-sided 95% quantiles of Student's t for 1…30 degrees of freedom. */
const T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

/** t(0.975, df): the table to 30, then the Cornish–Fisher expansion (error < 0.001 above 30). */
export function t95(df: number): number {
  if (df < 1) return Number.NaN;
  if (df <= 30) return T95[df - 1];
  const z = Z95;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df);
}

export function mean(values: readonly number[]): Mean {
  const n = values.length;
  if (!n) return { value: null, n: 0, ci: null };
  const m = values.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { value: m, n, ci: null };
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - m) ** 2, 0) / (n - 1));
  const half = (t95(n - 1) * sd) / Math.sqrt(n);
  return { value: m, n, ci: [m - half, m + half] };
}

/**
 * pass^k (τ-bench): the chance that k repeats of a scenario all succeed, estimated without bias from c
 * successes in n runs as C(c, k) / C(n, k). pass^1 is the success rate; it falls with k unless c = n.
 */
export function passHatK(c: number, n: number, k: number): number {
  if (k < 1 || k > n) throw new Error(`pass^k needs 1 ≤ k ≤ n (k = ${k}, n = ${n})`);
  let p = 1;
  for (let i = 0; i < k; i++) p *= Math.max(0, c - i) / (n - i);
  return p;
}
