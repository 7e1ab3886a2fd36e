import { describe, expect, it } from "vitest";
import { traceLines } from "../trace/export";
import { replayTrace } from "../trace/replay";
import { MEASURED_FIELDS } from "../trace/replay";
import { verifyTrace } from "../trace/verify";
import { LabObserverError, withLab } from "./lab";
import { patternMemory } from "./memory";
import { scenarioEnvironment } from "./scenario";
import { parseSuite, type Scenario } from "./suite";
import { createWorld, type World, type WorldEvent } from "./world";

/**
 * The lab observes and never participates (seed 002 FDR-N010, N011, FP-7): a run's trace is the same
 * with and without the lab, apart from the lab's own header member; nothing written through the lab
 * gets through; listeners that misbehave change nothing.
 */

const SUITE = `
name: observer
scenarios:
  - name: everything at once
    mission:
      name: release
      objective: Ship the release.
      recovery: auto
      allowedBinaries: [rsync, certbot]
      phases:
        - name: EXECUTION
          agents:
            - name: fetch
              priority: critical
              steps:
                - { tool: http, args: { url: "http://inventory.internal/v1/items", method: GET } }
            - name: deploy
              priority: critical
              steps:
                - { tool: shell, args: { command: rsync, args: [-a, dist/, "web:/srv/"] } }
                - { tool: shell, args: { command: certbot, args: [renew] }, highRisk: true }
    faults:
      - { at: fetch/0, type: rate_limited }
    crashes:
      - { at: deploy/0 }
    outages:
      - { service: database, at: fetch/0, durationMs: 20000 }
  - name: a model held for a person
    mission:
      name: rotate
      objective: Store the key reference.
      rules:
        - { id: secrets, effect: hold, tool: file, path: "secrets/**", reason: needs a person }
      phases:
        - name: EXECUTION
          agents:
            - name: rotator
              priority: critical
              autonomous: { goal: Store the key reference in secrets/key.ref, tools: [file], maxActions: 4 }
    models:
      rotator:
        turns:
          - { call: shell, args: { command: rm, args: [-rf, /] } }
          - { call: file, args: { op: write, path: secrets/key.ref, content: "vault://k#1" } }
          - { finish: stored }
`;

function scenario(name: string): Scenario {
  const r = parseSuite(SUITE);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.suite.scenarios.find((s) => s.name === name)!;
}

function world(sc: Scenario, seed: number): World {
  const memory = patternMemory();
  memory.set(sc.patterns);
  return createWorld({ definition: sc.mission, seed, environment: scenarioEnvironment(sc, seed), memory });
}

/**
 * A trace's lines without what the lab's header changes: the header's `lab` member, and the sha-256 chain
 * (`prev`), which starts from the header's hash and so differs on every line after it.
 */
function comparable(lines: string[], mask = false): unknown[] {
  return lines.map((l, i) => {
    const o = JSON.parse(l);
    if (i === 0) delete o.lab;
    delete o.prev;
    return mask ? masked(o) : o;
  });
}
/** The authority's own computation time (decisionTimeMs) is measured, not derived: masked, as replay does. */
function masked(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(masked);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, MEASURED_FIELDS.includes(k) ? 0 : masked(x)]));
}

