import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LibraryEntry } from "../../lib/library/entry";
import { parseLibraryFile, serializeLibrary } from "../../lib/library/io";
import { starterLibrary } from "../seed";
import { createTestDatabase, type TestDatabase } from "../test-helpers";
import { getEntry, loadStarterLibrary, rollbackLibrary } from "./library";
import { librarySummary, listVersions } from "./library-browse";
import { exportEntries, importLibrary, planImport } from "./library-io";

let tdb: TestDatabase;
const starter = starterLibrary();
const newEntry: LibraryEntry = {
  failure_id: "FM-TST-0001",
  title: "Vacuum-sealed jar lid",
  category: "State",
  surface_symptom: "Jar lid will not turn at 4 N·m; no slip, no deformation",
  hidden_reality: "Cooling after sealing left a vacuum that presses the lid onto the rim.",
  diagnostic_probe: "Tap the lid edge and listen for a pop; check the safety button in the lid centre.",
  resolution_path: "Break the vacuum by lifting the lid edge with a spoon, then turn.",
  risk_level: "Low",
  context_tags: ["jar", "lid", "kitchen"],
  references: [],
  source: "crowdsourcing",
};

beforeAll(async () => {
  tdb = await createTestDatabase();
  await loadStarterLibrary(tdb.db, starter, "system:seed");
});
afterAll(async () => {
  await tdb?.drop();
});

describe("importing and exporting the library (PostgreSQL)", () => {
  it("exports the published library; importing the export changes nothing", async () => {
    const ex = await exportEntries(tdb.db);
    expect(ex.version).toBe(1);
    expect(ex.entries).toHaveLength(starter.length);
    const parsed = parseLibraryFile(serializeLibrary(ex.entries, "yaml", { version: ex.version }));
    expect(parsed.ok).toBe(true);
    const r = await importLibrary(tdb.db, { entries: parsed.ok ? parsed.entries : [], replace: true, authorId: "cli:test" });
    expect(r.version).toBeNull();
    expect(r.plan.counts).toEqual({ added: 0, edited: 0, unchanged: starter.length, deprecated: 0, restored: 0 });
  });

  it("previews, then imports added and edited entries as one version; the preview changed nothing", async () => {
    const edited = { ...starter[1], risk_level: "High" as const };
    const plan = await planImport(tdb.db, [newEntry, edited, starter[2]], { replace: false });
    expect(plan.counts).toEqual({ added: 1, edited: 1, unchanged: 1, deprecated: 0, restored: 0 });
    expect(plan.ids).toEqual({ added: ["FM-TST-0001"], edited: [starter[1].failure_id], deprecated: [], restored: [] });
    expect(await getEntry(tdb.db, "FM-TST-0001")).toBeNull();
    const r = await importLibrary(tdb.db, { entries: [newEntry, edited, starter[2]], replace: false, authorId: "cli:test", source: "jar.yaml" });
    expect(r.version).toBe(2);
    const [v2] = await listVersions(tdb.db, { limit: 1 });
    expect(v2.summary).toBe("Import of jar.yaml: 1 added, 1 edited (3 entries in the file).");
    expect(v2.changelog.map((c) => c.change).sort()).toEqual(["added", "edited"]);
    expect(await getEntry(tdb.db, starter[1].failure_id)).toMatchObject({ risk_level: "High", revision: 2, libraryVersion: 2 });
  });

  it("--replace makes the file the whole library: the rest is deprecated, deprecated entries in the file come back, one version", async () => {
    const keep = starter.slice(0, 10);
    const r = await importLibrary(tdb.db, { entries: keep, replace: true, authorId: "cli:test" });
    expect(r.version).toBe(3);
    // starter[1] was edited in version 2: the file's copy puts it back.
    expect(r.plan.counts).toEqual({ added: 0, edited: 1, unchanged: 9, deprecated: starter.length - 10 + 1, restored: 0 });
    expect(await librarySummary(tdb.db)).toEqual({ version: 3, published: 10, deprecated: starter.length - 10 + 1 });
    expect((await exportEntries(tdb.db)).entries.map((e) => e.failure_id)).toEqual(keep.map((e) => e.failure_id).sort());
    const again = await importLibrary(tdb.db, { entries: [...keep, starter[20]], replace: true, authorId: "cli:test" });
    expect(again.plan.counts).toMatchObject({ restored: 1, deprecated: 0, unchanged: 11 });
    expect(await getEntry(tdb.db, starter[20].failure_id)).toMatchObject({ deprecated: false });
  });

  it("refuses to replace the library with an empty file; rollback after an import brings the entries back", async () => {
    await expect(planImport(tdb.db, [], { replace: true })).rejects.toThrow(/deprecate every entry/);
    const v = await rollbackLibrary(tdb.db, { to: 2, authorId: "user:admin" });
    expect(v).toBe(5);
    const s = await librarySummary(tdb.db);
    expect(s.published).toBe(starter.length + 1);
    expect((await exportEntries(tdb.db, { includeDeprecated: true })).entries).toHaveLength(starter.length + 1);
  });
});
