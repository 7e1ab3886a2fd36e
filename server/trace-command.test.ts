import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createMission } from "../db/queries/events";
import { missionDefinitionSchema } from "../lib/mission";
import { useWorkerHarness } from "./orchestrator/test-harness";

/** The CLI's trace commands against a real PostgreSQL, on a mission a real worker ran (docs/traces.md). */
const harness = useWorkerHarness("fl-trace-cli-");
/** The compiled CLI (server/cli-test-build.ts): the same sources, without tsx loading them on every command. */
const BIN = inject("cliEntry");
let dir: string;
let missionId: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-trace-cli-data-"));
  await harness.startWorker();
  const definition = missionDefinitionSchema.parse({
    name: "trace cli",
    objective: "write and read a file",
    library: false,
    phases: [
      { name: "EXECUTION", agents: [{ name: "writer", priority: "critical", steps: [{ tool: "file", args: { op: "write", path: "a.txt", content: "hello\n" }, evidence: [{ file_exists: "a.txt" }] }, { tool: "http", args: { url: "http://127.0.0.1:9/x", method: "GET", headers: { Authorization: "Bearer abcdefghijklmnop" } } }] }] },
    ],
  });
  missionId = (await createMission(harness.tdb.db, { definition, actorId: "user:op" })).id;
  await harness.settle(missionId);
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, DATABASE_URL: harness.tdb.url, FAULTLINE_DATA_DIR: dir }, timeout: 60_000 }, (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

describe("faultline trace export / verify, lab replay", () => {
  it("exports a trace with secrets redacted, verifies it, and replays it with zero divergences", async () => {
    const file = path.join(dir, "m.jsonl");
    const exp = await cli(["trace", "export", missionId, "-o", file]);
    expect(exp.code, exp.stderr).toBe(0);
    const text = fs.readFileSync(file, "utf8");
    expect(text).not.toContain("abcdefghijklmnop");
    expect(text).toContain("[redacted:AUTHORIZATION]");
    const lines = text.trim().split("\n");
    expect(JSON.parse(lines[0])).toMatchObject({ t: "header", version: 1, missionId, necessityLevel: 0, seed: null });
    expect(JSON.parse(lines[0]).configDigest).toMatch(/^[0-9a-f]{64}$/);
    const stdout = await cli(["trace", "export", missionId]);
    expect(stdout.stdout).toBe(text);
    const ok = await cli(["trace", "verify", file]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout.trim()).toMatch(new RegExp(`^ok, ${lines.length} lines`));
    const replay = await cli(["lab", "replay", file, "--json"]);
    expect(replay.code, replay.stderr).toBe(0);
    const report = JSON.parse(replay.stdout);
    expect(report).toMatchObject({ missionId, divergences: [], firstDivergence: null });
    expect(report.events).toBe(lines.filter((l) => JSON.parse(l).t === "event").length);
  });

  it("says what is wrong with bad input, without a stack trace", async () => {
    const unknown = await cli(["trace", "export", "00000000-0000-4000-8000-000000000000"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Mission 00000000-0000-4000-8000-000000000000 does not exist in this database/);
    const missing = await cli(["trace", "verify", path.join(dir, "nope.jsonl")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/There is no file ".*nope.jsonl"\. Give the path of a trace written by faultline trace export/);
    const bad = path.join(dir, "bad.jsonl");
    const good = fs.readFileSync(path.join(dir, "m.jsonl"), "utf8").trim().split("\n");
    fs.writeFileSync(bad, [good[0], "{not json", ...good.slice(2)].join("\n"));
    const notJson = await cli(["lab", "replay", bad]);
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/line 2: this line is not JSON .*the trace was changed or cut\.\nReplay reads only a trace whose chain holds/);
    const v2 = JSON.parse(good[0]);
    v2.version = 2;
    fs.writeFileSync(bad, [JSON.stringify(v2), ...good.slice(1)].join("\n"));
    const version = await cli(["trace", "verify", bad]);
    expect(version.code).toBe(1);
    expect(version.stderr).toMatch(/line 1: the trace is version 2; this Faultline reads version 1/);
    for (const r of [unknown, missing, notJson, version]) expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
