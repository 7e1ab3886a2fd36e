import { describe, expect, it } from "vitest";
import { as, params, url, useRouteTestDatabase } from "./route-test-helpers";
import { GET as getEvents } from "@/app/api/v1/missions/[id]/events/route";
import { GET as getMission } from "@/app/api/v1/missions/[id]/route";
import { rebuildMission } from "@/db/queries/events";
import { ensureActor } from "@/db/queries/users";
import { events as eventsTable, missions } from "@/db/schema";
import type { TestDatabase } from "@/db/test-helpers";
import { missionDefinitionSchema, simulate, type MissionEvent } from "@/lib/mission";
import type { MissionDetail } from "@/lib/views/mission-detail";
import { loadMissionDetail } from "./read-models";
import { EVENT_WINDOW } from "@/lib/views/mission-detail";
import { STATE_STEP_WINDOW } from "@/lib/views/state-view";

/**
 * Issue 19: a mission of more than 10,000 events (the old silent cap) — the mission's detail reads every
 * event, or a window of them, and GET …/events pages through the rest by seq in both directions.
 */
const ID = "6b1c2f0e-1d3a-4c5b-9e7f-0000000000cd";
let db: TestDatabase["db"];
let log: MissionEvent[];
const STEPS = 2600;

useRouteTestDatabase(async (tdb) => {
  db = tdb.db;
  const definition = missionDefinitionSchema.parse({
    name: "long",
    objective: "more than 10,000 events",
    library: false,
    phases: [{ name: "EXECUTION", timeoutMs: 24 * 3_600_000, agents: ["a", "b"].map((name) => ({ name, priority: "critical", timeoutMs: 24 * 3_600_000, steps: Array.from({ length: STEPS }, (_, i) => ({ tool: "file", args: { op: "read", path: `f${i}` } })) })) }],
  });
  const sim = await simulate(definition, { outcome: () => ({ kind: "ok" }), decide: () => ({ decision: "approved" }) as never, missionId: ID, maxEvents: 50_000 });
  log = sim.events;
  for (const actor of new Set(log.map((e) => e.actorId))) await ensureActor(db, { id: actor, kind: actor.startsWith("user:") ? "user" : "worker", displayName: actor });
  const s = sim.state;
  await db.insert(missions).values({ id: ID, name: s.name, definition: s.definition, phase: s.phase, runState: s.runState, lastSeq: s.seq, state: s, createdBy: "user:sim", createdAt: s.createdAt, updatedAt: s.createdAt });
  for (let i = 0; i < log.length; i += 2000)
    await db.insert(eventsTable).values(log.slice(i, i + 2000).map((e) => ({ missionId: ID, missionCreatedAt: s.createdAt, seq: e.seq, type: e.type, actorId: e.actorId, payload: e.payload, reason: e.reason, impact: e.impact, evidence: e.evidence, createdAt: e.at })));
  await db.transaction((tx) => rebuildMission(tx, ID));
});

describe("a mission of more than 10,000 events", () => {
  it("reads whole: no silent cap at 10,000 events", async () => {
    expect(log.length).toBeGreaterThan(10_000);
    const detail = (await loadMissionDetail(db, ID))!;
    expect(detail.events).toHaveLength(log.length);
    expect(detail.events.at(-1)!.seq).toBe(detail.mission.seq);
    expect(detail.eventsWindow).toBeUndefined();
  });

  it("opens with the newest window, or the window around a seq far back", async () => {
    const tail = (await loadMissionDetail(db, ID, { window: { limit: EVENT_WINDOW } }))!;
    expect(tail.events.map((e) => e.seq)).toEqual(log.slice(-EVENT_WINDOW).map((e) => e.seq));
    expect(tail.eventsWindow).toEqual({ hasOlder: true, hasNewer: false });
    expect(tail.lastPhaseStarted).toBe("EXECUTION");
    expect(tail.mission.seq).toBe(log.length);
    // …with the state's view: each agent's older succeeded steps left out, the same status and words as the whole state.
    const whole = (await loadMissionDetail(db, ID))!;
    expect(whole.mission.agents.a.elided).toBeUndefined();
    expect(tail.mission.agents.a.elided).toEqual({ steps: STEPS - STATE_STEP_WINDOW, definedSteps: STEPS });
    expect(tail.mission.agents.a.steps).toEqual(whole.mission.agents.a.steps.slice(-STATE_STEP_WINDOW));
    expect([tail.finalStatus, tail.explanation]).toEqual([whole.finalStatus, whole.explanation]);
    expect(JSON.stringify(tail.mission).length).toBeLessThan(JSON.stringify(whole.mission).length / 10);
    const around = (await loadMissionDetail(db, ID, { window: { limit: 100, around: 1234 } }))!;
    expect(around.events[0].seq).toBe(1184);
    expect(around.events.at(-1)!.seq).toBe(1283);
    expect(around.eventsWindow).toEqual({ hasOlder: true, hasNewer: true });
  });

  it("GET mission ?window=N answers a window; GET events pages back and forth, filtered on the server", async () => {
    as("auditor");
    const m = (await (await getMission(new Request(url(`/api/v1/missions/${ID}?window=50`)), params({ id: ID }))).json()) as MissionDetail;
    expect(m.events).toHaveLength(50);
    expect(m.eventsWindow).toEqual({ hasOlder: true, hasNewer: false });
    const page = async (q: string) => {
      const res = await getEvents(new Request(url(`/api/v1/missions/${ID}/events?${q}`)), params({ id: ID }));
      expect(res.status).toBe(200);
      return (await res.json()) as { lastSeq: number; events: MissionEvent[]; hasOlder: boolean; hasNewer: boolean; actors: Record<string, string> };
    };
    const newest = await page(`before=${log.length + 1}&limit=300`);
    expect(newest.events.map((e) => e.seq)).toEqual(log.slice(-300).map((e) => e.seq));
    expect(newest).toMatchObject({ lastSeq: log.length, hasOlder: true, hasNewer: false });
    expect(Object.keys(newest.actors).length).toBeGreaterThan(0);
    const older = await page(`before=${newest.events[0].seq}&limit=300`);
    expect(older.events.at(-1)!.seq).toBe(newest.events[0].seq - 1);
    expect(older.hasNewer).toBe(true);
    // The old contract still holds: after (default 0), ascending.
    const first = await page("limit=3");
    expect(first.events.map((e) => e.seq)).toEqual([1, 2, 3]);
    const agentB = await page(`before=${log.length + 1}&type=tool.succeeded&agent=b&limit=10`);
    expect(agentB.events).toHaveLength(10);
    expect(agentB.events.every((e) => e.type === "tool.succeeded" && (e.payload as { agent: string }).agent === "b")).toBe(true);
    const around = await page("around=5000&limit=10");
    expect(around.events.map((e) => e.seq)).toEqual([4995, 4996, 4997, 4998, 4999, 5000, 5001, 5002, 5003, 5004]);
    const bad = await getEvents(new Request(url(`/api/v1/missions/${ID}/events?before=0`)), params({ id: ID }));
    expect(bad.status).toBe(400);
  });
});
