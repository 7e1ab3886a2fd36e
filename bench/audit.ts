/**
 * Audit log benchmark (issue 19): `npm run bench:audit`. Prints figures; it is not a timed test.
 *
 * Creates a dedicated database (embedded under .data-test, or DATABASE_URL's server), generates
 * --rows audit rows (default 10,000,000) with set-based SQL — 40 people, 8 workers, the CLI and the
 * system; every action of lib/audit with a realistic mix (gate decisions and mission starts common,
 * admin changes rare, 3% refused); 20,000 missions; times over 180 days — in chunks of 250,000 rows with the
 * table's secondary indexes dropped, then builds them partition by partition and VACUUM ANALYZEs each partition
 * (as autovacuum leaves a long-lived table), one progress line per chunk, then times the console's and the REST API's own queries (`listAuditLog`, 100 rows;
 * `countAuditLog`, exact up to 10,000) for realistic filter combinations, --runs runs each after one
 * warm-up, printing p50 / p99 (target p99 ≤ 100 ms).
 *
 * Rows are stored in time order, as an append-only log is written (a day's rows on a few neighbouring pages): row i
 * is (i - 1 + random) / rows of 180 days before now, inserted in the order of i — newest first, so a load stopped by
 * --until holds the newest days, as the timed filters ("last 24 h") expect; within a month the order runs against
 * time, which no query depends on (pages are read through the (at, id) index, words in day slices).
 *
 * Options: `--rows N`, `--until TIME` (stop generating at TIME — ISO, or HH:MM UTC — and time the rows generated so
 * far), `--runs N` (default 30), `--keep` (leave the database; its name is printed), `--reuse NAME`
 * (time the queries again on a kept database, generating nothing), `--resume NAME` (finish a kept database whose load
 * was stopped: load from the rows it has up to --rows, build the indexes dropped for the load, VACUUM, then time),
 * `--random-order` (the worst case: each row's time drawn at random over the 180 days, so a day's rows are spread
 * over every page of its month; with --resume, as the run it resumes), `--cluster` (with --reuse: re-order a kept
 * database in place, CLUSTER of each partition on its time index, then VACUUM ANALYZE — a database generated in random
 * order becomes as one written in time order, without generating it again).
 *
 * Run it as it is (`npm run bench:audit`), not under flock: every chunk of the load, every partition's index and the
 * whole timed part each take /tmp/faultline-heavy.lock on their own, so other heavy runs interleave between chunks
 * (under `flock /tmp/faultline-heavy.lock npm run …` it sees the lock held and holds it throughout).
 */
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { countAuditLog, encodeAuditCursor, listAuditLog } from "../db/queries/audit-log";
import { AUDIT_ACTIONS } from "../lib/audit";
import { auditFiltersSchema, type AuditFilters } from "../lib/audit/filters";
import { ensurePartitions, estimatedRows, listPartitions } from "../db/partitions";
import { buildIndexesByPartition, chunkProgress, droppedIndexes, dropIndexesForLoad, inChunks, inTurns, untilOption, loadAverage, partitionSummary, timeListAndCount, vacuumByPartition, withBenchDatabase, withHeavyLock } from "./util";
import { benchArgs } from "./args";

const args = benchArgs("bench:audit", { rows: { type: "string" }, runs: { type: "string" }, keep: { type: "boolean" }, reuse: { type: "string" }, until: { type: "string" }, resume: { type: "string" }, "random-order": { type: "boolean" }, cluster: { type: "boolean" } });
if (args.cluster && !args.reuse) {
  console.error("bench:audit: --cluster re-orders a kept database in place: pass it with --reuse NAME (a new load is generated in time order already; --random-order for the worst case).");
  process.exit(2);
}
const UNTIL = untilOption(args.until);
const ROWS = Number(args.rows ?? 10_000_000);
/** Rows generated: ROWS, or fewer when --until stopped the load. */
let generated = ROWS;
const RUNS = Number(args.runs ?? 30);
/** --random-order: each row's time at random over the 180 days (the worst case), not in the order of the rows. */
const RANDOM_ORDER = !!args["random-order"];
/** Rows per chunk: each chunk holds the heavy lock on its own (a few seconds), so other heavy runs interleave. */
const BATCH = 250_000;


