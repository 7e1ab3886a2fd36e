import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMission } from "../../db/queries/events";
import { decideGate } from "../../db/queries/gates";
import { decideProposal } from "../../db/queries/authority";
import { loadStarterLibrary } from "../../db/queries/library";
import { consultLibrary } from "../../db/queries/library-protocol";
import { readTraceSource } from "../../db/queries/traces";
import { ensureActor } from "../../db/queries/users";
import { starterLibrary } from "../../db/seed";
import { demoAutonomousMissions, demoMissions } from "../../db/seed/demo";
import { freeLoopbackPort } from "../../lib/net";
import type { MissionState } from "../../lib/mission";
import { traceLines } from "../../lib/trace/export";
import { lineText, sha256 } from "../../lib/trace/format";
import { replayTrace } from "../../lib/trace/replay";
import { verifyTrace } from "../../lib/trace/verify";
import { startReplayServer, type ReplayServer } from "../model-replay";
import { agentProviders } from "./agent-providers";
import { useWorkerHarness } from "./test-harness";
import { replayEveryMission } from "../replay-missions";

/**
 * FDR-N004 end to end: every demo mission (db/seed/demo.ts), run by a real worker on PostgreSQL with the
 * recorded model provider and the starter library, gates decided by an operator, is exported as a trace
 * that verifies and replays through the real engine with zero divergences; one ToolResult changed breaks
 * the chain, and once the chain is recomputed, replay reports the divergence at that event.
 */
const harness = useWorkerHarness("fl-trace-");
let recorded: ReplayServer;
const traces = new Map<string, string[]>();

beforeAll(async () => {
  const db = harness.tdb.db;
  await ensureActor(db, { id: "system:seed", kind: "system", displayName: "Faultline seed" });
  await ensureActor(db, { id: "system:authority", kind: "system", displayName: "authority" });
  await loadStarterLibrary(db, starterLibrary(), "system:seed");
  recorded = await startReplayServer();
});
afterAll(async () => {
  await recorded?.close();
});

const op = { actorId: "user:op", actorName: "Olivia Operator" };

