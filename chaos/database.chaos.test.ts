import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listFailuresByMission } from "../db/queries/audit";
import { definition } from "../lib/mission/test-fixtures";
import type { MissionEvent } from "../lib/mission";
import { ConnectionHog, DedicatedPostgres, STEADY_LEASE, checkInvariants, decide, effectStep, getEvents, httpStep, scenario, sleep, waitFor, waitForGate, waitForTerminal, type Scenario } from "./harness";

/**
 * FAILURE_MODEL level 3 (infrastructure): PostgreSQL stops, restarts, drops connections, runs out of
 * them. These scenarios own a dedicated embedded server (never the suite's shared one).
 */
let pgs: DedicatedPostgres;
beforeAll(async () => {
  pgs = await DedicatedPostgres.start();
});
afterAll(async () => {
  await pgs?.dispose();
});

/** A mission whose first step works for `ms` after its side effect, then a quick second step. */
function longStepMission(s: Scenario, fx: Parameters<typeof effectStep>[0], name: string, ms: number) {
  return s.create(definition({ name, agents: [{ name: "migrator", priority: "critical", steps: [effectStep(fx, { sleepMs: ms, name: "long step" }), effectStep(fx, { name: "after" })] }] }));
}

/** Infrastructure pauses come in pairs: each mission.paused (infrastructure) is followed by a mission.resumed. */
function infraPauses(events: MissionEvent[]): Array<{ paused: MissionEvent; resumed: MissionEvent | undefined }> {
  return events
    .filter((e) => e.type === "mission.paused" && e.payload.kind === "infrastructure")
    .map((p) => ({ paused: p, resumed: events.find((e) => e.seq > p.seq && e.type === "mission.resumed") }));
}

/** The worker LISTENs again after the outage (decisions wake it at once, not at the next poll). */
async function expectListening(s: Scenario) {
  await waitFor("every worker to LISTEN again", async () => (await s.listeners()) === s.workers.filter((w) => w.alive).length, { timeoutMs: 10_000, intervalMs: 200 });
}

