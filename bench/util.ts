import path from "node:path";
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { readFileSync } from "node:fs";
import { sql as dsql } from "drizzle-orm";
import { createDb, withDatabaseName, type Db } from "../db/client";
import { ensureDatabase } from "../db/embedded";
import { runMigrations } from "../db/migrate";
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
    // Migrations added since the database was kept (a new index) apply first, under the heavy lock.
    await withHeavyLock("migrations", () => runMigrations(url));
    const handle = createDb(url, { max: opts.max, applicationName: `faultline-bench-${name}` });
    try {
      await fn(handle.db, url);
    } finally {
      await releaseHeavyLock();
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
    await releaseHeavyLock();
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
    // Every count seen: a count cut by its time (at least what it found, capped) varies from run to run.
    const counts = new Set([countLabel(count)]);
    for (let i = 0; i < runs; i++) {
      let s = performance.now();
      await q.page(c);
      pt.push(performance.now() - s);
      s = performance.now();
      counts.add(countLabel(await q.count(c)));
      ct.push(performance.now() - s);
    }
    p99.page.push(percentile(pt, 99));
    p99.count.push(percentile(ct, 99));
    console.log(`${c.name.padEnd(40)} ${ms(percentile(pt, 50))} ${ms(percentile(pt, 99))} ${ms(percentile(ct, 50)).padStart(9)} ${ms(percentile(ct, 99)).padStart(9)}  ${String(page.rows).padStart(4)}  ${[...counts].join(" / ")}`);
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

/** The machine's lock for heavy runs (benchmarks, Playwright): `flock /tmp/faultline-heavy.lock …`. */
export const HEAVY_LOCK = "/tmp/faultline-heavy.lock";

/** Whether a process this one runs under holds `file` already (`flock /tmp/faultline-heavy.lock npm run bench:…`). */
function lockHeldByAncestor(file: string): boolean {
  let pid = process.ppid;
  for (let i = 0; i < 32 && pid > 1; i++) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (path.basename(cmd[0] ?? "") === "flock" && cmd.includes(file)) return true;
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      pid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    } catch {
      return false;
    }
  }
  return false;
}

/** The heavy lock this process holds: the flock(1) child holding it, and since when (the turn's start). */
let held: { child: ChildProcessByStdio<Writable, Readable, null>; since: number } | null = null;
let heldOutside: boolean | undefined;

async function acquireHeavyLock(label: string): Promise<void> {
  if (held) return;
  const child = spawn("flock", [HEAVY_LOCK, "sh", "-c", "echo held; exec cat >/dev/null"], { stdio: ["pipe", "pipe", "inherit"] });
  const waiting = setTimeout(() => process.stdout.write(`\n[bench] ${label}: waiting for ${HEAVY_LOCK} (another heavy run holds it)…\n`), 2_000);
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.once("data", () => resolve());
      child.once("error", (e) => reject(new Error(`bench: could not run flock(1) to take ${HEAVY_LOCK}: ${e.message}. Install util-linux's flock, or run the bench under 'flock ${HEAVY_LOCK} npm run …'.`)));
      child.once("exit", (code) => reject(new Error(`bench: flock(1) on ${HEAVY_LOCK} exited (${code}) before taking the lock.`)));
    });
  } finally {
    clearTimeout(waiting);
  }
  held = { child, since: performance.now() };
}

/** Lets the heavy lock go (the flock(1) child ends when its stdin closes). */
export async function releaseHeavyLock(): Promise<void> {
  if (!held) return;
  const { child } = held;
  held = null;
  child.stdin.end();
  await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once("exit", resolve)));
}

/**
 * Runs `fn` holding the heavy lock (flock(1) on HEAVY_LOCK, held by a child process), so a long benchmark holds the
 * machine only for a turn of its load (inTurns) or its timed part, and other heavy runs interleave between turns.
 * Inside a turn that is still held, `fn` runs in it (and the turn goes on after it). Under `flock HEAVY_LOCK npm run
 * bench:…` (an ancestor holds the lock) it runs `fn` directly.
 */
export async function withHeavyLock<T>(label: string, fn: () => Promise<T>): Promise<T> {
  heldOutside ??= lockHeldByAncestor(HEAVY_LOCK);
  if (heldOutside) return fn();
  const mine = !held;
  await acquireHeavyLock(label);
  try {
    return await fn();
  } finally {
    if (mine) await releaseHeavyLock();
  }
}

/** The longest a bench holds the heavy lock at a stretch while it generates data (BENCH_LOCK_TURN_S, default 30 s); then other heavy runs get a turn. */
export const LOCK_TURN_MS = Number(process.env.BENCH_LOCK_TURN_S ?? 30) * 1000;

