import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "../../db/client";
import { createTestDatabase, type TestDatabase } from "../../db/test-helpers";
import { appendAsOwner, appendEvents, createMission, EVENTS_CHANNEL, listEventsAfter, type EventsNotification } from "../../db/queries/events";
import { forgetStates } from "../../db/queries/mission-state";
import { claimMission, getMissionState } from "../../db/queries/missions";
import { ensureActor } from "../../db/queries/users";
import { missionDefinitionSchema, progress, reduce, simulate, transitions as t, type MissionEvent, type MissionState } from "../../lib/mission";
import { definition, nodeStep } from "../../lib/mission/test-fixtures";
import { runMission, type RunContext } from "./runner";

/**
 * The append path's statements (issue 19): appendEvents sends fixed texts through the driver (driverOf),
 * not drizzle's query builder. These tests read what they wrote back from PostgreSQL, column by column,
 * and count what a step sends.
 */

let tdb: TestDatabase;
let counted: DbHandle;
const sent: string[] = [];
/** Each statement's text with the bytes of its parameters (as sent: numbers and dates by their text). */
const sizes: Array<{ text: string; bytes: number }> = [];
let workspaces: string;

beforeAll(async () => {
  tdb = await createTestDatabase();
  counted = createDb(tdb.url, { max: 4, applicationName: "faultline-test-count", onQuery: (q, params) => {
    sent.push(q);
    sizes.push({ text: q, bytes: params.reduce<number>((n, p) => n + (p == null ? 0 : Buffer.byteLength(typeof p === "string" ? p : JSON.stringify(p))), 0) });
  } });
  await ensureActor(tdb.db, { id: "user:test", kind: "user", displayName: "Test operator" });
  await ensureActor(tdb.db, { id: "worker:test", kind: "worker", displayName: "Test worker" });
  workspaces = fs.mkdtempSync(path.join(os.tmpdir(), "fl-append-path-"));
});
afterAll(async () => {
  await counted?.close();
  await tdb?.drop();
  fs.rmSync(workspaces, { recursive: true, force: true });
});

