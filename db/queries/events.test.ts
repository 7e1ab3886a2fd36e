import { forgetStates } from "./mission-state";
import { getMissionState } from "./missions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { createTestDatabase, dbError, type TestDatabase } from "../test-helpers";
import { appendEvents, createMission, listEventsAfter, rebuildStaleSnapshots } from "./events";
import { decideGate } from "./gates";
import { listFailuresByMission } from "./audit";
import { listFailureHistory } from "./failure-history";
import { parseHistoryFilters } from "../../lib/history/filters";
import { HISTORY_BUILT_IN_QUERIES } from "../../lib/history/saved-queries";
import { ensureActor } from "./users";
import { agents, gates, missions } from "../schema";
import { reduce, simulate, STATE_VERSION, transitions as t } from "../../lib/mission";
import { definition, nodeStep } from "../../lib/mission/test-fixtures";

let tdb: TestDatabase;

beforeAll(async () => {
  tdb = await createTestDatabase();
  await ensureActor(tdb.db, { id: "user:test", kind: "user", displayName: "Test operator" });
  await ensureActor(tdb.db, { id: "worker:test", kind: "worker", displayName: "Test worker" });
});
afterAll(async () => tdb?.drop());

describe("the event log", () => {
  it("rejects UPDATE, DELETE and TRUNCATE of events", async () => {
    const m = await createMission(tdb.db, { definition: definition(), actorId: "user:test" });
    expect(await dbError(tdb.db.execute(sql`update events set reason = 'x' where mission_id = ${m.id}`))).toMatch(/append-only: UPDATE/);
    expect(await dbError(tdb.db.execute(sql`delete from events where mission_id = ${m.id}`))).toMatch(/append-only: DELETE/);
    expect(await dbError(tdb.db.execute(sql`truncate events cascade`))).toMatch(/append-only: TRUNCATE/);
    expect(await listEventsAfter(tdb.db, { missionId: m.id })).toHaveLength(1);
  });

  it("rejects a second event with the same (mission, seq)", async () => {
    const m = await createMission(tdb.db, { definition: definition(), actorId: "user:test" });
    expect(
      await dbError(tdb.db.execute(sql`insert into events (mission_id, mission_created_at, seq, type, actor_id, payload, reason, impact) values (${m.id}, ${m.createdAt}, 1, 'phase.started', 'worker:test', '{}', 'r', 'i')`)),
    ).toMatch(/duplicate key value violates unique constraint "events_p\d{6}_pkey"/); // the month partition's part of events_pkey
    // Partitioned by the mission's creation time (migration 0028): another time would put the same (mission, seq)
    // in another partition, so the foreign key to missions (id, created_at) admits only the mission's own.
    expect(
      await dbError(tdb.db.execute(sql`insert into events (mission_id, mission_created_at, seq, type, actor_id, payload, reason, impact) values (${m.id}, ${m.createdAt}::timestamptz - interval '40 days', 1, 'phase.started', 'worker:test', '{}', 'r', 'i')`)),
    ).toMatch(/events_mission_fk/);
  });

  it("concurrent appends to one mission get consecutive seqs with no gap or duplicate", async () => {
    const m = await createMission(tdb.db, { definition: definition(), actorId: "user:test" });
    // Ten writers race to append a phase.started; the reducer allows only the first, the rest are illegal.
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => tdb.db.transaction((tx) => appendEvents(tx, { missionId: m.id, actorId: "worker:test", events: [t.phaseStarted("EXECUTION", "start")] }))),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.filter((r) => r.status === "rejected").every((r) => /Illegal transition: phase.started/.test(String((r as PromiseRejectedResult).reason)))).toBe(true);
    const seqs = (await listEventsAfter(tdb.db, { missionId: m.id })).map((e) => e.seq);
    expect(seqs).toEqual([1, 2]);
  });

  it("an illegal transition writes nothing", async () => {
    const m = await createMission(tdb.db, { definition: definition(), actorId: "user:test" });
    await expect(tdb.db.transaction((tx) => appendEvents(tx, { missionId: m.id, actorId: "worker:test", events: [t.phaseStarted("EXECUTION", "x"), t.phaseStarted("REVIEW", "x")] }))).rejects.toThrow(
      /Illegal transition/,
    );
    expect(await listEventsAfter(tdb.db, { missionId: m.id })).toHaveLength(1);
    const [row] = await tdb.db.select().from(missions).where(eq(missions.id, m.id));
    expect(row.lastSeq).toBe(1);
  });

  it("projections (missions, agents, gates) equal reduce(events) after every event", async () => {
    const def = definition({
      agents: [
        { name: "plan", priority: "critical", steps: [nodeStep("1")] },
        { name: "search", priority: "important", steps: [nodeStep("1")] },
        { name: "lint", priority: "optional", steps: [nodeStep("1")] },
      ],
    });
    // The event sequence of a real run, replayed one append at a time through the database.
    const m = await createMission(tdb.db, { definition: def, actorId: "user:test" });
    const { events } = await simulate(def, {
      missionId: m.id,
      outcome: (agent, _s, attempt) => (agent === "search" && attempt === 1 ? { kind: "fail", error: { code: "CONNECTION_REFUSED", message: "refused" } } : agent === "lint" ? { kind: "no-evidence" } : { kind: "ok" }),
      decide: () => "retry",
    });
    for (const e of events.slice(1)) {
      const { type, payload, reason, impact, evidence } = e;
      const body = { type, payload, reason, impact, evidence };
      await tdb.db.transaction((tx) => appendEvents(tx, { missionId: m.id, actorId: e.actorId.startsWith("user") ? "user:test" : "worker:test", events: [body as never] }));
      const log = await listEventsAfter(tdb.db, { missionId: m.id });
      const expected = reduce(log);
      const [row] = await tdb.db.select().from(missions).where(eq(missions.id, m.id));
      expect(await getMissionState(tdb.db, m.id)).toEqual(expected);
      // The snapshot is the state as of its seq, without the definition; a process that has read nothing gets the same state.
      expect({ ...row.state, definition: row.definition }).toEqual(reduce(log.slice(0, row.snapshotSeq)));
      forgetStates();
      expect(await getMissionState(tdb.db, m.id)).toEqual(expected);
      expect({ phase: row.phase, runState: row.runState, lastSeq: row.lastSeq, finalStatus: row.finalStatus, openGates: row.openGates }).toEqual({
        phase: expected.phase,
        runState: expected.runState,
        lastSeq: expected.seq,
        finalStatus: expected.finalStatus,
        openGates: expected.gates.filter((g) => g.status === "open").length,
      });
      const agentRows = await tdb.db.select().from(agents).where(eq(agents.missionId, m.id));
      expect(Object.fromEntries(agentRows.map((a) => [a.name, [a.status, a.attempt]]))).toEqual(Object.fromEntries(expected.agentOrder.map((n) => [n, [expected.agents[n].status, expected.agents[n].attempt]])));
      const gateRows = await tdb.db.select().from(gates).where(eq(gates.missionId, m.id));
      expect(gateRows.map((g) => [g.id, g.status, g.decision])).toEqual(expected.gates.map((g) => [g.id, g.status, g.decision]));
    }
    const [final] = await tdb.db.select().from(missions).where(eq(missions.id, m.id));
    expect(final.finalStatus).toBe("PARTIAL_SUCCESS");
  });

  it("a gate decision is a decision record: who, what, when, note and how long the gate was open", async () => {
    const def = definition({ agents: [{ name: "build", priority: "critical", steps: [nodeStep("1")] }] });
    const m = await createMission(tdb.db, { definition: def, actorId: "user:test" });
    const { events } = await simulate(def, { missionId: m.id, outcome: () => ({ kind: "fail", error: { code: "EXIT_NONZERO", message: "exit 1", exitCode: 1 } }), decide: () => "abort" });
    const upToGate = events.slice(1, events.findIndex((e) => e.type === "gate.opened") + 1);
    await tdb.db.transaction((tx) => appendEvents(tx, { missionId: m.id, actorId: "worker:test", events: upToGate.map(({ type, payload, reason, impact, evidence }) => ({ type, payload, reason, impact, evidence }) as never) }));
    const [gate] = await tdb.db.select().from(gates).where(eq(gates.missionId, m.id));
    await decideGate(tdb.db, { gateId: gate.id, decision: "abort", note: "not today", actorId: "user:test", actorName: "Test operator" });
    const [after] = await tdb.db.select().from(gates).where(eq(gates.id, gate.id));
    expect(after).toMatchObject({ status: "resolved", decision: "abort", decidedBy: "user:test", note: "not today" });
    expect(after.openMs).toBeGreaterThanOrEqual(0);
    await expect(decideGate(tdb.db, { gateId: gate.id, decision: "retry", note: null, actorId: "user:test", actorName: "x" })).rejects.toThrow(/already resolved: abort/);
  });
});

