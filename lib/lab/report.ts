import { z } from "zod";
import type { DiagnosticsCounts } from "../diagnosis/metrics";
import type { JudgedDiagnosis } from "./metrics";
import { mean, passHatK, rate, type Mean, type Rate } from "./metrics";

/**
 * A suite run's report (`faultline lab run … -o REPORT.json`): seed 003's metrics and seed 002's, over
 * every run and per scenario, with 95% intervals; pass^k per scenario; every run with its trace. The
 * same suite, seed and repeat count give the same report. `compareReports` reads a saved one as the
 * baseline and names regressions.
 */

export const REPORT_FORMAT = "faultline-lab-report";
export const REPORT_VERSION = 1;

/** What one run measured. */
export interface RunReport {
  repeat: number;
  seed: number;
  runId: string;
  missionId: string;
  finalStatus: "SUCCESS" | "PARTIAL_SUCCESS" | "FAILED" | null;
  failureReason: string | null;
  /** The mission's detected necessity level (FDR-N008). */
  level: number;
  passed: boolean;
  /** Why it did not pass (its end against the scenario's expectations, or the error that stopped it). */
  why: string | null;
  error: string | null;
  events: number;
  /** The run's trace file (null: not written). */
  trace: string | null;
  counts: DiagnosticsCounts;
  /** Helper calls + re-runs of each successful recovery (recovery.finished iterations). */
  iterations: number[];
  diagnoses: Array<Omit<JudgedDiagnosis, "seq">>;
  proposals: { submitted: number; approved: number; rejected: number; held: number };
  /** Gates the scripted operator answered. */
  gatesAnswered: number;
  crashes: number;
}

export interface SuiteMetrics {
  runs: number;
  /** Seed 003: recoveries that succeeded / recoveries that finished (succeeded or failed). */
  recoverySuccessRate: Rate;
  /** Seed 003: diagnoses whose type is the injected fault's / diagnoses of injected faults. */
  rootCauseAccuracy: Rate;
  /** Seed 003: stuck loops detected / failures diagnosed. */
  stuckLoopRate: Rate;
  /** Seed 003: recoveries a learned pattern chose (fast path) / recoveries started. */
  patternReuseRate: Rate;
  /** Seed 003: iterations (helper calls + the re-run) of each successful recovery. */
  iterationsToRecovery: Mean;
  /** Seed 003: agent gates opened after a diagnosed failure / failures diagnosed (a person had to decide). */
  userInterventionRate: Rate;
  /** Seed 002: proposals approved (by the authority or a person through it) / proposals decided. */
  approvalRate: Rate;
  /** Seed 002: runs in which a person had to answer a gate / runs. */
  hitlRate: Rate;
  /** Seed 002: why the runs that did not succeed failed (FailureReason), by count. */
  failureReasons: Record<string, number>;
  /** Seed 002: the runs' missions by detected necessity level. */
  necessityLevels: Record<string, number>;
}

export interface ScenarioReport {
  name: string;
  description: string | null;
  /** The error types injected (faults), and the outages and crashes, by name. */
  faults: string[];
  expect: string;
  runs: number;
  passed: number;
  /** pass^k for k = 1…runs (index k − 1). */
  passHatK: number[];
  metrics: SuiteMetrics;
  results: RunReport[];
}

export interface LabReport {
  format: typeof REPORT_FORMAT;
  version: typeof REPORT_VERSION;
  suite: { name: string; file: string | null; digest: string };
  seed: number;
  repeat: number;
  metrics: SuiteMetrics;
  scenarios: ScenarioReport[];
}

