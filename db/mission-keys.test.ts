import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { queryRows } from "./client";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "./test-helpers";

/**
 * Issue 19, beyond one database: the per-mission tables can be distributed by mission on Citus, which requires
 * the distribution column in every primary and unique key of a distributed table. Read from the migrated
 * catalog, not from the schema file; docs/deploy.md ("Beyond one database: Citus") lists the same tables.
 */
const DISTRIBUTED = ["missions", "events", "event_io", "agents", "gates", "failure_audit", "proposals", "session_memory", "episodic_memory", "library_matches", "library_confirmed_reports", "diagnosis_feedback", "counterfactual_checks"];

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  await tdb?.drop();
});

it("every primary and unique key of the per-mission tables contains the mission id, and every table with a mission id is classified", async () => {
  const keys = await queryRows<{ table: string; index: string; columns: string[] }>(
    tdb.db,
    sql`select t.relname as "table", i.relname as "index", array(select a.attname from unnest(x.indkey) k join pg_attribute a on a.attrelid = t.oid and a.attnum = k order by a.attname)::text[] as columns
        from pg_index x join pg_class t on t.oid = x.indrelid join pg_class i on i.oid = x.indexrelid join pg_namespace n on n.oid = t.relnamespace
        where n.nspname = 'public' and x.indisunique`,
  );
  for (const table of DISTRIBUTED) {
    const own = keys.filter((k) => k.table === table);
    expect(own.length, `${table} has a primary key`).toBeGreaterThan(0);
    for (const k of own) expect(k.columns, `${table}.${k.index}`).toContain(table === "missions" ? "id" : "mission_id");
  }
  // A new table with a mission id is either distributed (above) or named coordinator-local in the doc.
  // Partitions (migration 0028: events_p202611, audit_log_default, …) are their parent's, not tables of their own.
  const withMission = (
    await queryRows<{ table: string }>(
      tdb.db,
      sql`select c.table_name as "table" from information_schema.columns c join pg_class t on t.relname = c.table_name join pg_namespace n on n.oid = t.relnamespace and n.nspname = c.table_schema
          where c.table_schema = 'public' and c.column_name = 'mission_id' and not t.relispartition`,
    )
  ).map((r) => r.table);
  const doc = fs.readFileSync(path.join(import.meta.dirname, "..", "docs", "deploy.md"), "utf8");
  const coordinator = doc.slice(doc.indexOf("**Coordinator-local tables**"), doc.indexOf("The commands:"));
  for (const table of withMission) expect(DISTRIBUTED.includes(table) || coordinator.includes(`\`${table}\``), `${table} has a mission_id: distribute it or list it as coordinator-local in docs/deploy.md`).toBe(true);
  for (const table of DISTRIBUTED.slice(1)) expect(doc, `docs/deploy.md lists ${table}`).toContain(`| \`${table}\` |`);
});
