/**
 * Throughput benchmark (issue 19): `npm run bench:throughput`. Prints figures; it is not a timed test.
 *
 * In one process and one run, on a fresh database (embedded PostgreSQL under .data-test, or DATABASE_URL's server):
 *  1. the database's limit: single-row insert + pg_notify per transaction with 1 and 8 writers, through
 *     the driver and pool Faultline uses (and `pgbench` with the same script when it is installed);
 *  2. Faultline: 1, 8 and 32 concurrent missions of no-op steps (the `file` tool listing the workspace),
 *     each run by the worker's real runner (`runMission`: engine, recorder, lease-fenced appends,
 *     projections, one NOTIFY per transaction) — steps/s in total, and the share of the 8-writer limit;
 *  3. constant cost per step: steps/s of one mission of BENCH_LONG_STEPS steps (default 10,000) against
 *     the median of five missions of 100 steps run around it. Target: ≥ 0.9.
 * BENCH_SECONDS (default 6) bounds each limit measurement; BENCH_PARTS=limit,concurrent,scaling picks parts.
 * Each line ends with the 1-minute load average when it was measured (the machine is shared).
 * BENCH_CPU_PROFILE=file.cpuprofile: a V8 CPU profile (the sampler `node --cpu-prof` uses) of the round of 8
 * concurrent missions only, without the process's start, migrations and the other parts; with the scaling
 * part, the long mission's own profile goes beside it (file-long.cpuprofile).
 * The long mission's line also gives its steps/s over its first and last 1,000 steps (from the events' own
 * timestamps): a step that costs more late in a mission shows there, whatever the short missions did.
 * Figures (before → after the worker's one-statement append, with the profile's summary): docs/deploy.md, "Capacity model".
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { createMission } from "../db/queries/events";
import { knownHead } from "../db/queries/mission-state";
import { claimMission } from "../db/queries/missions";
import { ensureActor } from "../db/queries/users";
import { missionDefinitionSchema } from "../lib/mission";
import { runMission, type RunContext } from "../server/orchestrator/runner";
import { loadAverage, progress, withBenchDatabase } from "./util";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const LONG = Number(process.env.BENCH_LONG_STEPS ?? 10_000);
const SHORT = 100;
const PARTS = new Set((process.env.BENCH_PARTS ?? "limit,concurrent,scaling").split(","));
const CONCURRENT = (process.env.BENCH_MISSIONS ?? "1,8,32").split(",").map(Number);
const STEPS_PER_AGENT = 100;
const CPU_PROFILE = process.env.BENCH_CPU_PROFILE;
const log = (m: string) => console.log(`[bench] ${m}`);
/** "load 1.7": the 1-minute load average now, printed beside each figure. */
const load = () => `load ${os.loadavg()[0].toFixed(1)}`;

/** Runs `fn` under the V8 CPU profiler and writes the profile to `file` (Chrome DevTools / speedscope format). */
async function profiled<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  try {
    return await fn();
  } finally {
    const { profile } = await session.post("Profiler.stop");
    fs.writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
    log(`CPU profile of this round written to ${file}`);
  }
}

/** A mission of `steps` no-op steps: agents of up to 100 steps each, one phase, no library walk. */
function definition(steps: number) {
  const agents = Array.from({ length: Math.ceil(steps / STEPS_PER_AGENT) }, (_, a) => ({
    name: `agent-${a}`,
    priority: "critical",
    timeoutMs: 24 * 3_600_000,
    steps: Array.from({ length: Math.min(STEPS_PER_AGENT, steps - a * STEPS_PER_AGENT) }, (_, i) => ({ name: `list ${a * STEPS_PER_AGENT + i}`, tool: "file", args: { op: "list", path: "." } })),
  }));
  return missionDefinitionSchema.parse({ name: `throughput ${steps}`, objective: "no-op steps", library: false, phases: [{ name: "EXECUTION", timeoutMs: 24 * 3_600_000, agents }] });
}

/** Runs one mission of `steps` steps with the worker's runner; resolves with its wall time in seconds. */
async function runOne(db: Db, steps: number, workspaces: string): Promise<number> {
  return (await runMissionOf(db, steps, workspaces)).seconds;
}

