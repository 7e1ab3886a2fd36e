import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../db/test-helpers";
import { startReplayServer, type Recordings, type ReplayServer } from "./model-replay";

/**
 * Issue 14's "done when", through the CLI: a scripted OpenAI-compatible model server (loopback) drives
 * autonomous missions run by `faultline mission run --wait` with its in-process worker, on PostgreSQL.
 */

let tdb: TestDatabase;
let dataDir: string;
let model: ReplayServer;
/** The compiled CLI (server/cli-test-build.ts): the same sources, without tsx loading them on every command. */
const BIN = inject("cliEntry");

type Turn = Recordings["recordings"][number]["turns"][number];
const call = (name: string, args: unknown): Turn => ({ toolCalls: [{ name, arguments: args }] });

const GOALS = {
  write: "CLI: write hello into notes.txt in the workspace, then finish.",
  forbidden: "CLI: free disk space by any means.",
  held: "CLI: write the report.",
};

beforeAll(async () => {
  tdb = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-cli-auto-"));
  model = await startReplayServer({
    recordings: {
      recordings: [
        { id: "write", goal: GOALS.write, turns: [call("shell", { command: "rm", args: ["-rf", "/"] }), call("file", { op: "write", path: "notes.txt", content: "hello\n" }), call("finish", { summary: "notes.txt has hello" })] },
        { id: "forbidden", goal: GOALS.forbidden, turns: [call("shell", { command: "rm", args: ["-rf", "/"] })] },
        { id: "held", goal: GOALS.held, turns: [call("file", { op: "write", path: "draft.txt", content: "report\n" }), call("finish", { summary: "written" })] },
      ],
    },
  });
});
afterAll(async () => {
  await model?.close();
  await tdb?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function cli(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const providers = JSON.stringify([{ ...model.provider, name: "scripted", timeoutMs: 5000 }]);
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], { env: { ...process.env, DATABASE_URL: tdb.url, FAULTLINE_DATA_DIR: dataDir, FAULTLINE_POLL_MS: "200", FAULTLINE_LLM_PROVIDERS: providers }, timeout: 90_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    if (input !== undefined) child.stdin!.end(input);
  });
}

function mission(goal: string, opts: { rules?: string; evidence?: string; level?: number } = {}): string {
  return `
name: ${JSON.stringify(`cli ${goal.slice(5, 30)}`)}
objective: an autonomous agent under governance, from the CLI
allowedBinaries: [ls, rm]
${opts.level !== undefined ? `level: ${opts.level}` : ""}
rules: ${opts.rules ?? "[]"}
phases:
  - name: EXECUTION
    agents:
      - name: writer
        priority: critical
        autonomous:
          goal: ${JSON.stringify(goal)}
          tools: [file, shell]
          maxActions: 6
          evidence: ${opts.evidence ?? "[{ file_exists: notes.txt }]"}
`;
}

/** FE-R3: explanations describe structure, never the model's or the agent's fault. */
const BLAME = /\b(model|agent|llm)\b[^.]{0,40}\b(fault|mistake|blame|hallucinat\w*|misbehav\w*|incompeten\w*|stupid|wrong)\b|\bblame/i;

