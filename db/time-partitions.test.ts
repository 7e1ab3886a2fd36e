import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { createDb, queryRows, withConnection, withDatabaseName, type DbHandle, type Executor } from "./client";
import { MIGRATIONS_DIR, runMigrations } from "./migrate";
import { ensurePartitions, listPartitions, PARTITION_MONTHS_AHEAD, PARTITIONED_TABLES, searchSlices, timeWindows } from "./partitions";
import { countAuditLog, listAuditLog } from "./queries/audit-log";
import { eventsAfterQuery, listEventsAfter } from "./queries/events";
import { snapshotTailQuery } from "./queries/mission-state";
import { missions } from "./schema";
import { dbError } from "./test-helpers";

/**
 * Issue 19, migration 0028: the event log, the audit log and the failure history become monthly range
 * partitions. A database at 0027 with rows in several months is migrated; every row, key, index, foreign key and
 * trigger must be there afterwards, the append-only rules must hold on every partition, and a row that landed
 * in the default partition moves into its month when the month is created.
 */
const base = () => inject("databaseUrl");
const name = `t_partitions_${process.pid}_${Date.now().toString(36)}`;
let handle: DbHandle;
let before: Catalog;

interface Catalog {
  indexes: string[];
  triggers: string[];
  constraints: string[];
}

async function catalog(db: Executor): Promise<Catalog> {
  const tables = sql.raw(`('events', 'audit_log', 'failure_audit')`);
  const names = async (q: ReturnType<typeof sql>) => (await queryRows<{ n: string }>(db, q)).map((r) => r.n).sort();
  return {
    indexes: await names(sql`select i.relname as n from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid where t.relname in ${tables}`),
    triggers: await names(sql`select t.relname || '.' || g.tgname as n from pg_trigger g join pg_class t on t.oid = g.tgrelid where t.relname in ${tables} and not g.tgisinternal`),
    constraints: await names(sql`select t.relname || '.' || c.conname || ' ' || pg_get_constraintdef(c.oid) as n from pg_constraint c join pg_class t on t.oid = c.conrelid where t.relname in ${tables} and c.contype in ('f', 'c')`),
  };
}

const MISSION_A = "00000000-0000-4000-a000-00000000000a";
const MISSION_B = "00000000-0000-4000-a000-00000000000b";

beforeAll(async () => {
  const admin = withDatabaseName(base(), "postgres");
  await withConnection(admin, (s) => s.unsafe(`create database ${name}`));
  const url = withDatabaseName(base(), name);
  // The migrations up to 0027 only: a copy of the folder whose journal stops there.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-mig-0027-"));
  fs.cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalPath = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalPath, "utf8")) as { entries: Array<{ idx: number }> };
  journal.entries = journal.entries.filter((e) => e.idx <= 27);
  fs.writeFileSync(journalPath, JSON.stringify(journal));
  await withConnection(url, async (s) => {
    await migrate(drizzle(s), { migrationsFolder: dir });
    // Rows in several months, as a database that has run for a while has them.
    await s.unsafe(`
      insert into actors (id, kind, display_name) values ('worker:test', 'system', 'Test worker'), ('user:test', 'human', 'Test');
      insert into missions (id, name, definition, phase, run_state, last_seq, state, created_by, created_at, updated_at) values
        ('${MISSION_A}', 'a', '{}', 'PLAN', 'running', 3, '{}', 'user:test', '2026-08-10T12:00:00.123456Z', now()),
        ('${MISSION_B}', 'b', '{}', 'PLAN', 'running', 2, '{}', 'user:test', '2026-10-31T23:59:59.999999Z', now());
      insert into events (mission_id, seq, type, actor_id, payload, reason, impact, created_at) values
        ('${MISSION_A}', 1, 'mission.created', 'user:test', '{}', 'r', 'i', '2026-08-10T12:00:00Z'),
        ('${MISSION_A}', 2, 'phase.started', 'worker:test', '{}', 'r', 'i', '2026-08-10T12:00:01Z'),
        -- A mission's later events stay with it, in its creation month.
        ('${MISSION_A}', 3, 'phase.started', 'worker:test', '{}', 'r', 'i', '2026-09-02T08:00:00Z'),
        ('${MISSION_B}', 1, 'mission.created', 'user:test', '{}', 'r', 'i', '2026-10-31T23:59:59Z'),
        ('${MISSION_B}', 2, 'phase.started', 'worker:test', '{}', 'r', 'i', '2026-11-01T00:00:01Z');
      insert into audit_log (at, actor_id, actor_name, action, summary, via) values
        ('2026-05-01T00:00:00Z', 'user:test', 'Test', 'auth.sign_in', 'may', 'web'),
        ('2026-10-05T10:00:00Z', 'user:test', 'Test', 'mission.start', 'october', 'web'),
        (now(), 'user:test', 'Test', 'mission.start', 'now', 'web');
      insert into failure_audit (mission_id, seq, "timestamp", level, severity, what, why, context, definition, error_type) values
        ('${MISSION_A}', 2, '2026-08-10T12:00:02Z', 'agent', 'error', 'quota exceeded', 'rate limit', '{}', 'a', 'rate_limited'),
        ('${MISSION_B}', 2, '2026-11-01T00:00:02Z', 'agent', 'error', 'connection refused', null, '{}', 'b', 'connection_refused');
    `);
  });
  fs.rmSync(dir, { recursive: true, force: true });
  handle = createDb(url, { max: 4, applicationName: "faultline-test" });
  before = await catalog(handle.db);
  await runMigrations(url);
}, 120_000);