describe("withLab: the lab observes and never writes", () => {
  it("a run's trace is the same with and without the lab: every line but the header's lab member and the hash chain it starts (a fault, a crash, an outage, a gate)", async () => {
    const sc = scenario("everything at once");
    const bare = world(sc, 42);
    const end = await bare.run();
    expect(end.error).toBeNull();
    expect(end.state?.finalStatus).toBe("SUCCESS");
    const without = [...traceLines(bare.source(), { seed: bare.seed })];

    const observed = world(sc, 42);
    const lab = withLab(observed, { runId: "observer/1", coordinates: { suite: "observer", scenario: sc.name, repeat: 1, suiteSeed: 42 } });
    const record = await lab.run();
    const withLabLines = record.trace;

    // What the run did: the lab saw every event, every engine write's readings, the crash and the fault.
    const types = record.events.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(["mission.paused", "mission.resumed", "diagnostic_reflection", "recovery.started", "step.interrupted", "gate.opened", "gate.resolved", "mission.finished"]));
    expect(record.crashes).toHaveLength(1);
    expect(record.calls.filter((c) => c.injected)).toEqual([expect.objectContaining({ agent: "fetch", step: 0, injected: expect.objectContaining({ type: "rate_limited" }) })]);

    expect(withLabLines.length).toBe(without.length);
    expect(comparable(withLabLines)).toEqual(comparable(without));
    const header = JSON.parse(withLabLines[0]);
    expect(header.lab).toEqual({ runId: "observer/1", necessityLevel: 0, projection: "silent", suite: "observer", scenario: sc.name, repeat: 1, suiteSeed: 42 });
    expect(JSON.parse(without[0]).lab).toBeUndefined();
    expect(header.seed).toBe(42);

    // The lab's trace is a trace: it verifies, and the real engine replays it without a divergence.
    const v = verifyTrace(withLabLines);
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    const replay = await replayTrace(v.trace);
    expect(replay.divergences).toEqual([]);
    expect(replay.derived).toBeGreaterThan(10);
    expect(replay.finalStatus).toBe("SUCCESS");
  });

  it("with a model and a person's answer through the authority: the same trace too (the authority's measured decision time aside)", async () => {
    const sc = scenario("a model held for a person");
    const bare = world(sc, 7);
    await bare.run();
    const without = [...traceLines(bare.source(), { seed: 7 })];
    const record = await withLab(world(sc, 7), { runId: "observer/2" }).run();
    expect(record.end.state?.finalStatus).toBe("SUCCESS");
    const decided = record.events.filter((e) => e.type === "proposal.decided").map((e) => (e.payload as { decision: string }).decision);
    // rm -rf / denied; the write under secrets/ held and approved by the operator; finish without evidence rules held and approved.
    expect(decided).toEqual(["rejected", "pending", "approved", "pending", "approved"]);
    expect(comparable(record.trace, true)).toEqual(comparable(without, true));
  });

  it("refuses every write through the lab, with an error that names FP-7", () => {
    const lab = withLab(world(scenario("everything at once"), 1), { runId: "observer/3" }) as unknown as Record<string, (...a: unknown[]) => unknown>;
    for (const verb of ["append", "submitProposal", "submit", "decide", "approve", "pause", "abort"]) {
      expect(() => lab[verb]([{ type: "mission.aborted", payload: { message: "by the lab" } }])).toThrow(LabObserverError);
    }
    expect(() => lab.submitProposal({ tool: "shell", args: {} })).toThrow(/The lab observes and never writes \(seed 002 FDR-N011, forbidden pattern FP-7\): "submitProposal" is not available through withLab/);
    expect(() => {
      (lab as unknown as { labMeta: unknown }).labMeta = {};
    }).toThrow(LabObserverError);
  });

  it("listeners get frozen copies: one that mutates what it sees or throws changes nothing, and is reported", async () => {
    const sc = scenario("everything at once");
    const bare = world(sc, 9);
    await bare.run();
    const without = [...traceLines(bare.source(), { seed: 9 })];
    const observed = world(sc, 9);
    const lab = withLab(observed, { runId: "observer/4" });
    let seen = 0;
    lab.subscribe((e: WorldEvent) => {
      if (e.type !== "write") return;
      seen += e.events.length;
      (e.events[0].payload as Record<string, unknown>).tampered = true; // frozen: throws
    });
    const record = await lab.run();
    expect(seen).toBe(record.events.length);
    expect(record.end.listenerErrors).toEqual([expect.stringMatching(/read only|not extensible|Cannot add property/)]);
    expect(comparable(record.trace)).toEqual(comparable(without));
    expect(JSON.stringify(record.events)).not.toContain("tampered");
  });

  it("wraps a world only before it runs, and says why; a world runs once", async () => {
    const w = world(scenario("everything at once"), 3);
    await w.run();
    expect(() => withLab(w, { runId: "late" })).toThrow(/withLab must wrap world .* before it runs: a trace starts at the mission's first event/);
    await expect(w.run()).rejects.toThrow(/a world runs once/);
    expect(() => withLab(world(scenario("everything at once"), 3), { runId: " " })).toThrow(/withLab needs a runId/);
  });

  it("declares a necessity level and warns when it is below the detected one (FDR-N008)", () => {
    const lab = withLab(world(scenario("a model held for a person"), 3), { runId: "levels", necessityLevel: 0 });
    expect(lab.labMeta).toMatchObject({ necessityLevel: 0, detectedLevel: 3, projection: { mode: "silent" } });
    expect(lab.labMeta.levelWarning).toMatch(/declares necessity level 0, but level 3 is detected/);
  });
});
