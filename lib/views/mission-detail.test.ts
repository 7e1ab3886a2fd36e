import { describe, expect, it } from "vitest";
import { applyEvent, type MissionEvent, type NewMissionEvent } from "../mission";
import { missionCreated, phaseStarted, agentStarted } from "../mission/transitions";
import { parseMissionDefinition } from "../mission/definition";
import { applyEventsToDetail, mergeRefetchedDetail, takeContiguous, toMissionDetail } from "./mission-detail";

const ID = "00000000-0000-4000-8000-000000000001";
const def = (() => {
  const r = parseMissionDefinition(`name: demo\nobjective: prove it\nphases:\n  - name: EXECUTION\n    agents:\n      - name: build\n        priority: critical\n        steps:\n          - tool: shell\n            args: { command: echo }\n`);
  if (!r.ok) throw new Error("bad fixture");
  return r.definition;
})();

const at = "2025-01-01T00:00:00.000Z";
const ev = (seq: number, e: NewMissionEvent): MissionEvent => ({ ...e, missionId: ID, seq, actorId: "worker:test", at }) as MissionEvent;
const e1 = ev(1, missionCreated(def));
const e2 = ev(2, phaseStarted("EXECUTION", "MISSION_STARTED"));
const e3 = ev(3, agentStarted("build", 1));

function detailAt(events: MissionEvent[]) {
  let s = applyEvent(null, events[0]);
  for (const e of events.slice(1)) s = applyEvent(s, e);
  return toMissionDetail(s, events, { "worker:test": "Test worker" });
}

describe("takeContiguous (the browser's seq rule)", () => {
  it("keeps events that directly follow lastSeq, in order, even when they arrive unsorted", () => {
    expect(takeContiguous(1, [e3, e2])).toEqual({ fresh: [e2, e3], lastSeq: 3, gap: false });
  });
  it("drops duplicates: seq <= lastSeq is ignored", () => {
    expect(takeContiguous(2, [e1, e2, e3])).toEqual({ fresh: [e3], lastSeq: 3, gap: false });
    expect(takeContiguous(3, [e2, e3])).toEqual({ fresh: [], lastSeq: 3, gap: false });
  });
  it("reports a gap and applies nothing beyond it", () => {
    expect(takeContiguous(1, [e3])).toEqual({ fresh: [], lastSeq: 1, gap: true });
  });
});

describe("applyEventsToDetail", () => {
  it("a live event moves the mission page forward with the shared reducer", () => {
    const r = applyEventsToDetail(detailAt([e1]), [e2]);
    expect(r.kind).toBe("applied");
    if (r.kind !== "applied") return;
    expect(r.detail.mission.seq).toBe(2);
    expect(r.detail.mission.runState).toBe("running");
    expect(r.detail.events.map((e) => e.seq)).toEqual([1, 2]);
  });
  it("the same events delivered twice change nothing", () => {
    const d = detailAt([e1, e2]);
    expect(applyEventsToDetail(d, [e1, e2])).toEqual({ kind: "unchanged", gap: false });
  });
  it("applies what it can and flags the gap when an event is missing in between", () => {
    const e5 = { ...e3, seq: 5 } as MissionEvent;
    const r = applyEventsToDetail(detailAt([e1]), [e2, e5]);
    expect(r.kind).toBe("applied");
    if (r.kind === "applied") {
      expect(r.detail.mission.seq).toBe(2);
      expect(r.gap).toBe(true);
    }
  });
  it("asks for a refetch when the reducer rejects an event instead of showing a wrong state", () => {
    const bogus = ev(2, agentStarted("build", 1)); // agent.started before its phase started
    const r = applyEventsToDetail(detailAt([e1]), [bogus]);
    expect(r.kind).toBe("refetch");
  });
});

describe("mergeRefetchedDetail (a refetch of the newest window over what the page holds)", () => {
  const whole = (events: MissionEvent[]) => ({ ...detailAt(events), eventsWindow: { hasOlder: false, hasNewer: false } });
  const windowOf = (events: MissionEvent[], from: number) => ({ ...detailAt(events), events: events.filter((e) => e.seq >= from), eventsWindow: { hasOlder: from > 1, hasNewer: false } });

  it("a log held whole stays whole: the refetched window's older events come from what was held", () => {
    const m = mergeRefetchedDetail(whole([e1, e2]), windowOf([e1, e2, e3], 2));
    expect(m.events.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(m.eventsWindow).toEqual({ hasOlder: false, hasNewer: false });
    expect(m.mission.seq).toBe(3);
  });
  it("never goes back in the log: an answer older than what is held keeps what is held", () => {
    const held = whole([e1, e2, e3]);
    const m = mergeRefetchedDetail(held, whole([e1, e2]));
    expect(m.mission.seq).toBe(3);
    expect(m.events).toHaveLength(3);
  });
  it("takes the fresh window as it is when it does not join what was held (more came than a window holds)", () => {
    const m = mergeRefetchedDetail(whole([e1]), windowOf([e1, e2, e3], 3));
    expect(m.events.map((e) => e.seq)).toEqual([3]);
    expect(m.eventsWindow).toEqual({ hasOlder: true, hasNewer: false });
  });
  it("a page opened around one event keeps its window", () => {
    const held = { ...detailAt([e1, e2]), events: [e1], eventsWindow: { hasOlder: false, hasNewer: true } };
    const m = mergeRefetchedDetail(held, windowOf([e1, e2, e3], 2));
    expect(m.events.map((e) => e.seq)).toEqual([1]);
    expect(m.eventsWindow).toEqual({ hasOlder: false, hasNewer: true });
    expect(m.mission.seq).toBe(3);
  });
});
