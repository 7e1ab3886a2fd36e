/**
 * Failure history benchmark (issue 6): `npm run bench:history`.
 *
 * Creates a dedicated database (embedded under .data-test, or DATABASE_URL's server), generates
 * 1,000,000 attributed failures (20,000 missions of 12 definitions, 40 people, 8 workers, the starter
 * library's entries as failure modes; times over 90 days; ~10% unresolved) with set-based SQL in chunks of
 * 200,000 with the table's secondary indexes dropped, then builds them partition by partition and VACUUM
 * ANALYZEs each partition (one progress line per chunk),
 * then times the page query (100 rows, the same code as the console and the REST API) for realistic
 * filter combinations, 50 runs each (after one warm-up), printing p50 / p99 (target p99 ≤ 100 ms),
 * plus the capped count and the chart aggregates, and the throughput of a full CSV export of every row
 * through the export generator and the streamed response (rows/s, MB/s, peak RSS).
 *
 * Options: `--rows N` (default 1,000,000), `--until TIME` (stop generating at TIME — ISO, or HH:MM UTC — and time the
 * rows generated so far), `--runs N` (default 50), `--explain` (print each query's plan),
 * `--no-export`, `--no-charts` (skip the chart aggregates), `--keep` (leave the database for EXPLAIN sessions; its name is printed), `--reuse NAME` (time the
 * queries again on a kept database, generating nothing), `--resume NAME` (finish a kept database whose load was
 * stopped, with the --rows of its run: load from the rows it has, build the indexes dropped for the load, VACUUM, time).
 *
 * Run it as it is (`npm run bench:history`), not under flock: every chunk of the load, every partition's index and
 * the timed part each take /tmp/faultline-heavy.lock on their own, so other heavy runs interleave between chunks
 * (under `flock /tmp/faultline-heavy.lock npm run …` it sees the lock held and holds it throughout).
 */
import { buildIndexesByPartition, droppedIndexes, dropIndexesForLoad, inChunks, untilOption, loadAverage, partitionSummary, percentile, timeListAndCount, vacuumByPartition, withBenchDatabase, withHeavyLock } from "./util";
import { benchArgs } from "./args";
import { ensurePartitions, estimatedRows, listPartitions } from "../db/partitions";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { createDb } from "../db/client";
import { countFailureHistory, encodeCursor, EXPORT_COLUMNS, exportFailureHistory, failureHistoryStats, historyWhere, listFailureHistory } from "../db/queries/failure-history";
import { loadStarterLibrary } from "../db/queries/library";
import { starterLibrary } from "../db/seed";
import { historyFiltersSchema, type HistoryFilters } from "../lib/history/filters";
// The missions carry the current snapshot version: without it every migration run (--reuse) would try to rebuild each of them from events they do not have.
import { STATE_VERSION } from "../lib/mission";
import { exportResponse } from "../server/export-stream";

const args = benchArgs("bench:history", { rows: { type: "string" }, runs: { type: "string" }, explain: { type: "boolean" }, "no-export": { type: "boolean" }, "no-charts": { type: "boolean" }, keep: { type: "boolean" }, reuse: { type: "string" }, until: { type: "string" }, resume: { type: "string" } });
const UNTIL = untilOption(args.until);
const ROWS = Number(args.rows ?? 1_000_000);
/** Rows generated: ROWS, or fewer when --until stopped the load. */
let generated = ROWS;
const RUNS = Number(args.runs ?? 50);
const MISSIONS = Math.max(10, Math.round(ROWS / 50));

const ms = (x: number) => x.toFixed(1).padStart(8);

const DEFINITIONS = ["payments nightly", "image build", "docs deploy", "data backfill", "fleet upgrade", "search reindex", "billing export", "model eval", "mobile release", "infra audit", "log rotation", "cert renewal"];

