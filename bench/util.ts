import path from "node:path";
import { createDb, withDatabaseName, type Db } from "../db/client";
import { ensureDatabase } from "../db/embedded";
import { startTemplateServer } from "../db/test-global-setup";
import type { EngineIO } from "../lib/mission/engine";
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { countLabel, type CappedCount } from "../lib/query-filters";
import type { PartitionInfo } from "../db/partitions";
import { evaluateEvidence, runTool, stepIdempotent } from "../lib/tools";

/** What the benchmarks share: percentiles and a terminal progress bar. */

/**
 * The engine's IO for benchmarks that generate a mission in memory: the real tools in `workspace`, ids
 * numbered from 1, appends through `append` (the bench keeps the events), no stop, the default diagnosis.
 */
export function memoryEngineIO(opts: { workspace: string; now: () => number; append: EngineIO["append"] }): EngineIO {
  let ids = 0;
  return {
    now: opts.now,
    newId: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, "0")}`,
    append: opts.append,
    run: async (call, ctx) => {
      const result = await runTool(call.tool, call.args, { workspace: opts.workspace, allowedBinaries: [], timeoutMs: ctx.timeoutMs, idempotencyKey: ctx.idempotencyKey, signal: new AbortController().signal });
      return { result, evidence: await evaluateEvidence(call, result, { workspace: opts.workspace }) };
    },
    idempotent: stepIdempotent,
    stopped: () => false,
    diagnosis: { enabled: true, whyDepth: 5, maxRecoveryAttempts: 2, fastPath: true },
  };
}

/** The p-th percentile (nearest rank) of `values`; NaN when empty. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** A progress bar on one terminal line (nothing when stdout is not a terminal, e.g. in CI logs). */
export function progress(label: string, done: number, total: number): void {
  if (!process.stdout.isTTY) return;
  const width = 30;
  const filled = Math.round((done / Math.max(1, total)) * width);
  process.stdout.write(`\r[bench] ${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total}${done >= total ? "\n" : ""}`);
}

/**
 * Runs `fn` on a dedicated, migrated database (embedded under .data-test, or on DATABASE_URL's server) and
 * drops it afterwards unless `keep`; `reuse` (a kept database's name) runs `fn` on that one and keeps it.
 */
export async function withBenchDatabase(name: string, opts: { max: number; keep?: boolean; reuse?: string }, fn: (db: Db, url: string) => Promise<void>): Promise<void> {
  if (opts.reuse) {
    // A database a run with --keep left (its name): time the queries again without generating anything.
    if (!/^faultline_bench_[a-z]+_\d+$/.test(opts.reuse)) throw new Error(`--reuse takes the name of a database a bench run kept (faultline_bench_<name>_<pid>, printed by --keep), not ${JSON.stringify(opts.reuse)}.`);
    const pg = await ensureDatabase({ dataDir: path.resolve(".data-test"), databaseUrl: process.env.DATABASE_URL });
    const url = withDatabaseName(pg.url, opts.reuse);
    const handle = createDb(url, { max: opts.max, applicationName: `faultline-bench-${name}` });
    try {
      await fn(handle.db, url);
    } finally {
      await handle.close().catch(() => {});
      await pg.stop();
    }
    return;
  }
  const server = await startTemplateServer({ dataDir: ".data-test", template: `faultline_bench_${name}_${process.pid}` });
  const url = new URL(server.url);
  url.pathname = `/${server.template}`;
  const handle = createDb(url.toString(), { max: opts.max, applicationName: `faultline-bench-${name}` });
  try {
    await fn(handle.db, url.toString());
  } finally {
    await handle.close().catch(() => {});
    if (!opts.keep) await server.teardown();
  }
}

/** "load average 1.2 0.9 0.8 on 2 CPUs": printed beside figures taken on a shared machine. */
export const loadAverage = () => `load average ${loadavg().map((x) => x.toFixed(1)).join(" ")} on ${cpus().length} CPUs`;

/**
 * Times a list page and its capped count for each case (`runs` runs each after one warm-up) and prints one
 * row per case: page p50/p99, count p50/p99, rows on the page, the count. Returns the p99s, in case order.
 */
export async function timeListAndCount<C extends { name: string }>(
  cases: readonly C[],
  runs: number,
  q: { page(c: C): Promise<{ rows: number }>; count(c: C): Promise<CappedCount>; before?(c: C): Promise<void> },
): Promise<{ page: number[]; count: number[] }> {
  const ms = (x: number) => x.toFixed(1).padStart(8);
  console.log(`${"filters".padEnd(40)} ${"page p50".padStart(8)} ${"page p99".padStart(8)} ${"count p50".padStart(9)} ${"count p99".padStart(9)}  rows   count`);
  const p99 = { page: [] as number[], count: [] as number[] };
  for (const c of cases) {
    await q.before?.(c);
    const page = await q.page(c);
    const count = await q.count(c);
    const pt: number[] = [];
    const ct: number[] = [];
    for (let i = 0; i < runs; i++) {
      let s = performance.now();
      await q.page(c);
      pt.push(performance.now() - s);
      s = performance.now();
      await q.count(c);
      ct.push(performance.now() - s);
    }
    p99.page.push(percentile(pt, 99));
    p99.count.push(percentile(ct, 99));
    console.log(`${c.name.padEnd(40)} ${ms(percentile(pt, 50))} ${ms(percentile(pt, 99))} ${ms(percentile(ct, 50)).padStart(9)} ${ms(percentile(ct, 99)).padStart(9)}  ${String(page.rows).padStart(4)}  ${countLabel(count)}`);
  }
  return p99;
}

/** "audit_log: 8 monthly partitions + default (0 rows); rows per partition 210,000–1,700,000; 5.1 GB": where the rows went. */
export function partitionSummary(parts: PartitionInfo[], table: string): string {
  const own = parts.filter((p) => p.table === table);
  const months = own.filter((p) => p.bounds !== "DEFAULT" && p.rows > 0);
  const def = own.find((p) => p.bounds === "DEFAULT");
  const rows = months.map((p) => p.rows);
  const gb = own.reduce((n, p) => n + p.bytes, 0) / 1e9;
  return `${table}: ${own.length - 1} monthly partitions (${months.length} with rows) + default (${(def?.rows ?? 0).toLocaleString("en")} rows); rows per month ${Math.min(...rows).toLocaleString("en")}–${Math.max(...rows).toLocaleString("en")} (estimated); ${gb.toFixed(2)} GB with indexes`;
}