/** The metrics over a set of runs: counts pooled, rates with Wilson intervals, means with t intervals. */
export function summarize(runs: readonly RunReport[]): SuiteMetrics {
  const sum = (f: (r: RunReport) => number) => runs.reduce((a, r) => a + f(r), 0);
  const judged = runs.flatMap((r) => r.diagnoses.filter((d) => d.injected !== null));
  const count = (keys: Array<string | null>) => {
    const out: Record<string, number> = {};
    for (const k of keys) if (k !== null) out[k] = (out[k] ?? 0) + 1;
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
  };
  return {
    runs: runs.length,
    recoverySuccessRate: rate(sum((r) => r.counts.recovered), sum((r) => r.counts.recovered + r.counts.recoveryFailed)),
    rootCauseAccuracy: rate(judged.filter((d) => d.diagnosed === d.injected).length, judged.length),
    stuckLoopRate: rate(sum((r) => r.counts.loops), sum((r) => r.counts.diagnosed)),
    patternReuseRate: rate(sum((r) => r.counts.fastPath), sum((r) => r.counts.recoveriesStarted)),
    iterationsToRecovery: mean(runs.flatMap((r) => r.iterations)),
    userInterventionRate: rate(sum((r) => r.counts.gates), sum((r) => r.counts.diagnosed)),
    approvalRate: rate(sum((r) => r.proposals.approved), sum((r) => r.proposals.approved + r.proposals.rejected)),
    hitlRate: rate(runs.filter((r) => r.gatesAnswered > 0).length, runs.length),
    failureReasons: count(runs.map((r) => (r.finalStatus === "SUCCESS" ? null : (r.failureReason ?? (r.error ? "RUN_ERROR" : "UNEXPLAINED"))))),
    necessityLevels: count(runs.map((r) => String(r.level))),
  };
}

export function scenarioReport(s: { name: string; description?: string; faults: string[]; expect: string }, results: RunReport[]): ScenarioReport {
  const passed = results.filter((r) => r.passed).length;
  return {
    name: s.name,
    description: s.description ?? null,
    faults: s.faults,
    expect: s.expect,
    runs: results.length,
    passed,
    passHatK: results.map((_, i) => passHatK(passed, results.length, i + 1)),
    metrics: summarize(results),
    results,
  };
}

// ─── comparison with a baseline

/** Which way a metric is better; `null`: reported, never a regression (more approvals is not better or worse by itself). */
export const METRIC_DIRECTION = {
  recoverySuccessRate: "higher",
  rootCauseAccuracy: "higher",
  stuckLoopRate: "lower",
  patternReuseRate: "higher",
  iterationsToRecovery: "lower",
  userInterventionRate: "lower",
  approvalRate: null,
  hitlRate: "lower",
} as const;
export type MetricName = keyof typeof METRIC_DIRECTION;
export const METRIC_LABELS: Record<MetricName, string> = {
  recoverySuccessRate: "recovery success rate",
  rootCauseAccuracy: "root-cause accuracy",
  stuckLoopRate: "stuck-loop rate",
  patternReuseRate: "pattern reuse rate",
  iterationsToRecovery: "iterations to recovery",
  userInterventionRate: "user intervention required",
  approvalRate: "approval rate",
  hitlRate: "HITL rate",
};

export interface Regression {
  kind: "metric" | "scenario";
  name: string;
  why: string;
}

export interface Comparison {
  regressions: Regression[];
  /** What differs without being a regression (another seed, a scenario added or gone…). */
  notes: string[];
}

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
/** Below this, a difference is rounding, not a change. */
const EPSILON = 1e-9;
const show = (m: MetricName, v: number) => (m === "iterationsToRecovery" ? v.toFixed(2) : pct(v));

/**
 * Regressions against a baseline report: a metric whose 95% interval lies wholly on the worse side of
 * the baseline's point estimate (below it for a metric where higher is better, above it where lower is),
 * and a scenario whose every run passed in the baseline and that fails a run now.
 */
