import { describe, expect, it } from "vitest";
import { missionDefinitionSchema } from "./definition";
import type { MissionEvent } from "./events";
import type { PatternRef } from "./recovery";
import { simulate, type StepOutcome } from "./simulate";
import type { GateDecision, GateState } from "./types";

/**
 * ADR-0003 recovery in the real engine (simulate.ts drives `advance` with scripted tool outcomes):
 * policy auto / propose, attempts per failure, the stuck loop, the fast path, the LLM proposal.
 */

const ok: StepOutcome = { kind: "ok" };
const rateLimited: StepOutcome = { kind: "fail", error: { code: "RATE_LIMITED", status: 429, retryAfterMs: 1000, message: "GET http://127.0.0.1:9/v1/items was rate limited (429); the server asks to retry after 1 s." } };
const timedOut: StepOutcome = { kind: "fail", error: { code: "TIMEOUT", message: "http GET http://127.0.0.1:9/slow did not complete within 1000 ms." } };
const notFound: StepOutcome = { kind: "fail", error: { code: "COMMAND_NOT_FOUND", exitCode: 127, stderr: "sh: 1: git: not found", message: 'Command "git" was not found (exit code 127).' } };

function mission(extra: Record<string, unknown> = {}, step: Record<string, unknown> = {}) {
  return missionDefinitionSchema.parse({
    name: "recovery",
    objective: "fetch the items",
    allowedBinaries: ["sleep"],
    ...extra,
    phases: [{ name: "EXECUTION", agents: [{ name: "fetch", priority: "critical", steps: [{ tool: "http", args: { url: "http://127.0.0.1:9/v1/items", method: "GET" }, ...step }] }] }],
  });
}
const types = (events: MissionEvent[]) => events.map((e) => e.type);
/** Fails the step for the first `n` runs, then succeeds. */
const failTimes = (n: number, how: StepOutcome) => {
  let runs = 0;
  return () => (++runs <= n ? how : ok);
};
const decide = (...decisions: GateDecision[]) => {
  const queue = [...decisions];
  return (_g: GateState) => queue.shift() ?? "abort";
};

