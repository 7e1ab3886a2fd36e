import { beforeAll, describe, expect, it } from "vitest";
import { parseMissionDefinition } from "./definition";
import type { MissionEvent } from "./events";
import { applyEvent, IllegalTransitionError, reduce } from "./reducer";
import { simulate, type StepOutcome } from "./simulate";
import { definition, nodeStep } from "./test-fixtures";
import * as t from "./transitions";
import type { GateDecision, GateState, Priority } from "./index";

const ok: StepOutcome = { kind: "ok" };
const refused: StepOutcome = { kind: "fail", error: { code: "CONNECTION_REFUSED", message: "connect ECONNREFUSED 127.0.0.1:9 (GET http://127.0.0.1:9/search)", errno: "ECONNREFUSED" } };
const notAllowed: StepOutcome = { kind: "fail", error: { code: "NOT_ALLOWED", message: '"curl" is not on this mission\'s allowlist (allowed: node).' } };

function mission(agents: Array<{ name: string; priority: Priority; steps?: number }>) {
  return definition({ agents: agents.map((a) => ({ name: a.name, priority: a.priority, steps: Array.from({ length: a.steps ?? 1 }, () => nodeStep("1")) })) });
}

function run(def: ReturnType<typeof mission>, fail: Record<string, StepOutcome | ((attempt: number) => StepOutcome)>, decide: (g: GateState) => GateDecision = () => "abort", objectivePassed = true) {
  return simulate(def, {
    outcome: (agent, _step, attempt) => {
      const f = fail[agent];
      return typeof f === "function" ? f(attempt) : (f ?? ok);
    },
    decide,
    objectivePassed,
  });
}

