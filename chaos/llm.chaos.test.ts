import { describe, expect, it } from "vitest";
import { listFailuresByMission } from "../db/queries/audit";
import type { FakeLlmServer } from "../lib/llm/test-server";
import { definition } from "../lib/mission/test-fixtures";
import { checkInvariants, decide, effectStep, getEvents, scenario, sleep, waitForEvent, waitForGate, waitForTerminal } from "./harness";

const llmStep = (prompt: string) => ({ name: "summarize", tool: "llm" as const, args: { prompt }, evidence: [{ output_matches: "^echo: " }] });
/** FAULTLINE_LLM_PROVIDERS of every scenario: alpha, then beta (a call waits 3 s at most for each). */
const providers = (llm: FakeLlmServer) => llm.providersEnv(["alpha", "beta"], { timeoutMs: 3000 });

/**
 * FAILURE_MODEL "LLM provider fails" and "All providers fail", against the loopback OpenAI-compatible
 * test server (lib/llm/test-server.ts): chat500 and chatreset break the calls while the health check
 * (GET /models) still answers; down fails the health check too.
 */
describe("LLM providers", () => {
  it("b. one provider returns 500: the call falls back to the next one, and the fallback is recorded", async () => {
    const s = await scenario();
    const llm = await s.llm();
    llm.set("alpha", "chat500");
    llm.set("beta", "ok");
    await s.startWorker({ env: { FAULTLINE_LLM_PROVIDERS: providers(llm) } });
    const m = await s.create(definition({ name: "llm fallback", agents: [{ name: "writer", priority: "critical", steps: [llmStep("release notes")] }] }));
    const done = await waitForTerminal(s.db, m.id, 20_000);
    expect(done.finalStatus).toBe("SUCCESS");
    const ok = (await getEvents(s.db, m.id)).find((e) => e.type === "tool.succeeded")!;
    if (ok.type !== "tool.succeeded") throw new Error("unreachable");
    const data = ok.payload.data as { provider: string; content: string; attempts: Array<{ provider: string; ok: boolean; status?: number; summary: string }> };
    expect(data.provider).toBe("beta");
    expect(data.content).toBe("echo: release notes");
    expect(data.attempts.map((a) => [a.provider, a.ok, a.status ?? null])).toEqual([
      ["alpha", false, 500],
      ["beta", true, null],
    ]);
    expect(data.attempts[0].summary).toMatch(/500/);
    expect(ok.reason).toMatch(/after falling back from alpha \(500 .*\) to beta/); // in the timeline, not only the data
    expect([llm.completions("alpha").length, llm.completions("beta").length]).toEqual([1, 1]);
    // Both calls carry the step's idempotency key.
    expect(new Set(llm.completions().map((r) => r.headers["idempotency-key"]))).toEqual(new Set([`${m.id}/writer/0/1`]));
    expect((await checkInvariants(s.db, m.id)).violations).toEqual([]);
  });

  it("c. all providers fail the call: the mission pauses at a gate with an explicit message — even for an optional agent — and goes on when an operator retries after a fix", async () => {
    const s = await scenario();
    const llm = await s.llm();
    llm.set("alpha", "chat500");
    llm.set("beta", "chatreset"); // both endpoints still answer the health check: the call itself finds out
    await s.startWorker({ env: { FAULTLINE_LLM_PROVIDERS: providers(llm) } });
    const m = await s.create(definition({ name: "llm down", agents: [{ name: "summarizer", priority: "optional", steps: [llmStep("the incident")] }] }));
    const gate = await waitForGate(s.db, m.id, "agent", 20_000);
    expect(gate.error.why).toMatch(/^All 2 LLM providers failed: alpha: 500 .*; beta: network error.* No output was produced and nothing was substituted/);
    // An outage of every provider is an infrastructure failure: no step-level recovery plan is offered.
    expect(gate.options.map((o) => o.action)).toEqual(["retry", "skip", "abort"]);
    expect(gate.options.find((o) => o.recommended)?.action).toBe("retry");
    expect(gate.recoveryNote).toBeNull();
    const [entry] = await listFailuresByMission(s.db, m.id);
    expect(entry).toMatchObject({ level: "infrastructure", severity: "critical", gateId: gate.id, resolvedAt: null });
    // No placeholder output: nothing succeeded.
    expect((await getEvents(s.db, m.id)).some((e) => e.type === "tool.succeeded")).toBe(false);

    llm.set("beta", "ok");
    await decide(s.db, gate.id, "retry", "beta is back");
    const done = await waitForTerminal(s.db, m.id, 20_000);
    expect(done.finalStatus).toBe("SUCCESS");
    expect(done.agents.summarizer.attempt).toBe(2);
    const [after] = await listFailuresByMission(s.db, m.id);
    expect(after.resolution).toMatchObject({ action: "retry", resolvedBy: "user:chaos-operator" });
    expect((await checkInvariants(s.db, m.id)).violations).toEqual([]);
  });

  it("c'. every provider down per the health check: every active mission pauses (infrastructure) with the reason, its step in flight keeps its result, and it resumes when they are back", async () => {
    const s = await scenario();
    const llm = await s.llm();
    const fx = await s.sideEffects();
    llm.set("alpha", "ok");
    llm.set("beta", "ok");
    await s.startWorker({ env: { FAULTLINE_LLM_PROVIDERS: providers(llm), FAULTLINE_HEALTH_INTERVAL_MS: "1000" } });
    const m = await s.create(definition({ name: "providers down", agents: [{ name: "writer", priority: "critical", steps: [effectStep(fx, { sleepMs: 4000, name: "collect" }), llmStep("the report")] }] }));
    await fx.waitForHit(`${m.id}/writer/0/1`);
    llm.set("alpha", "down");
    llm.set("beta", "down");
    const paused = await waitForEvent(s.db, m.id, "the health pause", (e) => e.type === "mission.paused", 5000);
    expect(paused.payload).toMatchObject({ kind: "infrastructure" });
    expect((paused.payload as { message: string }).message).toMatch(/every LLM provider is unavailable/);
    // The step in flight records its result (a checkpoint); nothing new starts while paused.
    await waitForEvent(s.db, m.id, "the step's result", (e) => e.type === "tool.succeeded" && e.seq > paused.seq, 10_000);
    await sleep(1500);
    expect((await getEvents(s.db, m.id)).filter((e) => e.seq > paused.seq).map((e) => e.type)).toEqual(["tool.succeeded"]);
    expect(llm.completions()).toHaveLength(0);

    llm.set("alpha", "ok");
    llm.set("beta", "ok");
    const done = await waitForTerminal(s.db, m.id, 15_000);
    expect(done.finalStatus).toBe("SUCCESS");
    const resumed = (await getEvents(s.db, m.id)).find((e) => e.type === "mission.resumed")!;
    expect((resumed.payload as { message: string }).message).toMatch(/health check passes again/);
    const [entry] = await listFailuresByMission(s.db, m.id);
    expect(entry).toMatchObject({ level: "infrastructure", seq: paused.seq });
    expect(entry.resolution?.action).toBe("resume");
    expect((await checkInvariants(s.db, m.id, { sideEffects: fx })).violations).toEqual([]);
  });
});