afterAll(async () => {
  await handle?.close().catch(() => {});
  await withConnection(withDatabaseName(base(), "postgres"), (s) => s.unsafe(`drop database if exists ${name} with (force)`));
});

describe("migration 0028: time partitions", () => {
  it("makes the three tables range-partitioned on their time, with a default partition and this month plus the months ahead", async () => {
    const keys = await queryRows<{ table: string; strategy: string; key: string }>(
      handle.db,
      sql`select c.relname as "table", p.partstrat as strategy, a.attname as key from pg_partitioned_table p join pg_class c on c.oid = p.partrelid join pg_attribute a on a.attrelid = c.oid and a.attnum = p.partattrs[0] order by 1`,
    );
    expect(keys).toEqual([
      { table: "audit_log", strategy: "r", key: "at" },
      { table: "events", strategy: "r", key: "mission_created_at" },
      { table: "failure_audit", strategy: "r", key: "timestamp" },
    ]);
    const parts = await listPartitions(handle.db);
    const month = (d: Date) => `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
    const now = new Date();
    for (const table of PARTITIONED_TABLES) {
      const names = parts.filter((p) => p.table === table).map((p) => p.partition);
      expect(names).toContain(`${table}_default`);
      for (let k = 0; k <= PARTITION_MONTHS_AHEAD; k++) expect(names).toContain(`${table}_p${month(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + k, 1)))}`);
    }
    expect(parts.find((p) => p.partition === "events_p202608")?.bounds).toMatch(/^FOR VALUES FROM \('2026-08-01 00:00:00\+00'\) TO \('2026-09-01 00:00:00\+00'\)$/);
    // Creating them again creates nothing.
    expect(await ensurePartitions(handle.db)).toBe(0);
  });

  it("copies every row into the partition of its month; a mission's events sit together in its creation month", async () => {
    const ev = await queryRows<{ mission: string; seq: number; part: string; created: string }>(
      handle.db,
      sql`select mission_id::text as mission, seq, tableoid::regclass::text as part, to_json(mission_created_at)#>>'{}' as created from events order by mission_id, seq`,
    );
    expect(ev.map((e) => `${e.mission.slice(-1)}${e.seq} ${e.part}`)).toEqual(["a1 events_p202608", "a2 events_p202608", "a3 events_p202608", "b1 events_p202610", "b2 events_p202610"]);
    // The mission's own creation time, to the microsecond.
    expect(ev[0].created).toBe("2026-08-10T12:00:00.123456+00:00");
    const audit = await queryRows<{ summary: string; part: string }>(handle.db, sql`select summary, tableoid::regclass::text as part from audit_log order by id`);
    expect(audit.slice(0, 2)).toEqual([
      { summary: "may", part: "audit_log_p202605" },
      { summary: "october", part: "audit_log_p202610" },
    ]);
    expect(audit[2].part).toMatch(/^audit_log_p\d{6}$/);
    const failures = await queryRows<{ what: string; part: string; search: string }>(handle.db, sql`select what, tableoid::regclass::text as part, search::text from failure_audit order by "timestamp"`);
    expect(failures.map((f) => `${f.what} ${f.part}`)).toEqual(["quota exceeded failure_audit_p202608", "connection refused failure_audit_p202611"]);
    expect(failures[0].search).toContain("'quota'");
  });

  it("keeps every index, foreign key, check and trigger under its name, with the new keys", async () => {
    const after = await catalog(handle.db);
    // 0029 replaced the trigram index on every row's actor name by the (actor, name) pairs of audit_log_actors.
    for (const i of before.indexes.filter((n) => n !== "audit_log_actor_name_trgm")) expect(after.indexes, `index ${i}`).toContain(i);
    expect(after.triggers).toContain("audit_log.audit_log_actors");
    expect([...(await handle.db.execute(sql`select actor_id, actor_name from audit_log_actors`))]).toEqual([{ actor_id: "user:test", actor_name: "Test" }]);
    for (const t of before.triggers) expect(after.triggers, `trigger ${t}`).toContain(t);
    for (const c of before.constraints) expect(after.constraints, `constraint ${c}`).toContain(c);
    expect(after.constraints).toContain("events.events_mission_fk FOREIGN KEY (mission_id, mission_created_at) REFERENCES missions(id, created_at)");
    const pkeys = await queryRows<{ t: string; def: string }>(handle.db, sql`select t.relname as t, pg_get_constraintdef(c.oid) as def from pg_constraint c join pg_class t on t.oid = c.conrelid where c.contype = 'p' and t.relname in ('events', 'audit_log', 'failure_audit') order by 1`);
    expect(pkeys).toEqual([
      { t: "audit_log", def: "PRIMARY KEY (id, at)" },
      { t: "events", def: "PRIMARY KEY (mission_id, mission_created_at, seq)" },
      { t: "failure_audit", def: "PRIMARY KEY (mission_id, id, \"timestamp\")" },
    ]);
  });

  it("goes on numbering events and audit rows after the copied ones", async () => {
    await handle.db.execute(sql`insert into events (mission_id, mission_created_at, seq, type, actor_id, payload, reason, impact) select id, created_at, 4, 'phase.started', 'worker:test', '{}', 'r', 'i' from missions where id = ${MISSION_A}`);
    const [e] = await queryRows<{ max: number; mine: number }>(handle.db, sql`select (select max(position) from events where seq < 4) as max, (select position from events where mission_id = ${MISSION_A} and seq = 4) as mine`);
    expect(Number(e.mine)).toBeGreaterThan(Number(e.max));
    await handle.db.execute(sql`insert into audit_log (actor_id, actor_name, action, summary, via) values ('user:test', 'Test', 'auth.sign_out', 'next', 'web')`);
    const [a] = await queryRows<{ id: number }>(handle.db, sql`select id from audit_log where summary = 'next'`);
    expect(Number(a.id)).toBe(4);
  });

  it("refuses UPDATE, DELETE and TRUNCATE on the tables and on each partition, the default included", async () => {
    expect(await dbError(handle.db.execute(sql`update audit_log_p202610 set summary = 'x'`))).toMatch(/audit_log is append-only: UPDATE/);
    expect(await dbError(handle.db.execute(sql`delete from audit_log where summary = 'may'`))).toMatch(/audit_log is append-only: DELETE/);
    expect(await dbError(handle.db.execute(sql`truncate audit_log`))).toMatch(/append-only: TRUNCATE/);
    expect(await dbError(handle.db.execute(sql`truncate audit_log_p202605`))).toMatch(/audit_log_p202605 is append-only: TRUNCATE/);
    expect(await dbError(handle.db.execute(sql`truncate audit_log_default`))).toMatch(/audit_log_default is append-only: TRUNCATE/);
    expect(await dbError(handle.db.execute(sql`delete from events_p202608`))).toMatch(/events is append-only: DELETE/);
    expect(await dbError(handle.db.execute(sql`truncate events_p202610 cascade`))).toMatch(/events_p202610 is append-only: TRUNCATE/);
    expect(await dbError(handle.db.execute(sql`truncate failure_audit_p202608`))).toMatch(/failure_audit_p202608 is append-only: TRUNCATE/);
    const [n] = await queryRows<{ n: number }>(handle.db, sql`select (select count(*) from audit_log) + (select count(*) from events) + (select count(*) from failure_audit) as n`);
    expect(Number(n.n)).toBe(4 + 6 + 2);
  });

  it("keeps a row of a month without a partition in the default, and moves it into the month once the month is created", async () => {
    await handle.db.execute(sql`insert into audit_log (at, actor_id, actor_name, action, summary, via) values ('2031-02-14T09:00:00Z', 'user:test', 'Test', 'auth.sign_in', 'far ahead', 'web')`);
    const where = async () => (await queryRows<{ id: number; part: string }>(handle.db, sql`select id, tableoid::regclass::text as part from audit_log where summary = 'far ahead'`))[0];
    const stray = await where();
    expect(stray.part).toBe("audit_log_default");
    const [made] = await queryRows<{ n: number }>(handle.db, sql`select faultline_create_partitions('audit_log', '2031-02-01', '2031-02-01') as n`);
    expect(Number(made.n)).toBe(1);
    expect(await where()).toEqual({ id: stray.id, part: "audit_log_p203102" });
    // The moved-to month and the new default are append-only like the others.
    expect(await dbError(handle.db.execute(sql`truncate audit_log_p203102`))).toMatch(/append-only: TRUNCATE/);
    expect(await dbError(handle.db.execute(sql`truncate audit_log_default`))).toMatch(/append-only: TRUNCATE/);
    expect(await dbError(handle.db.execute(sql`update audit_log_p203102 set summary = 'x'`))).toMatch(/append-only: UPDATE/);
  });

  it("reads the audit log month by month, newest first, strays in the default included, page after page", async () => {
    await handle.db.execute(sql`insert into audit_log (at, actor_id, actor_name, action, summary, via) values ('2035-07-01T00:00:00Z', 'user:test', 'Test', 'auth.sign_in', 'stray', 'web'), ('1999-12-31T23:59:59Z', 'user:test', 'Test', 'auth.sign_in', 'ancient', 'web')`);
    const [def] = await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from audit_log_default`);
    expect(def.n).toBe(2);
    const all = (await queryRows<{ summary: string }>(handle.db, sql`select summary from audit_log order by at desc, id desc`)).map((r) => r.summary);
    expect(all[0]).toBe("stray");
    expect(all.at(-1)).toBe("ancient");
    for (const limit of [1, 2, 3, 100]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof listAuditLog>> = await listAuditLog(handle.db, {}, { cursor, limit });
        seen.push(...page.entries.map((e) => e.summary));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen, `pages of ${limit}`).toEqual(all);
    }
    // Filters bound in time skip the months outside them and keep their own bounds.
    const between = await listAuditLog(handle.db, { from: "2026-05-01T00:00:00Z", to: "2026-10-05T10:00:00Z" });
    expect(between.entries.map((e) => e.summary)).toEqual(["october", "may"]);
    expect(await countAuditLog(handle.db, { from: "2030-01-01T00:00:00Z" })).toEqual({ count: 2, capped: false });
  });

  it("reads a mission's events from the one month that holds them", async () => {
    // The same events as a read of the whole table, in seq order (an earlier test appended a fourth to A).
    const seqs = async (m: string, after: number) => (await queryRows<{ seq: number }>(handle.db, sql`select seq from events where mission_id = ${m} and seq > ${after} order by seq`)).map((r) => r.seq);
    expect((await listEventsAfter(handle.db, { missionId: MISSION_A })).map((e) => e.seq)).toEqual(await seqs(MISSION_A, 0));
    expect((await seqs(MISSION_A, 0)).slice(0, 3)).toEqual([1, 2, 3]);
    expect((await listEventsAfter(handle.db, { missionId: MISSION_B, afterSeq: 1 })).map((e) => e.seq)).toEqual(await seqs(MISSION_B, 1));
    // The plan as run: of every monthly partition (and the default), only the mission's creation month is opened.
    expect(await eventPartitionsOpened(eventsAfterQuery(handle.db, { missionId: MISSION_A }).toSQL())).toEqual(["events_p202608"]);
  });

  it("reads the events after a mission's snapshot from the one month that holds them", async () => {
    // As readMissionState does: the creation time as the mission's row gives it, the events after the snapshot's seq.
    const [row] = await handle.db.select({ createdAt: missions.createdAt, lastSeq: missions.lastSeq }).from(missions).where(eq(missions.id, MISSION_A));
    const tail = snapshotTailQuery(handle.db, { missionId: MISSION_A, missionCreatedAt: row.createdAt, afterSeq: 1, toSeq: row.lastSeq });
    expect((await tail).map((e) => e.seq)).toEqual((await queryRows<{ seq: number }>(handle.db, sql`select seq from events where mission_id = ${MISSION_A} and seq > 1 and seq <= ${row.lastSeq} order by seq`)).map((r) => r.seq));
    expect((await tail).map((e) => e.seq)).toEqual([2, 3]);
    expect(await eventPartitionsOpened(tail.toSQL())).toEqual(["events_p202608"]);
  });

  it("cuts all of time at the partitions' bounds, newest first, leaving out windows outside the range", () => {
    const [a, b, c, d] = [Date.UTC(2026, 4, 1), Date.UTC(2026, 5, 1), Date.UTC(2026, 6, 1), Date.UTC(2026, 7, 1)];
    const now = c + 1; // d is a month ahead: it and the current month are one window
    expect(timeWindows([a, b, c, d], { now })).toEqual([{ from: c, to: null }, { from: b, to: c }, { from: a, to: b }, { from: null, to: a }]);
    expect(timeWindows([a, b, c, d], { now: d })).toEqual([{ from: d, to: null }, { from: c, to: d }, { from: b, to: c }, { from: a, to: b }, { from: null, to: a }]);
    expect(timeWindows([a, b, c], { after: b, now })).toEqual([{ from: c, to: null }, { from: b, to: c }]);
    expect(timeWindows([a, b, c], { after: b + 1, before: b + 1, now })).toEqual([{ from: b, to: c }]);
    expect(timeWindows([a, b, c], { before: a - 1, now })).toEqual([{ from: null, to: a }]);
    expect(timeWindows([], { now })).toEqual([{ from: null, to: null }]);
  });

  it("cuts the windows of a words search into slices growing from a day below the newest instant wanted, covering exactly the windows", () => {
    const day = 86_400_000;
    const [a, b, c] = [Date.UTC(2026, 4, 1), Date.UTC(2026, 5, 1), Date.UTC(2026, 6, 1)];
    const windows = timeWindows([a, b, c], { now: c + 3 * day });
    expect(searchSlices(windows, { top: c + 3 * day, first: day })).toEqual([
      { from: c + 2 * day, to: null },
      { from: c, to: c + 2 * day },
      { from: c - 4 * day, to: c },
      { from: c - 12 * day, to: c - 4 * day },
      { from: c - 28 * day, to: c - 12 * day },
      { from: b, to: c - 28 * day },
      { from: a, to: b },
      { from: null, to: a },
    ]);
    // A cursor in June: the slices start below it; every slice is contiguous with the next, from the window's top down.
    const fromCursor = searchSlices(timeWindows([a, b, c], { before: b + 10 * day, now: c + 3 * day }), { top: b + 10 * day, first: day });
    expect(fromCursor[0]).toEqual({ from: b + 9 * day, to: c });
    for (let i = 1; i < fromCursor.length; i++) expect(fromCursor[i].to).toBe(fromCursor[i - 1].from);
    expect(fromCursor.at(-1)).toEqual({ from: null, to: a });
  });

  it("explains a bad call of the partition function", async () => {
    expect(await dbError(handle.db.execute(sql`select faultline_create_partitions('missions', now(), now())`))).toMatch(/missions is not a partitioned table/);
    expect(await dbError(handle.db.execute(sql`select faultline_create_partitions('audit_log', '1970-01-01', now())`))).toMatch(/more than 10 years of monthly partitions/);
  });
});

/** The event partitions a statement opens as run (EXPLAIN ANALYZE): pruned ones are not in the plan or never started. */
async function eventPartitionsOpened(q: { sql: string; params: unknown[] }): Promise<string[]> {
  const [{ "QUERY PLAN": plan }] = (await handle.sql.unsafe(`explain (analyze, costs off, timing off, summary off, format json) ${q.sql}`, q.params as never[])) as unknown as Array<{ "QUERY PLAN": unknown }>;
  const opened: string[] = [];
  const walk = (n: { "Relation Name"?: string; "Actual Loops"?: number; Plans?: unknown[] }) => {
    if (n["Relation Name"]?.startsWith("events") && (n["Actual Loops"] ?? 0) > 0) opened.push(n["Relation Name"]);
    for (const c of n.Plans ?? []) walk(c as typeof n);
  };
  walk((plan as Array<{ Plan: Parameters<typeof walk>[0] }>)[0].Plan);
  return opened;
}