describe("final status is derived from evidence (RFC 001 §3.3)", () => {
  it("ends SUCCESS when every agent completed with evidence", async () => {
    const { state } = await run(mission([{ name: "plan", priority: "critical" }, { name: "lint", priority: "optional" }]), {});
    expect(state.finalStatus).toBe("SUCCESS");
    expect(state.phase).toBe("MISSION_COMPLETED");
  });

  it("an optional agent's failure logs a warning, the mission goes on and ends PARTIAL_SUCCESS", async () => {
    const { state, events } = await run(mission([{ name: "plan", priority: "critical" }, { name: "lint", priority: "optional" }]), { lint: refused });
    expect(events.some((e) => e.type === "gate.opened")).toBe(false);
    expect(events.find((e) => e.type === "mission.warning")?.payload).toMatchObject({ agent: "lint" });
    expect(state.finalStatus).toBe("PARTIAL_SUCCESS");
  });

  it("a critical failure opens a gate offering retry, skip and abort; skip ends FAILED and the gate said so", async () => {
    const { state } = await run(mission([{ name: "build", priority: "critical" }]), { build: notAllowed }, () => "skip");
    const gate = state.gates[0];
    expect(gate.options.map((o) => o.action)).toEqual(["retry", "skip", "abort"]);
    expect(gate.options.find((o) => o.action === "skip")!.description).toMatch(/will end FAILED/);
    expect(gate.options.find((o) => o.recommended)!.action).toBe("abort"); // not recoverable
    expect(state.finalStatus).toBe("FAILED");
  });

  it("a critical recoverable failure recommends retry; retry re-runs the agent with a new attempt and can end SUCCESS", async () => {
    const { state, events } = await run(mission([{ name: "fetch", priority: "critical", steps: 2 }]), { fetch: (attempt) => (attempt === 1 ? refused : ok) }, () => "retry");
    expect(state.gates[0].options.find((o) => o.recommended)!.action).toBe("retry");
    expect(events.filter((e) => e.type === "agent.started").map((e) => (e.payload as { attempt: number }).attempt)).toEqual([1, 2]);
    expect(state.agents.fetch.attempt).toBe(2);
    expect(state.finalStatus).toBe("SUCCESS");
  });

  it("an important recoverable failure offers retry (recommended), skip, abort; skip ends PARTIAL_SUCCESS", async () => {
    const { state } = await run(mission([{ name: "core", priority: "critical" }, { name: "docs", priority: "important" }]), { docs: refused }, () => "skip");
    expect(state.gates[0].options.map((o) => [o.action, o.recommended])).toEqual([["retry", true], ["skip", false], ["abort", false]]);
    expect(state.agents.docs.status).toBe("skipped");
    expect(state.finalStatus).toBe("PARTIAL_SUCCESS");
  });

  it("an important unrecoverable failure offers skip (recommended) and abort, not retry", async () => {
    const { state } = await run(mission([{ name: "core", priority: "critical" }, { name: "docs", priority: "important" }]), { docs: notAllowed }, () => "skip");
    expect(state.gates[0].options.map((o) => [o.action, o.recommended])).toEqual([["skip", true], ["abort", false]]);
  });

  it("abort ends FAILED and keeps what was produced", async () => {
    const { state } = await run(mission([{ name: "core", priority: "critical" }, { name: "docs", priority: "important" }]), { docs: refused }, () => "abort");
    expect(state.finalStatus).toBe("FAILED");
    expect(state.phase).toBe("FAILED");
    expect(state.agents.core.status).toBe("completed");
  });

  it("an ok result without passing evidence is a VALIDATION_FAILED failure, never a success", async () => {
    const { state, events } = await run(mission([{ name: "gen", priority: "critical" }]), { gen: { kind: "no-evidence" } }, () => "skip");
    const failed = events.find((e) => e.type === "tool.failed")!;
    expect((failed.payload as { error: { code: string } }).error.code).toBe("VALIDATION_FAILED");
    expect(state.finalStatus).toBe("FAILED");
  });

  it("failed objective checks make the mission FAILED even when every agent succeeded", async () => {
    const def = { ...mission([{ name: "plan", priority: "critical" }]), objectiveChecks: [{ tool: "file" as const, args: { op: "read", path: "report.md" }, evidence: [{ output_matches: "^# Report" }] }] };
    const { state } = await run(def, {}, undefined, false);
    expect(state.finalStatus).toBe("FAILED");
  });

  it("RFC 001 acceptance: a mission with a failed search query never reports SUCCESS, whatever the priority and decision", async () => {
    for (const priority of ["critical", "important", "optional"] as const) {
      for (const decision of ["skip", "abort"] as const) {
        const { state } = await run(mission([{ name: "plan", priority: "critical" }, { name: "search", priority }]), { search: refused }, () => decision);
        expect(["PARTIAL_SUCCESS", "FAILED"], `${priority}/${decision}`).toContain(state.finalStatus);
      }
    }
  });
});

