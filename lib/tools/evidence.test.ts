import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stepSchema, type StepDefinition } from "../mission/definition";
import { describeFailedEvidence, evaluateEvidence, evidencePassed, readJsonPath, type EvidenceRecord } from "./evidence";
import { runTool } from "./index";
import { fail, ok, type ToolContext, type ToolResult } from "./result";

let workspace: string;
beforeEach(async () => {
  workspace = await fs.mkdtemp(path.join(os.tmpdir(), "faultline-evidence-"));
});
afterEach(async () => {
  await fs.rm(workspace, { recursive: true, force: true });
});

function ctx(): ToolContext {
  return { workspace, allowedBinaries: ["node"], signal: new AbortController().signal, timeoutMs: 5_000, idempotencyKey: "m1/a1/s4/1" };
}

/** Steps go through the real schema, as they would from a mission definition. */
const step = (raw: unknown): StepDefinition => stepSchema.parse(raw);
const nodeStep = (script: string, evidence?: unknown[]) => step({ tool: "shell", args: { command: process.execPath, args: ["-e", script] }, ...(evidence ? { evidence } : {}) });

async function runAndEvaluate(s: StepDefinition): Promise<EvidenceRecord[]> {
  const result = await runTool(s.tool, s.args, ctx());
  return evaluateEvidence(s, result, { workspace });
}

const httpResult = (status: number, body: string, json: unknown = null): ToolResult =>
  status >= 200 && status < 300 ? ok({ status, headers: {}, body, json, durationMs: 3 }) : fail({ code: "HTTP_ERROR", status, message: `returned ${status}` }, { status, headers: {}, body, json, durationMs: 3 });

describe("default evidence when a step declares none", () => {
  it("shell: exit code 0 passes, a failing command does not", async () => {
    const good = await runAndEvaluate(nodeStep("console.log('fine')"));
    expect(good).toEqual([{ check: "exit_code", expected: 0, actual: 0, passed: true }]);
    const bad = await runAndEvaluate(nodeStep("process.exit(2)"));
    expect(bad).toEqual([{ check: "exit_code", expected: 0, actual: 2, passed: false, detail: "expected 0 but the exit code was 2" }]);
    expect(describeFailedEvidence(bad)).toBe("Evidence check failed: exit_code expected 0 but the exit code was 2");
  });

  it("shell: a binary that never ran has no exit code, and the record says why", async () => {
    const s = step({ tool: "shell", args: { command: "rm" } });
    const [rec] = await evaluateEvidence(s, await runTool("shell", s.args, ctx()), { workspace });
    expect(rec.passed).toBe(false);
    expect(rec.detail).toContain('the shell tool failed before producing an exit code ("rm" is not on this mission\'s allowlist');
  });

  it("http: any 2xx passes, anything else fails", async () => {
    const s = step({ tool: "http", args: { url: "http://127.0.0.1/" } });
    expect(evidencePassed(await evaluateEvidence(s, httpResult(204, ""), { workspace }))).toBe(true);
    const failed = await evaluateEvidence(s, httpResult(503, "down"), { workspace });
    expect(failed).toEqual([{ check: "http_status", expected: "200-299", actual: 503, passed: false, detail: "expected a 2xx status but the status was 503" }]);
  });

  it("file: the operation completed", async () => {
    const s = step({ tool: "file", args: { op: "read", path: "nope.txt" } });
    const [rec] = await evaluateEvidence(s, await runTool("file", s.args, ctx()), { workspace });
    expect(rec).toMatchObject({ check: "completed", expected: true, actual: false, passed: false });
    expect(rec.detail).toContain('"nope.txt" does not exist');
    const w = step({ tool: "file", args: { op: "write", path: "a.txt", content: "x" } });
    expect(await evaluateEvidence(w, await runTool("file", w.args, ctx()), { workspace })).toEqual([{ check: "completed", expected: true, actual: true, passed: true }]);
  });
});

