import { describe, expect, it } from "vitest";
import { runSuite } from "./run";
import { parseSuite, type Suite } from "./suite";

/** What a scenario can set up beyond faults: model outages in a time window, a person's modification, pattern memory. */

function suite(text: string): Suite {
  const r = parseSuite(text);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.suite;
}

/** An autonomous writer whose drafts a rule holds for a person; then it finishes (no evidence rules: a person confirms that too). */
const writer = (extra: string) => `
name: scenarios
scenarios:
  - name: writer
    mission:
      name: notes
      objective: Write the notes.
      rules: [{ id: drafts, effect: hold, tool: file, path: "drafts/**", reason: drafts need a person }]
      phases:
        - name: EXECUTION
          agents:
            - { name: writer, priority: critical, autonomous: { goal: Write the notes, tools: [file], maxActions: 5 } }
    models:
      writer:
        turns:
          - { call: file, args: { op: write, path: drafts/notes.txt, content: "x" } }
          - { finish: written }
${extra}`;

describe("scenarios", () => {
  it("an llm outage window fails the model turns in it without using them up; a person's modification runs as modified", async () => {
    const r = await runSuite(suite(writer(`    outages: [{ service: llm, startMs: 0, durationMs: 10000 }]
    operator: { answers: [{ gate: { kind: proposal }, decision: modify, args: { op: write, path: drafts/final.txt, content: "y" } }], otherwise: recommended, delayMs: 30000 }`)), { seed: 3, repeat: 1 });
    const run = r.scenarios[0].results[0];
    expect(run.error).toBeNull();
    expect(run.finalStatus).toBe("SUCCESS");
    // The outage fails the first turn (a gate: retry, 30 s later, after the outage); the write is held and modified; the finish is held and approved.
    expect(run.gatesAnswered).toBe(3);
    expect(run.proposals).toEqual({ submitted: 2, approved: 2, rejected: 0, held: 2 });
    expect(r.metrics.approvalRate.value).toBe(1);
  });

  it("a person's modification goes through the authority: args that leave the workspace are refused, and the run says so", async () => {
    const r = await runSuite(suite(writer(`    operator: { answers: [{ gate: { kind: proposal }, decision: modify, args: { op: write, path: ../../etc/passwd, content: "x" } }] }`)), { seed: 3, repeat: 1 });
    const run = r.scenarios[0].results[0];
    expect(run.passed).toBe(false);
    expect(run.error).toMatch(/^The authority refused the scripted operator's modify on the proposal of "writer" \(file\): /);
    expect(r.metrics.failureReasons).toEqual({ RUN_ERROR: 1 });
  });

  it("shared memory teaches later runs the fast path; per-run memory does not", async () => {
    const text = (memory: string) => `
name: memory
memory: ${memory}
scenarios:
  - name: fetch
    mission:
      name: fetch
      objective: fetch
      recovery: auto
      phases: [{ name: EXECUTION, agents: [{ name: fetch, priority: critical, steps: [{ tool: http, args: { url: "http://inventory.internal/v1/items", method: GET } }] }] }]
    faults: [{ at: fetch/0, type: rate_limited }]
`;
    const shared = await runSuite(suite(text("shared")), { seed: 1, repeat: 5 });
    // Laplace: 3 successes give (3 + 1) / (3 + 2) = 0.8, the fast-path threshold: runs 4 and 5 take it.
    expect(shared.scenarios[0].results.map((x) => x.counts.fastPath)).toEqual([0, 0, 0, 1, 1]);
    expect([shared.metrics.patternReuseRate.successes, shared.metrics.patternReuseRate.trials]).toEqual([2, 5]);
    const perRun = await runSuite(suite(text("per-run")), { seed: 1, repeat: 5 });
    expect(perRun.metrics.patternReuseRate.successes).toBe(0);
  });
});
