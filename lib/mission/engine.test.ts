import { describe, expect, it } from "vitest";
import { missionDefinitionSchema } from "./definition";
import type { MissionEvent, NewMissionEvent } from "./events";
import { advance, type EngineIO } from "./engine";
import { applyEvent, reduce } from "./reducer";
import { simulate, type StepOutcome } from "./simulate";
import * as t from "./transitions";
import type { GateDecision, GateState, MissionState } from "./types";

const ok: StepOutcome = { kind: "ok" };
const boom: StepOutcome = { kind: "fail", error: { code: "EXIT_NONZERO", message: "exit 1", exitCode: 1 } };
const shell = (extra: Record<string, unknown> = {}) => ({ tool: "shell", args: { command: "node", args: ["-e", "1"] }, ...extra });

function def(phases: unknown[]) {
  return missionDefinitionSchema.parse({ name: "engine", objective: "test the engine", allowedBinaries: ["node"], phases });
}
const types = (events: MissionEvent[]) => events.map((e) => e.type);
const decideBy = (map: Partial<Record<GateState["kind"], GateDecision[]>>) => {
  const queues = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, [...(v ?? [])]]));
  return (g: GateState) => queues[g.kind]?.shift() ?? "abort";
};

describe("phase failures (FAILURE_MODEL level 2)", () => {
  const phase = (extra: Record<string, unknown> = {}) =>
    def([
      { name: "RESEARCH", ...extra, agents: ["a", "b", "c"].map((n) => ({ name: n, priority: "optional", steps: [shell()] })) },
      { name: "REVIEW", agents: [{ name: "r", priority: "critical", steps: [shell()] }] },
    ]);

  it("more than half of a phase's agents failing opens a phase gate: retry phase or abort (skip only where allowed)", async () => {
    const { state, events } = await simulate(phase(), { outcome: (a) => (a === "c" ? ok : boom), decide: () => "abort" });
    const gate = state.gates[0];
    expect(gate.kind).toBe("phase");
    expect(gate.options.map((o) => o.action)).toEqual(["retry_phase", "abort"]);
    expect(gate.error.what).toMatch(/more than half of its agents failed/);
    expect(types(events)).toContain("phase.failed");
    expect(state.finalStatus).toBe("FAILED");
  });

  it("retry phase runs every agent of the phase again; skip phase goes on to the next phase", async () => {
    const retried = await simulate(phase(), { outcome: (a, _s, attempt) => (a === "r" || a === "c" || attempt > 1 ? ok : boom), decide: () => "retry_phase" });
    expect(retried.state.finalStatus).toBe("SUCCESS");
    expect(retried.state.agents.a.attempt).toBe(2);
    expect(retried.state.agents.c.attempt).toBe(2);
    const skipped = await simulate(phase({ skippable: true }), { outcome: (a) => (a === "c" || a === "r" ? ok : boom), decide: () => "skip_phase" });
    expect(skipped.state.gates[0].options.map((o) => o.action)).toEqual(["retry_phase", "skip_phase", "abort"]);
    expect(skipped.state.agents.r.status).toBe("completed");
    expect(skipped.state.finalStatus).toBe("PARTIAL_SUCCESS");
  });

  it("half failing is not a phase failure", async () => {
    const d = def([{ name: "RESEARCH", agents: ["a", "b"].map((n) => ({ name: n, priority: "optional", steps: [shell()] })) }]);
    const { state } = await simulate(d, { outcome: (a) => (a === "a" ? boom : ok), decide: () => "abort" });
    expect(state.gates).toHaveLength(0);
    expect(state.finalStatus).toBe("PARTIAL_SUCCESS");
  });

  it("a phase that runs past its timeout fails with a phase gate", async () => {
    // The simulation clock advances one second per event.
    const d = def([{ name: "EXECUTION", timeoutMs: 5000, agents: [{ name: "slow", priority: "critical", steps: [shell(), shell(), shell(), shell()] }] }]);
    const { state, events } = await simulate(d, { outcome: () => ok, decide: () => "abort" });
    expect(events.find((e) => e.type === "phase.failed")?.payload).toMatchObject({ reason: "timeout" });
    expect(state.gates[0]).toMatchObject({ kind: "phase" });
    expect(state.gates[0].options.find((o) => o.recommended)?.action).toBe("retry_phase");
  });

  it("a critical failure in a multi-agent phase also offers retrying the phase", async () => {
    const d = def([{ name: "EXECUTION", agents: [{ name: "x", priority: "critical", steps: [shell()] }, { name: "y", priority: "optional", steps: [shell()] }] }]);
    const { state } = await simulate(d, { outcome: (a) => (a === "x" ? boom : ok), decide: () => "abort" });
    expect(state.gates[0].options.map((o) => o.action)).toEqual(["retry", "skip", "retry_phase", "abort"]);
  });
});