async function main() {
  await withBenchDatabase("audit", { max: 4, keep: !!args.keep, reuse: args.reuse ?? args.resume }, async (db, url) => {
    if (args.resume) await generate(db, true);
    else if (!args.reuse) await generate(db);
    else {
      if (args.cluster) await clusterByTime(db);
      console.log(`Reusing ${args.reuse}: ${partitionSummary(await listPartitions(db), "audit_log")}.  (${loadAverage()})\n`);
    }
    // Only the timed part holds the heavy lock from start to end (figures taken while no other heavy run competes).
    await withHeavyLock("timing", () => timeQueries(db, url));
  });
}

/** Generates the rows; `resume`: on a kept database whose load was stopped, goes on from the rows it has. */
async function generate(db: Db, resume = false) {
  const actions: readonly string[] = AUDIT_ACTIONS;
  // Frequent actions first: the i-th of n is chosen with weight ~ 1/(i+1) (a few actions make most of a real log).
  const actionList = sql.raw(`array[${actions.map((a) => `'${a}'`).join(",")}]`);
  const t0 = performance.now();
  // The months the rows span exist as partitions (migration 0028), as they do for a log that has been written for 180 days.
  await ensurePartitions(db, { from: new Date(Date.now() - 181 * 86_400_000).toISOString(), tables: ["audit_log"] });
  // The bench owns this table: its secondary indexes are built after the load, partition by partition.
  const indexes = resume ? await droppedIndexes(db, "audit_log") : await dropIndexesForLoad(db, "audit_log");
  const start = resume ? Number(((await db.execute(sql`select count(*)::bigint as n from audit_log`))[0] as { n: string }).n) : 0;
  if (resume) console.log(`Resuming: ${start.toLocaleString("en")} rows there, ${indexes.length} indexes to build.`);
  generated = await inChunks("audit rows", ROWS, BATCH, async (from, n) => {
    await db.execute(sql`
      insert into audit_log (at, actor_id, actor_name, action, outcome, target_type, target_id, mission_id, summary, via, ip, user_agent)
      select
        now() - (${RANDOM_ORDER ? sql`r.age` : sql`(r.i - 1 + r.age) / ${ROWS}::float8`} * interval '180 days'),
        case when r.who < 0.80 then 'user:00000000-0000-4000-8000-' || lpad((r.i % 40)::text, 12, '0')
             when r.who < 0.92 then 'worker:vm:' || (r.i % 8)
             when r.who < 0.97 then 'cli:ops' else 'system' end,
        case when r.who < 0.80 then 'Person ' || (r.i % 40) when r.who < 0.92 then 'Worker ' || (r.i % 8) when r.who < 0.97 then 'CLI (ops)' else 'Faultline' end,
        a.action,
        case when r.refused < 0.03 then 'refused' else 'ok' end,
        split_part(a.action, '.', 1),
        'target-' || (r.i % 50000),
        case when a.action like 'mission.%' or a.action like 'gate.%' then ('00000000-0000-4000-a000-' || lpad((r.i % 20000)::text, 12, '0'))::uuid end,
        initcap(split_part(a.action, '.', 2)) || ' of target-' || (r.i % 50000) || case when r.i % 97 = 0 then ': quota exceeded on the payments API' when r.i % 89 = 0 then ': connection refused by the staging database' else '' end,
        (array['web','api','cli','worker','system'])[1 + (r.i % 5)],
        '10.0.' || (r.i % 250) || '.' || (r.i % 200),
        'Mozilla/5.0 (bench)'
      from (select i, random() as age, random() as who, random() as refused, random() as pick from generate_series(${from + 1}::int, ${from + n}::int) i) r
      cross join lateral (select (${actionList})[1 + least(floor(exp(r.pick * ln(${actions.length + 1}::float8)) - 1)::int, ${actions.length - 1}::int)] as action) a
      order by r.i`);
  }, UNTIL, Math.min(start, ROWS));
  await buildIndexesByPartition(db, "audit_log", indexes);
  // A long-lived table is vacuumed by autovacuum: its pages are all-visible, so counts may read indexes only.
  await vacuumByPartition(db, "audit_log");
  const size = (await db.execute(sql`select pg_size_pretty(sum(pg_total_relation_size(inhrelid))) as s from pg_inherits where inhparent = 'audit_log'::regclass`))[0] as { s: string };
  console.log(partitionSummary(await listPartitions(db), "audit_log"));
  console.log(`${resume ? "Finished the load (resumed) up to" : "Generated"} ${generated.toLocaleString("en")} audit rows in ${((performance.now() - t0) / 1000).toFixed(1)} s (${resume ? "this run's part, " : ""}VACUUM ANALYZE included); audit_log with its indexes: ${size.s}.  (${loadAverage()})\n`);
}

