import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { TestDatabase } from "../../db/test-helpers";
import { dbError } from "../../db/test-helpers";
import { createMission, listEventsAfter } from "../../db/queries/events";
import { abortMission, pauseMission } from "../../db/queries/mission-control";
import { auditLog, failureAudit, gates } from "../../db/schema";
import type { AuditActor } from "../../lib/audit";
import type { MissionDefinition } from "../../lib/mission";
import { definition, nodeStep } from "../../lib/mission/test-fixtures";
import { useWorkerHarness } from "./test-harness";

const harness = useWorkerHarness("fl-abort-");
let tdb: TestDatabase;
beforeAll(() => {
  tdb = harness.tdb;
});
const { settle, state } = harness;
const olivia: AuditActor = { id: "user:op", name: "Olivia Operator", via: "web", ip: "127.0.0.1", userAgent: "vitest" };
const create = (def: MissionDefinition) => createMission(tdb.db, { definition: def, actorId: "user:op" });

describe("aborting a whole mission (operator or agent)", () => {
  it("at an open gate: the gate closes as abort by that person, open failures resolve, compensations undo done steps, it ends FAILED, audited", async () => {
    const marker = path.join(harness.workspaces, "abort-compensated.txt");
    await harness.startWorker();
    const m = await create(
      definition({
        name: "abort at gate",
        agents: [
          { name: "setup", priority: "critical", steps: [{ ...nodeStep("console.log('made')"), compensate: nodeStep(`require('fs').writeFileSync(${JSON.stringify(marker)}, 'undone'); console.log('undone')`) }] },
          { name: "deploy", priority: "critical", steps: [{ tool: "shell", args: { command: "rsync", args: ["a", "b"] } }] },
        ],
      }),
    );
    const atGate = await settle(m.id);
    expect(atGate.runState).toBe("paused");
    const gate = atGate.gates.find((g) => g.status === "open")!;

    const after = await abortMission(tdb.db, { missionId: m.id, actor: olivia, note: "wrong target environment" });
    expect(after.aborted).toBe(true);
    expect(after.gates.find((g) => g.id === gate.id)).toMatchObject({ status: "resolved", decision: "abort", decidedBy: "user:op" });

    const done = await settle(m.id);
    expect(done.finalStatus).toBe("FAILED");
    expect(fs.readFileSync(marker, "utf8")).toBe("undone");
    const [g] = await tdb.db.select().from(gates).where(eq(gates.id, gate.id));
    expect(g).toMatchObject({ status: "resolved", decision: "abort", decidedBy: "user:op" });
    const failures = await tdb.db.select().from(failureAudit).where(eq(failureAudit.missionId, m.id));
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.every((f) => f.resolvedAt !== null && f.resolution?.action === "abort" && f.resolution.resolvedBy === "user:op")).toBe(true);
    const log = await listEventsAfter(tdb.db, { missionId: m.id });
    const aborted = log.find((e) => e.type === "mission.aborted")!;
    expect(aborted.actorId).toBe("user:op");
    expect(aborted.reason).toBe("Olivia Operator aborted the mission: wrong target environment");

    const audit = await tdb.db.select().from(auditLog).where(eq(auditLog.missionId, m.id));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "mission.abort", actorId: "user:op", actorName: "Olivia Operator", via: "web", ip: "127.0.0.1", targetType: "mission", targetId: m.id });
    expect(audit[0].summary).toMatch(/closed 1 open gate as abort/);
    expect(audit[0].before).toMatchObject({ runState: "paused", openGates: [gate.id] });
  });

  it("while a step runs: the step still records its result, no new step starts, it ends FAILED", async () => {
    await harness.startWorker();
    const m = await create(
      definition({
        name: "abort while running",
        agents: [{ name: "slow", priority: "critical", steps: [nodeStep("setTimeout(() => console.log('slept'), 1500)"), nodeStep("console.log('second step must not run')")] }],
      }),
    );
    for (let i = 0; i < 100 && (await state(m.id)).agents.slow.steps.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    await abortMission(tdb.db, { missionId: m.id, actor: olivia, note: null });
    const done = await settle(m.id);
    expect(done.finalStatus).toBe("FAILED");
    expect(done.agents.slow.steps).toHaveLength(1);
    expect(done.agents.slow.steps[0].status).toBe("succeeded");
  });

  it("a paused mission can be aborted; an ended or already aborted one cannot, and nothing is recorded then", async () => {
    const m = await create(definition({ name: "abort paused" }));
    await pauseMission(tdb.db, { missionId: m.id, actorId: "user:op", kind: "operator", message: "hold" });
    const s = await abortMission(tdb.db, { missionId: m.id, actor: olivia, note: null });
    expect(s.paused).toBeNull();
    expect(await dbError(abortMission(tdb.db, { missionId: m.id, actor: olivia, note: null }))).toMatch(/already being aborted/);
    await harness.startWorker();
    expect((await settle(m.id)).finalStatus).toBe("FAILED");
    expect(await dbError(abortMission(tdb.db, { missionId: m.id, actor: olivia, note: null }))).toMatch(/already ended \(FAILED\)/);
    expect(await tdb.db.select().from(auditLog).where(eq(auditLog.missionId, m.id))).toHaveLength(1);
  });
});