// Each test runs the real CLI up to eight times (a node process with tsx each): on a loaded machine that is more than the default 30 s.
describe("an autonomous mission through the CLI", { timeout: 120_000 }, () => {
  it("the approved write runs, rm -rf / is AUTHORITY_REJECTION with a counterfactual, finish is approved by the evidence: SUCCESS", async () => {
    const run = await cli(["mission", "run", "-", "--wait", "--json"], mission(GOALS.write));
    expect(run.code, run.stderr).toBe(0);
    const id = JSON.parse(run.stdout).mission.id;
    expect(fs.readFileSync(path.join(dataDir, "workspaces", id, "notes.txt"), "utf8")).toBe("hello\n");

    const show = JSON.parse((await cli(["mission", "show", id, "--json"])).stdout);
    expect(show.finalStatus).toBe("SUCCESS");
    const [rm, write, finish] = show.proposals;
    expect(rm).toMatchObject({ action: { tool: "shell", args: { command: "rm", args: ["-rf", "/"] } }, status: "rejected", decision: { failureReason: "AUTHORITY_REJECTION", decidedBy: "system:authority" } });
    expect(rm.decision.counterfactual.change).toMatchObject({ type: "relax_constraint" });
    expect(write).toMatchObject({ status: "approved", step: 0, argsDigest: expect.stringMatching(/^sha256:/) });
    expect(finish).toMatchObject({ action: { tool: "finish" }, status: "approved", decision: { authority: "evidence" } });

    const explain = JSON.parse((await cli(["mission", "explain", id, "--json"])).stdout);
    expect(explain).toMatchObject({ finalStatus: "SUCCESS", failureReason: null, explanation: null });

    const text = await cli(["proposals", "list", "--mission", id]);
    expect(text.stdout).toMatch(/rejected .*rm -rf \//);
  });

  it("a model that only proposes forbidden commands ends not SUCCESS, explained with a counterfactual that blames nobody", async () => {
    const run = await cli(["mission", "run", "-", "--wait", "--json"], mission(GOALS.forbidden));
    expect(run.code, run.stderr).toBe(4); // waiting at the gate the response matrix opens
    const id = JSON.parse(run.stdout).mission.id;
    const explain = JSON.parse((await cli(["mission", "explain", id, "--json"])).stdout);
    expect(explain.failureReason).toBe("HUMAN_REQUIRED"); // a gate waits
    const gate = JSON.parse(run.stdout).openGates[0].id;
    expect((await cli(["gate", "decide", gate, "abort", "--note", "nothing safe to do"])).code).toBe(0);

    const after = await cli(["mission", "explain", id, "--json"]);
    const e = JSON.parse(after.stdout);
    expect(e.finalStatus).toBe("FAILED");
    expect(e.failureReason).toBe("NO_EXECUTABLE_ACTION");
    expect(e.explanation).toMatchObject({ kind: "governance", title: "No permitted action was left" });
    expect(e.explanation.evidence.every((ev: { type: string; failureReason: string }) => ev.type === "proposal" && ev.failureReason === "AUTHORITY_REJECTION")).toBe(true);
    expect(e.explanation.counterfactual.change.type).toBe("relax_constraint");
    const human = await cli(["mission", "explain", id]);
    expect(human.stdout).toMatch(/failure reason: NO_EXECUTABLE_ACTION/);
    expect(human.stdout).not.toMatch(BLAME);
    expect(JSON.stringify(e.explanation)).not.toMatch(BLAME);
  });

  it("a held proposal waits; `proposals modify` approves other args, which run; bad input is refused, nothing decided", async () => {
    const run = await cli(["mission", "run", "-", "--wait", "--json"], mission(GOALS.held, { rules: '[{ id: hold-writes, effect: hold, tool: file, reason: "a person reviews every write" }]', evidence: "[{ file_exists: final.txt }]" }));
    expect(run.code, run.stderr).toBe(4);
    const id = JSON.parse(run.stdout).mission.id;
    const pending = JSON.parse((await cli(["proposals", "list", "--json"])).stdout).proposals.filter((p: { missionId: string }) => p.missionId === id);
    expect(pending).toHaveLength(1);
    const pid = pending[0].id;

    const shown = JSON.parse((await cli(["proposals", "show", pid, "--json"])).stdout);
    expect(shown.prompt.whyPending.reason).toBe("POLICY_HOLD");
    expect(shown.prompt.options.map((o: { type: string }) => o.type)).toEqual(["retry", "modify", "request_info", "abort"]);

    const badJson = await cli(["proposals", "modify", pid, "--args", "{op: write"]);
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toMatch(/--args is not valid JSON/);
    const denied = await cli(["proposals", "modify", pid, "--args", '{"op":"write","path":"../escape.txt","content":"x"}']);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/denied by default-policy:no-writes-outside-workspace/);
    const noReason = await cli(["proposals", "reject", pid]);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toMatch(/--note is required to reject/);

    const ok = await cli(["proposals", "modify", pid, "--args", '{"op":"write","path":"final.txt","content":"report\\n"}', "--note", "final name", "--json"]);
    expect(ok.code, ok.stderr).toBe(0);
    const out = JSON.parse(ok.stdout);
    expect(out.proposal.decision).toMatchObject({ decision: "approved", authority: "hitl", modified: { args: { path: "final.txt" } } });
    expect(out.mission.finalStatus).toBe("SUCCESS");
    expect(fs.existsSync(path.join(dataDir, "workspaces", id, "final.txt"))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, "workspaces", id, "draft.txt"))).toBe(false);

    const again = await cli(["proposals", "approve", pid]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already decided: approved by CLI/);
  });

  it("validate reports the computed necessity level and warns when the declared one is lower", async () => {
    const v = await cli(["mission", "validate", "-", "--json"], mission(GOALS.write, { evidence: "[]", level: 1 }));
    expect(v.code, v.stderr).toBe(0);
    const out = JSON.parse(v.stdout);
    expect(out.level).toMatchObject({ effective: 3, declared: 1, observation: 1, language: 3 });
    expect(out.warnings[0]).toMatch(/declares necessity level 1, but level 3 is detected/);
    const hello = JSON.parse((await cli(["mission", "validate", path.resolve("examples/hello.yaml"), "--json"])).stdout);
    expect(hello).toMatchObject({ ok: true, level: { effective: 0 }, warnings: [] });
  });
});
