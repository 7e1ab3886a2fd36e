import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { definition } from "../../lib/mission/test-fixtures";
import { starterLibrary } from "../seed";
import { createTestDatabase, type TestDatabase } from "../test-helpers";
import { createMission } from "./events";
import { loadStarterLibrary } from "./library";
import { ensureActor } from "./users";
import { recordConfirmedReport, writeLibraryProtocol } from "./library-protocol";
import { queryLibrary, rankCandidates } from "./library-query";
import type { MissionEvent } from "../../lib/mission/events";

/**
 * Learning from confirmed walks (issue 18), on real PostgreSQL: a report a walk confirmed as an entry
 * raises that entry for similar reports, and only for similar ones. The wordings are invented for this
 * test (not from the bench sets).
 */
let tdb: TestDatabase;
let missionId: string;
beforeAll(async () => {
  tdb = await createTestDatabase();
  await loadStarterLibrary(tdb.db, starterLibrary(), "system:seed");
  await ensureActor(tdb.db, { id: "user:op", kind: "user", displayName: "Op" });
  missionId = (await createMission(tdb.db, { definition: definition({ name: "learning", agents: [{ name: "a", priority: "critical", steps: [{ tool: "shell", args: { command: "true" } }] }] }), actorId: "user:op" })).id;
});
afterAll(async () => {
  await tdb?.drop();
});

// A plant's own jargon the starter library does not use: the entry it turned out to be is FM-PHY-0047.
const report = { observed_symptom: "quarter-turn isolator on the yellow line: lever frozen, wrench reads 14 N·m, zero travel", object_class: "gas_isolator" };
const similar = { observed_symptom: "yellow line isolator lever frozen at 15 N·m, zero travel", object_class: "gas_isolator" };
const unrelated = { observed_symptom: "bottle slips out of the fingers while lifting, condensation on the glass" };
const rankOf = async (q: object, id: string) => (await rankCandidates(tdb.db, q, { limit: 10 })).findIndex((c) => c.failure_id === id);

describe("learning from confirmed walks", () => {
  it("a confirmed probe stores the report, and a similar report then ranks the confirmed entry first", async () => {
    const before = await rankCandidates(tdb.db, similar, { limit: 10 });
    const events = [
      { missionId, seq: 7, type: "library.hypotheses", at: new Date().toISOString(), actorId: "system:orchestrator", payload: { agent: "a", attempt: 1, step: 0, query: report, libraryVersion: 1, abstained: false, hypotheses: [] } },
      { missionId, seq: 8, type: "library.probe", at: new Date().toISOString(), actorId: "user:op", payload: { agent: "a", attempt: 1, step: 0, hypothesesSeq: 7, failure_id: "FM-PHY-0047", by: "operator", verdict: "confirmed", evidence: null, call: null, output: null } },
    ] as unknown as MissionEvent[];
    await tdb.db.transaction((tx) => writeLibraryProtocol(tx, events));
    const stored = (await tdb.db.execute(sql`select failure_id, symptom, lexemes from library_confirmed_reports`)) as unknown as Array<{ failure_id: string; symptom: string; lexemes: string[] }>;
    expect(stored).toHaveLength(1);
    expect(stored[0].failure_id).toBe("FM-PHY-0047");
    expect(stored[0].lexemes).toEqual(expect.arrayContaining(["isol", "yellow"]));

    const after = await rankCandidates(tdb.db, similar, { limit: 10 });
    expect(after[0].failure_id).toBe("FM-PHY-0047");
    expect(after[0].learned).toBeGreaterThanOrEqual(0.5);
    expect(after[0].raw).toBeGreaterThan(before.find((c) => c.failure_id === "FM-PHY-0047")?.raw ?? 0);
    // And the library answers it with that entry first (it does not abstain).
    const served = await queryLibrary(tdb.db, similar);
    expect(served.abstained).toBe(false);
    expect(served.results[0].failure_id).toBe("FM-PHY-0047");
  });

  it("does not move reports that share little with the confirmed one, and is idempotent", async () => {
    const r = await rankCandidates(tdb.db, unrelated, { limit: 10 });
    expect(r.every((c) => c.learned === 0)).toBe(true);
    await recordConfirmedReport(tdb.db, { missionId, seq: 7, failureId: "FM-PHY-0047", query: report });
    const n = (await tdb.db.execute(sql`select count(*)::int as n from library_confirmed_reports`)) as unknown as Array<{ n: number }>;
    expect(n[0].n).toBe(1);
    expect(await rankOf(similar, "FM-PHY-0047")).toBe(0);
  });

  it("a terse report whose few words a longer confirmed report happens to hold is not moved to that report's entry", async () => {
    // Confirmed: a tool that is installed but off PATH (FM-SW-0002). A bare 'command not found' of another tool is
    // the missing-binary entry's (FM-SW-0001) and must stay so: similarity is measured both ways (the confirmed
    // report's words must be in the new report too), not only as the share of the new report's words it holds.
    const offPath = { observed_symptom: "nightly deploy: bash: kubectl: command not found (exit 127) in the runner, yet /usr/local/bin/kubectl version works when called by its full path" };
    await recordConfirmedReport(tdb.db, { missionId, seq: 9, failureId: "FM-SW-0002", query: offPath });
    const terse = await rankCandidates(tdb.db, { observed_symptom: "bash: jq: command not found" }, { limit: 5 });
    expect(terse[0].failure_id).toBe("FM-SW-0001");
    expect(terse.find((c) => c.failure_id === "FM-SW-0002")?.learned ?? 0).toBe(0);
    // A report like the confirmed one still learns from it.
    const like = await rankCandidates(tdb.db, { observed_symptom: "deploy: bash: helm: command not found (exit 127), though /usr/local/bin/helm runs when called by full path" }, { limit: 5 });
    expect(like[0].failure_id).toBe("FM-SW-0002");
    expect(like[0].learned).toBeGreaterThanOrEqual(0.5);
  });
});

describe("the robot drawer demo", () => {
  it("still ranks Internal latch first and answers", async () => {
    // As db/seed/robot/drawer-robot.mjs reports it.
    const r = await queryLibrary(tdb.db, { observed_symptom: "drawer did not move: 0 mm displacement at 30 N pull, rigid stop, no visible obstruction", object_class: "drawer", force_applied: "30 N pull, within Class B parameters", environmental_context: ["indoor", "kitchen", "furniture", "wood-frame"] });
    expect(r.abstained).toBe(false);
    expect(r.results[0].hypothesis).toBe("Internal latch");
  });
});
