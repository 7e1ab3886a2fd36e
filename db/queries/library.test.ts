import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LibraryEntry } from "../../lib/library/entry";
import { starterLibrary } from "../seed";
import { createTestDatabase, dbError, type TestDatabase } from "../test-helpers";
import { entryHistory, getEntry, listLibraryVersions, loadStarterLibrary, publishChanges, rollbackLibrary, setEntryDeprecated } from "./library";

let tdb: TestDatabase;
let starter: LibraryEntry[];
beforeAll(async () => {
  tdb = await createTestDatabase();
  starter = starterLibrary();
});
afterAll(async () => {
  await tdb?.drop();
});

describe("the failure-mode library store (PostgreSQL)", () => {
  it("loads the starter library once, as version 1 with a changelog", async () => {
    expect(await loadStarterLibrary(tdb.db, starter, "system:seed")).toBe(1);
    expect(await loadStarterLibrary(tdb.db, starter, "system:seed")).toBeNull();
    const [v1] = await listLibraryVersions(tdb.db);
    expect(v1).toMatchObject({ version: 1, authorId: "system:seed" });
    expect(v1.changelog).toHaveLength(starter.length);
    const e = await getEntry(tdb.db, starter[0].failure_id);
    expect(e).toMatchObject({ failure_id: starter[0].failure_id, title: starter[0].title, revision: 1, libraryVersion: 1, deprecated: false });
    // The weighted search document is maintained by the database.
    const [{ ok }] = (await tdb.db.execute(sql`select count(*)::int as ok from library_entries where search @@ plainto_tsquery('english', 'drawer')`)) as Array<{ ok: number }>;
    expect(ok).toBeGreaterThan(2);
  });

  it("an edit is a new revision with author, reviewer and a field diff; deprecation keeps the entry", async () => {
    const base = starter[0];
    const edited = { ...base, risk_notes: "Low (standard cabinets); Medium (glass fronts)", context_tags: [...base.context_tags, "cabinet"] };
    const v2 = await tdb.db.transaction((tx) => publishChanges(tx, { changes: [{ kind: "upsert", entry: edited }], authorId: "user:contributor", reviewerId: "user:reviewer", summary: "Risk notes for glass fronts" }));
    expect(v2).toBe(2);
    const unchanged = await tdb.db.transaction((tx) => publishChanges(tx, { changes: [{ kind: "upsert", entry: edited }], authorId: "user:contributor", summary: "again" }));
    expect(unchanged).toBeNull();
    const v3 = await tdb.db.transaction((tx) => publishChanges(tx, { changes: [{ kind: "deprecate", failureId: base.failure_id }], authorId: "user:admin", summary: "Superseded" }));
    expect(v3).toBe(3);
    expect(await getEntry(tdb.db, base.failure_id)).toMatchObject({ revision: 3, deprecated: true, risk_notes: edited.risk_notes });
    const history = await entryHistory(tdb.db, base.failure_id);
    expect(history.map((h) => [h.revision, h.change, h.libraryVersion])).toEqual([
      [1, "added", 1],
      [2, "edited", 2],
      [3, "deprecated", 3],
    ]);
    expect(history[1]).toMatchObject({ authorId: "user:contributor", reviewerId: "user:reviewer" });
    expect(history[1].diff.map((d) => d.field).sort()).toEqual(["context_tags", "risk_notes"]);
  });

  it("nothing is ever deleted or rewritten: the database refuses it", async () => {
    expect(await dbError(tdb.db.execute(sql`delete from library_entries where failure_id = ${starter[1].failure_id}`))).toMatch(/append-only: DELETE/);
    expect(await dbError(tdb.db.execute(sql`update library_entry_versions set change = 'edited'`))).toMatch(/append-only: UPDATE/);
    expect(await dbError(tdb.db.execute(sql`delete from library_versions`))).toMatch(/append-only: DELETE/);
  });

  it("a rollback to an earlier version is itself a new version that restores the entries as they were", async () => {
    const base = starter[0];
    const v = await rollbackLibrary(tdb.db, { to: 1, authorId: "user:admin" });
    expect(v).toBe(4);
    const e = await getEntry(tdb.db, base.failure_id);
    expect(e).toMatchObject({ deprecated: false, revision: 5, context_tags: base.context_tags });
    expect(e?.risk_notes).toBe(base.risk_notes);
    const [latest] = await listLibraryVersions(tdb.db, 1);
    expect(latest).toMatchObject({ version: 4, summary: "Rollback to version 1." });
    await expect(rollbackLibrary(tdb.db, { to: 9, authorId: "user:admin" })).rejects.toThrow(/Roll back to a version from 1 to 3/);
  });

  it("deprecating or restoring one entry is one new version with the reason; doing it twice is a conflict", async () => {
    const id = starterLibrary()[1].failure_id;
    const v = await setEntryDeprecated(tdb.db, { failureId: id, deprecated: true, reason: "duplicate of another entry", authorId: "user:admin" });
    expect((await listLibraryVersions(tdb.db, 1))[0]).toMatchObject({ version: v, summary: `Deprecated ${id}: duplicate of another entry` });
    await expect(setEntryDeprecated(tdb.db, { failureId: id, deprecated: true, reason: "again", authorId: "user:admin" })).rejects.toMatchObject({ code: "conflict" });
    expect(await setEntryDeprecated(tdb.db, { failureId: id, deprecated: false, reason: "not a duplicate after all", authorId: "user:admin" })).toBe(v + 1);
  });
});