/**
 * Runs `count` units of work (`unit(i)`, in order) in turns under the heavy lock: a turn takes the lock, runs units
 * until it has held it LOCK_TURN_MS (a unit is never cut), and lets it go, so other heavy runs interleave. A turn
 * still held when the units end goes on into what follows (the next phase, the timed part) until its time is up.
 * After each unit, `done(i + 1, heldMs)` (heldMs: the time units ran, without the waits for the lock).
 */
export async function inTurns(label: string, count: number, unit: (i: number) => Promise<void>, done: (n: number, heldMs: number) => void, until = Infinity): Promise<number> {
  heldOutside ??= lockHeldByAncestor(HEAVY_LOCK);
  let i = 0;
  let heldMs = 0;
  while (i < count && Date.now() < until) {
    if (!heldOutside) await acquireHeavyLock(label);
    do {
      const s = performance.now();
      await unit(i);
      heldMs += performance.now() - s;
      done(++i, heldMs);
    } while (i < count && Date.now() < until && (heldOutside || performance.now() - held!.since < LOCK_TURN_MS));
    if (i < count && Date.now() < until && !heldOutside) {
      await releaseHeavyLock();
      // A heavy run waiting in flock(1) takes the lock now, before this bench's next turn asks for it.
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
  if (held && performance.now() - held.since >= LOCK_TURN_MS) await releaseHeavyLock();
  return i;
}

/**
 * Runs `total` units of work in chunks of `chunk` (`fn(from, n)`), in turns under the heavy lock (inTurns), printing
 * one progress line per chunk: done/total, rate, time left (rewritten in place on a terminal, one line each in a log).
 */
export async function inChunks(label: string, total: number, chunk: number, fn: (from: number, n: number) => Promise<void>, until = Infinity, start = 0): Promise<number> {
  const t0 = performance.now();
  const chunks = await inTurns(label, Math.ceil((total - start) / chunk), (i) => fn(start + i * chunk, Math.min(chunk, total - start - i * chunk)), (k, heldMs) => chunkProgress(label, Math.min(total, start + k * chunk), total, t0, heldMs), until);
  const done = Math.min(total, start + chunks * chunk);
  if (done < total) console.log(`[bench] ${label}: stopped at ${done.toLocaleString("en")} of ${total.toLocaleString("en")} (--until ${new Date(until).toISOString()}); the figures below are for ${done.toLocaleString("en")}.`);
  return done;
}

/**
 * `--until TIME` (an ISO time, or HH:MM in UTC today): when a bench stops generating and times what it has, so a
 * run on a busy machine ends with figures for the largest size reached. Infinity without it.
 */
export function untilOption(value: string | undefined): number {
  if (!value) return Infinity;
  const hm = /^(\d{1,2}):(\d{2})$/.exec(value);
  const t = hm ? new Date().setUTCHours(Number(hm[1]), Number(hm[2]), 0, 0) : Date.parse(value);
  if (Number.isNaN(t)) throw new Error(`--until takes an ISO time or HH:MM (UTC today), not ${JSON.stringify(value)}.`);
  return t;
}

/** One progress line of a chunked load: done/total, per second of work (the lock held), time left at that rate. */
export function chunkProgress(label: string, done: number, total: number, t0: number, heldMs: number): void {
  const secs = (performance.now() - t0) / 1000;
  const rate = done / Math.max(heldMs / 1000, 1e-3);
  const left = (total - done) / Math.max(rate, 1e-9);
  const width = 30;
  const filled = Math.round((done / Math.max(1, total)) * width);
  const line = `[bench] ${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done.toLocaleString("en")}/${total.toLocaleString("en")}, ${Math.round(rate).toLocaleString("en")}/s, ${(heldMs / 1000).toFixed(0)} s of work (${secs.toFixed(0)} s with waits for the lock), ${done >= total ? "done" : `~${left.toFixed(0)} s of work left`} (${loadAverage()})`;
  if (process.stdout.isTTY) process.stdout.write(`\r${line}\x1b[K${done >= total ? "\n" : ""}`);
  else if (done >= total || performance.now() - lastLogged > 10_000) {
    // A log (not a terminal) gets a line every 10 s and the last one.
    lastLogged = performance.now();
    console.log(line);
  }
}
let lastLogged = -Infinity;

/** A secondary index of a partitioned table, as `dropIndexesForLoad` dropped it. */
export interface DroppedIndex {
  name: string;
  /** `USING btree (at DESC, id DESC)` and any `WHERE …`: the definition after the table's name. */
  body: string;
  unique: boolean;
}

/**
 * A bench's own table is loaded faster without its secondary indexes (each row would update every index):
 * drops every index of the partitioned `table` except its primary key and returns their definitions, for
 * `buildIndexesByPartition` after the load. Only for a table the bench created and owns.
 */
export async function dropIndexesForLoad(db: Db, table: string): Promise<DroppedIndex[]> {
  const rows = (await db.execute(dsql`select i.relname as name, pg_get_indexdef(i.oid) as def from pg_index x join pg_class i on i.oid = x.indexrelid
    where x.indrelid = ${table}::regclass and not x.indisprimary order by i.relname`)) as unknown as Array<{ name: string; def: string }>;
  const dropped = rows.map((r) => {
    const m = /^CREATE (UNIQUE )?INDEX \S+ ON (?:ONLY )?\S+ (USING .*)$/.exec(r.def);
    if (!m) throw new Error(`bench: cannot read the definition of index ${r.name}: ${r.def}`);
    return { name: r.name, body: m[2], unique: !!m[1] };
  });
  // Kept in the bench's database too, so a run stopped during its load can be finished (--resume).
  await db.execute(dsql`create table if not exists bench_dropped_indexes (tbl text not null, name text primary key, body text not null, uniq boolean not null)`);
  for (const d of dropped) {
    await db.execute(dsql`insert into bench_dropped_indexes values (${table}, ${d.name}, ${d.body}, ${d.unique})`);
    await db.execute(dsql.raw(`drop index "${d.name}"`));
  }
  return dropped;
}

/** The indexes of `table` that dropIndexesForLoad dropped in a kept database and that are not built yet (--resume). */
export async function droppedIndexes(db: Db, table: string): Promise<DroppedIndex[]> {
  if (!(await db.execute(dsql`select to_regclass('bench_dropped_indexes') is not null as ok`))[0]?.ok) return [];
  // Not built yet, or built on some partitions only (a run stopped during the build: the parent index is invalid).
  const rows = (await db.execute(dsql`select name, body, uniq from bench_dropped_indexes d where tbl = ${table}
    and (to_regclass(quote_ident(name)) is null or not (select indisvalid from pg_index where indexrelid = to_regclass(quote_ident(d.name)))) order by name`)) as unknown as Array<{ name: string; body: string; uniq: boolean }>;
  return rows.map((r) => ({ name: r.name, body: r.body, unique: r.uniq }));
}

/**
 * Builds the indexes `dropIndexesForLoad` dropped, the way PostgreSQL documents for big partitioned tables: each
 * index on the parent alone (CREATE INDEX ON ONLY, invalid until complete), then on every partition — in turns
 * under the heavy lock (inTurns) — attached to it. The parent's index is valid once every partition's is attached, under
 * its own name as before.
 */
export async function buildIndexesByPartition(db: Db, table: string, indexes: DroppedIndex[]): Promise<void> {
  const parts = ((await db.execute(dsql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = ${table}::regclass order by c.relname`)) as unknown as Array<{ name: string }>).map((r) => r.name);
  const t0 = performance.now();
  for (const ix of indexes) await db.execute(dsql.raw(`create ${ix.unique ? "unique " : ""}index if not exists "${ix.name}" on only "${table}" ${ix.body}`));
  const partName = (ix: DroppedIndex, part: string) => `${part}_${ix.name.replace(new RegExp(`^${table}_`), "")}`.slice(0, 63);
  // A partition's index that exists was attached in the transaction that built it (a resumed build skips it).
  const built = new Set(((await db.execute(dsql`select relname as n from pg_class where relkind = 'i'`)) as unknown as Array<{ n: string }>).map((r) => r.n));
  const units = indexes.flatMap((ix) => parts.filter((part) => !built.has(partName(ix, part))).map((part) => ({ ix, part })));
  await inTurns(`indexes of ${table}`, units.length, async (i) => {
    const { ix, part } = units[i];
    const name = partName(ix, part);
    await db.transaction(async (tx) => {
      await tx.execute(dsql`set local maintenance_work_mem = '256MB'`);
      await tx.execute(dsql.raw(`create ${ix.unique ? "unique " : ""}index "${name}" on "${part}" ${ix.body}`));
      await tx.execute(dsql.raw(`alter index "${ix.name}" attach partition "${name}"`));
    });
  }, (n, heldMs) => chunkProgress(`indexes of ${table}`, n, units.length, t0, heldMs));
}

/** VACUUM ANALYZE of every partition of `table`, each under the heavy lock (a long-lived table is vacuumed by autovacuum: its pages all-visible). */
export async function vacuumByPartition(db: Db, table: string): Promise<void> {
  const parts = ((await db.execute(dsql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = ${table}::regclass order by c.relname`)) as unknown as Array<{ name: string }>).map((r) => r.name);
  const t0 = performance.now();
  await inTurns(`vacuum analyze ${table}`, parts.length, (i) => db.execute(dsql.raw(`vacuum analyze "${parts[i]}"`)).then(() => {}), (n, heldMs) => chunkProgress(`vacuum analyze ${table}`, n, parts.length, t0, heldMs));
  // The parent's own statistics (the planner's estimates over all partitions).
  await withHeavyLock(`analyze ${table}`, () => db.execute(dsql.raw(`analyze "${table}"`)));
}
