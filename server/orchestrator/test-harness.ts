import { getMissionState } from "../../db/queries/missions";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../db/test-helpers";
import { ensureActor } from "../../db/queries/users";
import { missions } from "../../db/schema";
import type { MissionState } from "../../lib/mission";
import { Worker, type WorkerOptions } from "./worker";

/**
 * Worker integration tests' shared setup: a test database (with the operator actor `user:op`), a
 * workspaces directory, real workers with short leases stopped after each test, and helpers to read
 * and await a mission's state. Registers its own vitest hooks.
 */
export function useWorkerHarness(prefix: string) {
  const h = {
    tdb: undefined as unknown as TestDatabase,
    workspaces: "",
    running: [] as Worker[],
  };
  beforeAll(async () => {
    h.tdb = await createTestDatabase();
    h.workspaces = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    await ensureActor(h.tdb.db, { id: "user:op", kind: "user", displayName: "Olivia Operator" });
  });
  afterEach(async () => {
    await Promise.all(h.running.splice(0).map((w) => w.stop(2000)));
  });
  afterAll(async () => {
    await h.tdb?.drop();
    if (h.workspaces) fs.rmSync(h.workspaces, { recursive: true, force: true });
  });

  async function state(id: string): Promise<MissionState> {
    return (await getMissionState(h.tdb.db, id))!;
  }

  return {
    get tdb() {
      return h.tdb;
    },
    get workspaces() {
      return h.workspaces;
    },
    /** A real worker on the test database (lease 3 s, heartbeat 0.5 s, poll 0.2 s), stopped after the test. */
    async startWorker(opts: Partial<WorkerOptions> = {}): Promise<Worker> {
      const w = new Worker({ handle: h.tdb, databaseUrl: h.tdb.url, workspacesDir: h.workspaces, leaseMs: 3000, heartbeatMs: 500, pollMs: 200, concurrency: 4, log: () => {}, ...opts });
      await w.start();
      h.running.push(w);
      return w;
    },
    state,
    /** Waits until the mission is terminal or paused at a gate. */
    async settle(id: string, timeoutMs = 20_000): Promise<MissionState> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const s = await state(id);
        if (["completed", "failed", "paused"].includes(s.runState)) return s;
        if (Date.now() > deadline) throw new Error(`mission ${id} still ${s.runState} in ${s.phase} after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  };
}
