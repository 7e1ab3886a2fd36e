import { promises as fs } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { fail, ok, type Tool, type ToolContext, type ToolError, type ToolResult } from "./result";
import { abortReason, errnoOf, errorMessage } from "./util";

/**
 * The `file` tool: read, write and list files inside the mission's workspace.
 * Every path is relative to the workspace and is checked after resolving symlinks, so `../x`,
 * absolute paths and symlinks that lead outside are refused with NOT_ALLOWED.
 */

const relativePath = z.string().min(1, "must not be empty");

export const fileArgsSchema = z.discriminatedUnion(
  "op",
  [
    z.strictObject({ op: z.literal("read"), path: relativePath }),
    z.strictObject({ op: z.literal("write"), path: relativePath, content: z.string(), append: z.boolean().default(false) }),
    z.strictObject({ op: z.literal("list"), path: relativePath.default(".") }),
  ],
  { error: 'op must be one of "read", "write", "list"' },
);
export type FileArgs = z.infer<typeof fileArgsSchema>;

export type FileEntry = { name: string; type: "file" | "dir" | "other"; size: number };
export type FileReadData = { path: string; content: string; bytes: number };
export type FileWriteData = { path: string; bytes: number };
export type FileListData = { path: string; entries: FileEntry[] };

export type WorkspacePath = { ok: true; absolute: string; relative: string } | { ok: false; error: ToolError };

const MAX_SYMLINK_HOPS = 40;

/** True when `candidate` is `root` or below it (both absolute, normalised). */
export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** realpath that tolerates a missing tail: resolves the existing part (following dangling symlinks) and appends the rest. */
async function realpathAllowMissing(p: string, hops = 0): Promise<string> {
  if (hops > MAX_SYMLINK_HOPS) throw Object.assign(new Error(`too many levels of symbolic links at ${p}`), { code: "ELOOP" });
  try {
    return await fs.realpath(p);
  } catch (err) {
    if (errnoOf(err) !== "ENOENT") throw err;
  }
  const parent = path.dirname(p);
  if (parent === p) return p;
  const realParent = await realpathAllowMissing(parent, hops);
  const target = await fs.readlink(p).catch(() => null); // a dangling symlink: follow where it would write
  if (target !== null) return realpathAllowMissing(path.resolve(realParent, target), hops + 1);
  return path.join(realParent, path.basename(p));
}

/**
 * Resolve a workspace-relative path, refusing anything that escapes the workspace:
 * absolute paths, `..` that climbs out, and symlinks (existing or dangling) pointing outside.
 * `absolute` is the real path (symlinks resolved) that is safe to operate on.
 */
export async function resolveInWorkspace(workspace: string, requested: string, what = "path"): Promise<WorkspacePath> {
  const escapes = (why: string): WorkspacePath => ({
    ok: false,
    error: {
      code: "NOT_ALLOWED",
      message: `The ${what} "${requested}" escapes the workspace (${why}). Use a path relative to the mission workspace that stays inside it.`,
    },
  });
  if (path.isAbsolute(requested)) return escapes("absolute paths are not allowed");
  try {
    const root = await fs.realpath(workspace);
    const lexical = path.resolve(root, requested);
    if (!isInside(root, lexical)) return escapes('".." leads outside it');
    const real = await realpathAllowMissing(lexical);
    if (!isInside(root, real)) return escapes(`a symbolic link points to ${real}`);
    return { ok: true, absolute: real, relative: path.relative(root, lexical) || "." };
  } catch (err) {
    return { ok: false, error: fsError(err, requested, "resolve") };
  }
}

/** Turn a Node fs error into a ToolError that says what happened to which path and what to do. */
export function fsError(err: unknown, requested: string, op: string): ToolError {
  const errno = errnoOf(err);
  const quoted = `"${requested}"`;
  switch (errno) {
    case "ENOENT":
      return { code: "NOT_FOUND", errno, message: `${quoted} does not exist in the workspace. Check the path, or create it in an earlier step.` };
    case "EACCES":
    case "EPERM":
      return { code: "PERMISSION_DENIED", errno, message: `Permission denied to ${op} ${quoted} (${errno}). Fix its permissions or use another path.` };
    case "EISDIR":
      return { code: "INVALID_ARGS", errno, message: `${quoted} is a directory, so it cannot be ${op === "read" ? "read" : "written"} as a file. Use op "list" to see its entries.` };
    case "ENOTDIR":
      return { code: "INVALID_ARGS", errno, message: `${quoted} is not a directory (or one of its parents is a file), so it cannot be used for ${op}.` };
    case "ELOOP":
      return { code: "NOT_ALLOWED", errno, message: `${quoted} has too many levels of symbolic links (ELOOP); remove the symlink loop.` };
    default:
      return { code: "INTERNAL_ERROR", ...(errno ? { errno } : {}), message: `Could not ${op} ${quoted}: ${errorMessage(err)}` };
  }
}

function entryType(d: { isFile(): boolean; isDirectory(): boolean }): FileEntry["type"] {
  return d.isFile() ? "file" : d.isDirectory() ? "dir" : "other";
}

async function readOp(target: { absolute: string; relative: string }): Promise<ToolResult<FileReadData>> {
  const buf = await fs.readFile(target.absolute);
  return ok({ path: target.relative, content: buf.toString("utf8"), bytes: buf.length });
}

async function writeOp(target: { absolute: string; relative: string }, content: string, append: boolean): Promise<ToolResult<FileWriteData>> {
  await fs.mkdir(path.dirname(target.absolute), { recursive: true });
  await fs.writeFile(target.absolute, content, { flag: append ? "a" : "w" });
  return ok({ path: target.relative, bytes: Buffer.byteLength(content) });
}

async function listOp(target: { absolute: string; relative: string }): Promise<ToolResult<FileListData>> {
  const dirents = await fs.readdir(target.absolute, { withFileTypes: true });
  const entries = await Promise.all(
    dirents.map(async (d): Promise<FileEntry> => {
      const size = await fs.lstat(path.join(target.absolute, d.name)).then((s) => s.size, () => 0);
      return { name: d.name, type: entryType(d), size };
    }),
  );
  entries.sort((a, b) => a.name.localeCompare(b.name));
  return ok({ path: target.relative, entries });
}

export async function runFile(args: FileArgs, ctx: ToolContext): Promise<ToolResult> {
  const target = await resolveInWorkspace(ctx.workspace, args.path);
  if (!target.ok) return fail(target.error);
  try {
    switch (args.op) {
      case "read":
        return await readOp(target);
      case "write":
        return await writeOp(target, args.content, args.append);
      case "list":
        return await listOp(target);
    }
  } catch (err) {
    return fail(fsError(err, args.path, args.op));
  }
}

export const fileTool: Tool<FileArgs> = {
  name: "file",
  description: "Read, write (or append to) and list files inside the mission workspace.",
  args: fileArgsSchema,
  idempotent: false, // append is not; write and read are
  run: runFile,
};