async function main() {
  await withBenchDatabase("history", { max: 6, keep: !!args.keep, reuse: args.reuse ?? args.resume }, async (db, url) => {
    if (args.resume) {
      const t0 = performance.now();
      await generate(db, true);
      console.log(`Generated up to ${generated.toLocaleString("en")} failures in ${((performance.now() - t0) / 1000).toFixed(1)} s (resumed; ANALYZE included).`);
    } else if (!args.reuse) {
      await loadStarterLibrary(db, starterLibrary(), "system:bench");
      const t0 = performance.now();
      // The months the failures span exist as partitions (migration 0028), as they do for a history written for 90 days.
      await ensurePartitions(db, { from: new Date(Date.now() - 91 * 86_400_000).toISOString(), tables: ["failure_audit"] });
      await generate(db);
      console.log(`Generated ${generated.toLocaleString("en")} failures over ${MISSIONS.toLocaleString("en")} missions in ${((performance.now() - t0) / 1000).toFixed(1)} s (ANALYZE included).`);
    } else console.log(`Reusing ${args.reuse} (generating nothing).`);
    // Only the timed part holds the heavy lock from start to end (figures taken while no other heavy run competes).
    await withHeavyLock("timing", async () => {
      // Reusing a kept database: its own row count (the planner's estimate), not --rows.
      const rowCount = args.reuse && !args.resume ? Math.round(await estimatedRows(db, "failure_audit")) : generated;
      const size = (await db.execute(sql`select pg_size_pretty(sum(pg_total_relation_size(inhrelid))) as s from pg_inherits where inhparent = 'failure_audit'::regclass`))[0] as { s: string };
      console.log(partitionSummary(await listPartitions(db), "failure_audit"));
      console.log(`failure_audit with its indexes: ${size.s}.  (${loadAverage()})\n`);

      const pick = async (q: string) => ((await db.execute(sql.raw(q)))[0] as { v: string }).v;
      const mission = await pick(`select mission_id::text as v from failure_audit group by 1 order by count(*) desc limit 1`);
      const decider = await pick(`select decided_by as v from failure_audit where decided_by like 'user:%' group by 1 order by count(*) limit 1`);
      const mode = await pick(`select failure_mode as v from failure_audit where failure_mode is not null group by 1 order by count(*) desc limit 1`);
      const deep = (await db.execute(sql`select to_json("timestamp")#>>'{}' as time, id from failure_audit order by "timestamp" desc, id desc offset ${Math.floor(rowCount / 2)} limit 1`))[0] as { time: string; id: string };

      const F = (f: Partial<HistoryFilters>) => historyFiltersSchema.parse(f);
      const cases: Array<{ name: string; filters: HistoryFilters; cursor?: string }> = [
        { name: "no filter (newest first)", filters: F({}) },
        { name: "unresolved", filters: F({ status: "unresolved" }) },
        { name: "rate-limited, last hour", filters: F({ type: "rate_limited", from: "1h" }) },
        { name: "one mission", filters: F({ mission }) },
        { name: "definition + level (phase)", filters: F({ definition: "data backfill", level: "phase" }) },
        { name: "definition + level + 7 days", filters: F({ definition: "image build", level: "agent", from: "7d" }) },
        { name: "full text: \"quota\"", filters: F({ q: "quota" }) },
        { name: "full text: \"connection refused\"", filters: F({ q: "connection refused" }) },
        { name: "full text + unresolved", filters: F({ q: "timeout", status: "unresolved" }) },
        { name: "rarer full text + unresolved", filters: F({ q: "segmentation fault", status: "unresolved" }) },
        { name: "full text, no match", filters: F({ q: "kraken" }) },
        { name: "decided by one person", filters: F({ decidedBy: decider }) },
        { name: "failure mode", filters: F({ mode }) },
        { name: "severity critical, 24 h", filters: F({ severity: "critical", from: "24h" }) },
        { name: "sorted by time to resolution", filters: F({ sort: "resolution", dir: "desc" }) },
        { name: "time to resolution, fastest", filters: F({ sort: "resolution", dir: "asc", status: "resolved" }) },
        { name: `deep keyset page (row ${Math.floor(rowCount / 2).toLocaleString("en")})`, filters: F({}), cursor: encodeCursor("time", { id: deep.id, time: deep.time, resolutionMs: null }) },
      ];

      console.log(`Page query (100 rows), count (exact up to 10,000; with full text up to 1,000, or at least what it found in 80 ms) — ${RUNS} runs each after one warm-up, milliseconds:`);
      const p99 = await timeListAndCount(cases, RUNS, {
        before: async (c) => (args.explain ? explain(db, c.filters) : undefined),
        page: async (c) => ({ rows: (await listFailureHistory(db, { filters: c.filters, cursor: c.cursor, limit: 100 })).rows.length }),
        count: (c) => countFailureHistory(db, c.filters),
      });
      console.log(`Worst page p99: ${Math.max(...p99.page).toFixed(1)} ms (target ≤ 100 ms).  (${loadAverage()})\n`);

      if (!args["no-charts"]) {
        console.log("Chart aggregates (the four charts of a view, in parallel), 5 runs each, milliseconds:");
        for (const c of cases.filter((x) => ["no filter (newest first)", "rate-limited, last hour", "one mission", "definition + level (phase)", "sorted by time to resolution"].includes(x.name))) {
          const t: number[] = [];
          for (let i = 0; i < 5; i++) {
            const s = performance.now();
            await failureHistoryStats(db, c.filters);
            t.push(performance.now() - s);
          }
          console.log(`${c.name.padEnd(40)} p50 ${ms(percentile(t, 50))}  max ${ms(Math.max(...t))}`);
        }
      }

      if (!args["no-export"]) {
        console.log("\nFull CSV export of every failure (export generator → streamed response, read to the end):");
        const rssBefore = process.memoryUsage().rss;
        let peak = rssBefore;
        const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
        const s = performance.now();
        let rows = 0;
        async function* counted() {
          for await (const r of exportFailureHistory(db, F({}))) {
            rows++;
            yield r;
          }
        }
        const res = await exportResponse(counted(), { filename: "failures.csv", format: "csv", columns: EXPORT_COLUMNS });
        let bytes = 0;
        const reader = res.body!.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          bytes += value.byteLength;
        }
        clearInterval(timer);
        peak = Math.max(peak, process.memoryUsage().rss);
        const secs = (performance.now() - s) / 1000;
        console.log(`${rows.toLocaleString("en")} rows, ${(bytes / 1e6).toFixed(0)} MB in ${secs.toFixed(1)} s: ${Math.round(rows / secs).toLocaleString("en")} rows/s, ${(bytes / 1e6 / secs).toFixed(1)} MB/s; RSS ${(rssBefore / 1e6).toFixed(0)} MB before, peak ${(peak / 1e6).toFixed(0)} MB.  (${loadAverage()})`);
      }
      if (args.keep || args.reuse || args.resume) console.log(`\nDatabase kept: ${url.replace(/\/\/[^@]*@/, "//")} (npm run bench:history -- --reuse ${new URL(url).pathname.slice(1)})`);
    });
  });
}