describe("crash recovery (a worker dies mid-step)", () => {
  it("a non-idempotent step is never re-run behind the operator's back: a recovery gate offers resume, restart phase, abort", async () => {
    const d = def([{ name: "PLANNING", agents: [{ name: "p", priority: "critical", steps: [shell()] }] }, { name: "EXECUTION", agents: [{ name: "deploy", priority: "critical", steps: [shell(), shell()] }] }]);
    const { state, events } = await simulate(d, {
      outcome: () => ok,
      crashAfterStart: (a, step, _attempt, reruns) => a === "deploy" && step === 1 && reruns === 0,
      decide: decideBy({ recovery: ["resume"] }),
    });
    const gate = state.gates[0];
    expect(gate.kind).toBe("recovery");
    expect(gate.options.map((o) => o.action)).toEqual(["resume", "restart_phase", "abort"]);
    expect(gate.error.why).toMatch(/Last completed phase: PLANNING; current phase: EXECUTION; incomplete agents: deploy/);
    expect(types(events)).toEqual(expect.arrayContaining(["step.interrupted", "gate.opened", "gate.resolved", "step.rerun"]));
    expect(events.find((e) => e.type === "step.rerun")?.payload).toMatchObject({ reason: "operator", idempotencyKey: state.agents.deploy.steps[1].idempotencyKey });
    expect(state.finalStatus).toBe("SUCCESS");
  });

  it("an idempotent step is re-run with the same idempotency key, and no gate opens", async () => {
    const d = def([{ name: "EXECUTION", agents: [{ name: "fetch", priority: "critical", steps: [{ tool: "http", args: { url: "http://127.0.0.1:9/x" } }] }] }]);
    const { state, events } = await simulate(d, { outcome: () => ok, crashAfterStart: (_a, _s, _t, reruns) => reruns === 0, decide: () => "abort" });
    expect(state.gates).toHaveLength(0);
    expect(events.filter((e) => e.type === "step.rerun").map((e) => (e.payload as { reason: string }).reason)).toEqual(["idempotent"]);
    expect(state.finalStatus).toBe("SUCCESS");
  });

  it("restart phase runs the whole phase again", async () => {
    const d = def([{ name: "EXECUTION", agents: [{ name: "a", priority: "critical", steps: [shell()] }, { name: "b", priority: "critical", steps: [shell()] }] }]);
    const { state } = await simulate(d, { outcome: () => ok, crashAfterStart: (a, _s, attempt) => a === "b" && attempt === 1, decide: decideBy({ recovery: ["restart_phase"] }) });
    expect(state.agents.a.attempt).toBe(2);
    expect(state.finalStatus).toBe("SUCCESS");
  });
});

