import fs from "node:fs";
import path from "node:path";
import { compareReports, parseReport, reportTable, type LabReport } from "../lib/lab/report";
import { runSuite, slug } from "../lib/lab/run";
import { readSuite } from "../lib/lab/suite";
import { secretValues } from "../lib/trace/redact";
import { TraceUsageError, type Io } from "./trace-command";

/**
 * `faultline lab run SUITE.yaml --seed N --repeat K [--compare BASELINE.json] [--json] [-o REPORT.json]
 * [--traces DIR]` (docs/lab.md). The work is lib/lab; this reads the files, shows progress on a terminal,
 * prints the table (or JSON), writes the report and the traces, and says what is wrong in words.
 * Exit 0; 1 when --compare finds a regression or a run could not finish; 2 for bad input.
 */

export interface LabRunParams {
  file?: string;
  seed?: string;
  repeat?: string;
  compare?: string;
  json: boolean;
  out?: string;
  traces?: string;
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
  let report: LabReport;
  try {
    report = await runSuite(suite, { seed, repeat, traceDir, secrets: secretValues(process.env), onProgress: bar.update });
  } finally {
    bar.done();
  }
  const comparison = baseline ? compareReports(report, baseline) : undefined;
  if (p.out) fs.writeFileSync(p.out, `${JSON.stringify(report, null, 2)}\n`);
  if (p.json) io.out(JSON.stringify(comparison ? { ...report, comparison } : report, null, 2));
  else io.out(reportTable(report, comparison, p.compare));
  const runs = report.scenarios.flatMap((s) => s.results);
  const errors = runs.filter((r) => r.error);
  io.err(`${runs.length} run(s) in ${((performance.now() - started) / 1000).toFixed(1)} s; traces in ${traceDir}${p.out ? `; report in ${p.out}` : ""}.`);
  for (const r of errors) io.err(`run ${r.runId} could not finish: ${r.error}`);
  return comparison?.regressions.length || errors.length ? 1 : 0;
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
