import { describe, expect, it } from "vitest";
import { applyEvent, PartialStateError, reduce } from "../mission/reducer";
import { deriveFinalStatus, explainFinalStatus } from "../mission/status";
import { stepCount } from "../mission/steps";
import type { MissionEvent } from "../mission/events";
import type { MissionState } from "../mission/types";
import { renderMissionState } from "./state-render";
import { STATE_STEP_WINDOW, stateView } from "./state-view";
import { missionDefinitionSchema } from "../mission/definition";

const ID = "6b1c2f0e-1d3a-4c5b-9e7f-0000000000cd";
const STEPS = 200;
const definition = missionDefinitionSchema.parse({
  name: "long",
  objective: "many steps",
  library: false,
  phases: [{ name: "EXECUTION", agents: ["a", "b"].map((name) => ({ name, priority: "critical", steps: Array.from({ length: STEPS }, (_, i) => ({ name: `list ${i}`, tool: "file", args: { op: "list", path: "." } })) })) }],
});

/** A mission's log as the engine writes it: both agents' steps, each with passing evidence, then the end. */
function log(opts: { failLastOfB?: boolean } = {}): MissionEvent[] {
  const out: MissionEvent[] = [];
  let seq = 0;
  const at = (n: number) => new Date(Date.parse("2026-11-01T08:00:00Z") + n * 7).toISOString();
  const push = (type: string, payload: unknown, actorId = "worker:t") => out.push({ missionId: ID, seq: ++seq, type, actorId, payload, reason: null, impact: null, evidence: null, at: at(seq) } as unknown as MissionEvent);
  const ev = [{ check: "listed", expected: ".", actual: ".", passed: true }];
  push("mission.created", { definition }, "user:t");
  push("phase.started", { phase: "EXECUTION" });
  for (const agent of ["a", "b"]) {
    push("agent.started", { agent, attempt: 1 });
    for (let i = 0; i < STEPS; i++) {
      push("step.started", { agent, attempt: 1, step: i, tool: "file", idempotencyKey: `${ID}/${agent}/${i}/1` });
      if (opts.failLastOfB && agent === "b" && i === STEPS - 1) {
        push("tool.failed", { agent, attempt: 1, step: i, error: { code: "NOT_FOUND", message: "no such path", recoverable: false }, evidence: [] });
        return out;
      }
      push("tool.succeeded", { agent, attempt: 1, step: i, data: null, evidence: ev });
    }
    push("agent.completed", { agent, attempt: 1 });
  }
  push("phase.completed", { phase: "EXECUTION" });
  push("objective.checked", { passed: true, evidence: [] });
  push("mission.finished", { finalStatus: "SUCCESS" });
  return out;
}

describe("the mission page's view of the state", () => {
  it("leaves out older succeeded steps, and the same reducer carries it to the same end as the whole state", () => {
    const events = log();
    const cut = 2 + 1 + 150 * 2; // a has started 150 steps
    const whole = reduce(events.slice(0, cut));
    const view = stateView(whole);
    expect(view.agents.a.elided).toEqual({ steps: 150 - STATE_STEP_WINDOW, definedSteps: STEPS });
    expect(view.agents.a.steps).toHaveLength(STATE_STEP_WINDOW);
    expect(stepCount(view.agents.a)).toBe(150);
    // It does not grow with the steps run (30 more steps: no bigger; the definition's steps still to run shrink).
    const earlier = JSON.stringify(stateView(reduce(events.slice(0, cut - 60)))).length;
    expect(JSON.stringify(view).length).toBeLessThanOrEqual(earlier);
    expect(JSON.stringify(whole).length - JSON.stringify(reduce(events.slice(0, cut - 60))).length).toBeGreaterThan(30 * 200);
    let v: MissionState = view;
    let w: MissionState = whole;
    for (const e of events.slice(cut)) {
      v = applyEvent(v, e);
      w = applyEvent(w, e);
    }
    expect(v.finalStatus).toBe("SUCCESS");
    expect(deriveFinalStatus(v)).toBe(deriveFinalStatus(w));
    expect(explainFinalStatus(v)).toBe(explainFinalStatus(w));
    expect(v.agents.a.status).toBe("completed");
    expect(stepCount(v.agents.b)).toBe(STEPS);
    // What is kept is the whole state's, step for step.
    expect(v.agents.a.steps).toEqual(w.agents.a.steps.slice(150 - STATE_STEP_WINDOW));
    expect(renderMissionState(v)).toContain(`1–${150 - STATE_STEP_WINDOW}=succeeded`);
  });

  it("keeps the step that failed and says nothing it does not know: an event needing left-out steps asks for the state again", () => {
    const events = log({ failLastOfB: true });
    const whole = reduce(events);
    const view = stateView(whole);
    expect(view.agents.b.steps.at(-1)?.status).toBe("failed");
    expect(view.agents.b.elided?.steps).toBe(STEPS - STATE_STEP_WINDOW);
    const failed = applyEvent(view, { missionId: ID, seq: whole.seq + 1, type: "agent.failed", actorId: "worker:t", payload: { agent: "b", attempt: 1, error: { code: "INTERNAL_ERROR", message: "step failed", recoverable: false, context: { step: STEPS - 1, stepName: "list", tool: "file", toolError: { code: "NOT_FOUND", message: "no such path", recoverable: false } } } }, reason: null, impact: null, evidence: null, at: new Date().toISOString() } as unknown as MissionEvent);
    expect(failed.agents.b.status).toBe("failed");
    // An operator's abort plans compensations of every completed step: the view cannot, the page reads the state again.
    expect(() => applyEvent(failed, { missionId: ID, seq: failed.seq + 1, type: "mission.aborted", actorId: "user:t", payload: { message: "stop" }, reason: null, impact: null, evidence: null, at: new Date().toISOString() } as unknown as MissionEvent)).toThrow(PartialStateError);
  });

  it("a mission of few steps is its own view", () => {
    const whole = reduce(log().slice(0, 40));
    expect(stateView(whole)).toBe(whole);
  });
});
