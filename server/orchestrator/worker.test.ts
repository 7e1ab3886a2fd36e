import http from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import type { TestDatabase } from "../../db/test-helpers";
import { appendEvents, createMission, listEventsAfter } from "../../db/queries/events";
import { decideGate } from "../../db/queries/gates";
import { ensureActor } from "../../db/queries/users";
import { auditLog, missions } from "../../db/schema";
import { demoMissions } from "../../db/seed/demo";
import { freeLoopbackPort } from "../../lib/net";
import { transitions as t, type MissionDefinition } from "../../lib/mission";
import { definition, nodeStep } from "../../lib/mission/test-fixtures";
import { useWorkerHarness } from "./test-harness";

const harness = useWorkerHarness("fl-ws-");
let tdb: TestDatabase;
beforeAll(() => {
  tdb = harness.tdb;
});
const startWorker = (id?: string) => harness.startWorker({ id });
const { state, settle } = harness;

function create(def: MissionDefinition) {
  return createMission(tdb.db, { definition: def, actorId: "user:op" });
}

describe("the orchestrator worker on real PostgreSQL, processes and HTTP", () => {
  it("runs the seeded demo missions to the outcomes they are meant to show", async () => {
    const [success, gated, partial, search] = demoMissions(await freeLoopbackPort());
    const ids = await Promise.all([success, gated, partial, search].map(async (d) => (await create(d)).id));
    await startWorker();
    const [s1, s2, s3, s4] = await Promise.all(ids.map((id) => settle(id)));
    expect(s1.finalStatus).toBe("SUCCESS");
    expect(s2.runState).toBe("paused");
    const gate = s2.gates.find((g) => g.status === "open")!;
    expect(gate.error.why).toMatch(/"scp" is not on this mission's allowlist/);
    // The remedy of an allowlist refusal is a decision: allow it for this mission and retry (issue 18).
    expect(gate.options[0]).toMatchObject({ action: "allow_binary", label: "Allow scp and retry", recommended: true });
    expect(s3.finalStatus).toBe("PARTIAL_SUCCESS");
    expect(s3.agents["link-checker"].error?.message).toMatch(/broken links/);
    expect(s4.finalStatus).not.toBe("SUCCESS");
    expect(s4.agents.search.steps[0].error?.code).toBe("CONNECTION_REFUSED");
    // Every tool failure is diagnosed (ADR-0003) before anything decides what happens next.
    // A binary refused by the allowlist is a refusal by policy, not a missing tool (issue 18).
    expect(gate.diagnosis).toMatchObject({ type: "permission_denied", canRecover: true });
    expect(gate.diagnosis?.whyChain).toHaveLength(5);
    expect(s4.agents.search.steps[0].diagnosis?.type).toBe("network_error");
    const log = await listEventsAfter(tdb.db, { missionId: ids[1] });
    const order = log.map((e) => e.type);
    expect(order.indexOf("diagnostic_reflection")).toBe(order.indexOf("tool.failed") + 1);
    expect(order.indexOf("diagnostic_reflection")).toBeLessThan(order.indexOf("gate.opened"));
    const reflection = log.find((e) => e.type === "diagnostic_reflection")!.payload as { contextLog: Record<string, unknown> };
    expect(reflection.contextLog).toMatchObject({ act: "diagnostic_reflection", name: "5_whys_analysis", conv_id: ids[1], status: "ok" });
  });

  it("a gate decided while the worker waits is acted on at once: skip on a critical agent ends FAILED", async () => {
    await startWorker();
    const m = await create(definition({ agents: [{ name: "deploy", priority: "critical", steps: [{ tool: "shell", args: { command: "rsync", args: ["a", "b"] } }] }] }));
    const atGate = await settle(m.id);
    const gate = atGate.gates[0];
    const decidedAt = Date.now();
    await decideGate(tdb.db, { gateId: gate.id, decision: "skip", note: "rsync is not installed here", actorId: "user:op", actorName: "Olivia Operator" });
    const done = await settle(m.id);
    expect(Date.now() - decidedAt).toBeLessThan(1000);
    expect(done.finalStatus).toBe("FAILED");
    expect(done.gates[0]).toMatchObject({ decision: "skip", decidedBy: "user:op", note: "rsync is not installed here" });
  });

  it("a binary refused by the allowlist is allowed at its gate for this mission only, through the authority; the retry runs it", async () => {
    await startWorker();
    const m = await create(definition({ allowedBinaries: ["node"], agents: [{ name: "lister", priority: "critical", steps: [{ tool: "shell", args: { command: "ls", args: ["-a"] }, evidence: [{ exit_code: 0 }] }] }] }));
    const atGate = await settle(m.id);
    const gate = atGate.gates.find((g) => g.status === "open")!;
    expect(gate.options.find((o) => o.recommended)).toMatchObject({ action: "allow_binary", label: "Allow ls and retry" });
    await decideGate(tdb.db, { gateId: gate.id, decision: "allow_binary", note: null, actorId: "user:op", actorName: "Olivia Operator" });
    const done = await settle(m.id);
    expect(done.finalStatus).toBe("SUCCESS");
    expect(done.allowlistGrants).toEqual([expect.objectContaining({ binary: "ls", agent: "lister", gateId: gate.id, by: "user:op" })]);
    // The definition is not changed; the allowance is on the record with who made it.
    expect(done.definition.allowedBinaries).toEqual(["node"]);
    const audit = await tdb.db.select().from(auditLog).where(eq(auditLog.missionId, m.id));
    expect(audit.find((r) => r.action === "gate.decide")?.summary).toMatch(/Olivia Operator chose allow_binary .*Allowed "ls" for this mission\. No rule denies `ls -a`/);
  });

  it("allowing a binary that a deny rule of the default policy forbids is refused, names the rule, and changes nothing", async () => {
    await startWorker();
    const m = await create(definition({ allowedBinaries: ["node"], agents: [{ name: "wiper", priority: "critical", steps: [{ tool: "shell", args: { command: "dd", args: ["if=/dev/zero", "of=/dev/null", "count=1"] } }] }] }));
    const atGate = await settle(m.id);
    const gate = atGate.gates.find((g) => g.status === "open")!;
    expect(gate.options.some((o) => o.action === "allow_binary")).toBe(true);
    await expect(decideGate(tdb.db, { gateId: gate.id, decision: "allow_binary", note: null, actorId: "user:op", actorName: "Olivia Operator" })).rejects.toMatchObject({
      code: "forbidden",
      userMessage: expect.stringMatching(/refuses to allow "dd": rule default-policy:no-(writes-outside-workspace|raw-device-writes) denies `dd if=\/dev\/zero of=\/dev\/null count=1`/),
    });
    const after = await state(m.id);
    expect(after.gates.find((g) => g.id === gate.id)?.status).toBe("open");
    expect(after.allowlistGrants).toEqual([]);
    const audit = await tdb.db.select().from(auditLog).where(eq(auditLog.missionId, m.id));
    expect(audit.find((r) => r.action === "gate.decide")).toMatchObject({ outcome: "refused" });
  });

  it("retry on a step that fails once against a loopback server, then succeeds, ends SUCCESS", async () => {
    let calls = 0;
    const server = http.createServer((_req, res) => {
      calls++;
      res.writeHead(calls === 1 ? 503 : 200, { "content-type": "application/json" }).end(JSON.stringify({ ok: calls > 1 }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    try {
      await startWorker();
      const m = await create(definition({ agents: [{ name: "fetch", priority: "critical", steps: [{ tool: "http", args: { url: `http://127.0.0.1:${port}/data` }, evidence: [{ http_status: 200 }, { json_path: "$.ok", equals: true }] }] }] }));
      const atGate = await settle(m.id);
      expect(atGate.agents.fetch.steps[0].error?.status).toBe(503);
      // The default recovery policy is "propose": "Apply recovery plan" is recommended, Retry still offered.
      expect(atGate.gates[0].options.find((o) => o.recommended)?.action).toBe("recover");
      expect(atGate.gates[0].options.map((o) => o.action)).toContain("retry");
      await decideGate(tdb.db, { gateId: atGate.gates[0].id, decision: "retry", note: null, actorId: "user:op", actorName: "Olivia Operator" });
      const done = await settle(m.id);
      expect(done.finalStatus).toBe("SUCCESS");
      expect(done.agents.fetch.attempt).toBe(2);
      expect(calls).toBe(2);
    } finally {
      server.close();
    }
  });

  it("two workers racing never run the same mission at once: every side effect happens once, seqs have no gaps", async () => {
    const seen = new Map<string, number>();
    const server = http.createServer((req, res) => {
      const key = String(req.headers["idempotency-key"]);
      seen.set(key, (seen.get(key) ?? 0) + 1);
      setTimeout(() => res.writeHead(200).end("done"), 20);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/effect`;
    try {
      const defs = Array.from({ length: 6 }, (_, i) =>
        definition({
          name: `race ${i}`,
          agents: [
            { name: "a", priority: "critical", phase: "PLANNING", steps: [{ tool: "http", args: { url } }, { tool: "http", args: { url } }] },
            { name: "b", priority: "important", steps: [{ tool: "http", args: { url } }, nodeStep("1")] },
          ],
        }),
      );
      const ids = await Promise.all(defs.map(async (d) => (await create(d)).id));
      await Promise.all([startWorker("worker:race-1"), startWorker("worker:race-2")]);
      const results = await Promise.all(ids.map((id) => settle(id, 30_000)));
      expect(results.map((r) => r.finalStatus)).toEqual(Array(6).fill("SUCCESS"));
      expect(seen.size).toBe(6 * 3);
      expect([...seen.values()].every((n) => n === 1)).toBe(true);
      for (const id of ids) {
        const seqs = (await listEventsAfter(tdb.db, { missionId: id })).map((e) => e.seq);
        expect(seqs).toEqual(seqs.map((_, i) => i + 1));
      }
      const actors = await tdb.db.execute<{ actor_id: string }>(sql`select distinct actor_id from events where type = 'step.started' and mission_id in (${sql.join(ids.map((i) => sql`${i}::uuid`), sql`, `)})`);
      expect(actors.length).toBeGreaterThanOrEqual(1);
    } finally {
      server.close();
    }
  });

  it("a step whose worker died mid-way opens a recovery gate, never silently re-run", async () => {
    const m = await create(definition({ agents: [{ name: "migrate", priority: "critical", steps: [nodeStep("console.log('migrated')")] }] }));
    // A worker claimed the mission, recorded the step's start, and died: its lease has expired.
    await ensureActor(tdb.db, { id: "worker:dead", kind: "worker", displayName: "dead worker" });
    await tdb.db.update(missions).set({ leaseOwner: "worker:dead", leaseExpiresAt: sql`now() - interval '1 second'` }).where(eq(missions.id, m.id));
    await tdb.db.transaction((tx) =>
      appendEvents(tx, { missionId: m.id, actorId: "worker:dead", events: [t.phaseStarted("EXECUTION", "start"), t.agentStarted("migrate", 1), t.stepStarted(m.id, "migrate", 1, 0, "shell", "node -e")] }),
    );
    await startWorker();
    const s = await settle(m.id);
    expect(s.runState).toBe("paused");
    expect(s.agents.migrate.steps[0].status).toBe("interrupted");
    expect(s.gates[0]).toMatchObject({ kind: "recovery", step: 0 });
    expect(s.gates[0].options.map((o) => o.action)).toEqual(["resume", "restart_phase", "abort"]);
    expect(s.gates[0].error.why).toMatch(/whether its side effect happened is unknown/);
    await decideGate(tdb.db, { gateId: s.gates[0].id, decision: "resume", note: "checked: migration not applied", actorId: "user:op", actorName: "Olivia Operator" });
    const done = await settle(m.id);
    expect(done.finalStatus).toBe("SUCCESS");
    expect(done.agents.migrate.steps[0].reruns).toBe(1);
  });

  it("an agent exceeding its timeout fails with TIMEOUT and the process is killed", async () => {
    await startWorker();
    const m = await create(definition({ agents: [{ name: "slow", priority: "important", timeoutMs: 300, steps: [nodeStep("setTimeout(()=>{}, 60000)")] }] }));
    const s = await settle(m.id);
    expect(s.agents.slow.error?.code).toBe("TIMEOUT");
    expect(s.gates[0].options.map((o) => o.action)).toEqual(["recover", "retry", "skip", "abort"]);
  });
});

describe("rate limits", () => {
  it("a retry after a 429 waits for the provider's Retry-After before the agent runs again", async () => {
    let calls = 0;
    const times: number[] = [];
    const server = http.createServer((_req, res) => {
      calls++;
      times.push(Date.now());
      if (calls === 1) res.writeHead(429, { "retry-after": "1" }).end("slow down");
      else res.writeHead(200).end("ok");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      await startWorker();
      const m = await create(definition({ agents: [{ name: "caller", priority: "critical", steps: [{ tool: "http", args: { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/` } }] }] }));
      const atGate = await settle(m.id);
      expect(atGate.agents.caller.error).toMatchObject({ code: "RATE_LIMIT_EXCEEDED", recoverable: true, retryAfter: 1000 });
      expect(atGate.gates[0].options.find((o) => o.action === "retry")?.description).toMatch(/^Wait 1 s, then run/);
      const decided = Date.now();
      await decideGate(tdb.db, { gateId: atGate.gates[0].id, decision: "retry", note: null, actorId: "user:op", actorName: "Olivia Operator" });
      const done = await settle(m.id);
      expect(done.finalStatus).toBe("SUCCESS");
      expect(times[1] - decided).toBeGreaterThanOrEqual(950);
    } finally {
      server.close();
    }
  });
});
