import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { advance, type EngineIO } from "../../lib/mission/engine";
import * as t from "../../lib/mission/transitions";
import { isConnectionError, waitForDatabase } from "./db-outage";
import type { MissionState } from "../../lib/mission";
import { evaluateEvidence, getTool, runTool } from "../../lib/tools";
import type { Db } from "../../db/client";
import { appendEvents } from "../../db/queries/events";
import { missions } from "../../db/schema";

/** What one mission run needs from its worker. */
export interface RunContext {
  db: Db;
  workerId: string;
  workspacesDir: string;
  allowedBinaries: readonly string[];
  /** Aborted when the lease is lost or the worker shuts down for good. */
  signal: AbortSignal;
  /** True once the worker is shutting down: stop at the next step boundary. */
  shouldStop: () => boolean;
  log: (msg: string) => void;
}

/**
 * Runs a mission the worker holds a lease on, one engine transition at a time, until it ends, is held
 * (gate or pause), or the run must stop. Every write is fenced by the lease (appendEvents checks it).
 */
export async function runMission(ctx: RunContext, missionId: string): Promise<"waiting" | "terminal" | "stopped"> {
  let state = await loadState(ctx.db, missionId);
  const io = engineIO(ctx, missionId);
  for (;;) {
    const r = await advance(state, io);
    state = r.state;
    if (r.outcome !== "progress") return r.outcome;
  }
}

/** The worker's EngineIO: lease-fenced appends on PostgreSQL, real tools in the mission's workspace. */
export function engineIO(ctx: RunContext, missionId: string): EngineIO {
  return {
    now: () => Date.now(),
    newId: () => randomUUID(),
    append: async (events) => {
      const write = (list: typeof events) => ctx.db.transaction((tx) => appendEvents(tx, { missionId, actorId: ctx.workerId, leaseOwner: ctx.workerId, events: list }));
      try {
        return (await write(events)).state;
      } catch (e) {
        if (!isConnectionError(e)) throw e;
        // FAILURE_MODEL level 3: the database is unavailable. The mission is paused until it returns;
        // then the pause and the resume are recorded before the progress that waited for them.
        const since = Date.now();
        ctx.log(`mission ${missionId}: database unavailable (${(e as Error).message}); waiting for it`);
        const downMs = await waitForDatabase(ctx.db, since, ctx.signal);
        const from = new Date(since).toISOString();
        return (
          await write([
            (s) => (s.paused ? null : t.missionPaused("infrastructure", `The database became unavailable at ${from} (${(e as Error).message.split("\n")[0]}); no progress could be recorded.`)),
            (s) => (s.paused?.kind === "infrastructure" ? t.missionResumed(`The database is available again after ${Math.round(downMs / 100) / 10} s; the mission resumes from its last committed event.`) : null),
            ...events,
          ])
        ).state;
      }
    },
    run: async (call, { state, idempotencyKey, timeoutMs }) => {
      const workspace = path.join(ctx.workspacesDir, state.id);
      await fs.mkdir(workspace, { recursive: true });
      const allowed = [...new Set([...state.definition.allowedBinaries, ...ctx.allowedBinaries])];
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(Math.max(1, timeoutMs))]);
      const result = await runTool(call.tool, call.args, { workspace, allowedBinaries: allowed, signal, timeoutMs, idempotencyKey });
      const evidence = await evaluateEvidence(call, result, { workspace });
      return { result, evidence };
    },
    idempotent: (step) => step.idempotent ?? getTool(step.tool)?.idempotent ?? false,
    stopped: () => ctx.signal.aborted || ctx.shouldStop(),
  };
}

async function loadState(db: Db, id: string): Promise<MissionState> {
  const [row] = await db.select({ state: missions.state }).from(missions).where(eq(missions.id, id));
  if (!row) throw new Error(`Mission ${id} does not exist`);
  return row.state;
}