async function explain(db: ReturnType<typeof createDb>["db"], f: HistoryFilters) {
  const order = f.sort === "time" ? sql.raw(`f."timestamp" ${f.dir}, f.id ${f.dir}`) : sql.raw(`coalesce(f."resolution_ms", 9223372036854775807) ${f.dir}, f.id ${f.dir}`);
  const r = await db.execute(sql`explain (analyze, buffers off, costs off) select f.id from failure_audit f where ${historyWhere(f)} order by ${order} limit 101`);
  console.log((r as unknown as Array<{ "QUERY PLAN": string }>).map((x) => `    ${x["QUERY PLAN"]}`).join("\n"));
}

/** Set-based generation: actors, missions, then failures in batches of 200,000 (generate_series). */
async function generate(db: ReturnType<typeof createDb>["db"], resume = false) {
  // Resuming a kept database whose load stopped: its actors, missions and helper tables are there; the load goes on.
  if (!resume) await db.execute(sql`insert into actors (id, kind, display_name)
    select 'user:bench-' || i, 'user', (array['Ana','Ben','Chen','Dana','Emeka','Farah','Gus','Hana','Ivo','Jun'])[1 + i % 10] || ' ' || (array['Okafor','Silva','Novak','Kim','Berg'])[1 + i % 5] || ' ' || i from generate_series(1, 40) i
    union all select 'worker:bench-' || i || ':' || (1000 + i), 'worker', 'worker bench-' || i from generate_series(1, 8) i
    union all select 'cli:bench', 'cli', 'bench (CLI)'`);
  if (!resume) await db.execute(sql`insert into missions (id, name, definition, phase, run_state, progress, last_seq, state, created_by, created_at, updated_at, final_status)
    select gen_random_uuid(), (array[${sql.join(DEFINITIONS.map((d) => sql`${d}`), sql`, `)}])[1 + i % ${DEFINITIONS.length}], '{}'::jsonb, 'MISSION_COMPLETED', 'completed', 1, 100, jsonb_build_object('version', ${STATE_VERSION}::int),
      'user:bench-' || (1 + i % 40), now() - (i::float / ${MISSIONS}) * interval '90 days', now(), 'PARTIAL_SUCCESS'
    from generate_series(1, ${MISSIONS}) i`);
  // Plain tables, not temporary: the pool's chunks may run on any of its connections.
  if (!resume) {
    await db.execute(sql`create unlogged table bench_missions as select row_number() over (order by created_at) as n, id, name, created_by, created_at from missions`);
    await db.execute(sql`create unique index on bench_missions (n)`);
    await db.execute(sql`create unlogged table bench_modes as select row_number() over (order by failure_id) as n, failure_id from library_entries`);
  }
  // The helper tables are dropped once the load is complete: a database resumed after that only builds its indexes.
  const loaded = resume && !(await db.execute(sql`select to_regclass('bench_missions') is not null as ok`))[0]?.ok;
  const modes = loaded ? 0 : Number(((await db.execute(sql`select count(*)::int as n from bench_modes`))[0] as { n: number }).n);
  const missionCount = loaded ? MISSIONS : Number(((await db.execute(sql`select count(*)::int as n from bench_missions`))[0] as { n: number }).n);
  if (missionCount !== MISSIONS) throw new Error(`bench:history --resume: the kept database has ${missionCount} missions, --rows ${ROWS} makes ${MISSIONS}: pass the --rows of the run that kept it.`);
  // The bench owns this table: its secondary indexes are built after the load, partition by partition; each chunk
  // of 200,000 rows holds the heavy lock on its own.
  const indexes = resume ? await droppedIndexes(db, "failure_audit") : await dropIndexesForLoad(db, "failure_audit");
  const begun = resume ? Number(((await db.execute(sql`select count(*)::bigint as n from failure_audit`))[0] as { n: string }).n) : 0;
  if (loaded && begun < ROWS) throw new Error(`bench:history --resume: the load of this database ended at ${begun} rows (its helper tables are gone); pass its --rows, ${begun}.`);
  if (resume) console.log(`Resuming: ${begun.toLocaleString("en")} failures there, ${indexes.length} indexes to build.`);
  generated = await inChunks("failures", ROWS, 200_000, async (from, n) => {
    const start = from + 1;
    const end = from + n;
    await db.execute(sql`
      with g as (
        select i, random() as r1, random() as r2, random() as r3, random() as r4, random() as r5, random() as r6 from generate_series(${start}::bigint, ${end}::bigint) i
      ), a as (
        select g.*, m.id as mission_id, m.name as definition, m.created_by,
          -- failures cluster around their mission's time (missions span 90 days)
          least(now(), m.created_at + r6 * interval '6 hours') as at,
          case when r1 < 0.85 then 'agent' when r1 < 0.92 then 'infrastructure' when r1 < 0.97 then 'phase' else 'client' end as level
        from g join bench_missions m on m.n = 1 + (g.i * 7919) % ${MISSIONS}
      ), b as (
        select a.*,
          case level
            when 'agent' then (array['exit_nonzero','exit_nonzero','exit_nonzero','timeout','timeout','rate_limited','rate_limited','http_error','connection_refused','network_error','command_not_found','permission_denied','not_found','validation_failed','output_too_large','exit_nonzero','timeout','http_error','exit_nonzero','killed'])[1 + floor(r2 * 20)::int]
            when 'infrastructure' then case when r2 < 0.6 then 'interrupted' else 'infrastructure_outage' end
            when 'phase' then case when r2 < 0.5 then 'phase_timeout' else 'phase_agents_failed' end
            else 'operator_disconnected' end as error_type,
          (array['CONTEXT_ENRICHMENT','PLANNING','RESEARCH','DESIGN','EXECUTION','EXECUTION','EXECUTION','REVIEW'])[1 + floor(r3 * 8)::int] as phase,
          r4 < 0.10 as open
        from a
      )
      insert into failure_audit (mission_id, seq, "timestamp", level, severity, what, why, context, agent, definition, phase, step, attempt, error_type, actor_id, started_by,
        root_cause, failure_mode, failure_mode_confirmed, decided_by, resolution_action, resolution_ms, resolved_at, resolution)
      select mission_id, 10 + i % 90, at, level,
        case when level = 'infrastructure' or r5 < 0.2 then 'critical' when r5 < 0.75 then 'error' else 'warning' end,
        case level when 'agent' then 'Step ' || (1 + i % 4) || ' of agent "agent-' || (i % 7) || '" failed with ' || upper(error_type) || ' on attempt ' || (1 + i % 3) || '.'
          when 'phase' then 'Phase ' || phase || ' failed (' || replace(error_type, 'phase_', '') || ').'
          when 'client' then 'Operator disconnected, mission paused.'
          else case when error_type = 'interrupted' then 'The worker running step 2 stopped before recording its result.' else 'Infrastructure failure, mission paused.' end end,
        case error_type
          when 'rate_limited' then 'api.example.com was rate limited (429); the server asks to retry in ' || (1 + i % 60) || ' s.'
          when 'timeout' then 'The command exceeded its time limit of ' || (30 + i % 300) || ' s.'
          when 'connection_refused' then 'Connection refused by db-' || (i % 9) || '.internal:5432.'
          when 'network_error' then 'getaddrinfo ENOTFOUND registry-' || (i % 5) || '.example.org'
          when 'command_not_found' then (array['jq','terraform','pnpm','kubectl'])[1 + i % 4] || ': command not found'
          when 'permission_denied' then 'EACCES: permission denied, open /srv/data/' || (i % 50) || '.lock'
          when 'exit_nonzero' then (array['npm ERR! code ELIFECYCLE','disk quota exceeded while writing artefacts','3 tests failed','fatal: could not read from remote repository','segmentation fault in worker thread'])[1 + i % 5]
          when 'http_error' then 'HTTP ' || (array['500','502','503','404'])[1 + i % 4] || ' from the upstream service'
          else 'See the event log.' end,
        '{}'::jsonb, case when level in ('agent','infrastructure') then 'agent-' || (i % 7) end, definition, phase,
        i % 4, 1 + i % 3, error_type, 'worker:bench-' || (1 + i % 8) || ':' || (1001 + i % 8), created_by,
        case when level = 'agent' and r3 < 0.7 then (array['The upstream API throttles bursts above its quota','A dependency is missing from the image','The volume ran out of space','Credentials expired during the run','The remote host was unreachable from the worker network'])[1 + i % 5] end,
        case when level = 'agent' and r4 > 0.55 then (select array_agg(failure_id order by n) from bench_modes)[1 + (i * 31) % ${modes}] end,
        level = 'agent' and r4 > 0.85,
        case when open then null when r5 < 0.55 then 'user:bench-' || (1 + (i * 13) % 40) end,
        case when open then null when r5 < 0.30 then 'retry' when r5 < 0.45 then 'skip' when r5 < 0.55 then 'abort' when r5 < 0.65 then 'recovered' when r5 < 0.72 then 'library_resolution:FM' when r5 < 0.85 then 'continue' else 'resume' end,
        case when open then null else floor(exp(r2 * 14))::bigint end,
        case when open then null else at + floor(exp(r2 * 14)) * interval '1 millisecond' end,
        case when open then null else jsonb_build_object('action', 'bench') end
      from b`);
  }, UNTIL, Math.min(begun, ROWS));
  await db.execute(sql`drop table if exists bench_missions, bench_modes`);
  await buildIndexesByPartition(db, "failure_audit", indexes);
  await vacuumByPartition(db, "failure_audit");
  await db.execute(sql`analyze missions`);
  await db.execute(sql`analyze actors`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