describe("snapshots of an older shape, at start", () => {
  it("are rebuilt from the events; a mission whose events no longer replay keeps its snapshot and is not tried again on the next start", async () => {
    const ok = await createMission(tdb.db, { definition: definition(), actorId: "user:test" });
    const bad = await createMission(tdb.db, { definition: definition(), actorId: "user:test" });
    // A log the current rules refuse: a second mission.created (as a log recorded under older, looser rules could hold).
    await tdb.db.execute(sql`insert into events (mission_id, mission_created_at, seq, type, actor_id, payload, reason, impact) select mission_id, mission_created_at, 2, type, actor_id, payload, reason, impact from events where mission_id = ${bad.id} and seq = 1`);
    await tdb.db.execute(sql`update missions set state = jsonb_set(state, '{version}', '0') where id in (${ok.id}, ${bad.id})`);
    const version = async (id: string) => (await tdb.db.execute<{ v: string; refused: string | null }>(sql`select state->>'version' as v, state->>'replayRefused' as refused from missions where id = ${id}`))[0];

    expect(await rebuildStaleSnapshots(tdb.db)).toEqual({ rebuilt: 1, refused: 1 });
    expect(await version(ok.id)).toEqual({ v: String(STATE_VERSION), refused: null });
    expect(await version(bad.id)).toEqual({ v: "0", refused: String(STATE_VERSION) });
    // The next start: nothing left to rebuild, the refused one is not replayed again.
    expect(await rebuildStaleSnapshots(tdb.db)).toEqual({ rebuilt: 0, refused: 0 });
    // Refused under an older shape version: tried again (and refused again) under this one.
    await tdb.db.execute(sql`update missions set state = jsonb_set(state, '{replayRefused}', ${String(STATE_VERSION - 1)}::jsonb) where id = ${bad.id}`);
    expect(await rebuildStaleSnapshots(tdb.db)).toEqual({ rebuilt: 0, refused: 1 });
  });
});