describe("recovery: auto", () => {
  it("applies the plan of a recoverable failure: helper steps run, the step runs again and its evidence decides", async () => {
    const { state, events } = await simulate(mission({ recovery: "auto" }), { outcome: failTimes(1, rateLimited), decide: decide() });
    expect(types(events)).toEqual([
      "mission.created",
      "phase.started",
      "agent.started",
      "step.started",
      "tool.failed",
      "diagnostic_reflection",
      "recovery.started",
      "recovery.step",
      "step.rerun",
      "tool.succeeded",
      "recovery.finished",
      "agent.completed",
      "phase.completed",
      "objective.checked",
      "mission.finished",
    ]);
    const started = events.find((e) => e.type === "recovery.started")!;
    expect(started.payload).toMatchObject({ by: "auto", attemptNo: 1, plan: { strategy: "wait_and_retry_after", source: "diagnosis" } });
    expect(events.find((e) => e.type === "recovery.step")!.payload).toMatchObject({ tool: "shell", args: { command: "sleep", args: ["1"] }, ok: true });
    expect(events.find((e) => e.type === "recovery.finished")!.payload).toMatchObject({ outcome: "succeeded", strategy: "wait_and_retry_after", iterations: 2 });
    expect(state.gates).toHaveLength(0);
    expect(state.finalStatus).toBe("SUCCESS");
  });

  it("tries another strategy when one fails, and stops at AUTONOMOUS_MAX_RECOVERY_ATTEMPTS with the operator deciding", async () => {
    const { state, events } = await simulate(mission({ recovery: "auto" }), { outcome: () => timedOut, decide: decide("abort") });
    const finished = events.filter((e) => e.type === "recovery.finished").map((e) => e.payload as { strategy: string; outcome: string });
    expect(finished.map((f) => f.outcome)).toEqual(["failed", "failed"]);
    expect(new Set(finished.map((f) => f.strategy)).size).toBe(2); // never the same strategy twice
    const gate = state.gates[0];
    expect(gate.recoveryNote).toMatch(/2 recovery attempts already failed .*AUTONOMOUS_MAX_RECOVERY_ATTEMPTS is 2/);
    expect(gate.options.map((o) => o.action)).not.toContain("recover");
    expect(state.finalStatus).toBe("FAILED");
  });

  it("a failed helper step ends the attempt and the failure is handled again", async () => {
    const { events } = await simulate(mission({ recovery: "auto" }), { outcome: () => rateLimited, recoveryStep: () => ({ kind: "fail", error: { code: "NOT_ALLOWED", message: '"sleep" is not allowed' } }), decide: decide("abort") });
    const step = events.find((e) => e.type === "recovery.step")!;
    expect(step.payload).toMatchObject({ ok: false, error: { code: "NOT_ALLOWED" } });
    expect(events.find((e) => e.type === "recovery.finished")!.payload).toMatchObject({ outcome: "failed", reason: expect.stringMatching(/Helper step 1 .* failed: NOT_ALLOWED/) });
    expect(types(events)).toContain("gate.opened");
  });

  it("does not apply a plan to a high-risk step or to a failure that needs a person: it offers it at the gate", async () => {
    const risky = await simulate(mission({ recovery: "auto" }, { highRisk: true }), { outcome: failTimes(1, rateLimited), decide: decide("approve", "abort") });
    expect(types(risky.events)).not.toContain("recovery.started");
    const gate = risky.state.gates.find((g) => g.kind === "agent")!;
    expect(gate.recoveryNote).toMatch(/high-risk/);
    expect(gate.options[0]).toMatchObject({ action: "recover", label: "Apply recovery plan", recommended: true });
  });

  it("a plan that changes the approach (git missing → curl) is shown, never run: only the operator can", async () => {
    const d = missionDefinitionSchema.parse({ name: "clone", objective: "clone the repo", recovery: "auto", phases: [{ name: "EXECUTION", agents: [{ name: "clone", priority: "critical", steps: [{ tool: "shell", args: { command: "git", args: ["clone", "https://github.com/a/b"] } }] }] }] });
    const { state, events } = await simulate(d, { outcome: () => notFound, decide: decide("abort") });
    expect(types(events)).not.toContain("recovery.started");
    expect(state.gates[0].diagnosis?.type).toBe("command_not_found");
    expect(state.gates[0].recoveryNote).toMatch(/No other strategy can run without a person/);
  });
});