async function runMissionOf(db: Db, steps: number, workspaces: string, watch?: (id: string) => void): Promise<{ seconds: number; id: string }> {
  const workerId = "worker:bench-throughput";
  const m = await createMission(db, { definition: definition(steps), actorId: "user:bench" });
  watch?.(m.id);
  if ((await claimMission(db, { workerId, leaseMs: 24 * 3_600_000, onlyId: m.id })) !== m.id) throw new Error("could not claim the bench mission");
  const ctx: RunContext = { db, workerId, workspacesDir: workspaces, allowedBinaries: [], libraryProtocol: false, signal: new AbortController().signal, shouldStop: () => false, log: (msg) => log(msg) };
  const t0 = performance.now();
  const outcome = await runMission(ctx, m.id);
  if (outcome !== "terminal") throw new Error(`the bench mission ended "${outcome}", not terminal`);
  const seconds = (performance.now() - t0) / 1000;
  const [row] = await db.execute<{ final: string | null; steps: number }>(sql`select final_status as final, (select count(*)::int from events where mission_id = ${m.id} and type = 'tool.succeeded') as steps from missions where id = ${m.id}`);
  if (row.final !== "SUCCESS" || row.steps !== steps) throw new Error(`the bench mission of ${steps} steps ended ${row.final} with ${row.steps} steps done`);
  return { seconds, id: m.id };
}

/** CPU seconds (user + system) a process has used, from /proc (null when it is not on this machine or gone). */
function procCpu(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (USER_HZ 100 on Linux)
  } catch {
    return null;
  }
}

/**
 * CPU per step along a mission, independent of how busy the machine is: every 100 ms, the mission's seq (this
 * process's known head), this process's CPU and the CPU of the PostgreSQL backends serving this database (on
 * this machine). `perStep(from, to)`: ms of CPU per event between two fractions of the run's events.
 */
function cpuMeter(db: Db) {
  const samples: Array<{ seq: number; worker: number; pg: number }> = [];
  const pgSeen = new Map<number, number>();
  let pgTotal = 0;
  let pgLocal = true;
  let id = "";
  let busy = false;
  const sample = async () => {
    if (busy || !id) return;
    busy = true;
    try {
      const pids = await db.execute<{ pid: number }>(sql`select pid from pg_stat_activity where datname = current_database() and backend_type in ('client backend', 'autovacuum worker')`);
      for (const { pid } of pids) {
        const now = procCpu(pid);
        if (now === null) {
          pgLocal = false;
          continue;
        }
        pgTotal += now - (pgSeen.get(pid) ?? now);
        pgSeen.set(pid, now);
      }
      const u = process.cpuUsage();
      samples.push({ seq: knownHead(id)?.state.seq ?? 0, worker: (u.user + u.system) / 1e6, pg: pgTotal });
    } finally {
      busy = false;
    }
  };
  let timer: NodeJS.Timeout | undefined;
  return {
    start(missionId: string) {
      id = missionId;
      void sample();
      timer = setInterval(() => void sample(), 100);
    },
    /** CPU seconds of the worker and of PostgreSQL from start to stop. */
    total(): { worker: number; pg: number | null } {
      const [a, b] = [samples[0], samples.at(-1)!];
      return { worker: b.worker - a.worker, pg: pgLocal ? b.pg - a.pg : null };
    },
    async stop() {
      clearInterval(timer);
      while (busy) await new Promise((r) => setTimeout(r, 10));
      await sample();
    },
    /** ms of CPU per event of the worker and of PostgreSQL between fractions `from` and `to` of the events (linear between samples). */
    perEvent(from: number, to: number): { worker: number; pg: number | null } | null {
      const last = samples.at(-1)?.seq ?? 0;
      const at = (seq: number) => {
        const i = samples.findIndex((x) => x.seq >= seq);
        if (i <= 0) return i === 0 ? samples[0] : null;
        const a = samples[i - 1];
        const b = samples[i];
        const k = b.seq === a.seq ? 1 : (seq - a.seq) / (b.seq - a.seq);
        return { seq, worker: a.worker + k * (b.worker - a.worker), pg: a.pg + k * (b.pg - a.pg) };
      };
      const a = at(Math.round(from * last));
      const b = at(Math.round(to * last));
      if (!a || !b || b.seq <= a.seq) return null;
      return { worker: (1000 * (b.worker - a.worker)) / (b.seq - a.seq), pg: pgLocal ? (1000 * (b.pg - a.pg)) / (b.seq - a.seq) : null };
    },
  };
}