async function until(id: string, done: (s: MissionState) => boolean): Promise<MissionState> {
  for (;;) {
    const s = await harness.settle(id);
    if (done(s)) return s;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** What the operator does at each demo mission's gates, until the mission ends. */
async function operate(id: string): Promise<MissionState> {
  const db = harness.tdb.db;
  for (;;) {
    const s = await harness.settle(id);
    const gate = s.gates.find((g) => g.status === "open");
    if (!gate) return s;
    if (gate.kind === "proposal") await decideProposal(db, { proposalId: gate.proposalId!, answer: "approve", note: "the key reference may be stored", actor: { id: "user:op", name: "Olivia Operator", via: "api", kind: "human" }, approvalTtlMs: 60_000 });
    else if (gate.kind === "library") await decideGate(db, { gateId: gate.id, decision: gate.error.library?.stage === "resolution" ? "done" : "confirm", note: "checked at the drawer", ...op });
    else await decideGate(db, { gateId: gate.id, decision: gate.options.some((o) => o.action === "skip") ? "skip" : "abort", note: "not today", ...op });
    await until(id, (x) => x.seq > s.seq && (x.runState !== "paused" || x.gates.every((g) => g.id !== gate.id || g.status !== "open")));
  }
}

function exportTrace(src: NonNullable<Awaited<ReturnType<typeof readTraceSource>>>): string[] {
  return [...traceLines(src)];
}

/** Recomputes a trace's hash chain after an edit (what a forger would do): verify passes again. */
function rechain(lines: string[]): string[] {
  let prev: string | null = null;
  return lines.map((l) => {
    const text = lineText({ ...JSON.parse(l), prev });
    prev = sha256(text);
    return text;
  });
}

const live = (q: Parameters<typeof consultLibrary>[1], limit: number) => consultLibrary(harness.tdb.db, q, limit);

describe("traces of the demo missions", () => {
  it("every demo mission run by a real worker exports, verifies and replays with zero divergences", async () => {
    const db = harness.tdb.db;
    await harness.startWorker({ agentProviders: agentProviders({ FAULTLINE_LLM_PROVIDERS: [], FAULTLINE_RECORDED_PROVIDER: `${recorded.url}/v1` }) });
    const defs = [...demoMissions(await freeLoopbackPort()), ...demoAutonomousMissions()];
    const ids = await Promise.all(defs.map(async (definition) => (await createMission(db, { definition, actorId: "user:op" })).id));
    const finals: Record<string, string | null> = {};
    for (const [i, id] of ids.entries()) finals[defs[i].name] = (await operate(id)).finalStatus;
    // The demo's outcomes, as the console shows them at first sight (and after the operator's decisions).
    expect(finals["Nightly release notes"]).toBe("SUCCESS");
    expect(finals["Robot opens a kitchen drawer"]).toBe("SUCCESS");
    expect(finals["Build summary by an autonomous agent"]).toBe("SUCCESS");
    for (const [i, id] of ids.entries()) {
      const src = (await readTraceSource(db, id))!;
      const lines = exportTrace(src);
      traces.set(defs[i].name, lines);
      const v = verifyTrace(lines);
      expect(v.ok, `${defs[i].name}: ${JSON.stringify(v)}`).toBe(true);
      if (!v.ok) continue;
      expect(v.trace.events).toHaveLength(src.events.length);
      expect(v.trace.tapes.size).toBeGreaterThan(0);
      const report = await replayTrace(v.trace, { library: live });
      expect(report.divergences, defs[i].name).toEqual([]);
      expect(report.events).toBe(src.events.length);
      expect(report.derived).toBeGreaterThan(0);
      expect(report.finalStatus).toBe(finals[defs[i].name]);
    }
    // The e2e run's check (its global teardown): every mission of the database, each replayed with zero divergences.
    const all = await replayEveryMission(db);
    expect(all.missions).toBeGreaterThanOrEqual(ids.length);
    expect(all.problems).toEqual([]);
  });

  it("a trace with one ToolResult changed fails verify at that line; with its chain recomputed, replay diverges at that event", async () => {
    const lines = traces.get("Nightly release notes")!;
    const at = lines.findIndex((l) => {
      const x = JSON.parse(l);
      return x.t === "io" && x.reads.some((r: { k: string; result?: { ok: boolean } }) => r.k === "run" && r.result?.ok);
    });
    expect(at).toBeGreaterThan(0);
    const io = JSON.parse(lines[at]);
    const run = io.reads.find((r: { k: string }) => r.k === "run");
    run.result = { ok: false, data: null, error: { code: "EXIT_NONZERO", message: "node exited with code 1", exitCode: 1 } };
    const tampered = [...lines];
    tampered[at] = lineText(io);
    const v = verifyTrace(tampered);
    expect(v).toMatchObject({ ok: false, line: at + 1 });
    expect(!v.ok && v.why).toMatch(/was changed after the export/);
    const forged = verifyTrace(rechain(tampered));
    expect(forged.ok).toBe(true);
    if (!forged.ok) return;
    const report = await replayTrace(forged.trace, { library: live });
    expect(report.firstDivergence).not.toBeNull();
    expect(report.firstDivergence!.seq).toBe(io.seq);
    expect(report.firstDivergence!.recorded).toMatchObject({ seq: io.seq, type: "tool.succeeded" });
    expect(report.firstDivergence!.replayed).toMatchObject({ type: "tool.failed" });
  });

  it("verify names a missing line, a cut trace, another version and a file that is not a trace", () => {
    const lines = traces.get("Nightly release notes")!;
    expect(verifyTrace([...lines.slice(0, 3), ...lines.slice(4)])).toMatchObject({ ok: false, line: 4 });
    expect(verifyTrace(lines.slice(0, -1))).toMatchObject({ ok: false, why: expect.stringMatching(/without its end line: it was cut/) });
    const v2 = JSON.parse(lines[0]);
    v2.version = 99;
    expect(verifyTrace([lineText(v2), ...lines.slice(1)])).toMatchObject({ ok: false, line: 1, why: expect.stringMatching(/version 99; this Faultline reads version 1/) });
    expect(verifyTrace(["not json"])).toMatchObject({ ok: false, line: 1, why: expect.stringMatching(/not JSON.*not a Faultline trace/) });
    expect(verifyTrace([])).toMatchObject({ ok: false, why: expect.stringMatching(/empty/) });
  });
});