describe("high-risk steps and sagas", () => {
  it("a high-risk step waits for approval before it runs", async () => {
    const d = def([{ name: "EXECUTION", agents: [{ name: "drop", priority: "critical", steps: [shell(), shell({ highRisk: true })] }] }]);
    const approved = await simulate(d, { outcome: () => ok, decide: decideBy({ approval: ["approve"] }) });
    const gate = approved.state.gates[0];
    expect(gate).toMatchObject({ kind: "approval", step: 1, decision: "approve" });
    const order = types(approved.events);
    expect(order.indexOf("gate.resolved")).toBeLessThan(order.lastIndexOf("step.started"));
    expect(approved.state.finalStatus).toBe("SUCCESS");
    const skipped = await simulate(d, { outcome: () => ok, decide: decideBy({ approval: ["skip"] }) });
    expect(skipped.state.agents.drop.steps).toHaveLength(1);
    expect(skipped.state.finalStatus).toBe("FAILED");
  });

  it("a high-risk step cannot start without approval", () => {
    const d = def([{ name: "EXECUTION", agents: [{ name: "drop", priority: "critical", steps: [shell({ highRisk: true })] }] }]);
    const id = "00000000-0000-4000-8000-00000000000a";
    let s = applyEvent(null, { ...t.missionCreated(d), missionId: id, seq: 1, actorId: "user:x", at: "2026-01-01T00:00:00Z" } as MissionEvent);
    for (const e of [t.phaseStarted("EXECUTION", "start"), t.agentStarted("drop", 1)]) s = applyEvent(s, { ...e, missionId: id, seq: s.seq + 1, actorId: "worker:x", at: "2026-01-01T00:00:01Z" } as MissionEvent);
    expect(() => applyEvent(s, { ...t.stepStarted(id, "drop", 1, 0, "shell", "x"), missionId: id, seq: s.seq + 1, actorId: "worker:x", at: "2026-01-01T00:00:02Z" } as MissionEvent)).toThrow(/before an operator approved it/);
  });

  it("abort runs the compensations of completed steps in reverse order, each recorded, then ends FAILED", async () => {
    const undo = (n: string) => ({ tool: "shell", args: { command: "node", args: ["-e", `console.log('undo ${n}')`] } });
    const d = def([
      { name: "EXECUTION", agents: [{ name: "a", priority: "critical", steps: [shell({ compensate: undo("a0") }), shell(), shell({ compensate: undo("a2") })] }] },
      { name: "REVIEW", agents: [{ name: "b", priority: "critical", steps: [shell()] }] },
    ]);
    const { state, events } = await simulate(d, { outcome: (a) => (a === "b" ? boom : ok), compensation: (_a, step) => (step === 0 ? boom : ok), decide: () => "abort" });
    const comp = events.filter((e) => e.type.startsWith("compensation."));
    expect(comp.map((e) => `${e.type}:${(e.payload as { step: number }).step}`)).toEqual(["compensation.started:2", "compensation.succeeded:2", "compensation.started:0", "compensation.failed:0"]);
    expect(state.gates[0].options.find((o) => o.action === "abort")?.description).toMatch(/2 compensations will undo completed steps first/);
    expect(types(events).at(-1)).toBe("mission.finished");
    expect(state.finalStatus).toBe("FAILED");
  });

  it("a failed phase with compensateOnFailure undoes its completed steps before its gate opens", async () => {
    const d = def([{ name: "EXECUTION", compensateOnFailure: true, agents: ["a", "b", "c"].map((n) => ({ name: n, priority: "optional", steps: [shell({ compensate: shell() })] })) }]);
    const { events } = await simulate(d, { outcome: (a) => (a === "a" ? ok : boom), decide: () => "abort" });
    const order = types(events);
    expect(order.indexOf("compensation.succeeded")).toBeGreaterThan(order.indexOf("phase.failed"));
    expect(order.indexOf("compensation.succeeded")).toBeLessThan(order.indexOf("gate.opened"));
  });
});

describe("pause and resume (RFC 001 §3.4)", () => {
  const d = def([{ name: "EXECUTION", agents: [{ name: "a", priority: "critical", steps: [shell(), shell()] }] }]);
  const id = "00000000-0000-4000-8000-00000000000b";
  const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
  function build(list: ReturnType<typeof t.phaseStarted>[]) {
    const events: MissionEvent[] = [{ ...t.missionCreated(d), missionId: id, seq: 1, actorId: "user:owner", at: at(0) } as MissionEvent];
    for (const e of list) events.push({ ...e, missionId: id, seq: events.length + 1, actorId: e.type === "mission.paused" || e.type === "mission.resumed" ? "user:op" : "worker:x", at: at(events.length) } as MissionEvent);
    return events;
  }

  it("a paused mission starts no new step, but the step in flight records its result (its checkpoint)", () => {
    const events = build([t.phaseStarted("EXECUTION", "s"), t.agentStarted("a", 1), t.stepStarted(id, "a", 1, 0, "shell", "x"), t.missionPaused("operator", "Olivia paused it")]);
    let s = reduce(events);
    expect(s.runState).toBe("paused");
    s = applyEvent(s, { ...t.toolSucceeded("a", 1, 0, {}, [{ check: "exit_code", expected: 0, actual: 0, passed: true }]), missionId: id, seq: s.seq + 1, actorId: "worker:x", at: at(9) } as MissionEvent);
    expect(() => applyEvent(s, { ...t.stepStarted(id, "a", 1, 1, "shell", "x"), missionId: id, seq: s.seq + 1, actorId: "worker:x", at: at(10) } as MissionEvent)).toThrow(/while the mission is paused \(operator\)/);
    const resumed = applyEvent(s, { ...t.missionResumed("go on"), missionId: id, seq: s.seq + 1, actorId: "user:op", at: at(11) } as MissionEvent);
    expect(resumed.runState).toBe("running");
    expect(resumed.owner).toBe("user:op");
  });
});

