import http from "node:http";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import type { TestDatabase } from "../../db/test-helpers";
import { createMission, listEventsAfter } from "../../db/queries/events";
import { decideGate } from "../../db/queries/gates";
import { memoryRecords } from "../../db/queries/learning";
import { actors, episodicMemory, gates, learnedPatterns, missions, sessionMemory } from "../../db/schema";
import { DiagnosisConfigError } from "../../lib/diagnosis/config";
import { patternTrigger } from "../../lib/diagnosis/diagnose";
import type { Diagnosis } from "../../lib/diagnosis/types";
import { startFakeLlmServer, type FakeLlmServer } from "../../lib/llm/test-server";
import type { Provider } from "../../lib/llm/providers";
import { missionDefinitionSchema, type MissionDefinition, type MissionEvent, type MissionState } from "../../lib/mission";
import { Worker } from "./worker";
import { useWorkerHarness } from "./test-harness";

/**
 * ADR-0003 recovery end to end: a real Worker on PostgreSQL, real tools (a real `sleep` process, real
 * HTTP to loopback servers this file starts), the learning projections, and the optional LLM reflection
 * against the OpenAI-compatible test server.
 */

const harness = useWorkerHarness("fl-rec-");
let tdb: TestDatabase;
let workspaces: string;
const servers: Array<{ close(): unknown }> = [];
beforeAll(() => {
  tdb = harness.tdb;
  workspaces = harness.workspaces;
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const startWorker = (opts: { llmProviders?: Provider[] } = {}) => harness.startWorker(opts);
const { state, settle } = harness;

/** A loopback HTTP server on 127.0.0.1:0 answering with `answer(n)` for its n-th request (1-based). */
async function loopback(answer: (n: number, res: http.ServerResponse) => void): Promise<{ url: string; requests: number[] }> {
  const requests: number[] = [];
  const server = http.createServer((_req, res) => {
    requests.push(Date.now());
    answer(requests.length, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  servers.push({ close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) });
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/items`, requests };
}

const tooMany = (res: http.ServerResponse) => res.writeHead(429, { "retry-after": "1", "content-type": "application/json" }).end(JSON.stringify({ error: { message: "Too many requests" } }));
const fine = (res: http.ServerResponse) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ items: [1, 2, 3] }));

function fetchMission(url: string, recovery: "auto" | "propose", step: Record<string, unknown> = {}, name = "fetch items"): MissionDefinition {
  return missionDefinitionSchema.parse({
    name,
    objective: "fetch the items",
    recovery,
    phases: [{ name: "EXECUTION", agents: [{ name: "fetch", priority: "critical", steps: [{ tool: "http", args: { url }, evidence: [{ http_status: 200 }], ...step }] }] }],
  });
}

async function run(def: MissionDefinition): Promise<{ id: string; s: MissionState; events: MissionEvent[] }> {
  const m = await createMission(tdb.db, { definition: def, actorId: "user:op" });
  const s = await settle(m.id);
  return { id: m.id, s, events: await listEventsAfter(tdb.db, { missionId: m.id }) };
}

const types = (events: MissionEvent[]) => events.map((e) => e.type);
const payload = <T = Record<string, unknown>>(events: MissionEvent[], type: string) => events.find((e) => e.type === type)?.payload as T;
const diagnosisOf = (events: MissionEvent[]) => payload<{ diagnosis: Diagnosis }>(events, "diagnostic_reflection").diagnosis;

async function patternRow(when: string, then?: string) {
  const rows = await tdb.db
    .select()
    .from(learnedPatterns)
    .where(and(eq(learnedPatterns.when, when), then ? eq(learnedPatterns.then, then) : undefined));
  expect(rows).toHaveLength(1);
  return rows[0];
}

describe("recovery: auto, on real processes and HTTP", () => {
  // One loopback service for (a) and (b): a 429 with Retry-After: 1 whenever `failNext` is set, else 200.
  let service: { url: string; requests: number[] };
  let failNext = true;
  let trigger = "";
  let closeService: () => unknown = () => undefined;
  beforeAll(async () => {
    service = await loopback((_n, res) => {
      if (failNext) {
        failNext = false;
        tooMany(res);
      } else fine(res);
    });
    closeService = servers.pop()!.close; // open for both tests of this block
  });
  afterAll(() => closeService());

  it("a 429 is diagnosed, a real `sleep 1` waits, the step runs again and passes: SUCCESS, and the recovery is learned", async () => {
    await startWorker();
    const { id, s, events } = await run(fetchMission(service.url, "auto"));
    expect(s.finalStatus).toBe("SUCCESS");
    expect(s.gates).toHaveLength(0);
    const from = types(events).indexOf("tool.failed");
    // The test database's library is empty: the failure is novel (a draft for reviewers), then ADR-0003 recovery runs as before.
    expect(types(events).slice(from, from + 9)).toEqual(["tool.failed", "diagnostic_reflection", "library.hypotheses", "library.novel", "recovery.started", "recovery.step", "step.rerun", "tool.succeeded", "recovery.finished"]);
    expect(payload(events, "library.hypotheses")).toMatchObject({ abstained: true, hypotheses: [], query: { object_class: "http: 127.0.0.1" } });
    expect(payload(events, "recovery.started")).toMatchObject({ by: "auto", attemptNo: 1, plan: { strategy: "wait_and_retry_after", source: "diagnosis" } });
    expect(payload(events, "recovery.step")).toMatchObject({ tool: "shell", args: { command: "sleep", args: ["1"] }, ok: true });
    expect(payload(events, "step.rerun")).toMatchObject({ reason: "recovery" });
    expect(payload(events, "recovery.finished")).toMatchObject({ outcome: "succeeded", strategy: "wait_and_retry_after", iterations: 2 });
    // Exactly two requests, a real second apart (the helper step is a real `sleep 1` process).
    expect(service.requests).toHaveLength(2);
    expect(service.requests[1] - service.requests[0]).toBeGreaterThanOrEqual(950);

    // The learned pattern: when = the failure's trigger, then = the strategy that worked.
    const d = diagnosisOf(events);
    trigger = patternTrigger(d);
    expect(trigger).toBe("127_0_0_1_rate_limit"); // the host (not the port) and the root-cause category
    expect(payload(events, "recovery.finished")).toMatchObject({ when: trigger });
    const p = await patternRow(trigger);
    expect(p).toMatchObject({ then: "wait_and_retry_after", errorType: "rate_limited", successes: 1, failures: 0, confidence: 0.67, threshold: 0.8, enabled: true, lastOutcome: "succeeded", lastMissionId: id });

    // Session memory: the diagnosed failure with its recovery attempt and the learned pattern.
    const session = await tdb.db.select().from(sessionMemory).where(eq(sessionMemory.missionId, id));
    expect(session).toHaveLength(1);
    expect(session[0].id).toBe(d.id);
    expect(session[0].failureDiagnosis).toMatchObject({ root_cause: d.rootCause.category, why_chain: Object.values(d.whyChain) });
    expect(session[0].failureDiagnosis.recovery_attempted).toEqual([{ strategy: "wait_and_retry_after", outcome: "success", iterations_to_success: 2 }]);
    expect(session[0].learnedPattern).toEqual({ when: trigger, then: "wait_and_retry_after", confidence: 0.67 });
    // Episodic memory: one successful recovery, reusable across missions.
    const episodic = await tdb.db.select().from(episodicMemory).where(eq(episodicMemory.missionId, id));
    expect(episodic).toHaveLength(1);
    expect(episodic[0]).toMatchObject({
      errorEncountered: { type: "rate_limited", tool: "http" },
      successfulRecovery: { strategy: "wait_and_retry_after", iterations_to_success: 2, confidence: 0.67 },
      reusablePattern: { trigger, action: "wait_and_retry_after", success_rate: 0.67 },
    });
  });

  it("the fast path: a pattern trusted above its threshold chooses the strategy, and gains a success", async () => {
    expect(trigger).not.toBe("");
    await tdb.db.update(learnedPatterns).set({ threshold: 0.6 }).where(eq(learnedPatterns.when, trigger));
    failNext = true;
    const before = service.requests.length;
    await startWorker();
    const { s, events } = await run(fetchMission(service.url, "auto", {}, "fetch items again"));
    expect(s.finalStatus).toBe("SUCCESS");
    expect(types(events)).toContain("recovery.fast_path");
    expect(types(events)).not.toContain("recovery.started");
    const fast = payload<{ plan: { source: string; strategy: string; pattern: { when: string } }; contextLog: Record<string, unknown> }>(events, "recovery.fast_path");
    expect(fast.plan).toMatchObject({ source: "pattern", strategy: "wait_and_retry_after", pattern: { when: trigger } });
    expect(fast.contextLog).toMatchObject({ act: "fast_path_recovery", name: "learned_pattern" });
    expect(payload(events, "recovery.finished")).toMatchObject({ outcome: "succeeded", source: "pattern" });
    expect(service.requests.length - before).toBe(2);
    const p = await patternRow(trigger);
    expect(p).toMatchObject({ successes: 2, failures: 0, confidence: 0.75, threshold: 0.6 });
  });
});

describe("recovery: propose", () => {
  // Patterns learned by earlier tests (same host) would otherwise take the fast path or change the counts.
  beforeEach(async () => {
    await tdb.db.delete(learnedPatterns);
  });
  it('the gate offers "Apply recovery plan" (recommended); the decision, recorded as the REST API records it, runs the plan', async () => {
    const service = await loopback((n, res) => (n === 1 ? tooMany(res) : fine(res)));
    await startWorker();
    const m = await createMission(tdb.db, { definition: fetchMission(service.url, "propose"), actorId: "user:op" });
    const atGate = await settle(m.id);
    expect(atGate.runState).toBe("paused");
    const gate = atGate.gates[0];
    expect(gate.options[0]).toMatchObject({ action: "recover", key: "e", label: "Apply recovery plan", recommended: true });
    expect(gate.options.filter((o) => o.recommended)).toHaveLength(1);
    expect(gate.recoveryNote).toMatch(/policy is "propose"/);
    const [row] = await tdb.db.select().from(gates).where(eq(gates.id, gate.id));
    expect(row.recoveryPlan).toMatchObject({ strategy: "wait_and_retry_after" });
    expect(row.recoveryNote).toBe(gate.recoveryNote);
    expect(service.requests).toHaveLength(1);

    await decideGate(tdb.db, { gateId: gate.id, decision: "recover", note: "wait and try again", actorId: "user:op", actorName: "Olivia Operator" });
    const done = await settle(m.id);
    expect(done.finalStatus).toBe("SUCCESS");
    const events = await listEventsAfter(tdb.db, { missionId: m.id });
    expect(payload(events, "recovery.started")).toMatchObject({ by: "operator", attemptNo: 1, plan: { strategy: "wait_and_retry_after" } });
    expect(events.find((e) => e.type === "recovery.started")!.actorId).toMatch(/^worker:/);
    expect(payload(events, "gate.resolved")).toMatchObject({ decision: "recover" });
    expect(service.requests).toHaveLength(2);
    expect(done.agents.fetch.recoveries).toEqual([{ step: 0, attemptNo: 1, strategy: "wait_and_retry_after", source: "diagnosis", outcome: "succeeded" }]);
  });
});

describe("recovery that does not work", () => {
  // Patterns learned by earlier tests (same host) would otherwise take the fast path or change the counts.
  beforeEach(async () => {
    await tdb.db.delete(learnedPatterns);
  });
  it("a service that always answers 429: the one runnable strategy is tried once, then an operator decides; the pattern records the failure", async () => {
    const service = await loopback((_n, res) => tooMany(res));
    await startWorker();
    const { s, events } = await run(fetchMission(service.url, "auto"));
    expect(s.runState).toBe("paused");
    const finished = events.filter((e) => e.type === "recovery.finished").map((e) => e.payload as { outcome: string; strategy: string });
    expect(finished.length).toBeGreaterThanOrEqual(1);
    expect(finished.length).toBeLessThanOrEqual(2); // AUTONOMOUS_MAX_RECOVERY_ATTEMPTS
    expect(finished.every((f) => f.outcome === "failed")).toBe(true);
    expect(new Set(finished.map((f) => f.strategy)).size).toBe(finished.length); // never the same strategy twice
    const gate = s.gates.find((g) => g.status === "open")!;
    const [row] = await tdb.db.select().from(gates).where(eq(gates.id, gate.id));
    expect(row.recoveryNote).toBeTruthy();
    expect(row.recoveryNote).toBe(gate.recoveryNote);
    expect(gate.options.map((o) => o.action)).not.toContain("recover");
    expect(service.requests).toHaveLength(1 + finished.length);
    // wait_and_retry_after is the only strategy of a 429 that runs without a person, and a strategy is
    // never tried twice for one failure: after it failed once, the gate explains that nothing else can run.
    expect(finished).toHaveLength(1);
    expect(row.recoveryNote).toMatch(/No other strategy can run without a person.*Tried already: wait_and_retry_after \(failed\), 1 of AUTONOMOUS_MAX_RECOVERY_ATTEMPTS=2/);
    const p = await patternRow(patternTrigger(diagnosisOf(events)));
    expect(p).toMatchObject({ then: "wait_and_retry_after", successes: 0, failures: 1, confidence: 0.33, lastOutcome: "failed" });
    await decideGate(tdb.db, { gateId: gate.id, decision: "abort", note: null, actorId: "user:op", actorName: "Olivia Operator" });
    expect((await settle(s.id)).finalStatus).toBe("FAILED");
  });

  it("a service that hangs: two strategies fail (AUTONOMOUS_MAX_RECOVERY_ATTEMPTS = 2), then the gate says so", async () => {
    // Answers after 3 s: every call of a step limited to 300 ms (600 ms when the timeout is doubled) times out.
    const service = await loopback((_n, res) => void setTimeout(() => !res.destroyed && fine(res), 3000));
    await startWorker();
    const { s, events } = await run(fetchMission(service.url, "auto", { timeoutMs: 300 }));
    expect(s.runState).toBe("paused");
    const finished = events.filter((e) => e.type === "recovery.finished").map((e) => e.payload as { outcome: string; strategy: string; when: string });
    expect(finished.map((f) => f.outcome)).toEqual(["failed", "failed"]);
    expect(new Set(finished.map((f) => f.strategy)).size).toBe(2);
    const gate = s.gates.find((g) => g.status === "open")!;
    const [row] = await tdb.db.select().from(gates).where(eq(gates.id, gate.id));
    expect(row.recoveryNote).toMatch(/2 recovery attempts already failed .*AUTONOMOUS_MAX_RECOVERY_ATTEMPTS is 2/);
    expect(gate.options.map((o) => o.action)).not.toContain("recover");
    expect(service.requests).toHaveLength(3);
    // The third identical failure is a stuck loop; the attempts limit is what the gate reports.
    expect(types(events)).toContain("recovery.loop_detected");
    for (const f of finished) expect(await patternRow(f.when, f.strategy)).toMatchObject({ successes: 0, failures: 1, confidence: 0.33 });
  }, 30_000);
});

describe("recovery binaries", () => {
  it("only recovery helper steps may run FAULTLINE_RECOVERY_BINARIES: an agent named \"recovery\" may not", async () => {
    await startWorker();
    const def = missionDefinitionSchema.parse({
      name: "agent named recovery",
      objective: "wait",
      allowedBinaries: ["node"],
      phases: [{ name: "EXECUTION", agents: [{ name: "recovery", priority: "critical", steps: [{ tool: "shell", args: { command: "sleep", args: ["0"] } }] }] }],
    });
    const { s } = await run(def);
    expect(s.runState).toBe("paused");
    expect(s.agents.recovery.steps[0].error?.code).toBe("NOT_ALLOWED");
    expect(s.agents.recovery.steps[0].error?.message).toMatch(/"sleep" is not on this mission's allowlist/);
  });
});

describe("the optional LLM reflection in the worker", () => {
  let llm: FakeLlmServer;
  beforeAll(async () => {
    llm = await startFakeLlmServer();
  });
  afterAll(async () => {
    await llm.close();
  });

  const proposal = (over: Record<string, unknown>) =>
    JSON.stringify({
      type: "command_not_found",
      rootCause: { category: "missing_binary", description: "The binary is not installed on the worker.", confidence: 0.9 },
      whyChain: ["the command failed with exit code 127", "the binary is not on PATH", "the image lacks it", "nobody checked", "no capability check"],
      citedLines: ['"definitely-not-a-binary-xyz" was not found'],
      ...over,
    });
  const missing = () =>
    missionDefinitionSchema.parse({
      name: "missing binary",
      objective: "run the tool",
      allowedBinaries: ["definitely-not-a-binary-xyz"],
      phases: [{ name: "EXECUTION", agents: [{ name: "runner", priority: "critical", steps: [{ tool: "shell", args: { command: "definitely-not-a-binary-xyz", args: ["--version"] } }] }] }],
    });

  it("a proposal claiming timeout for exit 127 is rejected, the reason names 127, and the LLM is an agent actor", async () => {
    llm.reply("claims-timeout", proposal({ type: "timeout", rootCause: { category: "time_limit_exceeded", description: "The command took too long.", confidence: 0.7 }, citedLines: [] }));
    await startWorker({ llmProviders: [llm.provider("claims-timeout")] });
    const { s, events } = await run(missing());
    expect(s.runState).toBe("paused");
    expect(s.agents.runner.steps[0].error).toMatchObject({ code: "COMMAND_NOT_FOUND", exitCode: 127 });
    const at = types(events).indexOf("diagnostic_reflection");
    expect(types(events)[at + 1]).toBe("diagnosis.proposal");
    const p = payload<{ diagnosisId: string; proposal: { status: string; proposedBy: string; reasons: string[]; proposal: { type: string } } }>(events, "diagnosis.proposal");
    expect(p.diagnosisId).toBe(diagnosisOf(events).id);
    expect(p.proposal.status).toBe("rejected");
    expect(p.proposal.proposal.type).toBe("timeout");
    expect(p.proposal.reasons.join(" ")).toMatch(/127/);
    expect(p.proposal.proposedBy).toBe("llm:claims-timeout/claims-timeout-model");
    const [actor] = await tdb.db.select().from(actors).where(eq(actors.id, p.proposal.proposedBy));
    expect(actor).toMatchObject({ kind: "agent" });
    expect(llm.count("claims-timeout")).toBe(1);
    // The proposal never changes the diagnosis.
    expect(diagnosisOf(events).errorClassification.type).toBe("command_not_found");
  });

  it("a correct proposal is accepted", async () => {
    llm.reply("agrees", proposal({}));
    await startWorker({ llmProviders: [llm.provider("agrees")] });
    const { events } = await run(missing());
    const p = payload<{ proposal: { status: string; reasons: string[] } }>(events, "diagnosis.proposal");
    expect(p.proposal.status).toBe("accepted");
    expect(p.proposal.reasons[0]).toMatch(/agrees with the deterministic type command_not_found; 1 cited line found/);
    const [actor] = await tdb.db.select().from(actors).where(eq(actors.id, "llm:agrees/agrees-model"));
    expect(actor?.kind).toBe("agent");
  });

  it("without providers no proposal is recorded", async () => {
    await startWorker();
    const { events } = await run(missing());
    expect(types(events)).toContain("diagnostic_reflection");
    expect(types(events)).not.toContain("diagnosis.proposal");
  });
});

describe("memory export (memoryRecords)", () => {
  async function collect(kind: "session" | "episodic", filter: { missionId?: string } = {}) {
    const out: Array<Record<string, unknown>> = [];
    for await (const r of memoryRecords(tdb.db, kind, filter)) out.push(r);
    return out;
  }

  it("streams both kinds with the ADR's fields, and filters by mission", async () => {
    const session = await collect("session");
    expect(session.length).toBeGreaterThan(0);
    for (const r of session) {
      expect(Object.keys(r)).toEqual(expect.arrayContaining(["id", "ts", "conv_id", "failure_diagnosis", "learned_pattern"]));
      expect(Object.keys(r.failure_diagnosis as object).sort()).toEqual(["immediate_cause", "recovery_attempted", "root_cause", "why_chain"]);
      expect(new Date(r.ts as string).toISOString()).toBe(r.ts);
    }
    const learned = session.find((r) => r.learned_pattern !== null)!;
    expect(learned.learned_pattern).toEqual({ when: expect.any(String), then: expect.any(String), confidence: expect.any(Number) });
    const episodic = await collect("episodic");
    expect(episodic.length).toBeGreaterThanOrEqual(3); // (a), (b) and propose each recovered once
    for (const r of episodic) {
      expect(Object.keys(r.error_encountered as object).sort()).toEqual(["diagnosis", "root_cause", "tool", "type"]);
      expect(Object.keys(r.successful_recovery as object).sort()).toEqual(["confidence", "iterations_to_success", "strategy", "tools"]);
      expect(Object.keys(r.reusable_pattern as object).sort()).toEqual(["action", "success_rate", "trigger"]);
    }
    const one = episodic[0].conv_id as string;
    const filtered = await collect("episodic", { missionId: one });
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.every((r) => r.conv_id === one)).toBe(true);
    const sessionOfOne = await collect("session", { missionId: one });
    expect(sessionOfOne.length).toBeGreaterThan(0);
    expect(sessionOfOne.every((r) => r.conv_id === one)).toBe(true);
    expect(sessionOfOne.length).toBeLessThan(session.length);
  });

  it("pages beyond 500 rows (keyset on time and id, ties included), oldest first", async () => {
    const m = await createMission(tdb.db, { definition: fetchMission("http://127.0.0.1:9/", "propose", {}, "memory paging"), actorId: "user:op" });
    await tdb.db.update(missions).set({ runState: "failed" }).where(eq(missions.id, m.id)); // nothing claims it
    const base = Date.parse("2030-01-01T00:00:00.000Z");
    // 1,200 session rows over only 7 distinct times: pages must break ties by id.
    const rows = Array.from({ length: 1200 }, (_, i) => ({
      id: `diag_page_${String(i).padStart(5, "0")}`,
      missionId: m.id,
      agent: "fetch",
      step: 0,
      attempt: 1,
      createdAt: new Date(base + (i % 7) * 1000).toISOString(),
      failureDiagnosis: { immediate_cause: `cause ${i}`, root_cause: "rate_limited", why_chain: ["a"], recovery_attempted: [] },
    }));
    for (let i = 0; i < rows.length; i += 400) await tdb.db.insert(sessionMemory).values(rows.slice(i, i + 400));
    const ep = Array.from({ length: 600 }, (_, i) => ({
      missionId: m.id,
      createdAt: new Date(base + i).toISOString(),
      errorEncountered: { type: "rate_limited", tool: "http", diagnosis: "x", root_cause: "y" },
      successfulRecovery: { strategy: "wait_and_retry_after", tools: ["shell"], iterations_to_success: 2, confidence: 0.67 },
      reusablePattern: { trigger: "y", action: "wait_and_retry_after", success_rate: 0.67 },
    }));
    await tdb.db.insert(episodicMemory).values(ep);

    const session = await collect("session", { missionId: m.id });
    expect(session).toHaveLength(1200);
    expect(new Set(session.map((r) => r.id)).size).toBe(1200);
    const times = session.map((r) => Date.parse(r.ts as string));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const all = await collect("session");
    expect(all.length).toBeGreaterThanOrEqual(1200);
    const episodic = await collect("episodic", { missionId: m.id });
    expect(episodic).toHaveLength(600);
    expect(new Set(episodic.map((r) => r.id)).size).toBe(600);
    const n = await tdb.db.execute<{ n: number }>(sql`select count(*)::int as n from session_memory`);
    expect(all).toHaveLength(n[0].n);
  });
});

describe("worker start", () => {
  it("a bad AUTONOMOUS_* value stops the worker at start, naming the variable", async () => {
    const before = process.env.AUTONOMOUS_MAX_RECOVERY_ATTEMPTS;
    process.env.AUTONOMOUS_MAX_RECOVERY_ATTEMPTS = "lots";
    try {
      const w = new Worker({ handle: tdb, databaseUrl: tdb.url, workspacesDir: workspaces, leaseMs: 3000, heartbeatMs: 500, pollMs: 200, concurrency: 1, log: () => {} });
      const err = await w.start().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DiagnosisConfigError);
      expect((err as Error).message).toMatch(/AUTONOMOUS_MAX_RECOVERY_ATTEMPTS: must be a number \(got "lots"\)/);
    } finally {
      if (before === undefined) delete process.env.AUTONOMOUS_MAX_RECOVERY_ATTEMPTS;
      else process.env.AUTONOMOUS_MAX_RECOVERY_ATTEMPTS = before;
    }
  });
});
