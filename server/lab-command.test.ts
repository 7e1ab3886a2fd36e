import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { rateLimitScenario } from "../lib/lab/test-fixtures";

/** `faultline lab run --no-record` as a separate process, as a person runs it (docs/lab.md); the CLI compiled once per test run (server/cli-test-build.ts). No database (recording: server/lab-record.test.ts). */

/** The compiled CLI (server/cli-test-build.ts): the same sources, without tsx loading them on every command. */
const BIN = inject("cliEntry");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-lab-cli-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
/** A file of the test's directory. */
const at = (f: string) => path.join(dir, f);
const re = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args, "--no-record"], { env: { ...process.env }, timeout: 60_000 }, (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

const suite = (helpers: "ok" | "fail") => `
name: cli
scenarios:${rateLimitScenario(helpers, { secret: "abcdefghijklmnop" })}
  - name: approval
    mission:
      name: rotate
      objective: rotate
      allowedBinaries: [certbot]
      phases:
        - name: EXECUTION
          agents:
            - { name: rotate, priority: critical, steps: [{ tool: shell, args: { command: certbot, args: [renew] }, highRisk: true }] }
`;

describe("faultline lab run", () => {
  it("runs a suite: the table on stdout, the report and one verifiable trace per run on disk", async () => {
    fs.writeFileSync(at("suite.yaml"), suite("ok"));
    const r = await cli(["lab", "run", at("suite.yaml"), "--seed", "5", "--repeat", "2", "-o", at("base.json")]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Lab suite "cli": seed 5, 2 repeat\(s\), 2 scenario\(s\), 4 run\(s\)/);
    expect(r.stdout).toMatch(/recovery success rate\s+100\.0%\s+\[34\.2%, 100\.0%\]\s+2\/2 recoveries/);
    expect(r.stdout).toMatch(/HITL rate\s+50\.0%\s+\[15\.0%, 85\.0%\]\s+2\/4 runs/);
    expect(r.stdout).toMatch(/rate limit\s+rate_limited\s+2\/2\s+1\.00\s+1\.00\s+2\/2\s+2\/2\s+✓/);
    expect(r.stderr).toMatch(new RegExp(`^4 run\\(s\\) in [0-9.]+ s; traces in ${re(at("base.traces"))}; report in ${re(at("base.json"))}\\.$`, "m"));
    const report = JSON.parse(fs.readFileSync(at("base.json"), "utf8"));
    expect(report).toMatchObject({ format: "faultline-lab-report", version: 1, seed: 5, repeat: 2, suite: { name: "cli", file: at("suite.yaml") } });
    const traces = fs.readdirSync(at("base.traces")).sort();
    expect(traces).toEqual(["approval.1.trace.jsonl", "approval.2.trace.jsonl", "rate-limit.1.trace.jsonl", "rate-limit.2.trace.jsonl"]);
    const text = fs.readFileSync(at("base.traces/rate-limit.1.trace.jsonl"), "utf8");
    expect(text).not.toContain("abcdefghijklmnop");
    expect(text).toContain("[redacted:AUTHORIZATION]");
    const verify = await cli(["trace", "verify", at("base.traces/rate-limit.1.trace.jsonl")]);
    expect(verify.code, verify.stderr).toBe(0);
    const replay = await cli(["lab", "replay", at("base.traces/approval.2.trace.jsonl")]);
    expect(replay.code, replay.stdout).toBe(0);
    expect(replay.stdout).toMatch(/0 divergences/);
    // --json prints the same report.
    const json = await cli(["lab", "run", at("suite.yaml"), "--seed", "5", "--repeat", "2", "--json", "--traces", at("base.traces")]);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(report);
  });

  it("--compare exits 1 and marks what regressed against a saved report", async () => {
    const same = await cli(["lab", "run", at("suite.yaml"), "--seed", "5", "--repeat", "2", "--compare", at("base.json"), "--traces", at("compare.traces")]);
    expect(same.code, same.stdout).toBe(0);
    expect(same.stdout).toContain(`No regression against ${at("base.json")}.`);
    fs.writeFileSync(at("worse.yaml"), suite("fail"));
    const worse = await cli(["lab", "run", at("worse.yaml"), "--seed", "5", "--repeat", "2", "--compare", at("base.json"), "--traces", at("compare.traces")]);
    expect(worse.code).toBe(1);
    expect(worse.stdout).toMatch(/recovery success rate\s+0\.0%.*✗ REGRESSION/);
    expect(worse.stdout).toMatch(/rate limit\s+rate_limited\s+0\/2.*✗ REGRESSION/);
    expect(worse.stdout).toContain(`4 regression(s) against ${at("base.json")}:\n  ✗ recovery success rate fell`);
    const json = await cli(["lab", "run", at("worse.yaml"), "--seed", "5", "--repeat", "2", "--compare", at("base.json"), "--json", "--traces", at("compare.traces")]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).comparison.regressions.map((x: { name: string }) => x.name)).toEqual(["recoverySuccessRate", "userInterventionRate", "hitlRate", "rate limit"]);
  });

  it("says what is wrong with bad input (exit 2), never with a stack trace", async () => {
    fs.writeFileSync(at("bad.yaml"), "name: bad\nscenarios:\n  - name: x\n    mission: { name: m, objective: o, phases: [{ name: EXECUTION, agents: [{ name: a, priority: critical, steps: [{ tool: http, args: {} }] }] }] }\n    faults: [{ at: a/0, type: oops }]\n");
    fs.writeFileSync(at("other.json"), JSON.stringify({ format: "something-else" }));
    const cases: Array<[string[], RegExp]> = [
      [["lab", "run"], /^lab run needs a suite file: faultline lab run SUITE\.yaml --seed N --repeat K/],
      [["lab", "run", at("nope.yaml")], new RegExp(`^${re(at("nope.yaml"))}: the suite has 1 problem\\(s\\); nothing was run\\.\n {2}\\(suite\\): There is no suite file "${re(at("nope.yaml"))}"`)],
      [["lab", "run", at("suite.yaml"), "--seed", "x"], /^--seed must be a whole number from 0 to 2147483647 \(got "x"\)/],
      [["lab", "run", at("suite.yaml"), "--repeat", "0"], /^--repeat must be a whole number from 1 to 1000 \(got "0"\)/],
      [["lab", "run", at("suite.yaml"), "--compare", at("suite.yaml")], new RegExp(`^${re(at("suite.yaml"))} is not JSON, so it is not a lab report: give a report written by faultline lab run … -o REPORT\\.json\\.`)],
      [["lab", "run", at("suite.yaml"), "--compare", at("missing.json")], new RegExp(`^There is no baseline "${re(at("missing.json"))}"\\. Save one with: faultline lab run ${re(at("suite.yaml"))} --seed 1 --repeat 1 -o ${re(at("missing.json"))}`)],
      [["lab", "walk"], /Unknown command "lab walk"\. Use: faultline lab replay FILE \[--json\] \| faultline lab run SUITE\.yaml/],
      [["lab", "run", at("bad.yaml")], new RegExp(`^${re(at("bad.yaml"))}: the suite has 1 problem\\(s\\); nothing was run\\.\n {2}scenarios\\[0\\]\\.faults\\[0\\]\\.type: must be one of seed 003's error types: `)],
      [["lab", "run", at("suite.yaml"), "--compare", at("other.json")], new RegExp(`^${re(at("other.json"))} is not a lab report \\(its "format" is "something-else", not "faultline-lab-report"\\)`)],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  }, 120_000); // nine CLI processes one after another: about 3 s each on a loaded 2-core machine
});
