import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LibraryEntry } from "../../lib/library/entry";
import { starterLibrary } from "../seed";
import { createTestDatabase, type TestDatabase } from "../test-helpers";
import { loadStarterLibrary, publishChanges } from "./library";
import { LibraryQueryError, queryLibrary } from "./library-query";

let tdb: TestDatabase;
let starter: LibraryEntry[];
beforeAll(async () => {
  tdb = await createTestDatabase();
  starter = starterLibrary();
  await loadStarterLibrary(tdb.db, starter, "system:seed");
});
afterAll(async () => {
  await tdb?.drop();
});

const latchQuery = {
  observed_symptom: "Drawer pulled at 25 N: 0 mm displacement, rigid stop with no give and no visible obstruction",
  object_class: "kitchen_drawer",
  force_applied: "25 N pull",
  environmental_context: ["indoor", "kitchen", "furniture"],
};

async function snapshot() {
  const r = await tdb.db.execute(sql`select
    (select count(*)::int from library_entries) as entries,
    (select count(*)::int from library_entry_versions) as versions,
    (select count(*)::int from library_versions) as library_versions,
    (select sum(revision)::int from library_entries) as revisions`);
  return r.rows[0];
}

describe("queryLibrary (PostgreSQL)", () => {
  it("ranks the entry a close query describes first, with scores in 0..1, sorted descending", async () => {
    const r = await queryLibrary(tdb.db, latchQuery, { limit: 5, includeEntry: true });
    expect(r.abstained).toBe(false);
    expect(r.results[0]).toMatchObject({ failure_id: "FM-PHY-0001", hypothesis: "Internal latch" });
    expect(r.results[0].entry).toMatchObject({ failure_id: "FM-PHY-0001", category: "Constraint" });
    expect(r.results.length).toBeLessThanOrEqual(5);
    for (const x of r.results) expect(x.match_score).toBeGreaterThanOrEqual(0), expect(x.match_score).toBeLessThanOrEqual(1);
    const scores = r.results.map((x) => x.match_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const sw = await queryLibrary(tdb.db, { observed_symptom: "Server failed to start: listen EADDRINUSE: address already in use :::3000", object_class: "web_server" });
    expect(sw.results[0].failure_id).toMatch(/^FM-SW-/);
  });

  it("is stateless: querying changes no rows, revisions or versions", async () => {
    const before = await snapshot();
    for (let i = 0; i < 5; i++) await queryLibrary(tdb.db, latchQuery);
    await queryLibrary(tdb.db, { observed_symptom: "git push rejected non-fast-forward" });
    expect(await snapshot()).toEqual(before);
  });

  it("an uncovered query abstains", async () => {
    const r = await queryLibrary(tdb.db, { observed_symptom: "Quarterly marketing newsletter has a typo in the headline font", object_class: "newsletter" });
    expect(r).toEqual({ results: [], abstained: true });
  });

  it("rejects bad input naming the field", async () => {
    await expect(queryLibrary(tdb.db, { observed_symptom: "x" })).rejects.toThrow(/observed_symptom must be at least 3 characters/);
    await expect(queryLibrary(tdb.db, {})).rejects.toThrow(/observed_symptom/);
    await expect(queryLibrary(tdb.db, { observed_symptom: "door stuck", object_class: "d".repeat(301) })).rejects.toThrow(/object_class must be at most 300/);
    await expect(queryLibrary(tdb.db, { observed_symptom: "door stuck", force_applied: 30 })).rejects.toBeInstanceOf(LibraryQueryError);
    await expect(queryLibrary(tdb.db, { observed_symptom: "door stuck", colour: "red" })).rejects.toThrow(/colour|query/);
  });

  it("never returns a deprecated entry", async () => {
    await tdb.db.transaction((tx) => publishChanges(tx, { changes: [{ kind: "deprecate", failureId: "FM-PHY-0001" }], authorId: "user:admin", summary: "test" }));
    const r = await queryLibrary(tdb.db, latchQuery, { limit: 50 });
    expect(r.results.map((x) => x.failure_id)).not.toContain("FM-PHY-0001");
  });
});