describe("declared checks", () => {
  it("exit_code can expect a non-zero code (the data travels with the failure)", async () => {
    const records = await runAndEvaluate(nodeStep("process.exit(1)", [{ exit_code: 1 }]));
    expect(evidencePassed(records)).toBe(true);
  });

  it("output_matches looks at stdout and stderr, line by line", async () => {
    const passed = await runAndEvaluate(nodeStep("console.log('booting'); console.error('ready on :3000')", [{ output_matches: "^ready on :\\d+" }]));
    expect(evidencePassed(passed)).toBe(true);
    const failed = await runAndEvaluate(nodeStep("console.log('booting…')", [{ output_matches: "^ready" }]));
    expect(failed[0]).toMatchObject({ check: "output_matches", expected: "/^ready/", actual: "booting…", passed: false });
    expect(describeFailedEvidence(failed)).toBe('Evidence check failed: output_matches expected /^ready/ but the output was "booting…"');
  });

  it("output_matches looks at an http body and a file's content", async () => {
    const h = step({ tool: "http", args: { url: "http://x/" }, evidence: [{ output_matches: "healthy" }] });
    expect(evidencePassed(await evaluateEvidence(h, httpResult(200, "all healthy"), { workspace }))).toBe(true);
    await fs.writeFile(path.join(workspace, "VERSION"), "1.4.2\n");
    const f = step({ tool: "file", args: { op: "read", path: "VERSION" }, evidence: [{ output_matches: "^1\\.4\\." }] });
    expect(evidencePassed(await runAndEvaluate(f))).toBe(true);
  });

  it("file_exists checks inside the workspace and refuses paths that escape it", async () => {
    await fs.mkdir(path.join(workspace, "dist"));
    await fs.writeFile(path.join(workspace, "dist", "app.tgz"), "x");
    const s = nodeStep("", [{ file_exists: "dist/app.tgz" }, { file_exists: "dist/missing.tgz" }, { file_exists: "../../etc/passwd" }]);
    const [present, missing, escaping] = await runAndEvaluate(s);
    expect(present).toEqual({ check: "file_exists", expected: "dist/app.tgz", actual: true, passed: true });
    expect(missing).toMatchObject({ passed: false, detail: 'expected "dist/missing.tgz" to exist in the workspace but it does not' });
    expect(escaping.passed).toBe(false);
    expect(escaping.detail).toContain("escapes the workspace");
  });

  it("http_status accepts a number or a list", async () => {
    const one = step({ tool: "http", args: { url: "http://x/" }, evidence: [{ http_status: 201 }] });
    expect((await evaluateEvidence(one, httpResult(200, ""), { workspace }))[0]).toMatchObject({ passed: false, detail: "expected 201 but the status was 200" });
    const list = step({ tool: "http", args: { url: "http://x/" }, evidence: [{ http_status: [404, 410] }] });
    expect(evidencePassed(await evaluateEvidence(list, httpResult(410, "gone"), { workspace }))).toBe(true);
  });

  it("json_path reads data.json, with equals compared deeply", async () => {
    const res = httpResult(200, "", { status: "ok", items: [{ id: 7, tags: ["a", "b"] }], gone: null });
    const s = step({
      tool: "http",
      args: { url: "http://x/" },
      evidence: [{ json_path: "$.status", equals: "ok" }, { json_path: "$.items[0].tags", equals: ["a", "b"] }, { json_path: "$.items[0].id" }],
    });
    expect(evidencePassed(await evaluateEvidence(s, res, { workspace }))).toBe(true);

    const bad = step({ tool: "http", args: { url: "http://x/" }, evidence: [{ json_path: "$.status", equals: "degraded" }, { json_path: "$.gone" }, { json_path: "$.items[3]" }] });
    const records = await evaluateEvidence(bad, res, { workspace });
    expect(records.map((r) => r.detail)).toEqual([
      'expected $.status to equal "degraded" but it was "ok"',
      "expected $.gone to exist and not be null but it was null",
      "expected $.items[3] to exist and not be null but $.items[3] does not exist",
    ]);
    expect(describeFailedEvidence(records)).toMatch(/^3 evidence checks failed: json_path expected \$\.status to equal "degraded" but it was "ok"; json_path/);
  });

  it("json_path reads shell stdout parsed as JSON, and says so when it is not JSON", async () => {
    const good = await runAndEvaluate(nodeStep("console.log(JSON.stringify({ version: { major: 2 } }))", [{ json_path: "$.version.major", equals: 2 }]));
    expect(good[0]).toMatchObject({ passed: true, actual: 2 });
    const notJson = await runAndEvaluate(nodeStep("console.log('plain text')", [{ json_path: "$.version" }]));
    expect(notJson[0].detail).toBe("expected $.version to exist and not be null but the output is not JSON");
  });
});

describe("evidence helpers", () => {
  it("evidencePassed needs at least one record and all passing", () => {
    const pass: EvidenceRecord = { check: "exit_code", expected: 0, actual: 0, passed: true };
    expect(evidencePassed([])).toBe(false);
    expect(evidencePassed([pass])).toBe(true);
    expect(evidencePassed([pass, { ...pass, actual: 1, passed: false }])).toBe(false);
    expect(describeFailedEvidence([])).toContain("No evidence was recorded");
    expect(describeFailedEvidence([pass])).toBe("All evidence checks passed.");
  });

  it("readJsonPath walks objects and arrays and distinguishes missing from null", () => {
    const doc = { a: { b: [10, { c: null }] } };
    expect(readJsonPath(doc, "$")).toEqual({ exists: true, value: doc });
    expect(readJsonPath(doc, "$.a.b[0]")).toEqual({ exists: true, value: 10 });
    expect(readJsonPath(doc, "$.a.b[1].c")).toEqual({ exists: true, value: null });
    expect(readJsonPath(doc, "$.a.x")).toEqual({ exists: false, value: undefined });
    expect(readJsonPath(doc, "$.a[0]")).toEqual({ exists: false, value: undefined });
    expect(readJsonPath([1], "$.length")).toEqual({ exists: false, value: undefined });
  });
});
