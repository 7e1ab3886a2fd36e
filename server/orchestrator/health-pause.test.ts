import { getMissionState } from "../../db/queries/missions";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listFailuresByMission } from "../../db/queries/audit";
import { createMission } from "../../db/queries/events";
import { ensureActor } from "../../db/queries/users";
import { missions } from "../../db/schema";
import { createTestDatabase, type TestDatabase } from "../../db/test-helpers";
import { definition } from "../../lib/mission/test-fixtures";
import type { HealthReport } from "../health";
import { applyHealthReport } from "./health-pause";

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
  await ensureActor(tdb.db, { id: "user:op", kind: "user", displayName: "op" });
  await ensureActor(tdb.db, { id: "worker:h", kind: "worker", displayName: "worker" });
});
afterAll(async () => tdb?.drop());

const report = (over: Partial<HealthReport>): HealthReport => ({
  database: "healthy",
  objectStorage: "healthy",
  llmProviders: {},
  websocket: "healthy",
  workers: { active: 1, stale: 0 },
  overall: "healthy",
  problems: [],
  checkedAt: new Date().toISOString(),
  durationMs: 1,
  slow: { database: false, objectStorage: false },
  ...over,
});

describe("health checks pause and resume active missions (FAILURE_MODEL: unavailable → builds pause)", () => {
  it("every LLM provider unavailable pauses active missions with the reason; recovery resumes exactly those", async () => {
    const a = await createMission(tdb.db, { definition: definition(), actorId: "user:op" });
    const b = await createMission(tdb.db, { definition: definition(), actorId: "user:op" });
    const down = report({ llmProviders: { primary: { status: "unavailable" }, backup: { status: "unavailable" } }, overall: "unavailable" });
    expect(await applyHealthReport(tdb.db, "worker:h", down, () => {})).toEqual({ paused: 2, resumed: 0 });
    const row = { state: (await getMissionState(tdb.db, a.id))! };
    expect(row.state.paused).toMatchObject({ kind: "infrastructure" });
    expect(row.state.paused?.message).toMatch(/every LLM provider is unavailable/);
    expect((await listFailuresByMission(tdb.db, a.id))[0]).toMatchObject({ level: "infrastructure", severity: "critical" });
    // A second worker seeing the same report changes nothing.
    expect(await applyHealthReport(tdb.db, "worker:h", down, () => {})).toEqual({ paused: 0, resumed: 0 });
    expect(await applyHealthReport(tdb.db, "worker:h", report({}), () => {})).toEqual({ paused: 0, resumed: 2 });
    expect((await getMissionState(tdb.db, b.id))!.paused).toBeNull();
    expect((await listFailuresByMission(tdb.db, b.id))[0].resolution).toMatchObject({ action: "resume", resolvedBy: null });
  });

  it("a database outage is left to the runner (nothing can be written), and operator pauses are never resumed by health", async () => {
    expect(await applyHealthReport(tdb.db, "worker:h", report({ database: "unavailable", overall: "unavailable" }), () => {})).toEqual({ paused: 0, resumed: 0 });
  });
});
