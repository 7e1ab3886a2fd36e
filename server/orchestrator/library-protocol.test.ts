import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createMission, listEventsAfter } from "../../db/queries/events";
import { decideGate } from "../../db/queries/gates";
import { publishChanges } from "../../db/queries/library";
import { listLibraryMatchesByMission, listNovelDraftsByMission } from "../../db/queries/library-protocol";
import { ensureActor } from "../../db/queries/users";
import { walkScoreReliability } from "../../db/queries/library-calibration";
import { failureAudit, libraryContributions, missions } from "../../db/schema";
import { validateEntries, type EntryInput } from "../../lib/library/entry";
import { missionDefinitionSchema, type MissionEvent, type MissionState } from "../../lib/mission";
import type { LibraryGateInfo } from "../../lib/mission/library";
import { useWorkerHarness } from "./test-harness";

/**
 * The failure-mode library's Output Protocol end to end: a real Worker on PostgreSQL, real `node` steps
 * that fail, a library published in the test database, real `sh` probes and resolutions in the mission's
 * workspace, gates decided as an operator would, and the projections (library_matches, the draft).
 */

const harness = useWorkerHarness("fl-lib-");
const { state, settle } = harness;

const node = (code: string) => ({ command: "node", args: ["-e", code] });
/** A step that fails until `flag` exists in its workspace, saying why on stderr. */
const needsFlag = (flag: string, message: string) => node(`if(!require('fs').existsSync('${flag}')){console.error('${message}');process.exit(3)}console.log('ready')`);
const sh = (script: string) => ({ tool: "shell" as const, args: { command: "sh", args: ["-c", script] } });

const ENTRIES: EntryInput[] = [
  {
    failure_id: "FM-SW-0901",
    title: "Workspace not initialised",
    category: "State",
    surface_symptom: "setup marker ready.flag missing: the build workspace was never initialised",
    hidden_reality: "The workspace was created empty: the initialisation step that writes its setup marker never ran on this host.",
    diagnostic_probe: "Look for the setup marker in the workspace.",
    resolution_path: "Initialise the workspace (write its setup marker), then run the step again.",
    risk_level: "Low",
    context_tags: ["shell", "workspace", "setup"],
    source: "expert_curation",
    probe_action: { ...sh("test -e ready.flag && echo initialised || echo uninitialised"), confirm_when: { output_matches: "^uninitialised$" } },
    resolution_action: { ...sh("touch ready.flag"), expect: { exit_code: 0 } },
  },
  {
    failure_id: "FM-SW-0902",
    title: "Production vault sealed",
    category: "Constraint",
    surface_symptom: "vault token vault.seal rejected: the production secrets vault is sealed",
    hidden_reality: "The production secrets vault was sealed by an operator; every read is refused until it is unsealed with a quorum of keys.",
    diagnostic_probe: "Read the vault's seal status file in the workspace.",
    resolution_path: "An operator with unseal keys unseals the vault; never automate this.",
    risk_level: "Requires-Oversight",
    context_tags: ["shell", "vault", "secrets"],
    source: "expert_curation",
    probe_action: { ...sh("test -e vault.seal || echo sealed"), confirm_when: { output_matches: "^sealed$" } },
    resolution_action: { ...sh("touch vault.seal"), expect: { exit_code: 0 } },
  },
  {
    failure_id: "FM-PHY-0901",
    title: "Conveyor belt slipping",
    category: "Physical",
    surface_symptom: "conveyor belt motor turning but parcel tray not advancing: belt slipping on the drive roller",
    hidden_reality: "The drive belt stretched and lost tension, so the roller turns inside it without moving the tray.",
    diagnostic_probe: "Mark the belt and the roller with chalk, run the motor for two seconds and compare how far each mark moved.",
    resolution_path: "Stop the line and re-tension the belt to the maker's deflection figure.",
    risk_level: "Medium",
    context_tags: ["conveyor", "belt", "motor", "parcel"],
    source: "expert_curation",
  },
  {
    failure_id: "FM-PHY-0902",
    title: "Tray jammed by a parcel",
    category: "Physical",
    surface_symptom: "conveyor belt motor turning but parcel tray not advancing: a parcel wedged under the tray guard",
    hidden_reality: "A parcel slipped under the tray guard and wedges the tray against the frame.",
    diagnostic_probe: "Look under the tray guard with a torch for a wedged parcel.",
    resolution_path: "Stop the line, lock it out and remove the parcel by hand.",
    risk_level: "High",
    context_tags: ["conveyor", "parcel", "jam"],
    source: "expert_curation",
  },
];

