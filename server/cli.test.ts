import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../db/test-helpers";

let tdb: TestDatabase;
let dataDir: string;
const BIN = path.resolve("bin/faultline.mjs");

beforeAll(async () => {
  tdb = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-cli-"));
});
afterAll(async () => {
  await tdb?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function cli(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], { env: { ...process.env, DATABASE_URL: tdb.url, FAULTLINE_DATA_DIR: dataDir, FAULTLINE_POLL_MS: "200" }, timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    if (input !== undefined) child.stdin!.end(input);
  });
}

const blocked = `
name: CLI blocked deploy
objective: Copy the artifact
allowedBinaries: [node]
phases:
  - name: PLANNING
    agents:
      - name: planner
        priority: critical
        steps: [{ tool: shell, args: { command: node, args: ["-e", "console.log('ok')"] } }]
  - name: EXECUTION
    agents:
      - name: uploader
        priority: critical
        steps: [{ tool: shell, args: { command: scp, args: [a, b] } }]
`;

describe("the faultline CLI", () => {
  it("runs a mission with an in-process worker, stops at the gate, and a decision finishes it", async () => {
    const run = await cli(["mission", "run", "-", "--wait", "--json"], blocked);
    expect(run.code, run.stderr).toBe(4); // waiting at a gate
    const out = JSON.parse(run.stdout);
    expect(out.mission.runState).toBe("paused");
    expect(out.openGates[0].why).toMatch(/"scp" is not on this mission's allowlist/);
    const gateId = out.openGates[0].id;

    const decide = await cli(["gate", "decide", gateId, "abort", "--note", "no scp", "--json"]);
    expect(decide.code, decide.stderr).toBe(0);
    expect(JSON.parse(decide.stdout).mission).toMatchObject({ runState: "failed", finalStatus: "FAILED" });

    const again = await cli(["gate", "decide", gateId, "retry"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already resolved: abort by you at/);

    const show = await cli(["mission", "show", out.mission.id, "--json"]);
    const shown = JSON.parse(show.stdout);
    expect(shown.finalStatus).toBe("FAILED");
    expect(shown.events.map((e: { seq: number }) => e.seq)).toEqual(shown.events.map((_: unknown, i: number) => i + 1));
    expect(shown.events.find((e: { type: string }) => e.type === "gate.resolved").actorId).toMatch(/^cli:/);

    const list = await cli(["mission", "list", "--json"]);
    expect(JSON.parse(list.stdout).map((m: { name: string }) => m.name)).toContain("CLI blocked deploy");
  });

  it("exits 0 for a SUCCESS mission from a file", async () => {
    const run = await cli(["mission", "run", path.resolve("examples/hello.yaml"), "--wait"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/final status: SUCCESS/);
  });

  it("rejects an invalid definition with field-level errors and exit code 2, creating nothing", async () => {
    const run = await cli(["mission", "run", "-", "--json"], "name: x\nobjective: y\nphases:\n  - name: LAUNCH\n    agents: []\n");
    expect(run.code).toBe(2);
    const err = JSON.parse(run.stdout).error;
    expect(err.fieldErrors).toEqual(expect.arrayContaining([expect.objectContaining({ path: "phases[0].name" }), expect.objectContaining({ path: "phases[0].agents" })]));
  });

  it("explains usage mistakes", async () => {
    const r = await cli(["gate", "decide", "not-a-uuid", "maybe"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Decision must be one of retry, skip, abort/);
    const unknown = await cli(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown command "frobnicate"/);
  });
});
