import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../db/client";
import { countWorkers } from "../db/queries/health";
import { workers } from "../db/schema";
import { createTestDatabase, type TestDatabase } from "../db/test-helpers";
import { startFakeLlmServer, type FakeLlmServer } from "../lib/llm/test-server";
import { stall } from "../lib/test-helpers";
import { freeLoopbackPort } from "../lib/net";
import {
  checkDatabase,
  checkHealth,
  checkObjectStorage,
  getRealtimeHealth,
  pauseReasons,
  setRealtimeHealth,
  startHealthMonitor,
  type HealthReport,
} from "./health";


let tdb: TestDatabase;
let srv: FakeLlmServer;
let dir: string;
beforeAll(async () => {
  tdb = await createTestDatabase();
  srv = await startFakeLlmServer({ slowMs: 2000 });
  dir = mkdtempSync(path.join(os.tmpdir(), "faultline-health-"));
  await tdb.db.insert(workers).values([
    { id: "worker:live" },
    { id: "worker:killed", heartbeatAt: sql`now() - interval '5 minutes'` as unknown as string },
    { id: "worker:stopped", active: false, heartbeatAt: sql`now() - interval '5 minutes'` as unknown as string },
  ]);
});
afterAll(async () => {
  await srv?.close();
  await tdb?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const healthyRelay = () => ({ status: "healthy" as const, detail: null, since: new Date().toISOString() });
/** The test database behind a 600 ms delay per query: a ping over DB_SLOW_MS. */
const slowDb = () => ({ execute: async (q: unknown) => (await new Promise((r) => setTimeout(r, 600)), tdb.db.execute(q as never)) }) as unknown as typeof tdb.db;

describe("checkHealth", () => {
  it("healthy: the document's HealthStatus shape, plus workers, overall and problems", async () => {
    const r = await checkHealth({ db: tdb.db, workspacesDir: path.join(dir, "workspaces"), providers: [srv.provider("ok")], websocket: healthyRelay, staleWorkerMs: 15_000 });
    expect(r).toEqual({
      database: "healthy",
      objectStorage: "healthy",
      llmProviders: { ok: { status: "healthy", remainingQuota: 99, latencyMs: expect.any(Number) } },
      websocket: "healthy",
      workers: { active: 1, stale: 1 },
      overall: "healthy",
      problems: [],
      checkedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      durationMs: expect.any(Number),
      slow: { database: false, objectStorage: false },
    } satisfies HealthReport);
    expect(pauseReasons(r)).toEqual([]);
  });

  it("no LLM configured is healthy (LLM is optional)", async () => {
    const r = await checkHealth({ db: tdb.db, workspacesDir: dir, providers: [], websocket: healthyRelay });
    expect(r.llmProviders).toEqual({});
    expect(r.overall).toBe("healthy");
  });

  it("one provider rate limited, one down: per-provider health with resetAt; overall degraded, naming them", async () => {
    const now = () => Date.parse("2026-01-20T10:00:00Z");
    const r = await checkHealth({ db: tdb.db, workspacesDir: dir, providers: [srv.provider("rate429"), srv.provider("fail500"), srv.provider("ok")], websocket: healthyRelay, now });
    expect(r.llmProviders.rate429).toEqual({ status: "rate_limited", resetAt: "2026-01-20T10:00:07.000Z", latencyMs: expect.any(Number) });
    expect(r.llmProviders.fail500).toMatchObject({ status: "unavailable" });
    expect(r.overall).toBe("degraded");
    expect(r.problems).toEqual([
      'LLM provider "rate429" rate limited until 2026-01-20T10:00:07.000Z.',
      expect.stringMatching(/^LLM provider "fail500" unavailable: GET .*\/models answered 500: "upstream exploded"\.$/),
    ]);
  });

  it("every provider down: unavailable, and missions must pause", async () => {
    const r = await checkHealth({ db: tdb.db, workspacesDir: dir, providers: [srv.provider("fail500"), srv.provider("slow")], websocket: healthyRelay, timeoutMs: 300 });
    expect(r.llmProviders.slow).toMatchObject({ status: "unavailable" });
    expect(r.overall).toBe("unavailable");
    expect(pauseReasons(r)).toEqual(["every LLM provider is unavailable"]);
  });

  it("database unavailable against a closed port; workers unknown", async () => {
    const port = await freeLoopbackPort();
    const dead = createDb(`postgres://nobody:x@127.0.0.1:${port}/none`, { max: 1 });
    try {
      const r = await checkHealth({ db: dead.db, workspacesDir: dir, providers: [], websocket: healthyRelay, timeoutMs: 2000 });
      expect(r.database).toBe("unavailable");
      expect(r.workers).toBeNull();
      expect(r.overall).toBe("unavailable");
      expect(r.problems[0]).toMatch(/^Database unavailable: .*ECONNREFUSED/);
      expect(pauseReasons(r)).toEqual(["the database is unavailable"]);
    } finally {
      await dead.close();
    }
  });

  it("a slow database (> 500 ms) is degraded the second time in a row, not after one slow reading", async () => {
    const first = await checkHealth({ db: slowDb(), workspacesDir: dir, providers: [], websocket: healthyRelay });
    expect(first).toMatchObject({ database: "healthy", slow: { database: true, objectStorage: false } });
    expect(first.problems.filter((p) => p.startsWith("Database"))).toEqual([]);
    const second = await checkHealth({ db: slowDb(), workspacesDir: dir, providers: [], websocket: healthyRelay, slowBefore: first.slow });
    expect(second.database).toBe("degraded");
    expect(second.problems[0]).toMatch(/^Database slow: a ping took \d+ ms \(over 500 ms\), and the check before was slow too\.$/);
    // A fast reading in between starts again: the next slow one alone is not a problem.
    const fast = await checkHealth({ db: tdb.db, workspacesDir: dir, providers: [], websocket: healthyRelay, slowBefore: second.slow });
    expect(fast).toMatchObject({ database: "healthy", slow: { database: false } });
    const again = await checkHealth({ db: slowDb(), workspacesDir: dir, providers: [], websocket: healthyRelay, slowBefore: fast.slow });
    expect(again).toMatchObject({ database: "healthy", slow: { database: true } });
  });

  it("a database that does not answer in time is unavailable the second time in a row (the first is a slow reading); then missions pause", async () => {
    // A real loopback server that accepts connections and never answers.
    const silent = net.createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const mute = createDb(`postgres://nobody:x@127.0.0.1:${(silent.address() as net.AddressInfo).port}/none`, { max: 1 });
    try {
      const first = await checkHealth({ db: mute.db, workspacesDir: dir, providers: [], websocket: healthyRelay, timeoutMs: 300 });
      expect(first).toMatchObject({ database: "healthy", slow: { database: true } });
      expect(pauseReasons(first)).toEqual([]);
      const second = await checkHealth({ db: mute.db, workspacesDir: dir, providers: [], websocket: healthyRelay, timeoutMs: 300, slowBefore: first.slow });
      expect(second.database).toBe("unavailable");
      expect(second.problems[0]).toBe("Database unavailable: The database did not answer within 300 ms. The check before was slow too.");
      expect(pauseReasons(second)).toEqual(["the database is unavailable"]);
    } finally {
      await mute.close().catch(() => {});
      silent.close();
    }
  });

  it("an answer that arrived while this process was stalled past the time limit is an answer, not a timeout", async () => {
    await checkDatabase(tdb.db); // a pooled connection, ready
    const check = checkDatabase(tdb.db, 1000, true); // postgres.js writes the ping at once
    stall(2500); // the thread blocked (not spinning: the database keeps the CPU it needs to answer)
    const r = await check;
    // Answered (slow, after a slow reading: degraded), not "did not answer within 1000 ms" (unavailable).
    expect(r.status).toBe("degraded");
    expect(r.problem).toMatch(/^Database slow: a ping took \d+ ms/);
  });

  it("object storage unavailable when the workspaces directory cannot be written", async () => {
    const file = path.join(dir, "not-a-dir");
    writeFileSync(file, "x");
    const c = await checkObjectStorage(path.join(file, "workspaces"));
    expect(c.status).toBe("unavailable");
    expect(c.problem).toMatch(/^Object storage unavailable: cannot write to the workspaces directory/);
  });

  it("websocket: the relay's reported state, and unavailable when no relay runs in the process", async () => {
    const base = { db: tdb.db, workspacesDir: dir, providers: [] };
    expect(getRealtimeHealth()).toBeNull();
    const none = await checkHealth(base);
    expect(none.websocket).toBe("unavailable");
    expect(none.problems).toContain("Live updates unavailable: the websocket relay is not running in the web process.");
    // A worker serves no live updates: the relay is not its component, so its verdict does not carry it.
    const worker = await checkHealth({ ...base, websocket: false });
    expect(worker).toMatchObject({ websocket: "healthy", overall: "healthy", problems: [] });
    setRealtimeHealth("degraded", "its database LISTEN connection was lost (terminated)");
    const lost = await checkHealth(base);
    expect(lost.websocket).toBe("degraded");
    expect(lost.overall).toBe("degraded");
    expect(lost.problems[0]).toMatch(/^Live updates degraded since .*: its database LISTEN connection was lost \(terminated\)\.$/);
    setRealtimeHealth("healthy");
    expect((await checkHealth(base)).websocket).toBe("healthy");
  });

  it("workers: live and stale by heartbeat; none live is degraded", async () => {
    expect(await countWorkers(tdb.db, { staleAfterMs: 15_000 })).toEqual({ active: 1, stale: 1 });
    expect(await countWorkers(tdb.db, { staleAfterMs: 3_600_000 })).toEqual({ active: 2, stale: 0 });
    await tdb.db.update(workers).set({ heartbeatAt: sql`now() - interval '1 minute'` as unknown as string }).where(sql`id = 'worker:live'`);
    const r = await checkHealth({ db: tdb.db, workspacesDir: dir, providers: [], websocket: healthyRelay, staleWorkerMs: 15_000 });
    expect(r.workers).toEqual({ active: 0, stale: 2 });
    expect(r.overall).toBe("degraded");
    expect(r.problems).toEqual([expect.stringMatching(/^No live worker: missions will not progress until one runs \(2 stale/)]);
    await tdb.db.update(workers).set({ heartbeatAt: sql`now()` as unknown as string }).where(sql`id = 'worker:live'`);
  });
});

describe("startHealthMonitor", () => {
  it("passes each report's slow readings to the next check: a database that stays slow turns degraded on the second check", async () => {
    const seen: Array<{ database: string; slow: boolean }> = [];
    const mon = startHealthMonitor({
      intervalMs: 20,
      check: (slowBefore) => checkHealth({ db: slowDb(), workspacesDir: dir, providers: [], websocket: healthyRelay, slowBefore }),
      onReport: (r) => seen.push({ database: r.database, slow: r.slow.database }),
      log: () => {},
    });
    try {
      await expect.poll(() => seen.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
      expect(seen.slice(0, 3)).toEqual([
        { database: "healthy", slow: true },
        { database: "degraded", slow: true },
        { database: "degraded", slow: true },
      ]);
    } finally {
      mon.stop();
    }
  });

  it("checks at once and then every interval, reporting changes", async () => {
    let n = 0;
    const seen: string[] = [];
    const logs: string[] = [];
    const mon = startHealthMonitor({
      intervalMs: 50,
      check: () => checkHealth({ db: tdb.db, workspacesDir: dir, providers: n++ < 2 ? [srv.provider("ok")] : [srv.provider("fail500")], websocket: healthyRelay }),
      onReport: (r) => seen.push(r.overall),
      log: (m) => logs.push(m),
    });
    try {
      await expect.poll(() => seen.length, { timeout: 5000 }).toBeGreaterThanOrEqual(4);
      expect(seen.slice(0, 3)).toEqual(["healthy", "healthy", "unavailable"]);
      expect(logs[0]).toBe("healthy");
      expect(logs[1]).toMatch(/^unavailable: LLM provider "fail500" unavailable/);
      expect(mon.latest()?.overall).toBe("unavailable");
      expect((await mon.current()).overall).toBe("unavailable");
    } finally {
      mon.stop();
    }
  });
});
