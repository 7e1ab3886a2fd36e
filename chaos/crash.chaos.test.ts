import { describe, expect, it } from "vitest";
import { definition } from "../lib/mission/test-fixtures";
import type { MissionEvent } from "../lib/mission";
import { checkInvariants, decide, effectStep, getEvents, getState, httpStep, scenario, sleep, waitFor, waitForEvent, waitForGate, waitForTerminal, type WorkerProcess } from "./harness";

/** FAILURE_MODEL "Server crashes" and crash recovery: workers die with SIGKILL, the log carries on. */
describe("crashes", () => {
  it("d. server crash: every worker is SIGKILLed mid-step; a restarted worker takes over from the log — a recovery gate for the shell step, an idempotent re-run with the same key for the http step", async () => {
    const s = await scenario();
    const fx = await s.sideEffects();
    await s.startWorkers(2);
    const shell = await s.create(definition({ name: "crash shell", agents: [{ name: "migrator", priority: "critical", steps: [effectStep(fx, { sleepMs: 30_000, name: "apply migration" }), effectStep(fx, { name: "announce" })] }] }));
    const api = await s.create(definition({ name: "crash http", agents: [{ name: "notifier", priority: "critical", steps: [httpStep(fx, "/slow-once?ms=30000", { name: "charge card" }), httpStep(fx, "/effect", { name: "send receipt" })] }] }));
    const shellKey = `${shell.id}/migrator/0/1`;
    const apiKey = `${api.id}/notifier/0/1`;
    await Promise.all([fx.waitForHit(shellKey), fx.waitForHit(apiKey)]);
    const before = { shell: (await getEvents(s.db, shell.id)).length, api: (await getEvents(s.db, api.id)).length };

    // The crash: every worker process dies at once, with the step processes they started.
    await Promise.all(s.workers.map((w) => w.kill()));
    await sleep(2500); // past the lease: nobody is left to notice, nothing may change
    expect((await getEvents(s.db, shell.id)).length).toBe(before.shell);
    expect((await getEvents(s.db, api.id)).length).toBe(before.api);

    const restarted = await s.startWorker({ label: "restarted worker" });
    // Non-idempotent: nothing re-runs behind the operator's back; a recovery gate says what is known.
    const gate = await waitForGate(s.db, shell.id, "recovery", 15_000);
    expect(gate.options.map((o) => o.action)).toEqual(["resume", "restart_phase", "abort"]);
    expect(gate.error.what).toMatch(/stopped before recording its result/);
    expect(gate.error.why).toMatch(/incomplete agents: migrator/);
    expect(fx.count(shellKey)).toBe(1);
    const interrupted = (await getEvents(s.db, shell.id)).find((e) => e.type === "step.interrupted")!;
    expect(interrupted.actorId).toBe(restarted.id);
    // Idempotent: re-run at once with the same key; the API answers from its idempotency store.
    const api1 = await waitForTerminal(s.db, api.id, 15_000);
    expect(api1.finalStatus).toBe("SUCCESS");
    const rerun = (await getEvents(s.db, api.id)).find((e) => e.type === "step.rerun")!;
    expect(rerun.payload).toMatchObject({ reason: "idempotent", idempotencyKey: apiKey });
    expect(fx.count(apiKey)).toBe(2);

    await decide(s.db, gate.id, "resume", "checked: the migration had not been applied");
    const shell1 = await waitForTerminal(s.db, shell.id, 45_000);
    expect(shell1.finalStatus).toBe("SUCCESS");
    expect(fx.count(shellKey)).toBe(2); // once before the crash, once because the operator chose resume

    for (const id of [shell.id, api.id]) expect((await checkInvariants(s.db, id, { sideEffects: fx })).violations).toEqual([]);
  });

  it("g. worker SIGKILL mid-step: the other worker takes over within the lease; restart_phase re-runs the phase with new keys, completed phases are kept", async () => {
    const s = await scenario();
    const fx = await s.sideEffects();
    await s.startWorkers(2);
    const m = await s.create(
      definition({
        name: "kill mid-step",
        agents: [
          { name: "planner", priority: "critical", phase: "PLANNING", steps: [effectStep(fx, { name: "write plan" })] },
          { name: "deployer", priority: "critical", steps: [effectStep(fx, { name: "upload" }), effectStep(fx, { sleepMs: 30_000, name: "switch traffic" }), effectStep(fx, { name: "verify" })] },
        ],
      }),
    );
    await fx.waitForHit(`${m.id}/deployer/1/1`);
    const victim = await s.holder(m.id);
    const killedAt = await victim.kill();

    const gate = await waitForGate(s.db, m.id, "recovery", 15_000);
    const events = await getEvents(s.db, m.id);
    const interrupted = events.find((e) => e.type === "step.interrupted")!;
    const takeoverMs = Date.parse(interrupted.at) - killedAt;
    expect(interrupted.actorId).not.toBe(victim.id);
    expect(s.workers.find((w) => w.id === interrupted.actorId)?.alive).toBe(true);
    expect(takeoverMs).toBeLessThan(2000 + 200 + 2500); // lease + poll + slack on a busy 2-core machine
    expect(gate.error.why).toMatch(/Last completed phase: PLANNING; current phase: EXECUTION; incomplete agents: deployer/);

    await decide(s.db, gate.id, "restart_phase", "start the deployment over");
    const done = await waitForTerminal(s.db, m.id, 20_000);
    expect(done.finalStatus).toBe("SUCCESS");
    expect(done.agents.deployer.attempt).toBe(2);
    // The completed phase is a checkpoint: planner ran once. The restarted phase ran with new keys.
    expect(fx.count(`${m.id}/planner/0/1`)).toBe(1);
    for (const k of ["deployer/0/1", "deployer/1/1", "deployer/0/2", "deployer/1/2", "deployer/2/2"]) expect(fx.count(`${m.id}/${k}`), k).toBe(1);
    expect(fx.count(`${m.id}/deployer/2/1`)).toBe(0);
    console.log(`[chaos g] takeover ${takeoverMs} ms after SIGKILL`);
    expect((await checkInvariants(s.db, m.id, { sideEffects: fx })).violations).toEqual([]);
  });

  it("h. repeated kills: the holder is SIGKILLed 5 times in a row; recovery gates are resolved with resume and the mission completes", async () => {
    const s = await scenario();
    const fx = await s.sideEffects();
    await s.startWorkers(2);
    const steps = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => (i % 2 === 0 ? effectStep(fx, { sleepMs: 1500, name: `shell ${i}` }) : httpStep(fx, "/slow-once?ms=1500", { name: `http ${i}` })));
    const m = await s.create(definition({ name: "repeated kills", agents: [{ name: "long", priority: "critical", steps }] }));

    // An operator watching the gates inbox: every recovery gate gets "resume".
    let resolving = true;
    let resumed = 0;
    const resolver = (async () => {
      while (resolving) {
        const st = await getState(s.db, m.id).catch(() => null);
        const g = st?.gates.find((x) => x.status === "open");
        if (g) {
          expect(g.kind).toBe("recovery");
          await decide(s.db, g.id, "resume", "chaos: resume");
          resumed++;
        }
        await sleep(100);
      }
    })();

    let lastSeq = 0;
    const kills: Array<{ worker: string; event: string }> = [];
    for (let i = 0; i < 5; i++) {
      // Wait until a live worker is inside a new step it started after the previous kill, and its effect was
      // seen: the kills land on successive steps, shell (non-idempotent) and http (idempotent) alternately.
      const started: MissionEvent = await waitForEvent(s.db, m.id, `a step started after seq ${lastSeq}`, (e) => e.seq > lastSeq && e.type === "step.started" && s.workers.some((w) => w.alive && w.id === e.actorId), 20_000);
      const holder: WorkerProcess = s.workers.find((w) => w.id === started.actorId)!;
      const key = (started.payload as { idempotencyKey: string }).idempotencyKey;
      await waitFor(`the effect of ${key}`, () => fx.hits.some((h) => h.key === key && h.at >= Date.parse(started.at)), { timeoutMs: 10_000, intervalMs: 10 });
      await holder.kill();
      kills.push({ worker: holder.id, event: `${started.type} seq ${started.seq}` });
      lastSeq = (await getEvents(s.db, m.id)).length;
      void s.startWorker({ label: `replacement ${i + 1}` });
    }
    const done = await waitForTerminal(s.db, m.id, 60_000);
    resolving = false;
    await resolver;
    expect(done.finalStatus).toBe("SUCCESS");
    const events = await getEvents(s.db, m.id);
    const interrupted = events.filter((e) => e.type === "step.interrupted").length;
    const idempotentReruns = events.filter((e) => e.type === "step.rerun" && e.payload.reason === "idempotent").length;
    expect(interrupted + idempotentReruns).toBe(5);
    expect(interrupted).toBeGreaterThan(0);
    expect(idempotentReruns).toBeGreaterThan(0);
    expect(resumed).toBe(interrupted);
    console.log(`[chaos h] 5 kills: ${interrupted} recovery gate(s) resumed, ${idempotentReruns} idempotent re-run(s); ${events.length} events`);
    expect((await checkInvariants(s.db, m.id, { sideEffects: fx })).violations).toEqual([]);
  });
});