beforeAll(async () => {
  const parsed = validateEntries(ENTRIES);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  await ensureActor(harness.tdb.db, { id: "system:test", kind: "system", displayName: "Test" });
  await harness.tdb.db.transaction((tx) => publishChanges(tx, { changes: parsed.entries.map((entry) => ({ kind: "upsert" as const, entry })), authorId: "system:test", summary: "test library" }));
});

function mission(name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return missionDefinitionSchema.parse({ name, objective: "run the step", allowedBinaries: ["node"], ...extra, phases: [{ name: "EXECUTION", agents: [{ name: "worker", priority: "critical", steps: [{ tool: "shell", args, evidence: [{ exit_code: 0 }] }] }] }] });
}

async function start(def: ReturnType<typeof mission>): Promise<string> {
  return (await createMission(harness.tdb.db, { definition: def, actorId: "user:op" })).id;
}
const events = (id: string) => listEventsAfter(harness.tdb.db, { missionId: id });
const types = (list: MissionEvent[]) => list.map((e) => e.type);
const of = <T extends MissionEvent["type"]>(list: MissionEvent[], type: T) => list.filter((e): e is Extract<MissionEvent, { type: T }> => e.type === type);
const openGate = (s: MissionState) => s.gates.find((g) => g.status === "open")!;
const decide = (gateId: string, decision: Parameters<typeof decideGate>[1]["decision"]) => decideGate(harness.tdb.db, { gateId, decision, note: null, actorId: "user:op", actorName: "Olivia Operator" });
const workspace = (id: string) => path.join(harness.workspaces, id);

