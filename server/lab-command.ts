import fs from "node:fs";
import path from "node:path";
import { failureSightings, type FailureSighting } from "../lib/lab/extract";
import { compareReports, parseReport, reportTable, type LabReport, type RunReport } from "../lib/lab/report";
import { runSuite, slug, suiteIdentity } from "../lib/lab/run";
import { readSuite } from "../lib/lab/suite";
import { secretValues } from "../lib/trace/redact";
import { TraceUsageError, type Io } from "./trace-command";

/**
 * `faultline lab run SUITE.yaml --seed N --repeat K [--compare BASELINE.json] [--json] [-o REPORT.json]
 * [--traces DIR]` (docs/lab.md). The work is lib/lab; this reads the files, shows progress on a terminal,
 * prints the table (or JSON), writes the report and the traces, and says what is wrong in words.
 * Exit 0; 1 when --compare finds a regression or a run could not finish; 2 for bad input.
 * With a recorder (the CLI's, unless --no-record) the suite run is also recorded in PostgreSQL as it
 * goes — each run's trace and failures, the progress, the report — for the console's Lab page, and
 * simulation extraction runs on what was recorded.
 */

/** Where a suite run is recorded (db/queries/lab.ts behind the CLI's database); opened once the input is valid. */
export interface LabRecorder {
  start(p: { suite: LabReport["suite"]; seed: number; repeat: number; total: number }): Promise<string>;
  run(p: { scenario: string; run: RunReport; trace: string; sightings: FailureSighting[] }): Promise<void>;
  /** Stores the report, then runs simulation extraction; says what it did in one line. */
  finish(report: LabReport): Promise<string>;
  fail(error: string): Promise<void>;
  close(): Promise<void>;
}

export interface LabRunParams {
  file?: string;
  seed?: string;
  repeat?: string;
  compare?: string;
  json: boolean;
  out?: string;
  traces?: string;
  /** Opens the recorder (after the suite and baseline were read); none: nothing is recorded. */
  record?: () => Promise<LabRecorder>;
  /** Progress goes to stderr only on a terminal. */
  progress?: { isTTY: boolean; columns: number; write(text: string): void };
}

const USAGE = "faultline lab run SUITE.yaml --seed N --repeat K [--compare BASELINE.json] [--json] [-o REPORT.json] [--traces DIR]";

function wholeNumber(v: string | undefined, flag: string, min: number, max: number, fallback: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!/^-?\d+$/.test(v.trim()) || !Number.isSafeInteger(n) || n < min || n > max) throw new TraceUsageError(`${flag} must be a whole number from ${min} to ${max} (got "${v}"). Usage: ${USAGE}`);
  return n;
}

export async function labRun(io: Io, p: LabRunParams): Promise<number> {
  if (!p.file) throw new TraceUsageError(`lab run needs a suite file: ${USAGE} (the default suite is lab/default.yaml).`);
  const seed = wholeNumber(p.seed, "--seed", 0, 2 ** 31 - 1, 1);
  const repeat = wholeNumber(p.repeat, "--repeat", 1, 1000, 1);
  if (p.out !== undefined && !p.out.trim()) throw new TraceUsageError("-o needs a file name for the report (JSON).");
  // The baseline is read before anything runs: a wrong file is said at once.
  let baseline: LabReport | null = null;
  if (p.compare !== undefined) {
    let text: string;
    try {
      text = fs.readFileSync(p.compare, "utf8");
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new TraceUsageError(code === "ENOENT" ? `There is no baseline "${p.compare}". Save one with: faultline lab run ${p.file} --seed ${seed} --repeat ${repeat} -o ${p.compare}` : `The baseline "${p.compare}" cannot be read (${code ?? (e as Error).message}).`);
    }
    const r = parseReport(text, p.compare);
    if (!r.ok) throw new TraceUsageError(r.why);
    baseline = r.report;
  }
  const parsed = readSuite(p.file);
  if (!parsed.ok) throw new TraceUsageError([`${p.file}: the suite has ${parsed.errors.length} problem(s); nothing was run.`, ...parsed.errors.map((e) => `  ${e.path || "(suite)"}: ${e.message}`)].join("\n"));
  const suite = parsed.suite;
  const traceDir = p.traces ?? (p.out ? `${p.out.replace(/\.json$/i, "")}.traces` : path.join("lab-runs", slug(suite.name), `seed-${seed}`));
  const started = performance.now();
  const bar = progressBar(p.progress);
  const recorder = p.record ? await openRecorder(p.record) : null;
  let report: LabReport;
  let recorded: string | null = null;
  try {
    const suiteRunId = recorder ? await recorder.start({ suite: suiteIdentity(suite), seed, repeat, total: suite.scenarios.length * repeat }) : null;
    try {
      report = await runSuite(suite, {
        seed,
        repeat,
        traceDir,
        secrets: secretValues(process.env),
        onProgress: bar.update,
        onRun: recorder ? (run, record, sc) => recorder.run({ scenario: sc.name, run, trace: `${record.trace.join("\n")}\n`, sightings: failureSightings(record) }) : undefined,
      });
    } catch (e) {
      await recorder?.fail(e instanceof Error ? e.message : String(e));
      throw e;
    } finally {
      bar.done();
    }
    if (recorder) recorded = `Recorded as lab run ${suiteRunId} (console: /lab/${suiteRunId}). ${await recorder.finish(report)}`;
  } finally {
    await recorder?.close();
  }
  const comparison = baseline ? compareReports(report, baseline) : undefined;
  if (p.out) fs.writeFileSync(p.out, `${JSON.stringify(report, null, 2)}\n`);
  if (p.json) io.out(JSON.stringify(comparison ? { ...report, comparison } : report, null, 2));
  else io.out(reportTable(report, comparison, p.compare));
  const runs = report.scenarios.flatMap((s) => s.results);
  const errors = runs.filter((r) => r.error);
  io.err(`${runs.length} run(s) in ${((performance.now() - started) / 1000).toFixed(1)} s; traces in ${traceDir}${p.out ? `; report in ${p.out}` : ""}.`);
  for (const r of errors) io.err(`run ${r.runId} could not finish: ${r.error}`);
  if (recorded) io.err(recorded);
  return comparison?.regressions.length || errors.length ? 1 : 0;
}

/** The recorder, or an error that says what failed and that --no-record runs without a database. */
async function openRecorder(open: () => Promise<LabRecorder>): Promise<LabRecorder> {
  try {
    return await open();
  } catch (e) {
    throw new Error(`Could not open the database to record the suite run: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}. Nothing was run. Check DATABASE_URL (or FAULTLINE_DATA_DIR), or run with --no-record to run the suite without recording it.`);
  }
}

/** One line on stderr, rewritten in place, on a terminal; nothing elsewhere (CI logs get the table). */
function progressBar(tty: LabRunParams["progress"]): { update(p: { done: number; total: number; scenario: string; repeat: number }): void; done(): void } {
  if (!tty?.isTTY) return { update() {}, done() {} };
  let shown = false;
  return {
    update({ done, total, scenario, repeat }) {
      const width = 24;
      const filled = Math.round((done / total) * width);
      const text = `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} ${scenario} #${repeat}`;
      tty.write(`\r${text.slice(0, Math.max(20, tty.columns - 1)).padEnd(Math.max(20, tty.columns - 1))}`);
      shown = true;
    },
    done() {
      if (shown) tty.write(`\r${" ".repeat(Math.max(20, tty.columns - 1))}\r`);
    },
  };
}