/** Steps/s of a mission over its first and last `window` steps, from its tool.succeeded events' timestamps. */
async function windowRates(db: Db, id: string, window: number): Promise<{ first: number; last: number }> {
  const [r] = await db.execute<{ first: number; last: number }>(sql`
    with s as (select extract(epoch from created_at) as t, row_number() over (order by seq) as i, count(*) over () as n from events where mission_id = ${id} and type = 'tool.succeeded')
    select ${window}::float / nullif((select t from s where i = ${window} + 1) - (select t from s where i = 1), 0) as first,
           ${window}::float / nullif((select t from s where i = n) - (select t from s where i = n - ${window}), 0) as last`);
  return { first: Number(r.first), last: Number(r.last) };
}

async function limit(db: Db, writers: number): Promise<number> {
  const loops = Array.from({ length: writers }, () => crypto.randomUUID());
  let transactions = 0;
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    loops.map(async (mission) => {
      let seq = 0;
      while (performance.now() < deadline) {
        seq++;
        await db.transaction(async (tx) => {
          await tx.execute(sql`insert into bench_limit (mission, payload) values (${mission}, ${JSON.stringify({ seq, type: "bench" })}::jsonb)`);
          await tx.execute(sql`select pg_notify('faultline_bench', ${JSON.stringify({ m: mission, s: seq })})`);
        });
        transactions++;
      }
    }),
  );
  return transactions / ((performance.now() - started) / 1000);
}

/** pgbench with the same single-row append + NOTIFY script, when installed; null otherwise. */
function pgbench(url: string, clients: number): number | null {
  const candidates = ["pgbench", ...(fs.existsSync("/usr/lib/postgresql") ? fs.readdirSync("/usr/lib/postgresql").map((v) => `/usr/lib/postgresql/${v}/bin/pgbench`) : [])];
  const bin = candidates.find((c) => spawnSync(c, ["--version"]).status === 0);
  if (!bin) return null;
  const script = path.join(os.tmpdir(), `fl-bench-${process.pid}.sql`);
  fs.writeFileSync(script, "BEGIN;\ninsert into bench_limit (mission, payload) values ('pgbench', '{\"type\":\"bench\"}');\nselect pg_notify('faultline_bench', '{\"m\":\"pgbench\"}');\nCOMMIT;\n");
  const r = spawnSync(bin, ["-n", "-f", script, "-c", String(clients), "-j", String(Math.min(clients, 2)), "-T", String(SECONDS), url], { encoding: "utf8" });
  fs.rmSync(script, { force: true });
  const tps = /tps = ([\d.]+)/.exec(r.stdout ?? "");
  return tps ? Number(tps[1]) : null;
}

