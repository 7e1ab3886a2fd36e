import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isTuningQuery, readLabelledQueries } from "../../lib/library/labelled";
import { starterLibrary } from "../seed";
import { createTestDatabase, type TestDatabase } from "../test-helpers";
import { loadStarterLibrary, setEntryDeprecated } from "./library";
import { labelledScoreReliability, walkScoreReliability } from "./library-calibration";
import { ensureActor } from "./users";

/**
 * The library's match scores against the labelled reports nobody fitted on, on real PostgreSQL with the
 * starter library (what Diagnostics shows beside the walks' verdicts).
 */
let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
  await ensureActor(tdb.db, { id: "user:rev", kind: "user", displayName: "Rev" });
});
afterAll(async () => {
  await tdb?.drop();
});

const heldOut = readLabelledQueries().filter((q) => !isTuningQuery(q));

describe("labelled match-score reliability", () => {
  it("says nothing about an empty library", async () => {
    expect(await labelledScoreReliability(tdb.db)).toBeNull();
    expect((await walkScoreReliability(tdb.db, { days: 30 })).cases).toBe(0);
  });

  it("asks every held-out report of the starter library: most answers right, every abstention counted apart", async () => {
    await loadStarterLibrary(tdb.db, starterLibrary(), "system:seed");
    const r = (await labelledScoreReliability(tdb.db))!;
    expect(heldOut.length).toBeGreaterThan(100);
    expect(r.asked).toBe(heldOut.length);
    expect(r.cases + r.abstained).toBe(r.asked);
    expect(r.accuracy!).toBeGreaterThan(0.8);
    expect(r.ece!).toBeLessThan(0.2);
    expect(r.bins.reduce((n, b) => n + b.count, 0)).toBe(r.cases);
    // Asked once per library version.
    expect(await labelledScoreReliability(tdb.db)).toBe(r);
  });

  it("follows the library: a deprecated entry's reports are no longer asked", async () => {
    const before = (await labelledScoreReliability(tdb.db))!;
    const target = heldOut.find((q) => q.expected.length === 1)!.expected[0];
    const expecting = heldOut.filter((q) => q.expected.includes(target)).length;
    await setEntryDeprecated(tdb.db, { failureId: target, deprecated: true, reason: "test", authorId: "user:rev" });
    const after = (await labelledScoreReliability(tdb.db))!;
    expect(after.libraryVersion).toBeGreaterThan(before.libraryVersion!);
    expect(after.asked).toBe(before.asked - expecting);
  });
});
