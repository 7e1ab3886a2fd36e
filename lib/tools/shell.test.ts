import { promises as fs, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runTool } from "./index";
import type { ToolContext, ToolResult } from "./result";
import { createShellTool, mostInformativeLine, tailTruncate } from "./shell";

const NODE = process.execPath; // basename "node"

let workspace: string;
beforeEach(async () => {
  workspace = await fs.mkdtemp(path.join(os.tmpdir(), "faultline-shell-"));
});
afterEach(async () => {
  await fs.rm(workspace, { recursive: true, force: true });
});

function ctx(over: Partial<ToolContext> = {}): ToolContext {
  return { workspace, allowedBinaries: ["node", "echo", "ls", "sh", "sleep"], signal: new AbortController().signal, timeoutMs: 5_000, idempotencyKey: "m1/a1/s1/1", ...over };
}

const shell = (args: Record<string, unknown>, c: ToolContext = ctx()) => runTool("shell", args, c);
const nodeScript = (script: string, extra: Record<string, unknown> = {}) => ({ command: NODE, args: ["-e", script], ...extra });

function expectFailure(r: ToolResult) {
  if (r.ok) throw new Error(`expected a failure, got ok: ${JSON.stringify(r.data)}`);
  return r;
}

/** A pid is gone once it no longer exists or is a zombie nobody reaped yet. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

async function waitUntil(cond: () => boolean, ms = 1_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return cond();
}

describe("shell tool: success", () => {
  it("runs a binary and returns exit code, stdout, stderr and duration", async () => {
    const r = await shell(nodeScript("process.stdout.write('hello'); process.stderr.write('a warning')"));
    expect(r).toMatchObject({ ok: true, error: null, data: { exitCode: 0, stdout: "hello", stderr: "a warning" } });
    expect(r.data?.durationMs).toEqual(expect.any(Number));
  });

  it("does not go through a shell: metacharacters are passed literally", async () => {
    const r = await shell({ command: "echo", args: ["a; touch pwned", "$(id)"] });
    expect(r.ok).toBe(true);
    expect(r.data?.stdout).toBe("a; touch pwned $(id)\n");
    await expect(fs.access(path.join(workspace, "pwned"))).rejects.toThrow();
  });

  it("runs in the workspace, or in a cwd inside it", async () => {
    await fs.mkdir(path.join(workspace, "sub"));
    await fs.writeFile(path.join(workspace, "sub", "marker.txt"), "x");
    const root = await shell({ command: "ls" });
    expect(root.data?.stdout).toBe("sub\n");
    const sub = await shell({ command: "ls", cwd: "sub" });
    expect(sub.data?.stdout).toBe("marker.txt\n");
  });

  it("passes stdin input and extra env, but not the control plane's secrets", async () => {
    process.env.FAULTLINE_TEST_SECRET = "hunter2";
    try {
      const r = await shell(
        nodeScript(
          "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.stringify({s,foo:process.env.FOO,secret:process.env.FAULTLINE_TEST_SECRET,key:process.env.FAULTLINE_IDEMPOTENCY_KEY})))",
          { input: "from stdin", env: { FOO: "bar" } },
        ),
      );
      expect(JSON.parse(String(r.data?.stdout))).toEqual({ s: "from stdin", foo: "bar", key: "m1/a1/s1/1" });
    } finally {
      delete process.env.FAULTLINE_TEST_SECRET;
    }
  });
});

describe("shell tool: refusals", () => {
  it("refuses a binary that is not on the allowlist, naming it and the allowlist", async () => {
    await fs.writeFile(path.join(workspace, "keep.txt"), "x");
    const r = expectFailure(await shell({ command: "rm", args: ["keep.txt"] }, ctx({ allowedBinaries: ["echo", "ls"] })));
    expect(r.error.code).toBe("NOT_ALLOWED");
    expect(r.error.message).toBe('"rm" is not on this mission\'s allowlist (allowed: echo, ls). Add it to allowedBinaries in the definition to let agents run it.');
    await expect(fs.readFile(path.join(workspace, "keep.txt"), "utf8")).resolves.toBe("x");
  });

  it("checks the basename of a path against the allowlist", async () => {
    const r = expectFailure(await shell({ command: "/bin/rm", args: ["-rf", "x"] }, ctx({ allowedBinaries: ["echo"] })));
    expect(r.error.code).toBe("NOT_ALLOWED");
    expect(r.error.message).toContain('"rm"');
  });

  it("refuses a cwd outside the workspace", async () => {
    const r = expectFailure(await shell({ command: "ls", cwd: "../" }));
    expect(r.error.code).toBe("NOT_ALLOWED");
    expect(r.error.message).toMatch(/working directory "\.\.\/" escapes the workspace/);
  });

  it("reports a missing cwd as NOT_FOUND, not as a missing binary", async () => {
    const r = expectFailure(await shell({ command: "ls", cwd: "nope" }));
    expect(r.error.code).toBe("NOT_FOUND");
    expect(r.error.message).toContain('"nope"');
  });

  it("does not start when the step is already cancelled", async () => {
    const ac = new AbortController();
    ac.abort(new Error("lease lost"));
    const r = expectFailure(await shell({ command: "echo", args: ["hi"] }, ctx({ signal: ac.signal })));
    expect(r.error.code).toBe("TIMEOUT");
    expect(r.error.message).toContain("lease lost");
  });
});

describe("shell tool: spawn failures", () => {
  it("reports a missing binary as COMMAND_NOT_FOUND with exit code 127", async () => {
    const r = expectFailure(await shell({ command: "faultline-no-such-binary" }, ctx({ allowedBinaries: ["faultline-no-such-binary"] })));
    expect(r.error).toMatchObject({ code: "COMMAND_NOT_FOUND", exitCode: 127, errno: "ENOENT" });
    expect(r.error.message).toContain('"faultline-no-such-binary" was not found');
  });

  it("reports a non-executable file as PERMISSION_DENIED with exit code 126", async () => {
    await fs.writeFile(path.join(workspace, "build.sh"), "#!/bin/sh\necho built\n", { mode: 0o644 });
    const r = expectFailure(await shell({ command: "./build.sh" }, ctx({ allowedBinaries: ["build.sh"] })));
    expect(r.error).toMatchObject({ code: "PERMISSION_DENIED", exitCode: 126, errno: "EACCES" });
    expect(r.error.message).toContain("chmod +x");
  });

  it("maps exit 127 from a wrapper (command not found inside sh) to COMMAND_NOT_FOUND", async () => {
    const r = expectFailure(await shell({ command: "sh", args: ["-c", "faultline-missing-thing"] }));
    expect(r.error.code).toBe("COMMAND_NOT_FOUND");
    expect(r.error.exitCode).toBe(127);
    expect(r.error.message).toContain("faultline-missing-thing");
  });
});

describe("shell tool: non-zero exit", () => {
  it("fails with EXIT_NONZERO, quoting the informative stderr line, and still returns the data", async () => {
    const r = expectFailure(await shell(nodeScript("console.log('compiling'); console.error('step 1 ok'); console.error('fatal: disk full'); console.error(''); process.exit(3)")));
    expect(r.error).toMatchObject({ code: "EXIT_NONZERO", exitCode: 3, stdout: "compiling\n" });
    expect(r.error.message).toBe('"' + NODE + '" exited with code 3: fatal: disk full');
    expect(r.data).toMatchObject({ exitCode: 3, stdout: "compiling\n", stderr: "step 1 ok\nfatal: disk full\n\n" });
  });

  it("quotes the thrown error, not the stack frames or node's version banner", async () => {
    const r = expectFailure(await shell(nodeScript("throw new Error('config file missing')")));
    expect(r.error.message).toContain("Error: config file missing");
  });

  it("keeps only the tail of long output in the error, the full output in data", async () => {
    const r = expectFailure(await shell(nodeScript("process.stderr.write('x'.repeat(50000) + 'THE END'); process.exit(1)")));
    expect(r.error.stderr!.length).toBeLessThan(8_300);
    expect(r.error.stderr).toMatch(/^\[… \d+ earlier bytes truncated\]/);
    expect(r.error.stderr!.endsWith("THE END")).toBe(true);
    expect(r.data?.stderr).toHaveLength(50_007);
  });
});

describe("shell tool: time limit, cancellation, output cap, signals", () => {
  it("stops a command that runs past timeoutMs, with exit code 124 and the partial output", async () => {
    const started = Date.now();
    const r = expectFailure(await shell(nodeScript("console.log('started'); setTimeout(() => {}, 10000)"), ctx({ timeoutMs: 500 })));
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(r.error).toMatchObject({ code: "TIMEOUT", exitCode: 124, signal: "SIGTERM", stdout: "started\n" });
    expect(r.error.message).toContain("did not finish within 500 ms");
    expect(r.data).toMatchObject({ exitCode: 124, stdout: "started\n" });
  });

  it("kills the whole process group, including background children", async () => {
    const r = expectFailure(await shell({ command: "sh", args: ["-c", "sleep 30 & echo $! > child.pid; wait"] }, ctx({ timeoutMs: 300 })));
    expect(r.error.code).toBe("TIMEOUT");
    const pid = Number(await fs.readFile(path.join(workspace, "child.pid"), "utf8"));
    expect(await waitUntil(() => !isAlive(pid))).toBe(true);
  });

  it("escalates to SIGKILL when the process ignores SIGTERM", async () => {
    const tool = createShellTool({ killGraceMs: 200 });
    const script = "process.on('SIGTERM', () => {}); console.log('stubborn'); setInterval(() => {}, 1000)";
    const r = expectFailure(await tool.run({ command: NODE, args: ["-e", script], maxOutputBytes: 1024 }, ctx({ timeoutMs: 500 })));
    expect(r.error).toMatchObject({ code: "TIMEOUT", signal: "SIGKILL" });
  });

  it("stops the command when the step is cancelled through ctx.signal", async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error("worker shutting down")), 150);
    const r = expectFailure(await shell({ command: "sleep", args: ["10"] }, ctx({ signal: ac.signal })));
    expect(r.error.code).toBe("TIMEOUT");
    expect(r.error.message).toContain("cancelled (worker shutting down)");
  });

  it("stops a command whose output exceeds maxOutputBytes, keeping the first bytes", async () => {
    const r = expectFailure(await shell(nodeScript("setInterval(() => process.stdout.write('y'.repeat(1000)), 1)", { maxOutputBytes: 5000 })));
    expect(r.error.code).toBe("OUTPUT_TOO_LARGE");
    expect(r.error.message).toContain("more than 5000 bytes to stdout");
    expect(r.data?.stdout).toBe("y".repeat(5000));
  });

  it("reports a signal it did not send as KILLED", async () => {
    const r = expectFailure(await shell(nodeScript("process.kill(process.pid, 'SIGKILL')")));
    expect(r.error).toMatchObject({ code: "KILLED", signal: "SIGKILL", exitCode: 137 });
    expect(r.error.message).toContain("killed by SIGKILL");
  });
});

describe("shell helpers", () => {
  it("mostInformativeLine prefers the last error-looking line and ignores noise", () => {
    expect(mostInformativeLine("Error: boom\n    at x (y.js:1:1)\n\nNode.js v20.1.0\n")).toBe("Error: boom");
    expect(mostInformativeLine("one\ntwo\n\n")).toBe("two");
    expect(mostInformativeLine("\x1b[31merror: red\x1b[0m\nsummary")).toBe("error: red");
    expect(mostInformativeLine("  \n")).toBeNull();
  });

  it("tailTruncate keeps short text and cuts long text from the front", () => {
    expect(tailTruncate("short", 10)).toBe("short");
    expect(tailTruncate("0123456789abc", 3)).toBe("[… 10 earlier bytes truncated]\nabc");
  });
});
