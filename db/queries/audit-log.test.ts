import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditActor } from "../../lib/audit";
import { auditFiltersSchema, parseAuditFilters, type AuditFilters } from "../../lib/audit/filters";
import { auditLog } from "../schema";
import { createTestDatabase, dbError, type TestDatabase } from "../test-helpers";
import { withConnection } from "../client";
import { auditLogRecords, countAuditLog, listAuditLog, recordAudit } from "./audit-log";
import { ensurePartitions } from "../partitions";
import { COUNT_CAP, WORDS_COUNT_CAP } from "../../lib/query-filters";

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  await tdb?.drop();
});

const ana: AuditActor = { id: "user:00000000-0000-4000-8000-00000000000a", name: "Ana Auditee", via: "web", ip: "10.0.0.7", userAgent: "Firefox" };
const cli: AuditActor = { id: "cli:ops", name: "CLI (ops)", via: "cli" };
const mission = "11111111-1111-4111-8111-111111111111";
const f = (raw: Record<string, string>): AuditFilters => auditFiltersSchema.parse(raw);

describe("the audit log (PostgreSQL)", () => {
  it("an insert works and reads back with who, what, where and before/after", async () => {
    await recordAudit(tdb.db, ana, { action: "pattern.update", summary: "Ana Auditee disabled learned pattern 'x → y'.", target: { type: "pattern", id: "p1" }, before: { enabled: true }, after: { enabled: false } });
    const { entries } = await listAuditLog(tdb.db, {});
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorId: ana.id, actorName: "Ana Auditee", action: "pattern.update", outcome: "ok", targetType: "pattern", targetId: "p1", via: "web", ip: "10.0.0.7", userAgent: "Firefox", before: { enabled: true }, after: { enabled: false } });
    expect(entries[0].at).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
  });

  it("UPDATE, DELETE and TRUNCATE are refused by the database, through drizzle and through a raw client", async () => {
    expect(await dbError(tdb.db.update(auditLog).set({ summary: "rewritten" }))).toMatch(/append-only: UPDATE is not allowed/);
    expect(await dbError(tdb.db.delete(auditLog))).toMatch(/append-only: DELETE is not allowed/);
    expect(await dbError(tdb.db.execute(sql`truncate audit_log`))).toMatch(/append-only: TRUNCATE is not allowed/);
    await withConnection(tdb.url, async (raw) => {
      await expect(raw`update audit_log set actor_name = 'someone else'`).rejects.toThrow(/append-only: UPDATE is not allowed/);
      await expect(raw`delete from audit_log where id = (select min(id) from audit_log)`).rejects.toThrow(/append-only: DELETE is not allowed/);
      await expect(raw`truncate audit_log`).rejects.toThrow(/append-only: TRUNCATE is not allowed/);
      // An insert through the same raw client works: append-only, not read-only.
      await raw`insert into audit_log (actor_id, actor_name, action, summary, via) values ('system', 'Faultline (system)', 'gate.timeout', 'raw insert', 'system')`;
    });
    const { entries } = await listAuditLog(tdb.db, {});
    expect(entries.map((e) => e.summary)).toEqual(["raw insert", "Ana Auditee disabled learned pattern 'x → y'."]);
  });

  it("filters by actor (id, name or email), action or group, target, mission, via, outcome, time and summary words", async () => {
    await recordAudit(tdb.db, cli, { action: "mission.start", summary: "CLI (ops) started mission \"Nightly sync\" (3 steps).", target: { type: "mission", id: mission }, missionId: mission });
    await recordAudit(tdb.db, ana, { action: "library.review", summary: "Ana Auditee approved contribution 'Drawer latch' (1 of 1 approvals; published library v5): ok", target: { type: "contribution", id: "c1" } });
    await recordAudit(tdb.db, { id: "anonymous", name: "Unknown (eve@x.test)", via: "web" }, { action: "auth.sign_in_failed", outcome: "refused", summary: "Sign-in refused for eve@x.test", target: { type: "email", id: "eve@x.test" } });
    const actions = async (raw: Record<string, string>) => (await listAuditLog(tdb.db, f(raw))).entries.map((e) => e.action);
    expect(await actions({ actor: "cli:ops" })).toEqual(["mission.start"]);
    expect(await actions({ actor: "auditee" })).toEqual(["library.review", "pattern.update"]);
    expect(await actions({ action: "library.*" })).toEqual(["library.review"]);
    expect(await actions({ action: "mission.start" })).toEqual(["mission.start"]);
    expect(await actions({ targetType: "contribution", targetId: "c1" })).toEqual(["library.review"]);
    expect(await actions({ mission })).toEqual(["mission.start"]);
    expect(await actions({ via: "cli" })).toEqual(["mission.start"]);
    expect(await actions({ outcome: "refused" })).toEqual(["auth.sign_in_failed"]);
    expect(await actions({ q: "DRAWER latch" })).toEqual(["library.review"]);
    expect(await actions({ q: "100%" })).toEqual([]); // % is taken literally
    expect(await actions({ from: "1h", action: "auth.*" })).toEqual(["auth.sign_in_failed"]);
    expect(await actions({ to: "2000-01-01" })).toEqual([]);
    expect(await actions({ from: "2000-01-01", via: "system" })).toEqual(["gate.timeout"]);
    expect(await countAuditLog(tdb.db, f({ via: "web" }))).toEqual({ count: 3, capped: false });
  });

  it("finds part of a name as the name was at the time, through the (actor, name) pairs the insert trigger keeps", async () => {
    const bo: AuditActor = { id: "user:00000000-0000-4000-8000-0000000000b0", name: "Bo Before", via: "web" };
    await recordAudit(tdb.db, bo, { action: "token.create", summary: "Bo Before made a token." });
    await recordAudit(tdb.db, { ...bo, name: "Bo Renamed" }, { action: "token.revoke", summary: "Bo Renamed revoked a token." });
    // A row written without recordAudit (a raw insert) is found too: the trigger, not the application, keeps the pairs.
    await tdb.db.execute(sql`insert into audit_log (actor_id, actor_name, action, summary, via) values ('cli:zed', 'Zed Raw', 'pattern.delete', 'raw', 'cli')`);
    const pairs = await tdb.db.execute(sql`select actor_id, actor_name from audit_log_actors where actor_id in (${bo.id}, 'cli:zed') order by 2`);
    expect([...pairs]).toEqual([
      { actor_id: bo.id, actor_name: "Bo Before" },
      { actor_id: bo.id, actor_name: "Bo Renamed" },
      { actor_id: "cli:zed", actor_name: "Zed Raw" },
    ]);
    const actions = async (actor: string) => (await listAuditLog(tdb.db, f({ actor }))).entries.map((e) => e.action);
    expect(await actions("before")).toEqual(["token.create"]); // the old name's rows only, not the same actor's later ones
    expect(await actions("RENAMED")).toEqual(["token.revoke"]);
    expect(await actions("Bo ")).toEqual(["token.revoke", "token.create"]);
    expect(await actions("zed raw")).toEqual(["pattern.delete"]);
    expect(await actions(bo.id)).toEqual(["token.revoke", "token.create"]);
    expect(await countAuditLog(tdb.db, f({ actor: "bo " }))).toEqual({ count: 2, capped: false });
    // The count (actors whose every name holds the text counted from the index, renamed ones row by row) is the
    // number of rows the pages show, alone and with other filters.
    for (const raw of <Array<Record<string, string>>>[{ actor: "before" }, { actor: "RENAMED" }, { actor: "Bo " }, { actor: "zed raw" }, { actor: "auditee" }, { actor: "o" }, { actor: "o", action: "token.*" }, { actor: "bo", via: "web", from: "2000-01-01" }]) {
      let rows = 0;
      for await (const _ of auditLogRecords(tdb.db, f(raw))) rows++;
      expect(await countAuditLog(tdb.db, f(raw)), JSON.stringify(raw)).toEqual({ count: rows, capped: false });
    }
  });

  it("counts at most COUNT_CAP rows (WORDS_COUNT_CAP with words): past it the count says so (capped) instead of reading every row", async () => {
    await tdb.db.execute(sql`insert into audit_log (actor_id, actor_name, action, summary, via) select 'cli:bulk', 'CLI (bulk)', 'mission.start', 'bulk ' || i, 'cli' from generate_series(1, ${COUNT_CAP + 5}) i`);
    expect(await countAuditLog(tdb.db, f({ actor: "cli:bulk" }))).toEqual({ count: COUNT_CAP, capped: true });
    // With words the cap is WORDS_COUNT_CAP: 'bulk 7' is in 1,111 rows, 'bulk 77' in 111.
    expect(await countAuditLog(tdb.db, f({ actor: "cli:bulk", q: "bulk 7" }))).toEqual({ count: WORDS_COUNT_CAP, capped: true });
    expect(await countAuditLog(tdb.db, f({ actor: "cli:bulk", q: "bulk 77" }))).toEqual({ count: 1 + 10 + 100, capped: false });
  });

  it("rejects filters that are not valid, naming the field", () => {
    const errors = (raw: Record<string, string>) => {
      const r = parseAuditFilters(raw);
      return r.ok ? [] : r.errors;
    };
    expect(errors({ action: "nonsense" })).toEqual([{ path: "action", message: expect.stringMatching(/an action like mission.start or a group like library\.\*/) }]);
    expect(errors({ via: "fax" })).toEqual([{ path: "via", message: "must be one of web, api, cli, worker, system" }]);
    expect(errors({ from: "yesterday" })).toEqual([{ path: "from", message: expect.stringMatching(/span before now such as 30m, 1h, 24h, 7d/) }]);
    expect(errors({ from: "2025-02-01", to: "2025-01-01" })).toEqual([{ path: "to", message: "must be after from" }]);
    expect(errors({ colour: "red", action: "library.*", from: "7d" })).toEqual([]); // other keys are not filters
  });

  it("pages newest first with a cursor: every row once, none twice; the export generator reads them all", async () => {
    for (let i = 0; i < 23; i++) await recordAudit(tdb.db, cli, { action: "memory.export", summary: `export ${i}` });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<typeof listAuditLog>> = await listAuditLog(tdb.db, f({ action: "memory.export" }), { cursor, limit: 5 });
      seen.push(...page.entries.map((e) => e.summary));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen).toEqual(Array.from({ length: 23 }, (_, i) => `export ${22 - i}`));
    const all: string[] = [];
    for await (const e of auditLogRecords(tdb.db, f({ action: "memory.export" }), 4)) all.push(e.summary);
    expect(all).toEqual(seen);
    await expect(listAuditLog(tdb.db, {}, { cursor: "not-a-cursor" })).rejects.toThrow(/cursor is not valid/);
  });

  it("words: pages read day by day through the months give the rows of one ordered read, and the count is exact up to its cap", async () => {
    await ensurePartitions(tdb.db, { from: new Date(Date.now() - 200 * 86_400_000).toISOString(), tables: ["audit_log"] });
    // 3,000 rows every 37 minutes back over 77 days (three or four months), a third with the words; strays far ahead
    // and far back (the default partition); same-instant rows (ties broken by id).
    await tdb.db.execute(sql`insert into audit_log (at, actor_id, actor_name, action, summary, via)
      select now() - i * interval '37 minutes', 'cli:ops', 'CLI (ops)', case when i % 2 = 0 then 'mission.start' else 'gate.decide' end,
             case when i % 3 = 0 then 'Zebra quota exceeded on run ' || i else 'Zebra fine ' || i end, 'cli'
      from generate_series(1, 3000) i`);
    await tdb.db.execute(sql`insert into audit_log (at, actor_id, actor_name, action, summary, via) values
      ('2040-01-01T00:00:00Z', 'cli:ops', 'CLI (ops)', 'mission.start', 'zebra QUOTA exceeded (future)', 'cli'),
      ('1999-01-01T00:00:00Z', 'cli:ops', 'CLI (ops)', 'mission.start', 'zebra quota exceeded (1999)', 'cli'),
      ('2026-01-01T00:00:00Z', 'cli:ops', 'CLI (ops)', 'mission.start', 'zebra quota exceeded (tie a)', 'cli'),
      ('2026-01-01T00:00:00Z', 'cli:ops', 'CLI (ops)', 'mission.start', 'zebra quota exceeded (tie b)', 'cli')`);
    const ordered = async (where: ReturnType<typeof sql>) => (await tdb.db.execute(sql`select id from audit_log where ${where} order by at desc, id desc`)).map((r) => Number((r as { id: number }).id));
    const paged = async (filters: AuditFilters, limit: number) => {
      const ids: number[] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof listAuditLog>> = await listAuditLog(tdb.db, filters, { cursor, limit });
        ids.push(...page.entries.map((e) => e.id));
        cursor = page.nextCursor;
      } while (cursor);
      return ids;
    };
    const words = await ordered(sql`summary ilike '%zebra quota exceeded%'`);
    expect(words).toHaveLength(1004);
    for (const limit of [1, 7, 100, 1000]) expect(await paged(f({ q: "zebra quota exceeded" }), limit), `pages of ${limit}`).toEqual(words);
    const group = await ordered(sql`summary ilike '%zebra quota exceeded%' and action like 'mission.%'`);
    expect(await paged(f({ q: "zebra quota exceeded", action: "mission.*" }), 50)).toEqual(group);
    const span = await ordered(sql`summary ilike '%zebra quota%' and at >= now() - interval '30 days' and at <= now() - interval '2 days'`);
    expect(span.length).toBeGreaterThan(300);
    expect(await paged(f({ q: "zebra quota", from: new Date(Date.now() - 30 * 86_400_000).toISOString(), to: new Date(Date.now() - 2 * 86_400_000).toISOString() }), 64)).toEqual(span);

    // Exact up to WORDS_COUNT_CAP (1,000), capped past it: 1,004 rows with the words, 504 of them in the group.
    expect(WORDS_COUNT_CAP).toBe(1000);
    expect(await countAuditLog(tdb.db, f({ q: "zebra quota exceeded" }))).toEqual({ count: 1000, capped: true });
    expect(await countAuditLog(tdb.db, f({ q: "zebra quota exceeded", action: "mission.*" }))).toEqual({ count: group.length, capped: false });
    expect(await countAuditLog(tdb.db, f({ q: "zebra quota exceeded (" }))).toEqual({ count: 4, capped: false });
    // Exactly the cap is exact, not capped; one more is capped.
    const before1999 = (await ordered(sql`summary ilike '%zebra quota exceeded%' and at > '2000-01-01'`)).length;
    expect(before1999).toBe(1003);
    expect(await countAuditLog(tdb.db, f({ q: "zebra quota exceeded", from: "2000-01-01T00:00:00Z", to: "2039-01-01T00:00:00Z" }))).toEqual({ count: 1000, capped: true });
    expect(await countAuditLog(tdb.db, f({ q: "zebra quota exceeded on run" }))).toEqual({ count: 1000, capped: false });
    expect(await countAuditLog(tdb.db, f({ q: "zebra quota exceeded on run 1" }))).toEqual({ count: (await ordered(sql`summary ilike '%zebra quota exceeded on run 1%'`)).length, capped: false });
  });
});
