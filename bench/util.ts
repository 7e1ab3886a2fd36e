import { createDb, type Db } from "../db/client";
import { startTemplateServer } from "../db/test-global-setup";
import type { EngineIO } from "../lib/mission/engine";
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
 * drops it afterwards unless `keep`.
 */
export async function withBenchDatabase(name: string, opts: { max: number; keep?: boolean }, fn: (db: Db, url: string) => Promise<void>): Promise<void> {
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
