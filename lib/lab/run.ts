import path from "node:path";
import { canonicalJson } from "../authority/digest";
import { missionLevel } from "../mission/definition";
import { explainMission } from "../mission/explain";
import { sha256 } from "../trace/format";
import { withLab, type LabRecord } from "./lab";
import { patternMemory } from "./memory";
import { diagnosticsCounts, judgeDiagnoses, proposalDecisions } from "./metrics";
import { REPORT_FORMAT, REPORT_VERSION, scenarioReport, summarize, type LabReport, type RunReport } from "./report";
import { deriveSeed } from "./rng";
import { scenarioEnvironment } from "./scenario";
import type { Scenario, Suite } from "./suite";
import { createWorld, LAB_OPERATOR } from "./world";

/**
 * `faultline lab run`: every scenario of a suite, `repeat` times, each run a seeded world (lib/lab/world.ts)
 * with the lab attached as its observer (withLab), its trace written beside the others, its measures taken
 * from what the lab observed. Runs go one after another in a fixed order (scenario by scenario), so the
 * same suite, seed and repeat count give the same report, pattern memory included.
 */

export interface RunSuiteOptions {
  seed: number;
  repeat: number;
  /** Where each run's trace is written (`<scenario>.<repeat>.trace.jsonl`); none: traces stay in memory. */
  traceDir?: string;
  /** Values to redact from the traces (the environment's secrets). */
  secrets?: readonly string[];
  /** Called after each run. */
  onProgress?(p: { done: number; total: number; scenario: string; repeat: number; passed: boolean }): void;
  /** Called after each run with what the lab observed (its trace lines, its events): what recording stores. Awaited. */
  onRun?(run: RunReport, record: LabRecord, scenario: Scenario): void | Promise<void>;
}

/** A suite as a report names it: its name, file and the digest of what it runs. */
export function suiteIdentity(suite: Suite): LabReport["suite"] {
  return { name: suite.name, file: suite.file, digest: sha256(canonicalJson({ memory: suite.memory, diagnosis: suite.diagnosis, scenarios: suite.scenarios })) };
}

/** A file-name form of a scenario's name. */
export function slug(name: string): string {
  return name.trim().toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "scenario";
}

export async function runSuite(suite: Suite, opts: RunSuiteOptions): Promise<LabReport> {
  if (!Number.isInteger(opts.seed)) throw new Error(`The seed must be a whole number (got ${opts.seed}).`);
  if (!Number.isInteger(opts.repeat) || opts.repeat < 1) throw new Error(`The repeat count must be a whole number of at least 1 (got ${opts.repeat}).`);
  const shared = suite.memory === "shared" ? patternMemory() : null;
  const total = suite.scenarios.length * opts.repeat;
  let done = 0;
  const scenarios = [];
  for (const sc of suite.scenarios) {
    const results: RunReport[] = [];
    for (let repeat = 1; repeat <= opts.repeat; repeat++) {
      const seed = deriveSeed(opts.seed, sc.name, repeat);
      const memory = shared ?? patternMemory();
      memory.set(sc.patterns);
      const environment = scenarioEnvironment(sc, seed);
      const world = createWorld({ definition: sc.mission, seed, environment, memory, diagnosis: { enabled: true, whyDepth: 5, maxRecoveryAttempts: suite.diagnosis.maxRecoveryAttempts, fastPath: suite.diagnosis.fastPath } });
      const runId = `${suite.name}/${sc.name}/${repeat}`;
      const lab = withLab(world, {
        runId,
        necessityLevel: sc.necessityLevel,
        outputPath: opts.traceDir ? path.join(opts.traceDir, `${slug(sc.name)}.${repeat}.trace.jsonl`) : undefined,
        secrets: opts.secrets,
        coordinates: { suite: suite.name, scenario: sc.name, repeat, suiteSeed: opts.seed },
      });
      let record: LabRecord;
      try {
        record = await lab.run();
      } finally {
        environment.dispose();
      }
      const run = measureRun(sc, record, { repeat, seed });
      results.push(run);
      await opts.onRun?.(run, record, sc);
      opts.onProgress?.({ done: ++done, total, scenario: sc.name, repeat, passed: run.passed });
    }
    scenarios.push(scenarioReport({ name: sc.name, description: sc.description, faults: faultNames(sc), expect: expectation(sc) }, results));
  }
  return {
    format: REPORT_FORMAT,
    version: REPORT_VERSION,
    suite: suiteIdentity(suite),
    seed: opts.seed,
    repeat: opts.repeat,
    metrics: summarize(scenarios.flatMap((s) => s.results)),
    scenarios,
  };
}

/** What a run measured and whether it met its scenario's expectations. */
export function measureRun(sc: Scenario, record: LabRecord, at: { repeat: number; seed: number }): RunReport {
  const state = record.end.state;
  const counts = diagnosticsCounts(record.events);
  const finalStatus = state?.finalStatus ?? null;
  const expected = Array.isArray(sc.expect.finalStatus) ? sc.expect.finalStatus : [sc.expect.finalStatus];
  let why: string | null = null;
  if (record.end.error) why = record.end.error;
  else if (!finalStatus || !expected.includes(finalStatus)) why = `ended ${finalStatus ?? "without a final status"}; expected ${expected.join(" or ")}`;
  else if (sc.expect.recovered === true && counts.recovered === 0) why = "no recovery succeeded; expected one to";
  else if (sc.expect.recovered === false && counts.recovered > 0) why = `${counts.recovered} recovery(ies) succeeded; expected none`;
  return {
    repeat: at.repeat,
    seed: at.seed,
    runId: record.runId,
    missionId: record.missionId,
    finalStatus,
    failureReason: state && !record.end.error && finalStatus !== "SUCCESS" ? explainMission(state).failureReason : null,
    level: missionLevel(sc.mission).effective,
    passed: why === null,
    why,
    error: record.end.error,
    events: record.events.length,
    trace: record.outputPath,
    counts,
    iterations: record.events.flatMap((e) => (e.type === "recovery.finished" && e.payload.outcome === "succeeded" ? [e.payload.iterations] : [])),
    diagnoses: judgeDiagnoses(record).map(({ seq: _, ...d }) => d),
    proposals: proposalDecisions(record.events),
    gatesAnswered: record.events.filter((e) => e.type === "gate.resolved" && e.actorId === LAB_OPERATOR).length,
    crashes: record.crashes.length,
  };
}

function faultNames(sc: Scenario): string[] {
  return [...sc.faults.map((f) => f.type), ...sc.outages.map((o) => `${o.service} outage`), ...sc.crashes.map(() => "worker crash")];
}

function expectation(sc: Scenario): string {
  const s = Array.isArray(sc.expect.finalStatus) ? sc.expect.finalStatus.join(" | ") : sc.expect.finalStatus;
  return sc.expect.recovered === undefined ? s : `${s}, ${sc.expect.recovered ? "recovered" : "no recovery"}`;
}