describe("the library's hypotheses in a mission", () => {
  it("a failed step's hypothesis is probed by its action, confirmed, resolved by its action, and the step's own evidence ends it SUCCESS", async () => {
    await harness.startWorker();
    const id = await start(mission("uninitialised workspace", needsFlag("ready.flag", "setup marker ready.flag missing: the build workspace was never initialised")));
    const s = await settle(id);
    const log = await events(id);
    expect(s.finalStatus).toBe("SUCCESS");
    expect(s.gates).toHaveLength(0);
    const from = types(log).indexOf("tool.failed");
    expect(types(log).slice(from)).toEqual(["tool.failed", "diagnostic_reflection", "library.hypotheses", "library.probe", "library.resolution", "step.rerun", "tool.succeeded", "library.resolved", "agent.completed", "phase.completed", "objective.checked", "mission.finished"]);
    const [h] = of(log, "library.hypotheses");
    expect(h.payload.abstained).toBe(false);
    expect(h.payload.libraryVersion).toBeGreaterThanOrEqual(1);
    expect(h.payload.hypotheses[0]).toMatchObject({ failure_id: "FM-SW-0901", rank: 1, risk_level: "Low" });
    expect(h.payload.hypotheses[0].match_score).toBeGreaterThan(0);
    expect(h.payload.query).toMatchObject({ object_class: "shell: node" });
    expect(h.payload.query.observed_symptom).toContain("ready.flag missing");
    // The probe really ran in the workspace: `sh -c` printed "uninitialised", which confirms.
    expect(of(log, "library.probe")[0].payload).toMatchObject({ failure_id: "FM-SW-0901", by: "action", verdict: "confirmed", evidence: { check: "output_matches", passed: true }, output: "uninitialised" });
    expect(of(log, "library.resolution")[0].payload).toMatchObject({ by: "action", ok: true, evidence: { check: "exit_code", actual: 0, passed: true } });
    expect(of(log, "step.rerun")[0].payload.reason).toBe("library");
    expect(fs.existsSync(path.join(workspace(id), "ready.flag"))).toBe(true);
    // The projection: every ranked hypothesis with its outcome.
    const matches = await listLibraryMatchesByMission(harness.tdb.db, id);
    expect(matches[0]).toMatchObject({ failureId: "FM-SW-0901", rank: 1, seq: h.seq, outcome: "resolved" });
    expect(matches.slice(1).every((m) => m.outcome === null)).toBe(true);
    // The failure's audit entry is resolved by the library entry's resolution, by no person.
    const audit = await harness.tdb.db.select().from(failureAudit).where(eq(failureAudit.missionId, id));
    expect(audit).toHaveLength(1);
    expect(audit[0].resolution).toMatchObject({ action: "library_resolution:FM-SW-0901", resolvedBy: null });
  });

  it("a Requires-Oversight hypothesis opens a gate before its probe runs; its resolution is proposed at a gate, and the step's evidence decides", async () => {
    await harness.startWorker();
    const id = await start(mission("sealed vault", needsFlag("vault.seal", "vault token vault.seal rejected: the production secrets vault is sealed")));
    let s = await settle(id);
    let g = openGate(s);
    expect(g.kind).toBe("library");
    expect(g.error.library).toMatchObject({ stage: "oversight", failure_id: "FM-SW-0902", risk_level: "Requires-Oversight", title: "Production vault sealed" } satisfies Partial<LibraryGateInfo>);
    expect(g.options.map((o) => o.action)).toEqual(["run_probe", "skip_hypothesis", "abort"]);
    // Nothing was probed before the operator allowed it.
    expect(types(await events(id))).not.toContain("library.probe");
    await decide(g.id, "run_probe");
    s = await settle(id);
    g = openGate(s);
    expect(of(await events(id), "library.probe")[0].payload).toMatchObject({ by: "action", verdict: "confirmed" });
    // Requires-Oversight: the resolution is never run by itself; the operator carries it out and says so.
    expect(g.error.library).toMatchObject({ stage: "resolution", failure_id: "FM-SW-0902", resolution_path: expect.stringContaining("unseals the vault") });
    expect(g.error.library?.note).toContain("Requires-Oversight");
    fs.writeFileSync(path.join(workspace(id), "vault.seal"), "unsealed by Olivia\n");
    await decide(g.id, "done");
    s = await settle(id);
    expect(s.finalStatus).toBe("SUCCESS");
    const log = await events(id);
    expect(of(log, "library.resolution")[0].payload).toMatchObject({ by: "operator", ok: true });
    expect(of(log, "library.resolved")[0].payload).toMatchObject({ failure_id: "FM-SW-0902", outcome: "resolved" });
  });

  it("entries without a probe action ask the operator to probe; rejected → the next hypothesis; all rejected → escalation flagged for investigation", async () => {
    await harness.startWorker();
    const id = await start(mission("sorting line", node("console.log(JSON.stringify({observed_symptom:'conveyor belt motor turning but parcel tray not advancing',object_class:'conveyor',environmental_context:['parcel','warehouse']}));process.exit(4)"), { library: true }));
    let s = await settle(id);
    let g = openGate(s);
    expect(g.kind).toBe("library");
    expect(g.error.library).toMatchObject({ stage: "probe", rank: 1, total: 2, note: expect.stringContaining("no machine-executable probe") });
    expect(g.options.map((o) => o.action)).toEqual(["confirm", "reject", "abort"]);
    const first = g.error.library!.failure_id!;
    expect(["FM-PHY-0901", "FM-PHY-0902"]).toContain(first);
    const h = of(await events(id), "library.hypotheses")[0];
    expect(h.payload.query).toMatchObject({ object_class: "conveyor", environmental_context: ["parcel", "warehouse"] });
    await decide(g.id, "reject");
    s = await settle(id);
    g = openGate(s);
    expect(g.error.library).toMatchObject({ stage: "probe", rank: 2, tried: [{ failure_id: first, outcome: "rejected" }] });
    await decide(g.id, "reject");
    s = await settle(id);
    g = openGate(s);
    // Exhausted: the agent gate, flagged for investigation, with every hypothesis tried.
    expect(g.kind).toBe("agent");
    expect(g.error.library).toMatchObject({ stage: "exhausted", flagged: true });
    expect(g.error.library!.tried.map((x) => x.outcome)).toEqual(["rejected", "rejected"]);
    const log = await events(id);
    expect(of(log, "library.probe").map((e) => [e.payload.by, e.payload.verdict])).toEqual([
      ["operator", "rejected"],
      ["operator", "rejected"],
    ]);
    expect(types(log).slice(-4)).toEqual(["library.probe", "library.exhausted", "agent.failed", "gate.opened"]);
    expect((await listLibraryMatchesByMission(harness.tdb.db, id)).map((m) => m.outcome)).toEqual(["rejected", "rejected"]);
    await decide(g.id, "abort");
    expect((await settle(id)).finalStatus).toBe("FAILED");
  });

  it("a failure no entry matches is novel: a pre-filled draft for reviewers in the same transaction, then the usual recovery gate", async () => {
    const w = await harness.startWorker();
    const id = await start(mission("novel failure", node("console.error('quantum flux capacitor desynchronised beyond tolerance');process.exit(5)")));
    const s = await settle(id);
    const log = await events(id);
    const from = types(log).indexOf("tool.failed");
    expect(types(log).slice(from)).toEqual(["tool.failed", "diagnostic_reflection", "library.hypotheses", "library.novel", "agent.failed", "gate.opened"]);
    expect(of(log, "library.hypotheses")[0].payload).toMatchObject({ abstained: true, hypotheses: [] });
    const novel = of(log, "library.novel")[0];
    expect(novel.seq).toBe(log[from].seq + 3);
    const drafts = await listNovelDraftsByMission(harness.tdb.db, id);
    expect(drafts).toHaveLength(1);
    expect(drafts[0]).toMatchObject({ id: novel.payload.contributionId, status: "draft", origin: "novel_failure", kind: "new", authorId: w.id, missionId: id, seq: log[from].seq });
    const entry = drafts[0].entry as Record<string, unknown>;
    expect(entry.failure_id).toBeUndefined();
    expect(entry).toMatchObject({ source: "incident_analysis", surface_symptom: expect.stringContaining("quantum flux capacitor"), context_tags: expect.arrayContaining(["shell", "exit-nonzero"]) });
    expect(["Medium", "High"]).toContain(entry.risk_level);
    // The draft is a valid entry in the document's schema once curation gives it an id.
    expect(validateEntries([{ ...entry, failure_id: "FM-SW-9999" }]).ok).toBe(true);
    // Then ADR-0003 as before: recovery policy propose → the agent gate.
    expect(openGate(s).kind).toBe("agent");
    const row = await harness.tdb.db.select().from(libraryContributions).where(eq(libraryContributions.missionId, id));
    expect(row).toHaveLength(1);
  });

  it("`library: false` in the definition: the old behaviour, no library events", async () => {
    await harness.startWorker();
    const id = await start(mission("library off", needsFlag("ready.flag", "setup marker ready.flag missing: the build workspace was never initialised"), { library: false }));
    expect(openGate(await settle(id)).kind).toBe("agent");
    expect(types(await events(id)).filter((t) => t.startsWith("library."))).toEqual([]);
  });

  it("FAULTLINE_LIBRARY_PROTOCOL=0 (the worker's libraryProtocol off): the old behaviour, no library events", async () => {
    await harness.startWorker({ libraryProtocol: false });
    const id = await start(mission("protocol off", needsFlag("ready.flag", "setup marker ready.flag missing: the build workspace was never initialised")));
    expect(openGate(await settle(id)).kind).toBe("agent");
    expect(types(await events(id)).filter((t) => t.startsWith("library."))).toEqual([]);
  });

  it("the walks' verdicts are what Diagnostics sets the match scores against: one case per probe that reached a verdict, at the score its hypothesis had", async () => {
    const ids = (await harness.tdb.db.select({ id: missions.id }).from(missions)).map((m) => m.id);
    const expected: Array<{ confidence: number; correct: boolean }> = [];
    for (const id of ids) {
      const log = await events(id);
      for (const p of log) {
        if (p.type !== "library.probe" || (p.payload.verdict !== "confirmed" && p.payload.verdict !== "rejected")) continue;
        const hyps = log.find((e) => e.seq === p.payload.hypothesesSeq);
        const h = hyps?.type === "library.hypotheses" ? hyps.payload.hypotheses.find((x) => x.failure_id === p.payload.failure_id) : undefined;
        expected.push({ confidence: h!.match_score, correct: p.payload.verdict === "confirmed" });
      }
    }
    // The missions above confirmed some hypotheses and rejected others.
    expect(expected.some((c) => c.correct) && expected.some((c) => !c.correct)).toBe(true);
    const r = await walkScoreReliability(harness.tdb.db, { days: 1 });
    expect(r.cases).toBe(expected.length);
    expect(r.accuracy).toBeCloseTo(expected.filter((c) => c.correct).length / expected.length, 6);
    expect(r.bins.reduce((n, b) => n + b.count, 0)).toBe(expected.length);
    // Probes of another day are outside a one-day window.
    expect((await walkScoreReliability(harness.tdb.db, { days: 1, now: new Date(Date.now() + 3 * 86_400_000) })).cases).toBe(0);
  });
});
