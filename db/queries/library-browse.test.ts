import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missionDefinitionSchema } from "../../lib/mission";
import { starterLibrary } from "../seed";
import { libraryMatches } from "../schema";
import { createTestDatabase, type TestDatabase } from "../test-helpers";
import { createMission } from "./events";
import { loadStarterLibrary, publishChanges } from "./library";
import { browseFiltersSchema, entryDetail, librarySummary, listEntries, listVersions, popularTags, searchParamsObject } from "./library-browse";
import { ensureActor } from "./users";

let tdb: TestDatabase;
const starter = starterLibrary();
const filters = (q: Record<string, string | string[]>) => browseFiltersSchema.parse(q);

beforeAll(async () => {
  tdb = await createTestDatabase();
  await ensureActor(tdb.db, { id: "system:seed", kind: "system", displayName: "Faultline seed" });
  await ensureActor(tdb.db, { id: "user:ada", kind: "user", displayName: "Ada Admin" });
  await ensureActor(tdb.db, { id: "user:rita", kind: "user", displayName: "Rita Reviewer" });
  await loadStarterLibrary(tdb.db, starter, "system:seed");
});
afterAll(async () => {
  await tdb?.drop();
});

describe("browsing the library (PostgreSQL)", () => {
  it("pages through every published entry, sorted by id by default, with the total", async () => {
    const p1 = await listEntries(tdb.db, filters({ per: "25" }));
    expect(p1.total).toBe(starter.length);
    expect(p1.pages).toBe(Math.ceil(starter.length / 25));
    expect(p1.entries).toHaveLength(25);
    const ids = p1.entries.map((e) => e.failure_id);
    expect(ids).toEqual([...ids].sort());
    const last = await listEntries(tdb.db, filters({ per: "25", page: String(p1.pages) }));
    expect(last.entries.length).toBe(starter.length - 25 * (p1.pages - 1));
    const past = await listEntries(tdb.db, filters({ per: "25", page: "99" }));
    expect(past).toMatchObject({ entries: [], total: starter.length });
  });

  it("searches the text of the entries and ranks the best match first; an id fragment finds its entry", async () => {
    const r = await listEntries(tdb.db, filters({ q: "child-safety latch drawer" }));
    expect(r.entries[0].failure_id).toBe("FM-PHY-0001");
    const byId = await listEntries(tdb.db, filters({ q: "FM-PHY-0003" }));
    expect(byId.entries.map((e) => e.failure_id)).toEqual(["FM-PHY-0003"]);
    // LIKE wildcards are text, not patterns.
    expect((await listEntries(tdb.db, filters({ q: "%_%" }))).total).toBe(0);
  });

  it("filters by category, risk, all given tags and source; filters combine", async () => {
    const expected = starter.filter((e) => e.category === "Constraint" && (e.risk_level === "High" || e.risk_level === "Requires-Oversight"));
    const r = await listEntries(tdb.db, filters({ category: "Constraint", risk: ["High", "Requires-Oversight"], per: "100" }));
    expect(r.entries.map((e) => e.failure_id).sort()).toEqual(expected.map((e) => e.failure_id).sort());
    const tagged = await listEntries(tdb.db, filters({ tag: "drawer,furniture", per: "100" }));
    expect(tagged.total).toBe(starter.filter((e) => e.context_tags.includes("drawer") && e.context_tags.includes("furniture")).length);
    expect(tagged.total).toBeGreaterThan(1);
    expect((await listEntries(tdb.db, filters({ source: "crowdsourcing" }))).total).toBe(0);
    expect((await listEntries(tdb.db, filters({ source: "expert_curation" }))).total).toBe(starter.length);
  });

  it("hides deprecated entries unless asked; sorts by risk with Requires-Oversight first", async () => {
    await tdb.db.transaction((tx) => publishChanges(tx, { changes: [{ kind: "deprecate", failureId: "FM-PHY-0002" }], authorId: "user:ada", summary: "Superseded by a better entry" }));
    expect((await listEntries(tdb.db, filters({ q: "FM-PHY-0002" }))).total).toBe(0);
    const only = await listEntries(tdb.db, filters({ deprecated: "only" }));
    expect(only.entries.map((e) => [e.failure_id, e.deprecated])).toEqual([["FM-PHY-0002", true]]);
    expect((await listEntries(tdb.db, filters({ deprecated: "show" }))).total).toBe(starter.length);
    const risk = await listEntries(tdb.db, filters({ sort: "risk", per: "100" }));
    expect(risk.entries[0].risk_level).toBe("Requires-Oversight");
    expect(await librarySummary(tdb.db)).toEqual({ version: 2, published: starter.length - 1, deprecated: 1 });
  });

  it("refuses bad filters with the field and what is allowed", () => {
    const r = browseFiltersSchema.safeParse({ category: "Cosmic", per: "7", sort: "random" });
    expect(r.success).toBe(false);
    const msgs = r.error!.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(msgs).toEqual(expect.arrayContaining([expect.stringMatching(/^category.0: must be one of Physical/), "per: must be 25, 50 or 100", expect.stringMatching(/^sort: must be one of relevance/)]));
    expect(searchParamsObject(new URLSearchParams("risk=High&risk=Low&q=x&sort=&tag="))).toEqual({ risk: ["High", "Low"], q: "x" });
    // What the console's filter form submits when nothing else is chosen.
    expect(browseFiltersSchema.safeParse(searchParamsObject(new URLSearchParams("q=latch&category=Constraint&tag=&deprecated=hide&sort=&per=50"))).success).toBe(true);
  });

  it("lists popular tags and the versions with their author's name", async () => {
    const tags = await popularTags(tdb.db, 5);
    expect(tags).toHaveLength(5);
    expect(tags[0].n).toBeGreaterThanOrEqual(tags[4].n);
    const versions = await listVersions(tdb.db);
    expect(versions.map((v) => [v.version, v.authorName])).toEqual([
      [2, "Ada Admin"],
      [1, "Faultline seed"],
    ]);
    expect(versions[0].changelog).toEqual([{ failureId: "FM-PHY-0002", change: "deprecated", revision: 2 }]);
  });

  it("opens an entry with its history (author, reviewer, diff) and the mission failures that matched it", async () => {
    const base = starter.find((e) => e.failure_id === "FM-PHY-0001")!;
    await tdb.db.transaction((tx) => publishChanges(tx, { changes: [{ kind: "upsert", entry: { ...base, risk_level: "Medium" } }], authorId: "user:ada", reviewerId: "user:rita", summary: "Risk raised" }));
    const def = missionDefinitionSchema.parse({ name: "Kitchen robot run", objective: "x", phases: [{ name: "EXECUTION", agents: [{ name: "arm", priority: "critical", steps: [{ tool: "file", args: { op: "list", path: "." } }] }] }] });
    await ensureActor(tdb.db, { id: "user:op", kind: "user", displayName: "op" });
    const m = await createMission(tdb.db, { definition: def, actorId: "user:op" });
    await tdb.db.insert(libraryMatches).values([
      { missionId: m.id, seq: 4, failureId: "FM-PHY-0001", rank: 1, matchScore: 0.87, outcome: "confirmed" },
      { missionId: m.id, seq: 4, failureId: "FM-PHY-0003", rank: 2, matchScore: 0.41, outcome: null },
    ]);
    const d = await entryDetail(tdb.db, "FM-PHY-0001");
    expect(d!.entry).toMatchObject({ failure_id: "FM-PHY-0001", risk_level: "Medium", revision: 2, libraryVersion: 3 });
    expect(d!.history.map((h) => [h.revision, h.change, h.authorName, h.reviewerName])).toEqual([
      [2, "edited", "Ada Admin", "Rita Reviewer"],
      [1, "added", "Faultline seed", null],
    ]);
    expect(d!.history[0].diff).toEqual([{ field: "risk_level", before: "Low", after: "Medium" }]);
    expect(d!.history[0].versionSummary).toBe("Risk raised");
    expect(d!.matches).toEqual([{ missionId: m.id, missionName: "Kitchen robot run", seq: 4, rank: 1, matchScore: expect.closeTo(0.87, 5), outcome: "confirmed", at: expect.any(String) }]);
    expect(d!.matchCount).toBe(1);
    expect(await entryDetail(tdb.db, "FM-NOPE-0001")).toBeNull();
  });
});
