import { describe, expect, it } from "vitest";
import { successMetrics } from "../diagnosis/metrics";
import { mean, passHatK, t95, wilson } from "./metrics";
import { compareReports, scenarioReport, type LabReport, type RunReport } from "./report";
import { runSuite } from "./run";
import { parseSuite } from "./suite";
import { rateLimitScenario } from "./test-fixtures";

/** The statistics, checked by hand, and the metrics of a tiny suite whose every count is known. */

describe("statistics", () => {
  it("Wilson score intervals (95%)", () => {
    expect(wilson(5, 10)!.map((x) => x.toFixed(4))).toEqual(["0.2366", "0.7634"]);
    expect(wilson(0, 10)!.map((x) => x.toFixed(4))).toEqual(["0.0000", "0.2775"]);
    expect(wilson(10, 10)!.map((x) => x.toFixed(4))).toEqual(["0.7225", "1.0000"]);
    expect(wilson(10, 10)![1]).toBe(1); // exactly, not 0.9999…: a perfect baseline is not "above" a perfect run
    expect(wilson(1, 1)!.map((x) => x.toFixed(4))).toEqual(["0.2065", "1.0000"]);
    expect(wilson(0, 0)).toBeNull();
  });

  it("Student's t quantiles and mean intervals", () => {
    expect(t95(1)).toBe(12.706);
    expect(t95(30)).toBe(2.042);
    expect(t95(60)).toBeCloseTo(2.0003, 3);
    expect(t95(120)).toBeCloseTo(1.9799, 3);
    expect(mean([2, 2, 2])).toEqual({ value: 2, n: 3, ci: [2, 2] });
    const m = mean([1, 2, 3]); // sd 1, half-width 4.303 / √3
    expect(m.value).toBe(2);
    expect(m.ci![0]).toBeCloseTo(2 - 4.303 / Math.sqrt(3), 9);
    expect(m.ci![1]).toBeCloseTo(2 + 4.303 / Math.sqrt(3), 9);
    expect(mean([5])).toEqual({ value: 5, n: 1, ci: null });
    expect(mean([])).toEqual({ value: null, n: 0, ci: null });
  });

  it("pass^k = C(c, k) / C(n, k)", () => {
    expect(passHatK(3, 5, 2)).toBeCloseTo(3 / 10, 12);
    expect(passHatK(2, 4, 1)).toBe(0.5);
    expect(passHatK(5, 5, 5)).toBe(1);
    expect(passHatK(4, 5, 5)).toBe(0);
    expect(passHatK(0, 3, 1)).toBe(0);
    expect(() => passHatK(3, 3, 4)).toThrow(/1 ≤ k ≤ n/);
    const runs = [true, false, true, true].map((passed, i) => ({ passed, repeat: i + 1 }) as unknown as RunReport);
    expect(scenarioReport({ name: "s", faults: [], expect: "SUCCESS" }, runs.map((r) => ({ ...r, counts: zero(), iterations: [], diagnoses: [], proposals: { submitted: 0, approved: 0, rejected: 0, held: 0 }, gatesAnswered: 0, level: 0, finalStatus: "SUCCESS", error: null }))).passHatK).toEqual([0.75, 0.5, 0.25, 0]);
  });
});

function zero() {
  return { diagnosed: 0, recoveriesStarted: 0, fastPath: 0, recovered: 0, recoveryFailed: 0, iterationsToSuccess: 0, loops: 0, gates: 0, proposalsAccepted: 0, proposalsRejected: 0 };
}

const TINY = (helpers: "ok" | "fail") => `
name: tiny
scenarios:${rateLimitScenario(helpers)}
  - name: stuck
    mission:
      name: migrate
      objective: migrate
      allowedBinaries: [node]
      phases:
        - name: EXECUTION
          agents:
            - { name: migrate, priority: critical, steps: [{ tool: shell, args: { command: node, args: [migrate.js] } }] }
    faults:
      - { at: migrate/0, type: syntax_error, times: always }
    operator:
      answers: [{ decision: retry, times: 2 }]
      otherwise: abort
    expect: { finalStatus: FAILED }
`;

async function tiny(helpers: "ok" | "fail" = "ok"): Promise<LabReport> {
  const p = parseSuite(TINY(helpers));
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return runSuite(p.suite, { seed: 11, repeat: 2 });
}

