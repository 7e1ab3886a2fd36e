import { describe, expect, it } from "vitest";
import { createMission, listEventsAfter } from "../../db/queries/events";
import { decideGate } from "../../db/queries/gates";
import { loadStarterLibrary } from "../../db/queries/library";
import { listLibraryMatchesByMission } from "../../db/queries/library-protocol";
import { ensureActor } from "../../db/queries/users";
import { demoMissions } from "../../db/seed/demo";
import { starterLibrary } from "../../db/seed";
import type { MissionEvent } from "../../lib/mission";
import { useWorkerHarness } from "./test-harness";

/**
 * The seeded embodied demo on the starter library: a real robot process (db/seed/robot/drawer-robot.mjs)
 * reports "0 mm displacement at 30 N pull"; the library ranks the drawer's latch / jam hypotheses and the
 * operator performs the probe, confirms, carries out the resolution, and the robot's next pull decides.
 */
const harness = useWorkerHarness("fl-libdemo-");

describe("Robot opens a kitchen drawer (seeded demo)", () => {
  it("ranks the latch first, asks the operator to probe it, and ends SUCCESS once the resolution is done", async () => {
    const db = harness.tdb.db;
    await ensureActor(db, { id: "system:seed", kind: "system", displayName: "Faultline seed" });
    expect(await loadStarterLibrary(db, starterLibrary(), "system:seed")).toBe(1);
    await harness.startWorker();
    const def = demoMissions(1).find((d) => d.name === "Robot opens a kitchen drawer")!;
    const m = await createMission(db, { definition: def, actorId: "user:op" });
    let s = await harness.settle(m.id);
    let gate = s.gates.find((g) => g.status === "open")!;
    expect(gate.kind).toBe("library");
    const log: MissionEvent[] = await listEventsAfter(db, { missionId: m.id });
    const hyp = log.find((e) => e.type === "library.hypotheses") as Extract<MissionEvent, { type: "library.hypotheses" }>;
    expect(hyp.payload.query).toMatchObject({ object_class: "drawer", force_applied: expect.stringContaining("30 N"), observed_symptom: expect.stringContaining("0 mm displacement") });
    const titles = hyp.payload.hypotheses.map((h) => h.title);
    expect(titles[0]).toMatch(/latch/i);
    expect(hyp.payload.hypotheses.every((h) => h.failure_id.startsWith("FM-PHY-"))).toBe(true);
    expect(gate.error.library).toMatchObject({ stage: "probe", rank: 1, title: titles[0] });
    expect(gate.error.library!.diagnostic_probe!.length).toBeGreaterThan(10);
    await decideGate(db, { gateId: gate.id, decision: "confirm", note: "hard stop with a click", actorId: "user:op", actorName: "Olivia Operator" });
    s = await harness.settle(m.id);
    gate = s.gates.find((g) => g.status === "open")!;
    expect(gate.error.library).toMatchObject({ stage: "resolution", title: titles[0] });
    await decideGate(db, { gateId: gate.id, decision: "done", note: "latch lever pressed", actorId: "user:op", actorName: "Olivia Operator" });
    s = await harness.settle(m.id);
    expect(s.finalStatus).toBe("SUCCESS");
    const matches = await listLibraryMatchesByMission(db, m.id);
    expect(matches[0].outcome).toBe("resolved");
  });
});