describe("recovery: propose", () => {
  it('offers "Apply recovery plan" as the recommended option; choosing it runs the plan', async () => {
    const { state, events } = await simulate(mission(), { outcome: failTimes(1, rateLimited), decide: decide("recover") });
    const gate = state.gates[0];
    expect(gate.recoveryPlan?.strategy).toBe("wait_and_retry_after");
    expect(gate.options[0]).toMatchObject({ action: "recover", key: "e", recommended: true });
    expect(gate.options[0].description).toMatch(/^Wait and retry after: wait as the server asks, then retry the same request once; the step's own evidence decides/);
    expect(gate.recoveryNote).toMatch(/policy is "propose"/);
    expect(events.find((e) => e.type === "recovery.started")!.payload).toMatchObject({ by: "operator", attemptNo: 1 });
    expect(state.agents.fetch.recoveries).toEqual([{ step: 0, attemptNo: 1, strategy: "wait_and_retry_after", source: "diagnosis", outcome: "succeeded" }]);
    expect(state.finalStatus).toBe("SUCCESS");
  });
});

describe("stuck loop", () => {
  it("the same action failing the same way three times is detected, and retry is no longer recommended", async () => {
    const d = missionDefinitionSchema.parse({ name: "loop", objective: "x", phases: [{ name: "EXECUTION", agents: [{ name: "build", priority: "critical", steps: [{ tool: "shell", args: { command: "make" } }] }] }] });
    const fail: StepOutcome = { kind: "fail", error: { code: "EXIT_NONZERO", exitCode: 2, stderr: "make: *** [all] Error 2", message: "exit code 2" } };
    const { state, events } = await simulate(d, { outcome: () => fail, decide: decide("retry", "retry", "abort") });
    expect(types(events).filter((t) => t === "recovery.loop_detected")).toHaveLength(1);
    expect(events.find((e) => e.type === "recovery.loop_detected")!.payload).toMatchObject({ agent: "build", count: 3 });
    const [first, , third] = state.gates;
    expect(first.options.find((o) => o.recommended)?.action).toBe("retry");
    expect(third.options.find((o) => o.recommended)?.action).toBe("abort");
    expect(third.options.find((o) => o.action === "retry")?.description).toMatch(/already failed the same way 3 times/);
  });
});

describe("learned patterns: the fast path", () => {
  const trusted: PatternRef = { id: "p1", when: "", then: "retry_with_backoff", successes: 9, failures: 0, confidence: 0.91, threshold: 0.8, enabled: true };

  it("a trusted pattern chooses the strategy without full reflection and is recorded as a fast-path event", async () => {
    let asked = 0;
    const { events } = await simulate(mission({ recovery: "auto" }), {
      outcome: failTimes(1, timedOut),
      decide: decide(),
      patterns: async (when) => [{ ...trusted, when }],
      reflect: async () => (asked++, null),
    });
    const fast = events.find((e) => e.type === "recovery.fast_path")!;
    expect(fast.payload).toMatchObject({ plan: { strategy: "retry_with_backoff", source: "pattern", pattern: { id: "p1", successes: 9 } }, contextLog: { act: "fast_path_recovery" } });
    expect(types(events)).not.toContain("recovery.started");
    // The diagnosis records the pattern's strategy as its plan; the LLM reflection is skipped.
    expect((events.find((e) => e.type === "diagnostic_reflection")!.payload as { diagnosis: { recoveryPlan: { strategy: string } } }).diagnosis.recoveryPlan.strategy).toBe("retry_with_backoff");
    expect(asked).toBe(0);
  });

  it("a pattern below its threshold, or disabled, is not applied: the diagnosis decides", async () => {
    for (const p of [{ ...trusted, confidence: 0.6 }, { ...trusted, enabled: false }]) {
      const { events } = await simulate(mission({ recovery: "auto" }), { outcome: failTimes(1, timedOut), decide: decide(), patterns: async (when) => [{ ...p, when }] });
      expect(types(events)).not.toContain("recovery.fast_path");
      expect(events.find((e) => e.type === "recovery.started")!.payload).toMatchObject({ plan: { source: "diagnosis" } });
    }
  });
});

describe("the optional LLM reflection", () => {
  it("records the proposal and its verdict right after the deterministic diagnosis", async () => {
    const { events } = await simulate(mission(), {
      outcome: () => rateLimited,
      decide: decide("abort"),
      reflect: async () => ({ status: "rejected", proposedBy: "llm:local/test", provider: "local", model: "test", proposal: { type: "timeout", rootCause: { category: "slow", description: "slow", confidence: 0.9 }, whyChain: ["slow"], citedLines: [] }, reasons: ["HTTP 429 (Too Many Requests) must be rate_limited, not timeout"], elapsedMs: 12 }),
    });
    const order = types(events);
    expect(order.indexOf("diagnosis.proposal")).toBe(order.indexOf("diagnostic_reflection") + 1);
    const e = events.find((x) => x.type === "diagnosis.proposal")!;
    expect(e.reason).toMatch(/llm:local\/test proposed .*\(timeout\): rejected/);
    expect(e.impact).toMatch(/must be rate_limited/);
  });
});
