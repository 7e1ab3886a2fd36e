import { afterEach, describe, expect, it, vi } from "vitest";
import { TOOL_NAMES } from "../mission/definition";
import { getTool, runTool, tools } from "./index";
import { assertToolResult, fail, ok, ToolContractViolation, type ToolContext, type ToolResult } from "./result";

function ctx(): ToolContext {
  return { workspace: "/nonexistent", allowedBinaries: [], signal: new AbortController().signal, timeoutMs: 1_000, idempotencyKey: "m1/a1/s5/1" };
}

function expectFailure(r: ToolResult) {
  if (r.ok) throw new Error(`expected a failure, got ok: ${JSON.stringify(r.data)}`);
  return r;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("assertToolResult: the RFC 001 invariants", () => {
  it("accepts ok(data), fail(error) and fail(error, data)", () => {
    expect(() => assertToolResult(ok({ n: 1 }))).not.toThrow();
    expect(() => assertToolResult(fail({ code: "TIMEOUT", message: "too slow" }))).not.toThrow();
    expect(() => assertToolResult(fail({ code: "EXIT_NONZERO", message: "exit 1", exitCode: 1 }, { exitCode: 1, stdout: "" }))).not.toThrow();
  });

  it.each([
    [{ ok: true, data: null, error: null }, "ok = TRUE requires data != NULL"],
    [{ ok: true, error: null }, "ok = TRUE requires data != NULL"],
    [{ ok: true, data: {}, error: { code: "TIMEOUT", message: "x" } }, "ok = TRUE requires error = NULL"],
    [{ ok: false, data: null, error: null }, "ok = FALSE requires error != NULL"],
  ])("rejects %j: %s", (value, broken) => {
    expect(() => assertToolResult(value)).toThrow(ToolContractViolation);
    expect(() => assertToolResult(value)).toThrow(broken);
  });

  it("rejects unknown error codes, empty messages and non-objects", () => {
    expect(() => assertToolResult({ ok: false, data: null, error: { code: "OOPS", message: "x" } })).toThrow(ToolContractViolation);
    expect(() => assertToolResult({ ok: false, data: null, error: { code: "TIMEOUT", message: "" } })).toThrow(ToolContractViolation);
    expect(() => assertToolResult("not a result")).toThrow(ToolContractViolation);
  });
});

describe("registry", () => {
  it("has exactly the tools a definition can name", () => {
    expect(Object.keys(tools).sort()).toEqual([...TOOL_NAMES].sort());
    for (const name of TOOL_NAMES) expect(getTool(name)?.name).toBe(name);
    expect(getTool("toString")).toBeUndefined();
    expect(getTool("rm")).toBeUndefined();
  });
});

describe("runTool never throws", () => {
  it("reports an unknown tool, listing the available ones", async () => {
    const r = expectFailure(await runTool("ssh", {}, ctx()));
    expect(r.error).toEqual({ code: "UNKNOWN_TOOL", message: 'There is no tool named "ssh". Available tools: shell, http, file, llm.' });
  });

  it("reports invalid arguments with every field path", async () => {
    const r = expectFailure(await runTool("shell", { command: 42, args: ["ok", 7], shell: true }, ctx()));
    expect(r.error.code).toBe("INVALID_ARGS");
    expect(r.error.message).toMatch(/^Invalid arguments for the shell tool: /);
    expect(r.error.message).toContain("command: ");
    expect(r.error.message).toContain("args[1]: ");
    expect(r.error.message).toContain('Unrecognized key: "shell"');
    expect(expectFailure(await runTool("file", undefined, ctx())).error.code).toBe("INVALID_ARGS");
  });

  it("turns a tool that throws into INTERNAL_ERROR", async () => {
    vi.spyOn(tools.file, "run").mockRejectedValue(new Error("disk exploded"));
    const r = expectFailure(await runTool("file", { op: "read", path: "x" }, ctx()));
    expect(r.error.code).toBe("INTERNAL_ERROR");
    expect(r.error.message).toContain("The file tool crashed: disk exploded");
  });

  it("turns a tool that throws synchronously (even a non-Error) into INTERNAL_ERROR", async () => {
    vi.spyOn(tools.file, "run").mockImplementation(() => {
      throw "a string";
    });
    const r = expectFailure(await runTool("file", { op: "read", path: "x" }, ctx()));
    expect(r.error).toMatchObject({ code: "INTERNAL_ERROR", message: expect.stringContaining("a string") });
  });

  it("turns {ok: true, data: null} into INTERNAL_ERROR naming the broken invariant", async () => {
    vi.spyOn(tools.http, "run").mockResolvedValue({ ok: true, data: null, error: null } as unknown as ToolResult);
    const r = await runTool("http", { url: "http://127.0.0.1/" }, ctx());
    expect(() => assertToolResult(r)).not.toThrow();
    expect(expectFailure(r).error.code).toBe("INTERNAL_ERROR");
    expect(r.error?.message).toContain("ok = TRUE requires data != NULL");
  });

  it("turns a failure without an error, or undefined, into INTERNAL_ERROR", async () => {
    const run = vi.spyOn(tools.shell, "run");
    run.mockResolvedValueOnce({ ok: false, data: null, error: null } as unknown as ToolResult);
    expect(expectFailure(await runTool("shell", { command: "ls" }, ctx())).error.message).toContain("ok = FALSE requires error != NULL");
    run.mockResolvedValueOnce(undefined as unknown as ToolResult);
    expect(expectFailure(await runTool("shell", { command: "ls" }, ctx())).error.code).toBe("INTERNAL_ERROR");
  });

  it("passes the parsed arguments (with defaults) to the tool", async () => {
    const run = vi.spyOn(tools.shell, "run").mockResolvedValue(ok({ exitCode: 0 }));
    await runTool("shell", { command: "ls" }, ctx());
    expect(run).toHaveBeenCalledWith({ command: "ls", args: [], maxOutputBytes: 1024 * 1024 }, expect.anything());
  });
});
