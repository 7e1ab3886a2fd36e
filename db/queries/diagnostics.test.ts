import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../test-helpers";
import { missionDefinitionSchema } from "../../lib/mission/definition";
import { simulate, type StepOutcome } from "../../lib/mission/simulate";
import { createMission, appendEvents } from "./events";
import { ensureActor } from "./users";
import { diagnosticsReport } from "./diagnostics";
import { successMetrics } from "../../lib/diagnosis/metrics";

/** ADR-0003 success metrics computed from a real event log on PostgreSQL. */
let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
  await ensureActor(tdb.db, { id: "user:t", kind: "user", displayName: "T" });
  await ensureActor(tdb.db, { id: "worker:sim", kind: "worker", displayName: "sim" });
});
afterAll(async () => {
  await tdb?.drop();
});

const timedOut: StepOutcome = { kind: "fail", error: { code: "TIMEOUT", message: "http GET http://127.0.0.1:9/slow did not complete within 1000 ms." } };

/** Records a simulated run's log in the database (events after mission.created, as the worker would). */
async function record(name: string, recovery: "auto" | "propose", failures: number) {
  const def = missionDefinitionSchema.parse({ name, objective: "x", recovery, phases: [{ name: "EXECUTION", agents: [{ name: "a", priority: "critical", steps: [{ tool: "http", args: { url: "http://127.0.0.1:9/slow" } }] }] }] });
  let runs = 0;
  const sim = await simulate(def, { outcome: () => (++runs <= failures ? timedOut : { kind: "ok" }), decide: () => "abort" });
  const created = await createMission(tdb.db, { definition: def, actorId: "user:t" });
  await tdb.db.transaction((tx) => appendEvents(tx, { missionId: created.id, actorId: "worker:sim", events: sim.events.slice(1).map(({ missionId: _m, seq: _s, actorId: _a, at: _t, ...e }) => e) }));
}

describe("diagnosticsReport", () => {
  it("counts diagnoses, recoveries and gates per definition and turns them into the ADR's metrics", async () => {
    await record("recovers", "auto", 1); // diagnosed, recovered without a person
    await record("gives up", "auto", 10); // the one runnable strategy (double the time limit) fails, then a gate
    const r = await diagnosticsReport(tdb.db, { days: 1 });
    expect(r.total).toMatchObject({ diagnosed: 3, recoveriesStarted: 2, recovered: 1, recoveryFailed: 1, gates: 1, fastPath: 0 });
    const m = successMetrics(r.total);
    expect(m.recoverySuccessRate).toBeCloseTo(1 / 2);
    expect(m.userInterventionRequired).toBeCloseTo(1 / 3);
    expect(m.patternReuse).toBe(0);
    expect(r.byDefinition.map((d) => d.key).sort()).toEqual(["gives up", "recovers"]);
    expect(r.byType).toEqual([{ type: "timeout", count: 3 }]);
    const only = await diagnosticsReport(tdb.db, { days: 1, definition: "recovers" });
    expect(only.total).toMatchObject({ diagnosed: 1, recovered: 1, gates: 0 });
  });
});
