import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../test-helpers";
import { appendEvents, createMission, listEventsAfter } from "./events";
import { forgetStates, SNAPSHOT_MIN_EVENTS } from "./mission-state";
import { getMissionById, getMissionState } from "./missions";
import { ensureActor } from "./users";
import { missions } from "../schema";
import { reduce, simulate, type MissionEvent } from "../../lib/mission";
import { definition, nodeStep } from "../../lib/mission/test-fixtures";

let tdb: TestDatabase;

beforeAll(async () => {
  tdb = await createTestDatabase();
  await ensureActor(tdb.db, { id: "user:test", kind: "user", displayName: "Test operator" });
  await ensureActor(tdb.db, { id: "worker:test", kind: "worker", displayName: "Test worker" });
});
afterAll(async () => tdb?.drop());

const body = (e: MissionEvent) => ({ type: e.type, payload: e.payload, reason: e.reason, impact: e.impact, evidence: e.evidence }) as never;
const snapshotOf = async (id: string) => (await tdb.db.select({ seq: missions.snapshotSeq, last: missions.lastSeq, state: missions.state, definition: missions.definition }).from(missions).where(eq(missions.id, id)))[0];

describe("a mission's state: a snapshot plus the events after it (issue 19)", () => {
  it("writes the snapshot every so often, not at every event, and reads the same state as reduce(events) warm or cold", async () => {
    const def = definition({ agents: [{ name: "long", priority: "critical", steps: Array.from({ length: 100 }, () => nodeStep("1")) }] });
    const m = await createMission(tdb.db, { definition: def, actorId: "user:test" });
    const { events } = await simulate(def, { missionId: m.id, outcome: () => ({ kind: "ok" }), decide: () => "abort" });
    expect(events.length).toBeGreaterThan(3 * SNAPSHOT_MIN_EVENTS);
    const snapshotSeqs = new Set<number>();
    for (const [i, e] of events.slice(1).entries()) {
      await tdb.db.transaction((tx) => appendEvents(tx, { missionId: m.id, actorId: "worker:test", events: [body(e)] }));
      const snap = await snapshotOf(m.id);
      snapshotSeqs.add(snap.seq);
      if (i % 25 === 0 || i === events.length - 2) {
        const log = await listEventsAfter(tdb.db, { missionId: m.id });
        // The snapshot is the state at its own seq, without the definition (stored once beside it).
        expect(snap.state).not.toHaveProperty("definition");
        expect({ ...snap.state, definition: snap.definition }).toEqual(reduce(log.slice(0, snap.seq)));
        expect(await getMissionState(tdb.db, m.id)).toEqual(reduce(log));
        forgetStates(); // as a process that has read nothing: snapshot + the events after it
        expect(await getMissionState(tdb.db, m.id)).toEqual(reduce(log));
      }
    }
    // A handful of snapshots for hundreds of events, and the last one at the mission's end.
    expect(snapshotSeqs.size).toBeLessThanOrEqual(Math.ceil(events.length / SNAPSHOT_MIN_EVENTS) + 1);
    const end = await snapshotOf(m.id);
    expect(end.seq).toBe(events.length);
    expect((await getMissionById(tdb.db, m.id))?.state.finalStatus).toBe("SUCCESS");
  });

  it("never serves the state of a transaction that rolled back, to this process or another", async () => {
    const def = definition({ agents: [{ name: "one", priority: "critical", steps: [nodeStep("1")] }] });
    const m = await createMission(tdb.db, { definition: def, actorId: "user:test" });
    const { events } = await simulate(def, { missionId: m.id, outcome: () => ({ kind: "ok" }), decide: () => "abort" });
    await tdb.db.transaction((tx) => appendEvents(tx, { missionId: m.id, actorId: "worker:test", events: [body(events[1])] }));
    await expect(
      tdb.db.transaction(async (tx) => {
        await appendEvents(tx, { missionId: m.id, actorId: "worker:test", events: [body(events[2])] });
        throw new Error("the caller gives up after the append");
      }),
    ).rejects.toThrow(/gives up/);
    const state = await getMissionState(tdb.db, m.id);
    expect(state?.seq).toBe(2);
    expect(state).toEqual(reduce(await listEventsAfter(tdb.db, { missionId: m.id })));
    // The same event appended again, for real this time, lands at the same seq.
    await tdb.db.transaction((tx) => appendEvents(tx, { missionId: m.id, actorId: "worker:test", events: [body(events[2])] }));
    expect((await getMissionState(tdb.db, m.id))?.seq).toBe(3);
  });
});
