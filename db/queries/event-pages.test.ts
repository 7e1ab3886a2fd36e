import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../test-helpers";
import { events, missions } from "../schema";
import { ensureActor } from "./users";
import { lastPhaseStarted, listAllEvents, listEventPage } from "./event-pages";

let tdb: TestDatabase;
const id = randomUUID();
const N = 12_345;
const CREATED = "2026-01-15T10:00:00.000Z";
const seqs = (p: { events: Array<{ seq: number }> }) => p.events.map((e) => e.seq);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

// Seq 1..N: every 10th a tool.failed, agents a/b alternating; seq 5 and 9,000 phase.started.
beforeAll(async () => {
  tdb = await createTestDatabase();
  await ensureActor(tdb.db, { id: "worker:test", kind: "worker", displayName: "Test worker" });
  // Events belong to a mission and carry its creation time (the partition key, migration 0028).
  const other = randomUUID();
  await tdb.db.insert(missions).values([id, other].map((m) => ({ id: m, name: "pages", definition: sql`'{}'::jsonb`, phase: "PLAN", runState: "running", lastSeq: 0, state: sql`'{}'::jsonb`, createdBy: "worker:test", createdAt: CREATED, updatedAt: CREATED })));
  const rows = range(1, N).map((seq) => ({
    missionId: id,
    missionCreatedAt: CREATED,
    seq,
    type: seq === 5 || seq === 9000 ? "phase.started" : seq % 10 === 0 ? "tool.failed" : "tool.succeeded",
    actorId: "worker:test",
    payload: seq === 5 || seq === 9000 ? { phase: seq === 5 ? "PLAN" : "EXECUTION" } : { agent: seq % 2 ? "a" : "b", attempt: 1, step: seq },
    reason: `event ${seq}`,
    impact: "none",
  }));
  for (let i = 0; i < rows.length; i += 2000) await tdb.db.insert(events).values(rows.slice(i, i + 2000));
  // Another mission's events never show.
  await tdb.db.insert(events).values({ missionId: other, missionCreatedAt: CREATED, seq: 1, type: "tool.failed", actorId: "worker:test", payload: { agent: "a" }, reason: "other", impact: "none" });
}, 60_000);
afterAll(async () => tdb?.drop());

describe("the timeline's event pages (keyset by seq)", () => {
  it("reads the newest page first, then pages back and forth without gaps or overlaps", async () => {
    const tail = await listEventPage(tdb.db, { missionId: id, limit: 500 });
    expect(seqs(tail)).toEqual(range(N - 499, N));
    expect(tail).toMatchObject({ hasOlder: true, hasNewer: false });
    let first = tail.events[0].seq;
    const seen = [...seqs(tail)];
    for (;;) {
      const page = await listEventPage(tdb.db, { missionId: id, before: first, limit: 1000 });
      expect(page.hasNewer).toBe(true);
      seen.unshift(...seqs(page));
      if (!page.hasOlder) break;
      first = page.events[0].seq;
    }
    expect(seen).toEqual(range(1, N));
    const forward = await listEventPage(tdb.db, { missionId: id, after: 100, limit: 50 });
    expect(seqs(forward)).toEqual(range(101, 150));
    expect(forward).toMatchObject({ hasOlder: true, hasNewer: true });
    const end = await listEventPage(tdb.db, { missionId: id, after: N - 10, limit: 50 });
    expect(seqs(end)).toEqual(range(N - 9, N));
    expect(end.hasNewer).toBe(false);
  });

  it("opens around a seq far back (the ?seq= highlight), the seq itself included", async () => {
    const p = await listEventPage(tdb.db, { missionId: id, around: 1234, limit: 100 });
    expect(seqs(p)).toEqual(range(1184, 1283));
    expect(p).toMatchObject({ hasOlder: true, hasNewer: true });
    // Near an end the other side fills the page.
    const start = await listEventPage(tdb.db, { missionId: id, around: 3, limit: 100 });
    expect(seqs(start)).toEqual(range(1, 100));
    expect(start).toMatchObject({ hasOlder: false, hasNewer: true });
    const last = await listEventPage(tdb.db, { missionId: id, around: N, limit: 100 });
    expect(seqs(last)).toEqual(range(N - 99, N));
    expect(last).toMatchObject({ hasOlder: true, hasNewer: false });
  });

  it("filters by type and agent on the server, pages stay keyset on seq", async () => {
    const failed = await listEventPage(tdb.db, { missionId: id, type: "tool.failed", limit: 100 });
    expect(failed.events.every((e) => e.type === "tool.failed")).toBe(true);
    expect(seqs(failed).at(-1)).toBe(12_340);
    expect(seqs(failed)[0]).toBe(12_340 - 99 * 10);
    expect(failed.hasOlder).toBe(true);
    const before = await listEventPage(tdb.db, { missionId: id, type: "tool.failed", before: 20, limit: 100 });
    expect(seqs(before)).toEqual([10]);
    expect(before).toMatchObject({ hasOlder: false, hasNewer: true });
    const agentB = await listEventPage(tdb.db, { missionId: id, agent: "b", type: "tool.failed", after: 0, limit: 3 });
    expect(seqs(agentB)).toEqual([10, 20, 30]);
    const agentA = await listEventPage(tdb.db, { missionId: id, agent: "a", type: "tool.failed", limit: 3 });
    expect(agentA).toEqual({ events: [], hasOlder: false, hasNewer: false });
  });

  it("stops at upTo (a page beside a state snapshot) and reads a whole log past 10,000 events", async () => {
    const p = await listEventPage(tdb.db, { missionId: id, limit: 10, upTo: 5000 });
    expect(seqs(p)).toEqual(range(4991, 5000));
    expect(p.hasNewer).toBe(false);
    const all = await listAllEvents(tdb.db, id);
    expect(all).toHaveLength(N);
    expect(all.at(-1)!.seq).toBe(N);
    expect(await listAllEvents(tdb.db, id, 10_001)).toHaveLength(10_001);
    expect(await lastPhaseStarted(tdb.db, id)).toBe("EXECUTION");
    expect(await lastPhaseStarted(tdb.db, id, 8999)).toBe("PLAN");
  });
});
