import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isTuningQuery, readLabelledQueries } from "../../lib/library/labelled";
import type { LibraryQuery } from "../../lib/mission/library";
import { definition } from "../../lib/mission/test-fixtures";
import { starterLibrary } from "../seed";
import { createTestDatabase, type TestDatabase } from "../test-helpers";
import { createMission } from "./events";
import { loadStarterLibrary } from "./library";
import { recordConfirmedReport } from "./library-protocol";
import { rankCandidates, rankStatement, type Candidate } from "./library-query";
import { ensureActor } from "./users";

/**
 * How a library query reads the reports walks confirmed (issue 18's learning, issue 19's constant cost), on real
 * PostgreSQL: the indexed read (only reports sharing one of the query's heaviest concepts) ranks exactly as the
 * read before it (every report sharing any word), and its work does not grow with confirmed reports that share
 * only light words with the query. Only the tuning/fitting halves of the labelled sets are read.
 */
let tdb: TestDatabase;
let missionId: string;
beforeAll(async () => {
  tdb = await createTestDatabase();
  await loadStarterLibrary(tdb.db, starterLibrary(), "system:seed");
  await ensureActor(tdb.db, { id: "user:op", kind: "user", displayName: "Op" });
  missionId = (await createMission(tdb.db, { definition: definition({ name: "learning read", agents: [{ name: "a", priority: "critical", steps: [{ tool: "shell", args: { command: "true" } }] }] }), actorId: "user:op" })).id;
});
afterAll(async () => {
  await tdb?.drop();
});