describe("a tiny suite, counted by hand", () => {
  it("has the metrics its runs imply", async () => {
    const r = await tiny();
    const [rl, stuck] = r.scenarios;
    // rate limit, each run: one failure diagnosed (rate_limited), one recovery (sleep, then the re-run: 2 iterations), SUCCESS.
    expect(rl.results.map((x) => [x.finalStatus, x.counts.diagnosed, x.counts.recovered, x.iterations])).toEqual([
      ["SUCCESS", 1, 1, [2]],
      ["SUCCESS", 1, 1, [2]],
    ]);
    // stuck, each run: three identical failures diagnosed, three agent gates (retry, retry, abort), one stuck loop, FAILED.
    expect(stuck.results.map((x) => [x.finalStatus, x.counts.diagnosed, x.counts.gates, x.counts.loops, x.gatesAnswered])).toEqual([
      ["FAILED", 3, 3, 1, 3],
      ["FAILED", 3, 3, 1, 3],
    ]);
    const m = r.metrics;
    expect(m.runs).toBe(4);
    expect([m.recoverySuccessRate.successes, m.recoverySuccessRate.trials]).toEqual([2, 2]);
    expect([m.rootCauseAccuracy.successes, m.rootCauseAccuracy.trials]).toEqual([8, 8]);
    expect([m.stuckLoopRate.successes, m.stuckLoopRate.trials]).toEqual([2, 8]);
    expect([m.patternReuseRate.successes, m.patternReuseRate.trials]).toEqual([0, 2]);
    expect([m.userInterventionRate.successes, m.userInterventionRate.trials]).toEqual([6, 8]);
    expect(m.iterationsToRecovery).toEqual({ value: 2, n: 2, ci: [2, 2] });
    expect([m.hitlRate.successes, m.hitlRate.trials]).toEqual([2, 4]);
    expect(m.approvalRate).toEqual({ value: null, successes: 0, trials: 0, ci: null });
    expect(m.stuckLoopRate.ci).toEqual(wilson(2, 8));
    expect(m.necessityLevels).toEqual({ "0": 4 });
    expect(Object.values(m.failureReasons).reduce((a, b) => a + b, 0)).toBe(2); // the two FAILED runs, each with its reason
    // The ratios are the Diagnostics page's (lib/diagnosis/metrics.ts), on the same counts.
    const total = r.scenarios.flatMap((s) => s.results).reduce((a, x) => Object.fromEntries(Object.entries(a).map(([k, v]) => [k, v + x.counts[k as keyof typeof a]])) as typeof a, zero());
    const page = successMetrics(total);
    expect([m.recoverySuccessRate.value, m.stuckLoopRate.value, m.patternReuseRate.value, m.iterationsToRecovery.value, m.userInterventionRate.value]).toEqual([page.recoverySuccessRate, page.stuckLoopRate, page.patternReuse, page.avgIterationsToSuccess, page.userInterventionRequired]);
    expect([rl.passed, rl.passHatK, stuck.passed, stuck.passHatK]).toEqual([2, [1, 1], 2, [1, 1]]);
  });

  it("--compare flags an injected regression: recoveries that no longer work", async () => {
    const baseline = await tiny("ok");
    expect(compareReports(await tiny("ok"), baseline).regressions).toEqual([]);
    const worse = await tiny("fail"); // the wait-and-retry helper step fails: the recovery cannot work, the operator aborts
    expect(worse.scenarios[0].results.every((x) => !x.passed && x.finalStatus === "FAILED")).toBe(true);
    const c = compareReports(worse, baseline);
    // The recovery success rate falls, a person must now answer in every run (the HITL rate rises), and the scenario fails.
    expect(c.regressions.map((x) => [x.kind, x.name])).toEqual([
      ["metric", "recoverySuccessRate"],
      ["metric", "hitlRate"],
      ["scenario", "rate limit"],
    ]);
    expect(c.regressions[0].why).toMatch(/^recovery success rate fell: 0\.0%, 95% CI \[0\.0%, [0-9.]+%\], lies wholly below the baseline's 100\.0%\.$/);
    expect(c.regressions[1].why).toBe("HITL rate rose: 100.0%, 95% CI [51.0%, 100.0%], lies wholly above the baseline's 50.0%.");
    expect(c.regressions[2].why).toMatch(/"rate limit" passed all 2 run\(s\) in the baseline and passes 0 of 2 now \(repeat 1: ended FAILED; expected SUCCESS\)/);
    expect(c.notes).toEqual(["The baseline ran another version of the suite: scenarios are compared by name."]);
  });

  it("the same seed gives the same report; another seed, other draws", async () => {
    expect(JSON.stringify(await tiny())).toBe(JSON.stringify(await tiny()));
    const p = parseSuite(TINY("ok"));
    if (!p.ok) throw new Error("suite");
    const other = await runSuite(p.suite, { seed: 12, repeat: 2 });
    expect(other.scenarios[0].results[0].missionId).not.toBe((await tiny()).scenarios[0].results[0].missionId);
  });
});