export function compareReports(current: LabReport, baseline: LabReport): Comparison {
  const regressions: Regression[] = [];
  const notes: string[] = [];
  if (baseline.suite.digest !== current.suite.digest) notes.push(`The baseline ran another version of the suite${baseline.suite.name !== current.suite.name ? ` ("${baseline.suite.name}")` : ""}: scenarios are compared by name.`);
  if (baseline.seed !== current.seed || baseline.repeat !== current.repeat) notes.push(`The baseline ran seed ${baseline.seed} with ${baseline.repeat} repeat(s); this run seed ${current.seed} with ${current.repeat}.`);
  for (const m of Object.keys(METRIC_DIRECTION) as MetricName[]) {
    const dir = METRIC_DIRECTION[m];
    const base = baseline.metrics[m].value;
    const cur = current.metrics[m];
    if (dir === null || base === null || cur.value === null) continue;
    if (!cur.ci) {
      notes.push(`${METRIC_LABELS[m]}: ${show(m, cur.value)} from a single observation has no interval; not compared with the baseline's ${show(m, base)}.`);
      continue;
    }
    const [lo, hi] = cur.ci;
    if (dir === "higher" && hi < base - EPSILON) regressions.push({ kind: "metric", name: m, why: `${METRIC_LABELS[m]} fell: ${show(m, cur.value)}, 95% CI [${show(m, lo)}, ${show(m, hi)}], lies wholly below the baseline's ${show(m, base)}.` });
    if (dir === "lower" && lo > base + EPSILON) regressions.push({ kind: "metric", name: m, why: `${METRIC_LABELS[m]} rose: ${show(m, cur.value)}, 95% CI [${show(m, lo)}, ${show(m, hi)}], lies wholly above the baseline's ${show(m, base)}.` });
  }
  const now = new Map(current.scenarios.map((s) => [s.name, s]));
  for (const b of baseline.scenarios) {
    const c = now.get(b.name);
    if (!c) {
      notes.push(`Scenario "${b.name}" is in the baseline and not in this suite.`);
      continue;
    }
    if (b.runs > 0 && b.passed === b.runs && c.passed < c.runs) {
      const failed = c.results.find((r) => !r.passed);
      regressions.push({ kind: "scenario", name: b.name, why: `"${b.name}" passed all ${b.runs} run(s) in the baseline and passes ${c.passed} of ${c.runs} now${failed?.why ? ` (repeat ${failed.repeat}: ${failed.why})` : ""}.` });
    }
  }
  for (const c of current.scenarios) if (!baseline.scenarios.some((b) => b.name === c.name)) notes.push(`Scenario "${c.name}" is new: the baseline has no result for it.`);
  return { regressions, notes };
}

// ─── reading a saved report

const rateSchema = z.object({ value: z.number().nullable(), successes: z.number(), trials: z.number(), ci: z.tuple([z.number(), z.number()]).nullable() });
const meanSchema = z.object({ value: z.number().nullable(), n: z.number(), ci: z.tuple([z.number(), z.number()]).nullable() });
const metricsSchema = z.object({
  runs: z.number(),
  recoverySuccessRate: rateSchema,
  rootCauseAccuracy: rateSchema,
  stuckLoopRate: rateSchema,
  patternReuseRate: rateSchema,
  iterationsToRecovery: meanSchema,
  userInterventionRate: rateSchema,
  approvalRate: rateSchema,
  hitlRate: rateSchema,
  failureReasons: z.record(z.string(), z.number()),
  necessityLevels: z.record(z.string(), z.number()),
});
const reportSchema = z.object({
  format: z.literal(REPORT_FORMAT),
  version: z.literal(REPORT_VERSION),
  suite: z.object({ name: z.string(), file: z.string().nullable(), digest: z.string() }),
  seed: z.number(),
  repeat: z.number(),
  metrics: metricsSchema,
  scenarios: z.array(z.object({ name: z.string(), runs: z.number(), passed: z.number(), results: z.array(z.object({ repeat: z.number(), passed: z.boolean(), why: z.string().nullable() }).passthrough()) }).passthrough()),
});

/** Reads a saved report (a baseline); anything else is said in words. */
export function parseReport(text: string, file: string): { ok: true; report: LabReport } | { ok: false; why: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, why: `${file} is not JSON, so it is not a lab report: give a report written by faultline lab run … -o REPORT.json.` };
  }
  const format = (json as { format?: unknown } | null)?.format;
  if (format !== REPORT_FORMAT) return { ok: false, why: `${file} is not a lab report (its "format" is ${JSON.stringify(format ?? null)}, not "${REPORT_FORMAT}"): give a report written by faultline lab run … -o REPORT.json.` };
  const version = (json as { version?: unknown }).version;
  if (version !== REPORT_VERSION) return { ok: false, why: `${file} is a lab report of version ${JSON.stringify(version)}; this Faultline reads version ${REPORT_VERSION}. Run the baseline again with this version.` };
  const parsed = reportSchema.safeParse(json);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    return { ok: false, why: `${file} does not fit the lab report format v${REPORT_VERSION}: ${i.path.join(".") || "(report)"}: ${i.message}. It may have been edited; run the baseline again.` };
  }
  return { ok: true, report: parsed.data as unknown as LabReport };
}

// ─── the table