describe("the failure audit trail", () => {
  it("every failure has an audit entry in the same transaction, resolved by what settled it", async () => {
    const def = definition({
      agents: [
        { name: "plan", priority: "critical", steps: [nodeStep("1")] },
        { name: "fetch", priority: "important", steps: [nodeStep("1")] },
        { name: "lint", priority: "optional", steps: [nodeStep("1")] },
      ],
    });
    const m = await createMission(tdb.db, { definition: def, actorId: "user:test" });
    const { events } = await simulate(def, {
      missionId: m.id,
      outcome: (agent, _s, attempt) =>
        agent === "fetch" && attempt === 1 ? { kind: "fail", error: { code: "RATE_LIMITED", message: "429 Too Many Requests", status: 429, retryAfterMs: 1000 } } : agent === "lint" ? { kind: "fail", error: { code: "EXIT_NONZERO", message: "3 broken links", exitCode: 2 } } : { kind: "ok" },
      decide: () => "retry",
    });
    for (const e of events.slice(1)) {
      const { type, payload, reason, impact, evidence } = e;
      await tdb.db.transaction((tx) => appendEvents(tx, { missionId: m.id, actorId: e.actorId.startsWith("user") ? "user:test" : "worker:test", events: [{ type, payload, reason, impact, evidence } as never] }));
    }
    const entries = await listFailuresByMission(tdb.db, m.id);
    expect(entries.map((x) => [x.agent, x.level, x.severity, x.resolution?.action, x.resolution?.resolvedBy])).toEqual([
      ["fetch", "agent", "error", "retry", "user:test"],
      ["lint", "agent", "warning", "continue", null],
    ]);
    expect(entries[0].context).toMatchObject({ code: "RATE_LIMITED", httpStatus: 429, retryAfterMs: 1000 });
    expect(entries[0].gateId).not.toBeNull();
    // FAILURE_MODEL's other two queries, as the failure history ships them (built-in saved queries).
    const builtIn = async (id: string) => {
      const parsed = parseHistoryFilters(new URLSearchParams(HISTORY_BUILT_IN_QUERIES.find((q) => q.id === id)!.query));
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
      return (await listFailureHistory(tdb.db, { filters: parsed.filters })).rows;
    };
    expect(await builtIn("builtin:rate-limited-1h")).toHaveLength(1);
    expect((await builtIn("builtin:unresolved")).filter((x) => x.missionId === m.id)).toEqual([]);
  });
});