async function main() {
  const startLoad = os.loadavg().map((x) => x.toFixed(1)).join(" ");
  const workspaces = fs.mkdtempSync(path.join(os.tmpdir(), "fl-bench-throughput-"));
  await withBenchDatabase("throughput", { max: 40 }, async (db, url) => {
    await ensureActor(db, { id: "user:bench", kind: "user", displayName: "bench" });
    await ensureActor(db, { id: "worker:bench-throughput", kind: "system", displayName: "bench worker" });
    await db.execute(sql`create table bench_limit (id bigserial primary key, mission text not null, payload jsonb not null, at timestamptz not null default now())`);
    const lines: string[] = [];
    let limit8 = NaN;

    if (PARTS.has("limit")) {
      for (const writers of [1, 8]) {
        log(`database limit: insert + pg_notify per transaction, ${writers} writer(s), ${SECONDS} s …`);
        const tps = await limit(db, writers);
        if (writers === 8) limit8 = tps;
        const at = load();
        const bench = pgbench(url, writers);
        lines.push(`  limit, ${writers} writer(s)             ${Math.round(tps).toLocaleString("en").padStart(7)} tx/s${bench === null ? "   (pgbench not installed)" : `   pgbench ${Math.round(bench).toLocaleString("en")} tx/s`}   (${at})`);
      }
    }

    if (PARTS.has("concurrent")) {
      for (const n of CONCURRENT) {
        log(`Faultline: ${n} concurrent mission(s) of ${SHORT} no-op steps …`);
        let done = 0;
        const t0 = performance.now();
        const round = () => Promise.all(Array.from({ length: n }, () => runOne(db, SHORT, workspaces).then(() => progress(`${n} missions`, ++done, n))));
        await (CPU_PROFILE && n === 8 ? profiled(CPU_PROFILE, round) : round());
        const sps = (n * SHORT) / ((performance.now() - t0) / 1000);
        lines.push(`  Faultline, ${String(n).padStart(2)} mission(s) × ${SHORT} steps ${Math.round(sps).toLocaleString("en").padStart(7)} steps/s${Number.isFinite(limit8) ? `   ${((100 * sps) / limit8).toFixed(0)}% of the 8-writer limit` : ""}   (${load()})`);
      }
    }

    if (PARTS.has("scaling")) {
      // CPU per step of each short mission (worker + PostgreSQL, ms): unlike steps/s, not moved by other load on the machine.
      const shortCpu: number[] = [];
      const rate = async (steps: number) => {
        log(`Faultline: one mission of ${steps.toLocaleString("en")} no-op steps …`);
        const meter = cpuMeter(db);
        const { seconds } = await runMissionOf(db, steps, workspaces, (id) => meter.start(id)).finally(() => meter.stop());
        const cpu = meter.total();
        shortCpu.push((1000 * (cpu.worker + (cpu.pg ?? 0))) / steps);
        return steps / seconds;
      };
      // The short mission runs five times around the long one (median): a short run is a burst of a second or two, easily moved by other load.
      const shorts = [await rate(SHORT), await rate(SHORT), await rate(SHORT)];
      log(`Faultline: one mission of ${LONG.toLocaleString("en")} no-op steps …`);
      const meter = cpuMeter(db);
      const longRun = () => runMissionOf(db, LONG, workspaces, (id) => meter.start(id)).finally(() => meter.stop());
      const longMission = await (CPU_PROFILE ? profiled(CPU_PROFILE.replace(/(\.cpuprofile)?$/, "-long.cpuprofile"), longRun) : longRun());
      const long = LONG / longMission.seconds;
      const windows = LONG >= 2_000 ? await windowRates(db, longMission.id, 1_000) : null;
      // CPU per event over the first and last tenth of the long mission's events (a step is about two events).
      const cpu = [meter.perEvent(0, 0.1), meter.perEvent(0.9, 1)];
      shorts.push(await rate(SHORT), await rate(SHORT));
      const short = [...shorts].sort((a, b) => a - b)[2];
      // The five together (their steps over their time), the long mission's own kind of figure: under load that comes and
      // goes, the median of five short bursts sits above it (slow moments weigh by their time in a long run, not by their count).
      const pooled = (5 * SHORT) / shorts.reduce((t, r) => t + SHORT / r, 0);
      lines.push(`  one mission of ${SHORT} steps             ${short.toFixed(1).padStart(7)} steps/s   (median of 5: ${shorts.map((x) => x.toFixed(0)).join(", ")}; all 5 together ${pooled.toFixed(1)})   (${load()})`);
      const ms = (x: number | null | undefined) => (x == null ? "?" : x.toFixed(3));
      lines.push(`  one mission of ${LONG.toLocaleString("en")} steps ${long.toFixed(1).padStart(7 + Math.max(0, 10 - LONG.toLocaleString("en").length))} steps/s   ratio ${(long / short).toFixed(2)} (target ≥ 0.9; ${(long / pooled).toFixed(2)} to all 5 together)${windows ? `   first 1,000 steps ${windows.first.toFixed(1)}, last 1,000 ${windows.last.toFixed(1)} steps/s` : ""}   (${load()})`);
      const longCpu = meter.total();
      const perStep = (1000 * (longCpu.worker + (longCpu.pg ?? 0))) / LONG;
      const shortPerStep = [...shortCpu].sort((a, b) => a - b)[2];
      lines.push(`  CPU per step (worker${longCpu.pg === null ? "" : " + PostgreSQL"})        ${SHORT} steps ${shortPerStep.toFixed(2)} ms (median of 5), ${LONG.toLocaleString("en")} steps ${perStep.toFixed(2)} ms: ratio ${(shortPerStep / perStep).toFixed(2)}, not moved by the machine's load`);
      if (cpu[0] && cpu[1]) lines.push(`  CPU per event of the ${LONG.toLocaleString("en")}-step mission, first → last tenth of its events: worker ${ms(cpu[0].worker)} → ${ms(cpu[1].worker)} ms, PostgreSQL ${ms(cpu[0].pg)} → ${ms(cpu[1].pg)} ms`);
    }

    console.log(`\nThroughput benchmark (${new Date().toISOString()}, PostgreSQL ${url.replace(/\/\/[^@]*@/, "//")}, ${os.cpus().length} cores; ${loadAverage()} at the end, ${startLoad} at the start)`);
    for (const l of lines) console.log(l);
  }).finally(() => fs.rmSync(workspaces, { recursive: true, force: true }));
}

await main();
process.exit(0);
