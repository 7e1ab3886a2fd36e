import { describe, expect, it } from "vitest";
import { classify } from "./classify";
import { maskNames, meaningfulLines } from "./text";
import { inputContextSchema, type InputContextInput } from "./types";

const run = (tool: string, args: Record<string, unknown>, error: InputContextInput["failure"]["error"]) => classify(inputContextSchema.parse({ failure: { tool, args, error } }));

describe("reading output", () => {
  it("masks identifier-like quoted names and paths, keeps prose and length", () => {
    const line = "KeyError: 'timeout' in /tmp/permission/file.py: \"Rate limit reached for org\"";
    const masked = maskNames(line);
    expect(masked).toHaveLength(line.length);
    expect(masked).not.toMatch(/timeout|permission/);
    expect(masked).toContain("Rate limit reached for org");
  });

  it("drops stack frames and source excerpts; the last error line weighs most", () => {
    const lines = meaningfulLines('Traceback (most recent call last):\n  File "x.py", line 1, in <module>\n    connect(timeout=1)\nConnectionRefusedError: [Errno 111] Connection refused', 1);
    expect(lines.map((l) => l.text)).toEqual(["ConnectionRefusedError: [Errno 111] Connection refused"]);
    expect(lines[0].weight).toBe(1);
  });
});

describe("classify", () => {
  it("maps Faultline tool codes but does not depend on them", () => {
    expect(run("shell", { command: "sleep" }, { message: '"sleep" did not finish within 300 ms and was stopped.', toolCode: "TIMEOUT" }).type).toBe("timeout");
    expect(run("shell", { command: "sleep" }, { message: '"sleep" did not finish within 300 ms and was stopped.' }).type).toBe("timeout");
  });

  it("a tool code that contradicts the output yields to it (bash exits 127 for an unbound variable)", () => {
    const c = run("shell", { command: "bash" }, { message: "exit 127", code: 127, toolCode: "COMMAND_NOT_FOUND", stderr: "bash: line 1: DEPLOY_TARGET: unbound variable" });
    expect(c.type).toBe("environment_missing");
    expect(c.facts.envVar).toBe("DEPLOY_TARGET");
  });

  it("NOT_ALLOWED is a refusal by policy (a forbidden binary, a path outside the sandbox): permission_denied, never tool_not_found", () => {
    const binary = run("shell", { command: "curl" }, { message: '"curl" is not on this mission\'s allowlist (allowed: sh).', toolCode: "NOT_ALLOWED" });
    expect(binary.type).toBe("permission_denied");
    expect(binary.category).toBe("binary_not_allowlisted");
    expect(run("shell", { command: "scp" }, { message: "refused", toolCode: "NOT_ALLOWED" }).type).toBe("permission_denied");
    expect(run("file", { op: "read", path: "../x" }, { message: 'The path "../x" escapes the workspace.', toolCode: "NOT_ALLOWED" }).type).toBe("permission_denied");
  });

  it.each([
    ["ECONNREFUSED", "network_error"],
    ["ENOTFOUND", "network_error"],
    ["EAI_AGAIN", "network_error"],
    ["ECONNRESET", "network_error"],
    ["ETIMEDOUT", "timeout"],
    ["EACCES", "permission_denied"],
    ["EPERM", "permission_denied"],
    ["ENOBUFS", "output_too_large"],
  ])("errno %s → %s", (errno, type) => {
    expect(run("http", { url: "http://h/" }, { message: `request failed (${errno})` }).type).toBe(type);
  });

  it.each([
    [400, "invalid_arguments"],
    [401, "permission_denied"],
    [403, "permission_denied"],
    [404, "invalid_arguments"],
    [408, "timeout"],
    [413, "output_too_large"],
    [422, "invalid_arguments"],
    [429, "rate_limited"],
    [500, "network_error"],
    [503, "network_error"],
  ])("HTTP %i → %s", (status, type) => {
    expect(run("http", { url: "http://h/" }, { message: `GET http://h/ returned ${status}` }).type).toBe(type);
  });

  it("spawn ENOENT is a missing command, a plain ENOENT a missing path", () => {
    expect(run("shell", { command: "node" }, { message: "exit 1", code: 1, stderr: "Error: spawnSync kubectl ENOENT" }).type).toBe("command_not_found");
    expect(run("file", { op: "read", path: "x.txt" }, { message: "ENOENT: no such file or directory, open 'x.txt'" }).type).toBe("invalid_arguments");
  });

  it("a missing module that is the script named in the arguments is a wrong argument", () => {
    const c = run("shell", { command: "node", args: ["scripts/seed.js"] }, { message: "exit 1", code: 1, stderr: "Error: Cannot find module '/w/scripts/seed.js'\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15) {\n  code: 'MODULE_NOT_FOUND'\n}" });
    expect(c.type).toBe("invalid_arguments");
    expect(run("shell", { command: "node", args: ["index.js"] }, { message: "exit 1", code: 1, stderr: "Error: Cannot find module 'left-pad'" }).type).toBe("environment_missing");
  });

  it("confidence drops when evidence conflicts", () => {
    const clear = run("shell", { command: "bash" }, { message: "exit 127", code: 127, stderr: "bash: line 1: helm: command not found" });
    const conflicted = run("shell", { command: "bash" }, { message: "exit 127", code: 127, stderr: "bash: line 1: DEPLOY_TARGET: unbound variable" });
    expect(clear.confidence).toBeGreaterThan(conflicted.confidence);
  });
});