describe("the state machine rejects illegal transitions, naming them", () => {
  const def = mission([{ name: "build", priority: "critical" }]);
  let base: MissionEvent[] = [];
  let upToGate: MissionEvent[] = [];
  beforeAll(async () => {
    base = (await run(def, { build: (attempt) => (attempt === 1 ? refused : ok) }, () => "retry")).events;
    upToGate = base.slice(0, base.findIndex((e) => e.type === "gate.opened") + 1);
  });
  const next = (e: Omit<MissionEvent, "missionId" | "seq" | "actorId" | "at">, after: MissionEvent[]) =>
    ({ ...e, missionId: after[0].missionId, seq: after.length + 1, actorId: "worker:x", at: new Date().toISOString() }) as MissionEvent;

  it("no agent starts while a gate is open", async () => {
    const state = reduce(upToGate);
    expect(() => applyEvent(state, next(t.agentStarted("build", 2), upToGate))).toThrow(/Illegal transition: agent.started .* while a gate is open/);
  });

  it("a gate cannot be resolved with an option it does not offer", async () => {
    const def2 = mission([{ name: "core", priority: "critical" }, { name: "docs", priority: "important" }]);
    const ev = (await run(def2, { docs: notAllowed }, () => "skip")).events;
    const atGate = ev.slice(0, ev.findIndex((e) => e.type === "gate.opened") + 1);
    const state = reduce(atGate);
    expect(() => applyEvent(state, next(t.gateResolved(state.gates[0], "retry", null, new Date().toISOString(), "op"), atGate))).toThrow(/does not offer/);
  });

  it("nothing happens after the mission ended", async () => {
    const state = reduce(base);
    expect(state.runState).toBe("completed");
    expect(() => applyEvent(state, next(t.phaseStarted("REVIEW", "x"), base))).toThrow(IllegalTransitionError);
  });

  it("a final status cannot be assigned against the evidence", async () => {
    const ev = (await run(def, { build: notAllowed }, () => "skip")).events;
    const beforeFinish = ev.slice(0, -1);
    const bogus = { ...t.missionFinished(reduce(beforeFinish)), payload: { finalStatus: "SUCCESS" as const } };
    expect(() => applyEvent(reduce(beforeFinish), next(bogus, beforeFinish))).toThrow(/derived, never assigned/);
  });

  it("a tool success without evidence is rejected", async () => {
    const i = base.findIndex((e) => e.type === "step.started");
    const prefix = base.slice(0, i + 1);
    const e = next(t.toolSucceeded("build", 1, 0, { exitCode: 0 }, []), prefix);
    expect(() => applyEvent(reduce(prefix), e)).toThrow(/without passing evidence/);
  });

  it("events must be in sequence", async () => {
    const prefix = base.slice(0, 3);
    const e = { ...base[3], seq: 9 };
    expect(() => applyEvent(reduce(prefix), e)).toThrow(/out of sequence/);
  });

  it("an agent cannot fail without a failed tool (NoSilentFailure)", async () => {
    const i = base.findIndex((e) => e.type === "step.started");
    const prefix = base.slice(0, i);
    const err = { code: "INTERNAL_ERROR" as const, message: "x", recoverable: false, context: { step: 0, stepName: "s", tool: "shell", toolError: { code: "INTERNAL_ERROR" as const, message: "x" } } };
    expect(() => applyEvent(reduce(prefix), next(t.agentFailed("build", 1, err), prefix))).toThrow(/NoSilentFailure/);
  });
});

describe("mission definitions", () => {
  it("reports field-level errors with paths", async () => {
    const r = parseMissionDefinition(`name: x\nobjective: y\nphases:\n  - name: EXECUTION\n    agents:\n      - name: a\n        priority: urgent\n        steps: []\n`);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors).toContainEqual({ path: "phases[0].agents[0].priority", message: "must be one of critical, important, optional" });
      expect(r.errors.find((e) => e.path === "phases[0].agents[0].steps")?.message).toMatch(/at least one step/);
    }
  });

  it("rejects phases out of RFC order and duplicate agent names", async () => {
    const r = parseMissionDefinition(
      JSON.stringify({ name: "x", objective: "y", phases: [{ name: "REVIEW", agents: [{ name: "a", priority: "critical", steps: [{ tool: "shell", args: {} }] }] }, { name: "PLANNING", agents: [{ name: "a", priority: "optional", steps: [{ tool: "shell", args: {} }] }] }] }),
    );
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors.map((e) => e.path)).toEqual(expect.arrayContaining(["phases[1].name", "phases[1].agents[0].name"]));
    }
  });

  it("says which required fields are missing", async () => {
    const r = parseMissionDefinition("name: x\n");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors).toEqual(expect.arrayContaining([{ path: "objective", message: "is required (a string)" }, { path: "phases", message: "is required (a list)" }]));
  });

  it("explains YAML syntax errors with a line number", async () => {
    const r = parseMissionDefinition("name: [unclosed\nobjective: x");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0].message).toMatch(/line \d+/);
  });

  it("defaults agent timeouts to 120000 ms", async () => {
    expect(mission([{ name: "a", priority: "critical" }]).phases[0].agents[0].timeoutMs).toBe(120_000);
  });
});