/**
 * Re-orders a kept database in place as a log written in time order: CLUSTER of each partition with rows on its own
 * index of audit_log_at (each under the heavy lock; the partition is rewritten and its indexes rebuilt; CLUSTER fires
 * no row trigger, so the append-only triggers do not refuse it), then VACUUM ANALYZE (a rewritten heap has no
 * visibility map: counts could not read indexes only).
 */
async function clusterByTime(db: Db) {
  const parts = (await db.execute(sql`select t.relname as part, c.relname as ix from pg_inherits i join pg_class c on c.oid = i.inhrelid
    join pg_index x on x.indexrelid = c.oid join pg_class t on t.oid = x.indrelid
    where i.inhparent = 'audit_log_at'::regclass and t.reltuples > 0 order by t.relname`)) as unknown as Array<{ part: string; ix: string }>;
  if (parts.length === 0) throw new Error("bench:audit --cluster: no partition of audit_log has rows and an index of audit_log_at (is the index built? finish the load with --resume first).");
  const t0 = performance.now();
  await inTurns("cluster audit_log", parts.length, async (i) => {
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
      await tx.execute(sql.raw(`cluster "${parts[i].part}" using "${parts[i].ix}"`));
    });
  }, (n, heldMs) => chunkProgress("cluster audit_log", n, parts.length, t0, heldMs));
  await vacuumByPartition(db, "audit_log");
  console.log(`Clustered ${parts.length} partitions on their time index in ${((performance.now() - t0) / 1000).toFixed(1)} s (VACUUM ANALYZE included).  (${loadAverage()})`);
}

async function timeQueries(db: Db, url: string) {
  // Reusing a kept database: its own row count (the planner's estimate), not --rows.
  const rowCount = args.reuse ? Math.round(await estimatedRows(db, "audit_log")) : generated;

  const pick = async (q: string) => ((await db.execute(sql.raw(q)))[0] as { v: string }).v;
  const mission = await pick(`select mission_id::text as v from audit_log where mission_id is not null limit 1`);
  const rare = await pick(`select action as v from audit_log group by 1 order by count(*) limit 1`);
  const deep = (await db.execute(sql`select to_json(at)#>>'{}' as at, id from audit_log order by at desc, id desc offset ${Math.floor(rowCount / 2)} limit 1`))[0] as { at: string; id: number };

  const F = (f: Record<string, string>) => auditFiltersSchema.parse(f);
  const cases: Array<{ name: string; filters: AuditFilters; cursor?: string }> = [
    { name: "no filter (newest first)", filters: F({}) },
    { name: "one person (actor id)", filters: F({ actor: "user:00000000-0000-4000-8000-000000000007" }) },
    { name: "actor by name part", filters: F({ actor: "Person 13" }) },
    { name: "action group gate.*", filters: F({ action: "gate.*" }) },
    { name: `rare action (${rare})`, filters: F({ action: rare }) },
    { name: "refused, last 24 h", filters: F({ outcome: "refused", from: "24h" }) },
    { name: "one mission", filters: F({ mission }) },
    { name: "via cli + refused", filters: F({ via: "cli", outcome: "refused" }) },
    { name: "target", filters: F({ targetType: "gate", targetId: "target-4242" }) },
    { name: "words: \"quota exceeded\"", filters: F({ q: "quota exceeded" }) },
    { name: "words + action group", filters: F({ q: "connection refused", action: "mission.*" }) },
    { name: "7 days, one person", filters: F({ actor: "user:00000000-0000-4000-8000-000000000021", from: "7d" }) },
    { name: `deep keyset page (row ${Math.floor(rowCount / 2).toLocaleString("en")})`, filters: F({}), cursor: encodeAuditCursor({ at: deep.at, id: Number(deep.id) }) },
  ];

  console.log(`Page query (100 rows), count (exact up to 10,000; with words up to 1,000, or at least what it found in 80 ms) — ${RUNS} runs each after one warm-up, milliseconds:`);
  const p99 = await timeListAndCount(cases, RUNS, {
    page: async (c) => ({ rows: (await listAuditLog(db, c.filters, { cursor: c.cursor, limit: 100 })).entries.length }),
    count: (c) => countAuditLog(db, c.filters),
  });
  console.log(`Worst p99 (page or count): ${Math.max(...p99.page, ...p99.count).toFixed(1)} ms (target ≤ 100 ms).  (${loadAverage()})`);
  if (args.keep || args.reuse || args.resume) console.log(`\nDatabase kept: ${url.replace(/\/\/[^@]*@/, "//")} (npm run bench:audit -- --reuse ${new URL(url).pathname.slice(1)})`);
}

await main();