describe("PostgreSQL failures (dedicated server)", () => {
  it("a. the database fails mid-mission (stopped ~3 s during a step): the mission records mission.paused (infrastructure) and mission.resumed, and completes", async () => {
    const s = await scenario(pgs);
    const fx = await s.sideEffects();
    await s.startWorker();
    const m = await longStepMission(s, fx, "db outage", 1500);
    await fx.waitForHit(`${m.id}/migrator/0/1`);
    const down = Date.now();
    await pgs.stop();
    await sleep(3000 - (Date.now() - down));
    await pgs.start();
    const up = Date.now();
    const done = await waitForTerminal(s.db, m.id, 30_000);
    expect(done.finalStatus).toBe("SUCCESS");
    const events = await getEvents(s.db, m.id);
    const pauses = infraPauses(events);
    expect(pauses).toHaveLength(1);
    const { paused, resumed } = pauses[0];
    expect(paused.payload).toMatchObject({ kind: "infrastructure" });
    expect((paused.payload as { message: string }).message).toMatch(/^The database became unavailable at /);
    expect(resumed).toBeDefined();
    expect((resumed!.payload as { message: string }).message).toMatch(/The database is available again after [\d.]+ s/);
    // The step's result, held while the database was down, is recorded right after the resume.
    expect(events[resumed!.seq].type).toBe("tool.succeeded");
    expect(fx.count(`${m.id}/migrator/0/1`)).toBe(1);
    const audit = await listFailuresByMission(s.db, m.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ level: "infrastructure", severity: "critical", seq: paused.seq });
    expect(audit[0].resolution).toMatchObject({ action: "resume", resolvedBy: null });
    console.log(`[chaos a] database down ${up - down} ms; resumed at seq ${resumed!.seq}: ${(resumed!.payload as { message: string }).message}`);
    expect((await checkInvariants(s.db, m.id, { sideEffects: fx })).violations).toEqual([]);
    await expectListening(s);
  });

  it("i. pg_terminate_backend of the worker's connections, repeatedly, while missions run: they complete, any interrupted write is recorded as a pause and resume", async () => {
    const s = await scenario(pgs);
    const fx = await s.sideEffects();
    await s.startWorker({ lease: STEADY_LEASE });
    const steps = Array.from({ length: 6 }, (_, i) => effectStep(fx, { sleepMs: 150, name: `step ${i + 1}` }));
    const ms = await Promise.all([1, 2, 3].map((i) => s.create(definition({ name: `terminated ${i}`, agents: [{ name: "worker-bee", priority: "critical", steps }] }))));
    await fx.waitForHit(`${ms[0].id}/worker-bee/0/1`);
    let terminated = 0;
    for (let i = 0; i < 12; i++) {
      terminated += await pgs.terminate("faultline-worker%", s.tdb.name);
      await sleep(120 + Math.floor(Math.random() * 200));
    }
    expect(terminated).toBeGreaterThan(5);
    const done = await Promise.all(ms.map((m) => waitForTerminal(s.db, m.id, 40_000)));
    expect(done.map((d) => d.finalStatus)).toEqual(["SUCCESS", "SUCCESS", "SUCCESS"]);
    let pauses = 0;
    for (const m of ms) {
      const p = infraPauses(await getEvents(s.db, m.id));
      expect(p.every((x) => x.resumed)).toBe(true);
      pauses += p.length;
      expect((await checkInvariants(s.db, m.id, { sideEffects: fx })).violations).toEqual([]);
    }
    // A write cut at its COMMIT may have landed: the worker finds it in the log instead of writing it again.
    const landed = s.workers.flatMap((w) => w.output.join("").split("\n")).filter((l) => l.includes("had landed")).length;
    console.log(`[chaos i] ${terminated} backends terminated; ${pauses} interrupted write(s) recorded as pause/resume; ${landed} cut at COMMIT found landed`);
    await expectListening(s);
  });

  it("j. PostgreSQL restart (pg_ctl restart -m fast) during a step and while a mission waits at a gate: both go on; the decision after the restart wakes the worker", async () => {
    const s = await scenario(pgs);
    const fx = await s.sideEffects();
    fx.failing = true;
    await s.startWorker();
    const running = await longStepMission(s, fx, "restart mid-step", 2500);
    const gated = await s.create(definition({ name: "restart at gate", agents: [{ name: "caller", priority: "critical", steps: [httpStep(fx, "/storm", { name: "call api" })] }] }));
    const gate = await waitForGate(s.db, gated.id, "agent");
    await fx.waitForHit(`${running.id}/migrator/0/1`);
    const t0 = Date.now();
    await pgs.restart();
    const restartMs = Date.now() - t0;
    const done = await waitForTerminal(s.db, running.id, 30_000);
    expect(done.finalStatus).toBe("SUCCESS");
    expect(infraPauses(await getEvents(s.db, running.id)).every((p) => p.resumed)).toBe(true);

    await expectListening(s);
    fx.failing = false;
    await decide(s.db, gate.id, "retry", "after the restart");
    const decidedAt = Date.now();
    const after = await waitForTerminal(s.db, gated.id, 20_000);
    expect(after.finalStatus).toBe("SUCCESS");
    const next = (await getEvents(s.db, gated.id)).find((e) => e.type === "agent.started" && e.payload.attempt === 2)!;
    const wakeMs = Date.parse(next.at) - decidedAt;
    console.log(`[chaos j] restart took ${restartMs} ms; the decision after it was acted on in ${wakeMs} ms`);
    for (const m of [running, gated]) expect((await checkInvariants(s.db, m.id, { sideEffects: fx })).violations).toEqual([]);
  });

  it("k. connection-pool exhaustion: every connection slot taken by idle clients; the worker's writes wait as an infrastructure pause and go on once they are released", async () => {
    const s = await scenario(pgs);
    const fx = await s.sideEffects();
    await s.startWorker({ lease: STEADY_LEASE });
    // The long step ends when the test says (its side effect is held), once the server is full: its result's write meets the full server on any machine.
    const m = await s.create(definition({ name: "no connections", agents: [{ name: "migrator", priority: "critical", steps: [effectStep(fx, { name: "long step", path: "/held" }), effectStep(fx, { name: "after" })] }] }));
    await fx.waitForHit(`${m.id}/migrator/0/1`);
    const hog = new ConnectionHog(pgs.adminUrl);
    s.onDispose(() => hog.release());
    const held = await hog.fill();
    // The worker's open connections go too, and the hog takes their slots (again and again: a connection
    // the worker manages to open meanwhile is cut). It has to ask for new ones, and gets "too many clients".
    hog.keepFull("faultline-worker%");
    fx.releaseHeld();
    await waitFor("the worker to meet the full server with the step's result", () => s.workers[0].output.some((l) => l.includes(m.id) && l.includes("database unavailable")), { timeoutMs: 30_000, intervalMs: 50 });
    await sleep(1000);
    const refused = hog.refused;
    await hog.release();
    const done = await waitForTerminal(s.db, m.id, 30_000);
    expect(done.finalStatus).toBe("SUCCESS");
    const pauses = infraPauses(await getEvents(s.db, m.id));
    expect(pauses).toHaveLength(1);
    expect(pauses[0].resumed).toBeDefined();
    expect((pauses[0].paused.payload as { message: string }).message).toMatch(/too many clients|terminating connection|the connection to PostgreSQL at \S+ was cut/);
    expect(refused).toBeGreaterThan(0);
    console.log(`[chaos k] ${held} idle connections held the server full (${refused} refusals seen); ${(pauses[0].resumed!.payload as { message: string }).message}`);
    expect((await checkInvariants(s.db, m.id, { sideEffects: fx })).violations).toEqual([]);
    await expectListening(s);
  });
});
