import { describe, expect, it } from "vitest";
import { applyEvent, type MissionEvent, type NewMissionEvent } from "@/lib/mission";
import { parseMissionDefinition } from "@/lib/mission/definition";
import { missionCreated, phaseStarted } from "@/lib/mission/transitions";
import { phaseSteps } from "./phase-bar";

const r = parseMissionDefinition(
  `name: demo\nobjective: x\nphases:\n  - name: PLANNING\n    agents: [{ name: plan, priority: critical, steps: [{ tool: shell, args: { command: echo } }] }]\n  - name: EXECUTION\n    agents: [{ name: build, priority: critical, steps: [{ tool: shell, args: { command: echo } }] }]\n`,
);
if (!r.ok) throw new Error(JSON.stringify(r.errors));
const ev = (seq: number, e: NewMissionEvent) => ({ ...e, missionId: "m", seq, actorId: "a", at: "2025-01-01T00:00:00Z" }) as MissionEvent;

describe("phaseSteps", () => {
  it("a queued mission shows MISSION_STARTED as current and every phase pending", () => {
    const s = applyEvent(null, ev(1, missionCreated(r.definition)));
    expect(phaseSteps(s, []).map((x) => `${x.name}:${x.mark}`)).toEqual(["MISSION_STARTED:current", "PLANNING:pending", "EXECUTION:pending", "MISSION_COMPLETED:pending"]);
  });
  it("a running mission marks its phase current", () => {
    const events = [ev(1, missionCreated(r.definition)), ev(2, phaseStarted("PLANNING", "MISSION_STARTED"))];
    const s = applyEvent(applyEvent(null, events[0]), events[1]);
    expect(phaseSteps(s, events).map((x) => x.mark)).toEqual(["done", "current", "pending", "pending"]);
  });
  it("a failed mission marks the phase it stopped in as failed and ends with FAILED", () => {
    const events = [ev(1, missionCreated(r.definition)), ev(2, phaseStarted("PLANNING", "MISSION_STARTED"))];
    const s = { ...applyEvent(applyEvent(null, events[0]), events[1]), runState: "failed" as const, phase: "FAILED" as const };
    expect(phaseSteps(s, events).map((x) => `${x.name}:${x.mark}`)).toEqual(["MISSION_STARTED:done", "PLANNING:failed", "EXECUTION:not-reached", "FAILED:failed"]);
  });
});