describe("infrastructure: all LLM providers failing", () => {
  it("pauses the mission at a gate even for an optional agent: no silent fallback", async () => {
    const d = def([{ name: "RESEARCH", agents: [{ name: "collect", priority: "critical", steps: [shell()] }, { name: "summarise", priority: "optional", steps: [shell()] }] }]);
    const { state } = await simulate(d, {
      outcome: (a) => a === "collect" ? ok : ({ kind: "fail", error: { code: "NETWORK_ERROR", message: "All 2 LLM providers failed: a: 500; b: refused", details: { allProvidersFailed: true } } }) as StepOutcome,
      decide: () => "skip",
    });
    expect(state.gates[0]).toMatchObject({ kind: "agent" });
    expect(state.gates[0].error.why).toMatch(/All 2 LLM providers failed/);
    expect(state.finalStatus).toBe("PARTIAL_SUCCESS");
  });
});

describe("one transaction a step (issue 19)", () => {
  /** A minimal worker: every write is one transaction; `before(write, state)` may record someone else's event first. */
  async function run(d: ReturnType<typeof def>, before?: (write: number, s: MissionState) => NewMissionEvent | null) {
    const events: MissionEvent[] = [];
    const writes: string[][] = [];
    let state: MissionState | null = null;
    let clock = Date.parse("2026-01-01T00:00:00Z");
    const push = (list: Array<NewMissionEvent | ((s: MissionState) => NewMissionEvent | null)>, actorId: string) => {
      const types: string[] = [];
      for (const item of list) {
        const e = typeof item === "function" ? item(state!) : item;
        if (!e) continue;
        const ev = { ...e, missionId: "00000000-0000-4000-8000-000000000000", seq: (state?.seq ?? 0) + 1, actorId, at: new Date((clock += 10)).toISOString() } as MissionEvent;
        state = applyEvent(state, ev);
        events.push(ev);
        types.push(ev.type);
      }
      return { state: state!, types };
    };
    push([t.missionCreated(d)], "user:op");
    const io: EngineIO = {
      now: () => clock,
      newId: () => crypto.randomUUID(),
      append: async (list) => {
        const foreign = before?.(writes.length, state!);
        if (foreign) push([foreign], "user:op");
        const w = push(list, "worker:w");
        writes.push(w.types);
        return w.state;
      },
      run: async () => ({ result: { ok: true, data: { exitCode: 0 }, error: null }, evidence: [{ check: "exit_code", expected: 0, actual: 0, passed: true }] }),
      idempotent: () => false,
      stopped: () => false,
    };
    for (let i = 0; i < 100; i++) {
      const r = await advance(state!, io);
      if (r.outcome !== "progress") return { state: r.state, events, writes, outcome: r.outcome };
    }
    throw new Error("did not settle");
  }
  const threeSteps = def([{ name: "EXECUTION", agents: [{ name: "a", priority: "critical", steps: [shell(), shell(), shell()] }] }]);

  it("a step's success and the next step's start are one write; the last step's success is written alone", async () => {
    const { state, writes } = await run(threeSteps);
    expect(state.finalStatus).toBe("SUCCESS");
    expect(writes.filter((w) => w.includes("tool.succeeded"))).toEqual([["tool.succeeded", "step.started"], ["tool.succeeded", "step.started"], ["tool.succeeded"]]);
  });

  it("a pause recorded before the success lets the step in flight record its result and starts nothing more", async () => {
    // The pause lands just before the first step's result is written (write 3: phase, agent, step 1 started before it).
    const { state, events, outcome } = await run(threeSteps, (write, s) => (write === 3 && !s.paused ? t.missionPaused("operator", "paused by the test") : null));
    expect(outcome).toBe("waiting");
    expect(events.map((e) => e.type).slice(-2)).toEqual(["mission.paused", "tool.succeeded"]);
    expect(state.agents.a.steps).toHaveLength(1);
  });

  it("a high-risk next step is not started with the success: it asks for approval first", async () => {
    const d = def([{ name: "EXECUTION", agents: [{ name: "a", priority: "critical", steps: [shell(), shell({ highRisk: true })] }] }]);
    const { state, writes } = await run(d);
    expect(writes.find((w) => w.includes("tool.succeeded"))).toEqual(["tool.succeeded"]);
    expect(state.gates[0]?.kind).toBe("approval");
  });
});
