import { afterEach, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "../../db/client";
import { createMission, listEventsAfter } from "../../db/queries/events";
import { PgProxy } from "../../db/test-pg-proxy";
import { definition, nodeStep } from "../../lib/mission/test-fixtures";
import { useWorkerHarness } from "./test-harness";

/**
 * A write whose COMMIT the server performs but whose answer never reaches the worker (a backend
 * terminated at that instant, a network that drops the reply): the worker must find that its progress
 * landed, not write it again. Seen in the chaos suite (scenario i) as a refused `tool.succeeded` followed
 * by a recovery gate for a step that had in fact succeeded.
 *
 * A loopback TCP proxy between the worker's pool and the real PostgreSQL forwards everything, and once
 * armed, cuts the connection that committed a step's success right after the server's answer saying it
 * committed (to COMMIT, or to the one statement that is the whole write) arrives, without passing it on.
 */
/** PostgreSQL's ReadyForQuery message with status "idle": 'Z', length 5, 'I'. */
const READY_IDLE = "Z\u0000\u0000\u0000\u0005I";

const harness = useWorkerHarness("fl-ws-cut-");
let proxy: PgProxy | null = null;
let handle: DbHandle | null = null;
afterEach(async () => {
  await handle?.close();
  await proxy?.close();
});

describe("a write whose answer to COMMIT is lost", () => {
  it("is found in the log: the mission goes on without writing it twice, pausing, or asking an operator about a step that succeeded", async () => {
    let armed = false;
    let cuts = 0;
    const started = await PgProxy.start(harness.tdb.url, (conn) => {
      let sawSuccess = false;
      return {
        fromClient: (d) => {
          if (armed && d.toString("latin1").includes("tool.succeeded")) sawSuccess = true;
        },
        // The write's end: the server's first ReadyForQuery saying "idle" (not in a transaction) after the success
        // went out. A write in a transaction ends with COMMIT (inside it, every answer says "in transaction"); the
        // worker's one-statement append (appendAsOwner) is its own transaction, committed when the statement ends.
        fromServer: (d) => {
          if (!(sawSuccess && armed && d.toString("latin1").includes(READY_IDLE))) return;
          // The server has committed; the worker never hears it.
          armed = false;
          cuts++;
          conn.cut();
          return false;
        },
      };
    });
    proxy = started.proxy;
    handle = createDb(started.url, { applicationName: "faultline-worker-cut" });
    const logs: string[] = [];
    await harness.startWorker({ handle, log: (m) => logs.push(m) });

    const steps = [1, 2, 3].map((i) => nodeStep(`require('fs').appendFileSync('ran.txt', '${i}\\n'); console.log('step ${i}')`));
    armed = true;
    const m = await createMission(harness.tdb.db, { definition: definition({ agents: [{ name: "writer", priority: "critical", steps }] }), actorId: "user:op" });
    const done = await harness.settle(m.id);

    expect(cuts).toBe(1);
    expect(logs.some((l) => /the write cut at its commit had landed/.test(l))).toBe(true);
    expect(done.finalStatus).toBe("SUCCESS");
    const log = await listEventsAfter(harness.tdb.db, { missionId: m.id });
    const types = log.map((e) => e.type);
    expect(types.filter((t) => t === "tool.succeeded")).toHaveLength(3);
    expect(types.filter((t) => t === "step.started")).toHaveLength(3);
    for (const t of ["step.interrupted", "gate.opened", "mission.paused"]) expect(types).not.toContain(t);
    expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
  });
});
