import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_TYPES } from "../diagnosis/types";
import { replayTrace } from "../trace/replay";
import { splitLines, verifyTrace } from "../trace/verify";
import type { LabReport } from "./report";
import { runSuite } from "./run";
import { readSuite, type Suite } from "./suite";

/**
 * The default suite (lab/default.yaml) that `npm test` runs and prints: it covers what it says it covers,
 * its recoverable faults recover, its runs end as expected, every trace verifies and replays through the
 * real engine without a divergence, and the same seed gives the same report.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-lab-default-"));
let suite: Suite;
let report: LabReport;

beforeAll(async () => {
  const r = readSuite("lab/default.yaml");
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.path}: ${e.message}`).join("\n"));
  suite = r.suite;
  report = await runSuite(suite, { seed: 1, repeat: 2, traceDir: dir });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const scenario = (name: string) => report.scenarios.find((s) => s.name === name)!;

describe("the default lab suite", () => {
  it("injects every error type of seed 003, an outage of each kind, crashes, operator answers and models", () => {
    expect(new Set(suite.scenarios.flatMap((s) => s.faults.map((f) => f.type)))).toEqual(new Set(ERROR_TYPES));
    // …and the runs met them: each type was injected into a call and diagnosed.
    const judged = new Set(report.scenarios.flatMap((s) => s.results.flatMap((r) => r.diagnoses.map((d) => d.injected))));
    for (const t of ERROR_TYPES) expect(judged, t).toContain(t);
    expect(suite.scenarios.flatMap((s) => s.outages.map((o) => o.service)).sort()).toEqual(["database", "network"]);
    expect(report.scenarios.flatMap((s) => s.results).filter((r) => r.crashes > 0).length).toBeGreaterThanOrEqual(4);
    expect(report.metrics.hitlRate.successes).toBeGreaterThan(0);
    expect(report.metrics.approvalRate.trials).toBeGreaterThan(0);
    const sources = new Set(suite.scenarios.flatMap((s) => Object.values(s.models).map((m) => m.source.split(":")[0])));
    expect(sources).toEqual(new Set(["recorded", "scripted"]));
  });

  it("every run ends as its scenario expects (the flaky one may not: that is what pass^k shows)", () => {
    for (const s of report.scenarios) {
      for (const r of s.results) expect(r.error, `${s.name} #${r.repeat}`).toBeNull();
      if (s.name === "flaky upstream") continue;
      expect(s.results.filter((r) => !r.passed).map((r) => `${s.name} #${r.repeat}: ${r.why}`)).toEqual([]);
    }
    const flaky = scenario("flaky upstream");
    expect(flaky.passHatK[1]).toBeLessThanOrEqual(flaky.passHatK[0]);
  });

  it("faults the engine can recover from are recovered by the engine, without a person", () => {
    for (const name of ["rate limited fetch recovers", "slow report times out then recovers", "chatty build output too large", "refused connection recovers", "missing module installed"]) {
      for (const r of scenario(name).results) {
        expect(r.counts.recovered, name).toBe(1);
        expect(r.gatesAnswered, name).toBe(0);
        expect(r.finalStatus, name).toBe("SUCCESS");
      }
    }
    for (const r of scenario("learned pattern takes the fast path").results) expect(r.counts.fastPath).toBe(1);
    for (const r of scenario("syntax error is a stuck loop").results) expect([r.counts.loops, r.finalStatus]).toEqual([1, "FAILED"]);
    for (const r of scenario("worker crash in a shell step").results) expect([r.crashes, r.gatesAnswered, r.finalStatus]).toEqual([1, 1, "SUCCESS"]);
    for (const r of scenario("worker crash in an idempotent call").results) expect([r.crashes, r.gatesAnswered, r.finalStatus]).toEqual([1, 0, "SUCCESS"]);
    for (const r of scenario("autonomous agent dangerous proposal rejected").results) expect(r.proposals.rejected).toBe(1);
  });

  it("writes one trace per run; each verifies and replays through the real engine with zero divergences", async () => {
    const runs = report.scenarios.flatMap((s) => s.results);
    expect(fs.readdirSync(dir).length).toBe(runs.length);
    const database = runs.find((r) => r.runId.endsWith("database outage pauses the mission/1"))!;
    expect(fs.readFileSync(database.trace!, "utf8")).toContain('"kind":"infrastructure"');
    for (const r of runs) {
      const v = verifyTrace(splitLines(fs.readFileSync(r.trace!, "utf8")));
      expect(v.ok, r.trace!).toBe(true);
      if (!v.ok) continue;
      expect(v.trace.header.lab).toMatchObject({ runId: r.runId, suite: "default", repeat: r.repeat, suiteSeed: 1 });
      const replay = await replayTrace(v.trace);
      expect(replay.divergences, r.runId).toEqual([]);
      expect(replay.finalStatus, r.runId).toBe(r.finalStatus);
    }
  });

  it("the same seed gives the same report", async () => {
    const again = await runSuite(suite, { seed: 1, repeat: 2, traceDir: dir });
    expect(JSON.stringify(again)).toBe(JSON.stringify(report));
  });
});