/** Rows of library_confirmed_reports the statement read (scanned or fetched, kept or filtered out), from EXPLAIN ANALYZE. */
async function confirmedRowsRead(input: object, learnedRead: "indexed" | "scan"): Promise<number> {
  const { statement } = rankStatement(input, { limit: 10, learnedRead });
  const rows = (await tdb.db.execute(sql`explain (analyze, format json) ${statement}`)) as unknown as Array<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>;
  let read = 0;
  const walk = (n: PlanNode) => {
    if (n["Relation Name"] === "library_confirmed_reports") read += (n["Actual Rows"] + (n["Rows Removed by Filter"] ?? 0) + (n["Rows Removed by Index Recheck"] ?? 0)) * n["Actual Loops"];
    for (const c of n.Plans ?? []) walk(c);
  };
  walk(rows[0]["QUERY PLAN"][0].Plan);
  return read;
}
interface PlanNode {
  "Relation Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

/** A small deterministic generator (the same reports every run). */
function prng(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
}

describe("reading confirmed reports", () => {
  it("ranks the tuning halves with the same candidates and scores as reading every report that shares a word", async () => {
    const tuning = readLabelledQueries().filter(isTuningQuery);
    const covered = tuning.filter((q) => q.kind !== "uncovered");
    // The bench's walks: every covered tuning/fitting report confirmed as its first expected entry …
    let seq = 1;
    for (const q of covered) await recordConfirmedReport(tdb.db, { missionId, seq: seq++, failureId: q.expected[0], query: q.query as LibraryQuery });
    // … and 150 generated reports near the threshold: the first words of one report and the last of another,
    // confirmed as the first one's entry, so many reports hold about half of a query's evidence.
    const rnd = prng(18);
    for (let i = 0; i < 150; i++) {
      const a = covered[Math.floor(rnd() * covered.length)];
      const b = covered[Math.floor(rnd() * covered.length)];
      const wa = a.query.observed_symptom.split(/\s+/);
      const wb = b.query.observed_symptom.split(/\s+/);
      const cut = 0.3 + 0.5 * rnd();
      const text = [...wa.slice(0, Math.ceil(wa.length * cut)), ...wb.slice(Math.floor(wb.length * cut))].join(" ");
      await recordConfirmedReport(tdb.db, { missionId, seq: seq++, failureId: a.expected[0], query: { ...a.query, observed_symptom: text } as LibraryQuery });
    }
    const stored = (await tdb.db.execute(sql`select count(*)::int as n from library_confirmed_reports`)) as unknown as Array<{ n: number }>;
    expect(stored[0].n).toBeGreaterThanOrEqual(200);

    let learnedCandidates = 0;
    let different = 0;
    for (const q of tuning) {
      const before = await rankCandidates(tdb.db, q.query, { limit: 10, learnedRead: "scan" });
      const now = await rankCandidates(tdb.db, q.query, { limit: 10 });
      learnedCandidates += now.filter((c) => c.learned > 0).length;
      if (JSON.stringify(now.map((c) => c.failure_id)) !== JSON.stringify(before.map((c) => c.failure_id))) different++;
      expect(now.map((c) => c.failure_id), q.id).toEqual(before.map((c) => c.failure_id));
      // Scores to the last bits but two: the statement may add a report's word weights in another order.
      now.forEach((c, i) => {
        for (const k of Object.keys(c) as Array<keyof Candidate>) {
          if (typeof c[k] === "number") expect(Math.abs((c[k] as number) - (before[i][k] as number)), `${q.id} ${c.failure_id} ${k}`).toBeLessThan(1e-12);
          else expect(c[k], `${q.id} ${c.failure_id} ${k}`).toEqual(before[i][k]);
        }
      });
    }
    expect(different).toBe(0);
    // The confirmed reports do move candidates, so the comparison covers the learned part of the score.
    expect(learnedCandidates).toBeGreaterThan(100);
  }, 300_000);

  it("reads no more rows for a report when thousands of reports sharing only its light words are confirmed", async () => {
    // A report about the plant's isolator, confirmed; later reports share only "zero travel", "line" and numbers with it.
    const query = { observed_symptom: "yellow line isolator lever frozen at 15 N·m, zero travel", object_class: "gas_isolator" };
    await recordConfirmedReport(tdb.db, { missionId, seq: 10_000, failureId: "FM-PHY-0047", query: { observed_symptom: "quarter-turn isolator on the yellow line: lever frozen, wrench reads 14 N·m, zero travel", object_class: "gas_isolator" } });
    const addUnrelated = async (from: number, n: number) => {
      await tdb.db.execute(sql`
        insert into library_confirmed_reports (mission_id, seq, failure_id, symptom, lexemes)
        select ${missionId}, g, 'FM-PHY-0001', 'generated', tsvector_to_array(to_tsvector('english', 'conveyor ' || g || ' on line 15: zero travel of carton batch' || g || ' at 15 N'))
        from generate_series(${from}::int, ${from + n - 1}::int) g`);
      // As autovacuum would after such inserts (statistics, and the GIN index's pending list merged).
      await tdb.db.execute(sql`vacuum analyze library_confirmed_reports`);
    };
    await addUnrelated(20_000, 3_000);
    const indexed3k = await confirmedRowsRead(query, "indexed");
    const scan3k = await confirmedRowsRead(query, "scan");
    const ranked3k = await rankCandidates(tdb.db, query, { limit: 10 });
    await addUnrelated(30_000, 3_000);
    const indexed6k = await confirmedRowsRead(query, "indexed");
    const scan6k = await confirmedRowsRead(query, "scan");
    const ranked6k = await rankCandidates(tdb.db, query, { limit: 10 });

    // The reports do share words with the query: the read before compared every one of them.
    expect(scan3k).toBeGreaterThanOrEqual(3_000);
    expect(scan6k).toBeGreaterThanOrEqual(6_000);
    // The indexed read reads the same few rows (the reports sharing the isolator's words) at 3,000 and 6,000.
    expect(indexed6k).toBe(indexed3k);
    expect(indexed3k).toBeLessThan(100);
    // And the confirmed isolator report still raises its entry, the same way.
    expect(ranked6k[0].failure_id).toBe("FM-PHY-0047");
    expect(ranked6k[0].learned).toBeGreaterThanOrEqual(0.5);
    expect(ranked6k).toEqual(ranked3k);
  }, 300_000);
});
