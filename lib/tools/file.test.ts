import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fsError, resolveInWorkspace } from "./file";
import { runTool } from "./index";
import type { ToolContext, ToolResult } from "./result";

let root: string; // holds the workspace and an "outside" sibling
let workspace: string;
let outside: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "faultline-file-"));
  workspace = path.join(root, "ws");
  outside = path.join(root, "outside");
  await fs.mkdir(workspace);
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, "secret.txt"), "top secret");
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function ctx(): ToolContext {
  return { workspace, allowedBinaries: [], signal: new AbortController().signal, timeoutMs: 5_000, idempotencyKey: "m1/a1/s3/1" };
}
const file = (args: Record<string, unknown>) => runTool("file", args, ctx());

function expectFailure(r: ToolResult) {
  if (r.ok) throw new Error(`expected a failure, got ok: ${JSON.stringify(r.data)}`);
  return r;
}

describe("file tool: read, write, list", () => {
  it("writes a file, creating parent directories, and reads it back", async () => {
    const w = await file({ op: "write", path: "out/deep/report.txt", content: "héllo" });
    expect(w).toEqual({ ok: true, error: null, data: { path: "out/deep/report.txt", bytes: 6 } });
    await expect(fs.readFile(path.join(workspace, "out/deep/report.txt"), "utf8")).resolves.toBe("héllo");
    const r = await file({ op: "read", path: "out/deep/report.txt" });
    expect(r).toEqual({ ok: true, error: null, data: { path: "out/deep/report.txt", content: "héllo", bytes: 6 } });
  });

  it("overwrites by default and appends with append: true", async () => {
    await file({ op: "write", path: "log.txt", content: "one\n" });
    await file({ op: "write", path: "log.txt", content: "two\n", append: true });
    expect((await file({ op: "read", path: "log.txt" })).data?.content).toBe("one\ntwo\n");
    await file({ op: "write", path: "log.txt", content: "fresh" });
    expect((await file({ op: "read", path: "log.txt" })).data?.content).toBe("fresh");
  });

  it("lists a directory (default: the workspace) with names, types and sizes", async () => {
    await fs.writeFile(path.join(workspace, "b.txt"), "12345");
    await fs.mkdir(path.join(workspace, "a-dir"));
    await fs.symlink("b.txt", path.join(workspace, "link"));
    const r = await file({ op: "list" });
    expect(r.ok).toBe(true);
    expect(r.data?.path).toBe(".");
    expect(r.data?.entries).toEqual([
      { name: "a-dir", type: "dir", size: expect.any(Number) },
      { name: "b.txt", type: "file", size: 5 },
      { name: "link", type: "other", size: expect.any(Number) },
    ]);
  });

  it("allows a symlink that stays inside the workspace", async () => {
    await fs.writeFile(path.join(workspace, "real.txt"), "inside");
    await fs.symlink("real.txt", path.join(workspace, "alias.txt"));
    expect((await file({ op: "read", path: "alias.txt" })).data?.content).toBe("inside");
  });
});

describe("file tool: workspace escapes are refused", () => {
  it.each([
    ["../outside/secret.txt", "read"],
    ["sub/../../outside/secret.txt", "read"],
    ["/etc/passwd", "read"],
    ["../outside/planted.txt", "write"],
    ["..", "list"],
  ])("refuses %s (%s)", async (p, op) => {
    const r = expectFailure(await file({ op, path: p, ...(op === "write" ? { content: "x" } : {}) }));
    expect(r.error.code).toBe("NOT_ALLOWED");
    expect(r.error.message).toContain(`"${p}" escapes the workspace`);
    await expect(fs.access(path.join(outside, "planted.txt"))).rejects.toThrow();
  });

  it("refuses reading through a symlink that points outside", async () => {
    await fs.symlink(path.join(outside, "secret.txt"), path.join(workspace, "innocent.txt"));
    const r = expectFailure(await file({ op: "read", path: "innocent.txt" }));
    expect(r.error.code).toBe("NOT_ALLOWED");
    expect(r.error.message).toMatch(/"innocent\.txt" escapes the workspace \(a symbolic link points to .*secret\.txt\)/);
    expect(JSON.stringify(r)).not.toContain("top secret");
  });

  it("refuses writing through a symlinked directory or a dangling symlink that points outside", async () => {
    await fs.symlink(outside, path.join(workspace, "dir-link"));
    await fs.symlink(path.join(outside, "new.txt"), path.join(workspace, "dangling"));
    expect(expectFailure(await file({ op: "write", path: "dir-link/planted.txt", content: "x" })).error.code).toBe("NOT_ALLOWED");
    expect(expectFailure(await file({ op: "write", path: "dangling", content: "x" })).error.code).toBe("NOT_ALLOWED");
    await expect(fs.readdir(outside)).resolves.toEqual(["secret.txt"]);
  });

  it("resolveInWorkspace returns the real path and the workspace-relative path", async () => {
    const r = await resolveInWorkspace(workspace, "./a/../b.txt");
    expect(r).toEqual({ ok: true, absolute: path.join(await fs.realpath(workspace), "b.txt"), relative: "b.txt" });
  });
});

describe("file tool: errors", () => {
  it("reports a missing file as NOT_FOUND naming the path", async () => {
    const r = expectFailure(await file({ op: "read", path: "missing/config.json" }));
    expect(r.error).toMatchObject({ code: "NOT_FOUND", errno: "ENOENT" });
    expect(r.error.message).toContain('"missing/config.json" does not exist in the workspace');
  });

  it("explains that a directory cannot be read as a file", async () => {
    await fs.mkdir(path.join(workspace, "dist"));
    const r = expectFailure(await file({ op: "read", path: "dist" }));
    expect(r.error.code).toBe("INVALID_ARGS");
    expect(r.error.message).toContain('"dist" is a directory');
  });

  it.skipIf(process.getuid?.() === 0)("reports an unreadable file as PERMISSION_DENIED", async () => {
    await fs.writeFile(path.join(workspace, "locked.txt"), "x", { mode: 0o000 });
    const r = expectFailure(await file({ op: "read", path: "locked.txt" }));
    expect(r.error).toMatchObject({ code: "PERMISSION_DENIED", errno: "EACCES" });
    expect(r.error.message).toContain('"locked.txt"');
  });

  it("maps EACCES/EPERM to PERMISSION_DENIED (also checked where the suite runs as root)", () => {
    const err = Object.assign(new Error("EACCES: permission denied, open 'locked.txt'"), { code: "EACCES" });
    expect(fsError(err, "locked.txt", "read")).toEqual({
      code: "PERMISSION_DENIED",
      errno: "EACCES",
      message: 'Permission denied to read "locked.txt" (EACCES). Fix its permissions or use another path.',
    });
  });

  it("rejects an unknown op and a write without content as INVALID_ARGS", async () => {
    const r1 = expectFailure(await file({ op: "delete", path: "x" }));
    expect(r1.error.code).toBe("INVALID_ARGS");
    expect(r1.error.message).toContain('op: op must be one of "read", "write", "list"');
    const r2 = expectFailure(await file({ op: "write", path: "x" }));
    expect(r2.error.message).toContain("content:");
  });
});