const cell = (r: Rate) => (r.value === null ? "—" : pct(r.value));
const interval = (ci: [number, number] | null, f: (v: number) => string) => (ci ? `[${f(ci[0])}, ${f(ci[1])}]` : "—");

/** The report as a readable table (terminal, CI logs); regressions marked when a comparison is given. */
export function reportTable(report: LabReport, comparison?: Comparison, baselineName?: string): string {
  const m = report.metrics;
  const runs = report.scenarios.reduce((a, s) => a + s.runs, 0);
  const flagged = new Set(comparison?.regressions.map((r) => r.name) ?? []);
  const lines: string[] = [`Lab suite "${report.suite.name}": seed ${report.seed}, ${report.repeat} repeat(s), ${report.scenarios.length} scenario(s), ${runs} run(s)`, ""];
  const rows: string[][] = [];
  const rateRow = (name: MetricName, r: Rate, what: string) => rows.push([`  ${METRIC_LABELS[name]}`, cell(r), interval(r.ci, pct), `${r.successes}/${r.trials} ${what}`, flagged.has(name) ? "✗ REGRESSION" : ""]);
  rows.push(["Seed 003: diagnosis and recovery", "value", "95% CI", "counts", ""]);
  rateRow("recoverySuccessRate", m.recoverySuccessRate, "recoveries");
  rateRow("rootCauseAccuracy", m.rootCauseAccuracy, "injected faults diagnosed");
  rateRow("stuckLoopRate", m.stuckLoopRate, "diagnosed failures");
  rateRow("patternReuseRate", m.patternReuseRate, "recoveries started");
  const it = m.iterationsToRecovery;
  rows.push([`  ${METRIC_LABELS.iterationsToRecovery}`, it.value === null ? "—" : it.value.toFixed(2), interval(it.ci, (v) => v.toFixed(2)), `${it.n} recoveries`, flagged.has("iterationsToRecovery") ? "✗ REGRESSION" : ""]);
  rateRow("userInterventionRate", m.userInterventionRate, "diagnosed failures");
  rows.push(["Seed 002: authority and people", "", "", "", ""]);
  rateRow("approvalRate", m.approvalRate, "proposals decided");
  rateRow("hitlRate", m.hitlRate, "runs");
  lines.push(...columns(rows, [false, true, false, false, false]));
  const reasons = Object.entries(m.failureReasons);
  lines.push(`  failure reasons: ${reasons.length ? reasons.map(([k, v]) => `${k} ${v}`).join(", ") : "none (every run succeeded)"}`);
  lines.push(`  necessity levels: ${Object.entries(m.necessityLevels).map(([k, v]) => `level ${k}: ${v} run(s)`).join(", ")}`, "");
  const k = report.repeat;
  const srows: string[][] = [["Scenario", "faults", "passed", "pass^1", `pass^${k}`, "recovered", "root cause", ""]];
  for (const s of report.scenarios) {
    const sm = s.metrics;
    srows.push([
      s.name,
      s.faults.join(", ") || "—",
      `${s.passed}/${s.runs}`,
      s.passHatK[0]?.toFixed(2) ?? "—",
      s.passHatK[k - 1]?.toFixed(2) ?? "—",
      sm.recoverySuccessRate.trials ? `${sm.recoverySuccessRate.successes}/${sm.recoverySuccessRate.trials}` : "—",
      sm.rootCauseAccuracy.trials ? `${sm.rootCauseAccuracy.successes}/${sm.rootCauseAccuracy.trials}` : "—",
      flagged.has(s.name) ? "✗ REGRESSION" : s.passed === s.runs ? "✓" : `✗ ${s.results.find((r) => !r.passed)?.why ?? ""}`,
    ]);
  }
  lines.push(...columns(srows, [false, false, true, true, true, true, true, false]));
  if (comparison) {
    lines.push("", comparison.regressions.length ? `${comparison.regressions.length} regression(s) against ${baselineName ?? "the baseline"}:` : `No regression against ${baselineName ?? "the baseline"}.`);
    for (const r of comparison.regressions) lines.push(`  ✗ ${r.why}`);
    for (const n of comparison.notes) lines.push(`  note: ${n}`);
  }
  return lines.join("\n");
}

function columns(rows: string[][], right: boolean[]): string[] {
  const width = rows[0].map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? "")].length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : right[i] ? c.padStart(width[i]) : c.padEnd(width[i]))).join("  ").trimEnd());
}