/** What a statement is, by its first words: "insert into events", "select pg_notify", "update missions"… */
const kind = (q: string) => {
  const s = q.trim().replace(/\s+/g, " ").toLowerCase();
  if (s.startsWith("with m as (update missions")) return "with m";
  if (s.startsWith("select head,")) return s.endsWith("for update") ? "lock missions" : "read missions";
  return s.split(" ").slice(0, s.startsWith("insert into") ? 3 : 2).join(" ").replace(/\(.*$/, "");
};

describe("a step's transaction (the append path's fixed statements)", () => {
  it("is one statement (its own transaction, one round trip), the same text at every step, with one NOTIFY", async () => {
    const steps = 12;
    const def = missionDefinitionSchema.parse({
      name: "statements",
      objective: "no-op steps",
      library: false,
      phases: [{ name: "EXECUTION", timeoutMs: 3_600_000, agents: [{ name: "lister", priority: "critical", timeoutMs: 3_600_000, steps: Array.from({ length: steps }, (_, i) => ({ name: `list ${i}`, tool: "file", args: { op: "list", path: "." } })) }] }],
    });
    const m = await createMission(counted.db, { definition: def, actorId: "user:test" });
    expect(await claimMission(counted.db, { workerId: "worker:test", leaseMs: 3_600_000, onlyId: m.id })).toBe(m.id);
    forgetStates();
    sent.length = 0;
    const ctx: RunContext = { db: counted.db, workerId: "worker:test", workspacesDir: workspaces, allowedBinaries: [], libraryProtocol: false, signal: new AbortController().signal, shouldStop: () => false, log: () => {} };
    expect(await runMission(ctx, m.id)).toBe("terminal");

    const log = await listEventsAfter(tdb.db, { missionId: m.id });
    expect(log.filter((e) => e.type === "tool.succeeded")).toHaveLength(steps);
    const kinds = sent.map(kind);
    // The run read its mission once (forgetStates: as a process that has read nothing), then every append was
    // one statement but the first (this process knew no head yet) and the end's (the failure audit reads the log).
    const single = sent.filter((q) => kind(q) === "with m");
    const transactions = kinds.filter((k) => k === "begin").length;
    expect(single.length).toBeGreaterThanOrEqual(steps);
    expect(transactions).toBeLessThanOrEqual(2);
    // A step's success with the next step's start: the same text every time (prepared once per connection; no
    // text carries a step's values), the UPDATE conditioned on the head token and the lease, one NOTIFY.
    const stepText = single.filter((q) => q.includes("(values ($18::uuid") && q.includes("), ($28::uuid"));
    expect(stepText.length).toBeGreaterThanOrEqual(steps - 1);
    expect(new Set(stepText).size).toBe(1);
    expect(stepText[0]).toMatch(/^with m as \(update missions set .* where id = \$1 and head = \$16 and lease_owner = \$17 returning 1\)/s);
    expect(stepText[0].match(/pg_notify/g)).toHaveLength(1);
    expect(kinds).not.toContain("lock missions");
  });

  it("sends as much at step 290 as at step 20: what a step writes does not grow with the mission (snapshot apart, and it comes ever more rarely)", async () => {
    const def = missionDefinitionSchema.parse({
      name: "constant cost",
      objective: "no-op steps",
      library: false,
      phases: [{ name: "EXECUTION", timeoutMs: 3_600_000, agents: Array.from({ length: 3 }, (_, a) => ({ name: `lister-${a}`, priority: "critical", timeoutMs: 3_600_000, steps: Array.from({ length: 100 }, (_, i) => ({ name: `list ${a * 100 + i}`, tool: "file", args: { op: "list", path: "." } })) })) }],
    });
    const m = await createMission(counted.db, { definition: def, actorId: "user:test" });
    expect(await claimMission(counted.db, { workerId: "worker:test", leaseMs: 3_600_000, onlyId: m.id })).toBe(m.id);
    sizes.length = 0;
    const ctx: RunContext = { db: counted.db, workerId: "worker:test", workspacesDir: workspaces, allowedBinaries: [], libraryProtocol: false, signal: new AbortController().signal, shouldStop: () => false, log: () => {} };
    expect(await runMission(ctx, m.id)).toBe("terminal");

    // A step: its success with the next step's start (two event rows) and its agent's row, no snapshot.
    const appends = sizes.filter((q) => kind(q.text) === "with m");
    const steps = appends.filter((q) => q.text.includes("), ($28::uuid") && !q.text.includes("state = $16::jsonb"));
    expect(steps.length).toBeGreaterThan(280);
    const early = Math.max(...steps.slice(10, 40).map((q) => q.bytes));
    const late = Math.max(...steps.slice(-40, -10).map((q) => q.bytes));
    // Late steps carry longer numbers (seq, step index, names): a few bytes, never the mission's history.
    expect(late).toBeLessThanOrEqual(early + 64);
    // The snapshot (the whole state) goes out once in at least 64 events, and less often as it grows.
    const snapshots = appends.filter((q) => q.text.includes("state = $16::jsonb"));
    const events = (await getMissionState(tdb.db, m.id))!.seq;
    expect(snapshots.length).toBeGreaterThan(0);
    expect(snapshots.length).toBeLessThanOrEqual(Math.ceil(events / 64) + 1);
  });
});

describe("the projections the fixed statements write", () => {
  it("equal the state, column by column, after every append; events keep their fields and the mission's creation time", async () => {
    const def = definition({
      agents: [
        { name: "plan", priority: "critical", steps: [nodeStep("1"), nodeStep("2")] },
        { name: "search", priority: "important", steps: [nodeStep("1")] },
      ],
    });
    const m = await createMission(tdb.db, { definition: def, actorId: "user:test" });
    expect(await claimMission(tdb.db, { workerId: "worker:test", leaseMs: 3_600_000, onlyId: m.id })).toBe(m.id);
    const { events } = await simulate(def, {
      missionId: m.id,
      outcome: (agent, _s, attempt) => (agent === "search" && attempt === 1 ? { kind: "fail", error: { code: "CONNECTION_REFUSED", message: "refused" } } : { kind: "ok" }),
      decide: () => "retry",
    });
    const notifications: EventsNotification[] = [];
    const listener = postgres(tdb.url, { max: 1, onnotice: () => {} });
    await listener.listen(EVENTS_CHANNEL, (payload) => notifications.push(JSON.parse(payload)));
    try {
      const body = (e: Pick<MissionEvent, "type" | "payload" | "reason" | "impact" | "evidence">) => ({ type: e.type, payload: e.payload, reason: e.reason, impact: e.impact, evidence: e.evidence }) as never;
      const appended: number[] = [];
      const append = async (items: never[], by: { worker: boolean }) => {
        const r = await tdb.db.transaction((tx) => appendEvents(tx, { missionId: m.id, actorId: by.worker ? "worker:test" : "user:test", events: items, ...(by.worker ? { leaseOwner: "worker:test" } : {}) }));
        appended.push(r.state.seq);
        await check(r.state);
        return r.state;
      };
      const check = async (s: MissionState) => {
        const [row] = await tdb.sql`select phase, run_state, progress, open_gates, final_status, last_seq, owner, paused, started_at, ended_at, lease_owner, lease_expires_at, runnable_at, snapshot_seq, created_at,
          (select count(*)::int from events e where e.mission_id = m.id and e.mission_created_at <> m.created_at) as misplaced from missions m where id = ${m.id}`;
        const time = (x: string | null) => (x === null ? null : Date.parse(x.replace(" ", "T").replace(/\+00$/, "Z")));
        expect({ ...row, progress: Math.round(row.progress * 1e4), started_at: time(row.started_at), ended_at: time(row.ended_at) }).toMatchObject({
          phase: s.phase,
          run_state: s.runState,
          progress: Math.round(Math.fround(progress(s)) * 1e4),
          open_gates: s.gates.filter((g) => g.status === "open").length,
          final_status: s.finalStatus,
          last_seq: s.seq,
          owner: s.owner,
          paused: s.paused,
          started_at: time(s.startedAt),
          ended_at: time(s.endedAt),
          misplaced: 0,
        });
        // The lease ends with the mission; until then it is the worker's.
        const ended = s.runState === "completed" || s.runState === "failed";
        expect([row.lease_owner, row.lease_expires_at === null]).toEqual(ended ? [null, true] : ["worker:test", false]);
        const agentRows = await tdb.sql`select name, phase, priority, status, attempt, position, error from agents where mission_id = ${m.id} order by position`;
        expect(agentRows.map((a) => ({ ...a }))).toEqual(s.agentOrder.map((name, position) => ({ name, phase: s.agents[name].phase, priority: s.agents[name].priority, status: s.agents[name].status, attempt: s.agents[name].attempt, position, error: s.agents[name].error })));
        forgetStates();
        const log = await listEventsAfter(tdb.db, { missionId: m.id });
        expect(reduce(log)).toEqual(s);
      };

      let state: MissionState | null = null;
      let resumedSeq = 0;
      for (const [i, e] of events.slice(1).entries()) {
        const byWorker = !e.actorId.startsWith("user");
        if (i === 2) {
          // A person's pause and resume in between: the pause's JSON, the owner, and the wake-up of an outside write.
          await tdb.sql`update missions set runnable_at = now() + interval '1 hour' where id = ${m.id}`;
          state = await append([t.missionPaused("operator", "hold on") as never], { worker: false });
          expect(state.paused).toMatchObject({ kind: "operator", message: "hold on" });
          state = await append([t.missionResumed("go on") as never], { worker: false });
          const [{ runnable_at }] = await tdb.sql`select runnable_at from missions where id = ${m.id}`;
          expect(runnable_at).toBeNull();
          resumedSeq = state.seq;
        }
        state = await append([body(e)], { worker: byWorker });
      }
      expect(state?.finalStatus).toBe("SUCCESS");
      // The events read back are the events appended (payload and evidence as JSON, the reason and impact; a
      // gate's payload also carries the gate policy in force, which appendEvents adds).
      const log = await listEventsAfter(tdb.db, { missionId: m.id });
      const written = log.filter((e) => e.type !== "mission.paused" && e.type !== "mission.resumed").slice(1);
      expect(written.map(body)).toMatchObject(events.slice(1).map(body));
      expect(written.filter((e) => e.type === "tool.succeeded").every((e) => Array.isArray(e.payload.evidence) && e.payload.evidence.length > 0)).toBe(true);
      // One NOTIFY per transaction, with its last seq; the outside write that left work asks workers to claim.
      await expect.poll(() => notifications.length).toBe(appended.length);
      expect(notifications.map((n) => [n.m, n.s])).toEqual(appended.map((seq) => [m.id, seq]));
      expect(notifications.find((n) => n.s === resumedSeq)?.w).toBe(1);
      expect(notifications.find((n) => n.s === resumedSeq - 1)?.w).toBeUndefined();
    } finally {
      await listener.end({ timeout: 5 });
    }
  });
});

describe("the worker's append in one statement (appendAsOwner)", () => {
  const oneAgent = () => definition({ agents: [{ name: "solo", priority: "critical", steps: [nodeStep("1"), nodeStep("2"), nodeStep("3")] }] });
  const scripted = async (def: ReturnType<typeof oneAgent>, id: string) =>
    (await simulate(def, { missionId: id, outcome: () => ({ kind: "ok" }), decide: () => "abort" })).events.slice(1).map((e) => ({ type: e.type, payload: e.payload, reason: e.reason, impact: e.impact, evidence: e.evidence }) as never);

  it("when someone else wrote in between, rolls back and appends after their event, as the locked path would", async () => {
    const def = oneAgent();
    const m = await createMission(tdb.db, { definition: def, actorId: "user:test" });
    await claimMission(tdb.db, { workerId: "worker:test", leaseMs: 3_600_000, onlyId: m.id });
    const [first, second] = await scripted(def, m.id);
    await appendAsOwner(counted.db, { missionId: m.id, actorId: "worker:test", leaseOwner: "worker:test", events: [first] });
    // A person pauses and resumes the mission — as from another process: this process shares the cache, so the
    // row's head token is then replaced by one it never wrote (as another process's append would leave it).
    await tdb.db.transaction((tx) => appendEvents(tx, { missionId: m.id, actorId: "user:test", events: [t.missionPaused("operator", "wait") as never, t.missionResumed("go on") as never] }));
    await tdb.sql`update missions set head = gen_random_uuid() where id = ${m.id}`;
    sent.length = 0;
    const r = await appendAsOwner(counted.db, { missionId: m.id, actorId: "worker:test", leaseOwner: "worker:test", events: [second] });
    // The one statement matched no row and wrote nothing; the transaction then locked and read the row.
    expect(sent.map(kind)).toEqual(["with m", "begin", "lock missions", ...sent.slice(3, -1).map(kind), "commit"]);
    const log = await listEventsAfter(tdb.db, { missionId: m.id });
    expect(log.map((e) => e.type)).toEqual(["mission.created", (first as MissionEvent).type, "mission.paused", "mission.resumed", (second as MissionEvent).type]);
    expect(log.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(r.state).toEqual(reduce(log));
    forgetStates();
    expect(await getMissionState(tdb.db, m.id)).toEqual(reduce(log));
  });

  it("does not trust a state this process noted for a write that rolled back: the append lands on the committed state", async () => {
    const def = oneAgent();
    const m = await createMission(tdb.db, { definition: def, actorId: "user:test" });
    await claimMission(tdb.db, { workerId: "worker:test", leaseMs: 3_600_000, onlyId: m.id });
    const [first, second] = await scripted(def, m.id);
    await appendAsOwner(counted.db, { missionId: m.id, actorId: "worker:test", leaseOwner: "worker:test", events: [first] });
    // The same process appends `second` and its transaction then fails: the state it noted was never committed.
    await expect(
      tdb.db.transaction(async (tx) => {
        await appendEvents(tx, { missionId: m.id, actorId: "worker:test", leaseOwner: "worker:test", events: [second] });
        throw new Error("the rest of this transaction failed");
      }),
    ).rejects.toThrow(/the rest of this transaction failed/);
    // On that state `second` is illegal (it is already there); on the committed one it is the next event.
    const r = await appendAsOwner(counted.db, { missionId: m.id, actorId: "worker:test", leaseOwner: "worker:test", events: [second] });
    const log = await listEventsAfter(tdb.db, { missionId: m.id });
    expect(log.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(r.state).toEqual(reduce(log));
  });

  it("when the lease moved, writes nothing and says so (LeaseLostError), with its head token current", async () => {
    const def = oneAgent();
    const m = await createMission(tdb.db, { definition: def, actorId: "user:test" });
    await claimMission(tdb.db, { workerId: "worker:test", leaseMs: 3_600_000, onlyId: m.id });
    const [first, second] = await scripted(def, m.id);
    await appendAsOwner(counted.db, { missionId: m.id, actorId: "worker:test", leaseOwner: "worker:test", events: [first] });
    await tdb.sql`update missions set lease_owner = 'worker:other' where id = ${m.id}`;
    await expect(appendAsOwner(counted.db, { missionId: m.id, actorId: "worker:test", leaseOwner: "worker:test", events: [second] })).rejects.toThrow(/Lease lost: worker worker:test no longer holds mission .* \(held by worker:other\)/);
    expect((await listEventsAfter(tdb.db, { missionId: m.id })).map((e) => e.seq)).toEqual([1, 2]);
  });

  it("two writers racing from the same head: one appends, the other writes nothing and meets the reducer on the new state", async () => {
    const def = oneAgent();
    const m = await createMission(tdb.db, { definition: def, actorId: "user:test" });
    await claimMission(tdb.db, { workerId: "worker:test", leaseMs: 3_600_000, onlyId: m.id });
    const [first, second] = await scripted(def, m.id);
    await appendAsOwner(counted.db, { missionId: m.id, actorId: "worker:test", leaseOwner: "worker:test", events: [first] });
    // The same next event twice at once, both from the head this process knows: the row lock orders them.
    const results = await Promise.allSettled([0, 1].map(() => appendAsOwner(counted.db, { missionId: m.id, actorId: "worker:test", leaseOwner: "worker:test", events: [second] })));
    expect(results.filter((x) => x.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((x) => x.status === "rejected") as PromiseRejectedResult;
    expect(String(refused.reason)).toMatch(/Illegal transition/);
    const log = await listEventsAfter(tdb.db, { missionId: m.id });
    expect(log.map((e) => e.seq)).toEqual([1, 2, 3]);
    forgetStates();
    expect(await getMissionState(tdb.db, m.id)).toEqual(reduce(log));
  });
});

