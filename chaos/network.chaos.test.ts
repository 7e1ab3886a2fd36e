import { describe, expect, it } from "vitest";
import { createDb } from "../db/client";
import { listFailuresByMission } from "../db/queries/audit";
import { definition } from "../lib/mission/test-fixtures";
import type { MissionEvent } from "../lib/mission";
import { STEADY_LEASE, checkInvariants, decide, effectStep, getEvents, getState, httpStep, scenario, waitFor, waitForGate, waitForTerminal } from "./harness";

/** Elapsed ms between a step's start and its tool.failed, per (agent, attempt). */
function stepDurations(events: MissionEvent[]): Map<string, number> {
  const started = new Map<string, number>();
  const out = new Map<string, number>();
  for (const e of events) {
    if (e.type === "step.started") started.set(`${e.payload.agent}/${e.payload.attempt}`, Date.parse(e.at));
    if (e.type === "tool.failed") out.set(`${e.payload.agent}/${e.payload.attempt}`, Date.parse(e.at) - started.get(`${e.payload.agent}/${e.payload.attempt}`)!);
  }
  return out;
}

describe("the network", () => {
  it("f. network partition through timeouts: a server that accepts and never answers fails each step with TIMEOUT within its timeout, and the response matrix applies", async () => {
    const s = await scenario();
    const fx = await s.sideEffects();
    await s.startWorker();
    const m = await s.create(
      definition({
        name: "partition",
        agents: [
          { name: "telemetry", priority: "optional", phase: "RESEARCH", steps: [httpStep(fx, "/partition", { timeoutMs: 1000, name: "send telemetry" })] },
          { name: "fetcher", priority: "important", phase: "RESEARCH", steps: [httpStep(fx, "/partition", { timeoutMs: 1500, name: "fetch prices" })] },
          { name: "prober", priority: "critical", phase: "RESEARCH", steps: [effectStep(fx, { path: "/partition", timeoutMs: 1500, name: "probe upstream" })] },
          // Two of four agents end failed (tolerated or skipped): not more than half, so the phase itself completes.
          { name: "reader", priority: "important", phase: "RESEARCH", steps: [httpStep(fx, "/effect", { name: "read cache" })] },
        ],
      }),
    );
    // optional → warning, the mission goes on; important + recoverable TIMEOUT → gate with retry (and the recovery plan, recommended).
    const g1 = await waitForGate(s.db, m.id, "agent", 15_000);
    expect(g1.agent).toBe("fetcher");
    // The default recovery policy "propose" offers the diagnosis's plan first (recommended); Retry stays.
    expect(g1.options.map((o) => o.action)).toEqual(["recover", "retry", "skip", "abort"]);
    expect(g1.options.find((o) => o.recommended)?.action).toBe("recover");
    expect(g1.error.technical.code).toBe("TIMEOUT");
    expect(g1.error.why).toMatch(/did not complete within 1500 ms/);
    let st = await getState(s.db, m.id);
    expect(st.agents.telemetry).toMatchObject({ status: "failed", tolerated: true });
    expect(st.agents.telemetry.error?.code).toBe("TIMEOUT");
    await decide(s.db, g1.id, "skip", "prices can wait");

    // critical shell step whose process waits on the partition: killed at its timeout → gate with retry and the recovery plan.
    const g2 = await waitForGate(s.db, m.id, "agent", 15_000);
    expect(g2.agent).toBe("prober");
    expect(g2.options.find((o) => o.recommended)?.action).toBe("recover");
    expect(g2.options.map((o) => o.action)).toContain("retry");
    expect(g2.error.technical.code).toBe("TIMEOUT");
    st = await getState(s.db, m.id);
    expect(st.agents.prober.error).toMatchObject({ code: "TIMEOUT", recoverable: true });
    expect(g2.error.why).toMatch(/did not finish within 1500 ms and was stopped/);

    const durations = stepDurations(await getEvents(s.db, m.id));
    const limits: Record<string, number> = { "telemetry/1": 1000, "fetcher/1": 1500, "prober/1": 1500 };
    for (const [k, limit] of Object.entries(limits)) {
      expect(durations.get(k), k).toBeGreaterThanOrEqual(limit - 50);
      expect(durations.get(k), k).toBeLessThan(limit + 1500); // the timeout, not a hang
    }

    // The partition heals; the operator retries the critical agent.
    fx.partitioned = false;
    await decide(s.db, g2.id, "retry", "the link is back");
    const done = await waitForTerminal(s.db, m.id, 15_000);
    expect(done.finalStatus).toBe("PARTIAL_SUCCESS");
    const audit = await listFailuresByMission(s.db, m.id);
    expect(audit.map((a) => [a.context.code, a.resolution?.action])).toEqual([
      ["TIMEOUT", "continue"],
      ["TIMEOUT", "skip"],
      ["TIMEOUT", "retry"],
    ]);
    console.log(`[chaos f] TIMEOUT after ${[...durations].map(([k, ms]) => `${k} ${ms} ms`).join(", ")}`);
    expect((await checkInvariants(s.db, m.id, { sideEffects: fx })).violations).toEqual([]);
  });

  it("l. retry storm: 30 missions fail at once against a 503 server, all gates are decided retry concurrently (twice), the server recovers, all end SUCCESS", async () => {
    const s = await scenario();
    const fx = await s.sideEffects();
    fx.failing = true;
    await s.startWorkers(2, { lease: STEADY_LEASE });
    const N = 30;
    const ids = await Promise.all(Array.from({ length: N }, (_, i) => s.create(definition({ name: `storm ${i}`, agents: [{ name: "caller", priority: "critical", steps: [httpStep(fx, "/storm", { name: "call api" })] }] })).then((m) => m.id)));
    // Operators deciding at once: one connection per decision.
    const operators = createDb(s.tdb.url, { max: N, applicationName: "chaos-operators" });
    s.onDispose(() => operators.close());
    const gatesAtAttempt = (attempt: number) =>
      waitFor(`${N} missions at a gate for attempt ${attempt}`, async () => {
        const states = await Promise.all(ids.map((id) => getState(s.db, id)));
        const open = states.map((st) => st.gates.find((g) => g.status === "open" && st.agents.caller.attempt === attempt));
        return open.every(Boolean) ? open.map((g) => g!.id) : null;
      }, { timeoutMs: 30_000, intervalMs: 100 });

    const round1 = await gatesAtAttempt(1);
    for (const id of ids) expect((await getState(s.db, id)).agents.caller.error).toMatchObject({ code: "PROVIDER_ERROR", recoverable: true });
    const t0 = Date.now();
    await Promise.all(round1.map((g) => decide(operators.db, g, "retry", "storm: retry")));
    const round2 = await gatesAtAttempt(2); // still 503: every retry fails again, each at its own gate
    const t1 = Date.now();
    fx.failing = false;
    await Promise.all(round2.map((g) => decide(operators.db, g, "retry", "storm: the API is back")));
    const final = await Promise.all(ids.map((id) => waitForTerminal(s.db, id, 30_000)));
    const t2 = Date.now();
    expect(final.map((f) => f.finalStatus)).toEqual(Array(N).fill("SUCCESS"));
    for (const id of ids) {
      for (const attempt of [1, 2, 3]) expect(fx.count(`${id}/caller/0/${attempt}`)).toBe(1);
      const report = await checkInvariants(s.db, id, { sideEffects: fx });
      expect(report.violations).toEqual([]);
      const audit = await listFailuresByMission(s.db, id);
      expect(audit.map((a) => [a.context.httpStatus, a.resolution?.action, a.resolution?.resolvedBy])).toEqual([
        [503, "retry", "user:chaos-operator"],
        [503, "retry", "user:chaos-operator"],
      ]);
    }
    expect(fx.hits.length).toBe(3 * N); // no request beyond one per attempt
    expect(s.workers.every((w) => w.alive)).toBe(true);
    console.log(`[chaos l] ${N} concurrent retries → ${N} gates again in ${t1 - t0} ms; ${N} concurrent retries after recovery → all SUCCESS in ${t2 - t1} ms`);
  });
});
