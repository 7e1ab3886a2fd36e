import { spawn, type ChildProcess } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { resolveInWorkspace } from "./file";
import { abortReason, errnoOf, errorMessage } from "./util";
import { fail, ok, type Tool, type ToolContext, type ToolError, type ToolResult } from "./result";

/**
 * The `shell` tool: runs one allowlisted binary WITHOUT a shell, in its own process group,
 * inside the workspace, with a time limit, cancellation and an output cap.
 */

export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
/** How much of stdout/stderr an error carries (the tail: that is where failures are reported). */
export const ERROR_OUTPUT_TAIL_BYTES = 8 * 1024;
/** Time between SIGTERM and SIGKILL when we stop a process group. */
export const KILL_GRACE_MS = 2_000;
/** Exit code reported for a timeout, as coreutils `timeout` does. */
export const TIMEOUT_EXIT_CODE = 124;
/**
 * Variables passed through from the control plane's environment. Everything else (database URLs,
 * auth secrets) stays out of agent processes; steps add what they need through `env`.
 */
export const INHERITED_ENV = ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "TERM"] as const;

export const shellArgsSchema = z.strictObject({
  command: z.string().min(1, 'must name a binary, e.g. "npm"'),
  args: z.array(z.string()).default([]),
  cwd: z.string().min(1).optional(),
  env: z.record(z.string(), z.string()).optional(),
  input: z.string().optional(),
  maxOutputBytes: z.number().int().positive().default(DEFAULT_MAX_OUTPUT_BYTES),
});
export type ShellArgs = z.infer<typeof shellArgsSchema>;

export type ShellData = { exitCode: number | null; stdout: string; stderr: string; durationMs: number };

type StopReason = "timeout" | "cancelled" | "output";

/** What happened to the process, before it is interpreted as a ToolResult. */
export type ShellOutcome =
  | { kind: "spawn_error"; errno: string | undefined; message: string }
  | {
      kind: "exited";
      exitCode: number | null;
      signal: NodeJS.Signals | null;
      stoppedBy: StopReason | null;
      overflowStream: "stdout" | "stderr" | null;
      stdout: string;
      stderr: string;
      durationMs: number;
    };

export interface ShellToolOptions {
  /** Grace period between SIGTERM and SIGKILL (default 2 s). */
  killGraceMs?: number;
}

// ---------- pure helpers ----------

export function notAllowedError(binary: string, allowed: readonly string[]): ToolError {
  const list = allowed.length ? allowed.join(", ") : "none";
  return {
    code: "NOT_ALLOWED",
    message: `"${binary}" is not on this mission's allowlist (allowed: ${list}). Add it to allowedBinaries in the definition to let agents run it.`,
    // What a gate needs to offer "allow it for this mission and retry" (lib/mission/failure.ts).
    details: { binary, allowedBinaries: [...allowed] },
  };
}

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
const NOISE = /^(at\s|Node\.js v\d|\^+$|~+$)/; // stack frames, node's version banner, caret markers
const ERROR_WORDS = /\b(error|fatal|failed|failure|exception|denied|not found|no such|cannot|can't|unable|invalid|refused)\b/i;

/** The line of a program's output that best explains a failure: the last error-looking line, else the last line. */
export function mostInformativeLine(text: string): string | null {
  const lines = text
    .replace(ANSI, "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !NOISE.test(l));
  const line = lines.findLast((l) => ERROR_WORDS.test(l)) ?? lines.at(-1);
  if (!line) return null;
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/** Keep the last `maxBytes` bytes of `text`, marking what was cut. */
export function tailTruncate(text: string, maxBytes = ERROR_OUTPUT_TAIL_BYTES): string {
  const buf = Buffer.from(text, "utf8");
  if (buf.length <= maxBytes) return text;
  return `[… ${buf.length - maxBytes} earlier bytes truncated]\n${buf.subarray(buf.length - maxBytes).toString("utf8")}`;
}

function signalExitCode(signal: NodeJS.Signals): number | null {
  const n = os.constants.signals[signal];
  return typeof n === "number" ? 128 + n : null;
}

function lastOutputHint(stdout: string, stderr: string): string {
  const line = mostInformativeLine(stderr) ?? mostInformativeLine(stdout);
  return line ? ` Last output: "${line}"` : "";
}

function spawnErrorToToolError(command: string, errno: string | undefined, message: string): ToolError {
  const where = command.includes("/") ? "no such file at that path (relative to the working directory)" : "no such binary on the PATH";
  switch (errno) {
    case "ENOENT":
      return { code: "COMMAND_NOT_FOUND", exitCode: 127, errno, message: `"${command}" was not found: ${where}. Install it on the worker or fix the command name.` };
    case "EACCES":
    case "EPERM":
      return {
        code: "PERMISSION_DENIED",
        exitCode: 126,
        errno,
        message: `"${command}" could not be executed: permission denied (${errno}). Make it executable (chmod +x) or run it through its interpreter (e.g. sh ${command}).`,
      };
    default:
      return { code: "INTERNAL_ERROR", ...(errno ? { errno } : {}), message: `"${command}" could not be started: ${message}` };
  }
}

/** Interpret a process outcome as a ToolResult. Every failure after the spawn carries `{exitCode, stdout, stderr, durationMs}` in data. */
export function interpretOutcome(
  command: string,
  outcome: ShellOutcome,
  limits: { timeoutMs: number; maxOutputBytes: number; cancelReason?: string },
): ToolResult<ShellData> {
  if (outcome.kind === "spawn_error") return fail(spawnErrorToToolError(command, outcome.errno, outcome.message));

  const { stdout, stderr, durationMs, signal } = outcome;
  const output = { stdout: tailTruncate(stdout), stderr: tailTruncate(stderr) };
  const failWith = (error: ToolError): ToolResult<ShellData> =>
    fail({ ...error, ...output }, { exitCode: error.exitCode ?? null, stdout, stderr, durationMs });

  switch (outcome.stoppedBy) {
    case "timeout":
      return failWith({
        code: "TIMEOUT",
        exitCode: TIMEOUT_EXIT_CODE,
        signal,
        message: `"${command}" did not finish within ${limits.timeoutMs} ms and was stopped. Raise the step's timeoutMs or make the command finish sooner.${lastOutputHint(stdout, stderr)}`,
      });
    case "cancelled":
      return failWith({
        code: "TIMEOUT",
        exitCode: TIMEOUT_EXIT_CODE,
        signal,
        message: `"${command}" was stopped because the step was cancelled${limits.cancelReason ? ` (${limits.cancelReason})` : ""} before it finished.`,
      });
    case "output":
      return failWith({
        code: "OUTPUT_TOO_LARGE",
        exitCode: outcome.exitCode ?? (signal ? signalExitCode(signal) : null),
        signal,
        message: `"${command}" wrote more than ${limits.maxOutputBytes} bytes to ${outcome.overflowStream ?? "its output"} and was stopped. Make it quieter (a quiet flag, or redirect to a file) or raise maxOutputBytes.`,
      });
  }

  if (signal) {
    return failWith({
      code: "KILLED",
      exitCode: signalExitCode(signal),
      signal,
      message: `"${command}" was killed by ${signal}, which Faultline did not send (the OOM killer or another process may have ended it).${lastOutputHint(stdout, stderr)}`,
    });
  }
  const exitCode = outcome.exitCode ?? 0;
  if (exitCode === 0) return ok({ exitCode: 0, stdout, stderr, durationMs });

  const line = mostInformativeLine(stderr) ?? mostInformativeLine(stdout);
  const said = line ? `: ${line}` : " and printed nothing";
  if (exitCode === 127) {
    return failWith({ code: "COMMAND_NOT_FOUND", exitCode, message: `"${command}" exited with code 127 (a command it ran was not found)${said}` });
  }
  if (exitCode === 126) {
    return failWith({ code: "PERMISSION_DENIED", exitCode, message: `"${command}" exited with code 126 (a command it ran could not be executed)${said}` });
  }
  return failWith({ code: "EXIT_NONZERO", exitCode, message: `"${command}" exited with code ${exitCode}${said}` });
}

export function buildEnv(extra: Record<string, string> | undefined, idempotencyKey: string): Record<string, string> {
  const inherited = INHERITED_ENV.flatMap((k) => (process.env[k] === undefined ? [] : [[k, process.env[k] as string] as const]));
  return { ...Object.fromEntries(inherited), FAULTLINE_IDEMPOTENCY_KEY: idempotencyKey, ...extra };
}

// ---------- process execution ----------

/** Collects a stream up to `limit` bytes; `add` returns false once the limit is exceeded. */
function outputCollector(limit: number) {
  const chunks: Buffer[] = [];
  let bytes = 0;
  return {
    add(chunk: Buffer): boolean {
      const room = limit - bytes;
      if (room > 0) {
        const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
        chunks.push(part);
        bytes += part.length;
      }
      return chunk.length <= room;
    },
    text: () => Buffer.concat(chunks).toString("utf8"),
  };
}

/** Send a signal to the child's whole process group (it was spawned detached, so its pid is the group id). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* already gone */
    }
  }
}

interface ExecSpec {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  input: string | undefined;
  maxOutputBytes: number;
  timeoutMs: number;
  signal: AbortSignal;
  killGraceMs: number;
}

export function execute(spec: ExecSpec): Promise<ShellOutcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    let child: ChildProcess;
    try {
      child = spawn(spec.command, spec.args, {
        cwd: spec.cwd,
        env: spec.env as NodeJS.ProcessEnv, // Next's typings make NODE_ENV required; the child does not need it
        detached: true,
        stdio: [spec.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
        windowsHide: true,
      });
    } catch (err) {
      resolve({ kind: "spawn_error", errno: errnoOf(err), message: errorMessage(err) });
      return;
    }

    const stdout = outputCollector(spec.maxOutputBytes);
    const stderr = outputCollector(spec.maxOutputBytes);
    let spawned = false;
    let settled = false;
    let stoppedBy: StopReason | null = null;
    let overflowStream: "stdout" | "stderr" | null = null;
    let killTimer: NodeJS.Timeout | undefined;

    const stop = (reason: StopReason) => {
      if (stoppedBy) return;
      stoppedBy = reason;
      signalGroup(child, "SIGTERM");
      killTimer = setTimeout(() => signalGroup(child, "SIGKILL"), spec.killGraceMs);
    };
    const onAbort = () => stop("cancelled");
    const deadline = setTimeout(() => stop("timeout"), spec.timeoutMs);
    spec.signal.addEventListener("abort", onAbort, { once: true });

    const cleanup = () => {
      settled = true;
      clearTimeout(deadline);
      spec.signal.removeEventListener("abort", onAbort);
      if (killTimer) {
        clearTimeout(killTimer);
        signalGroup(child, "SIGKILL"); // stragglers of a group we were stopping
      }
    };

    const capture = (name: "stdout" | "stderr", collector: ReturnType<typeof outputCollector>) => (chunk: Buffer) => {
      if (collector.add(chunk)) return;
      overflowStream ??= name;
      stop("output");
    };
    child.stdout?.on("data", capture("stdout", stdout));
    child.stderr?.on("data", capture("stderr", stderr));
    if (spec.input !== undefined && child.stdin) {
      child.stdin.on("error", () => {}); // EPIPE when the program does not read its input
      child.stdin.end(spec.input);
    }

    child.once("spawn", () => {
      spawned = true;
    });
    child.on("error", (err) => {
      if (spawned || settled) return; // e.g. a failed kill(): the 'close' event still reports the outcome
      cleanup();
      resolve({ kind: "spawn_error", errno: errnoOf(err), message: errorMessage(err) });
    });
    child.once("close", (code, signal) => {
      if (settled) return;
      cleanup();
      resolve({
        kind: "exited",
        exitCode: code,
        signal,
        stoppedBy,
        overflowStream,
        stdout: stdout.text(),
        stderr: stderr.text(),
        durationMs: Math.round(performance.now() - started),
      });
    });
  });
}

async function isDirectory(p: string): Promise<boolean> {
  return fs.stat(p).then((s) => s.isDirectory(), () => false);
}

export function createShellTool(options: ShellToolOptions = {}): Tool<ShellArgs> {
  const killGraceMs = options.killGraceMs ?? KILL_GRACE_MS;
  return {
    name: "shell",
    description: "Run an allowlisted binary (without a shell) in the mission workspace, with a time limit and an output cap.",
    args: shellArgsSchema,
    idempotent: false,
    async run(args: ShellArgs, ctx: ToolContext): Promise<ToolResult> {
      const binary = path.basename(args.command);
      if (!ctx.allowedBinaries.includes(binary)) return fail(notAllowedError(binary, ctx.allowedBinaries));

      const cwd = await resolveInWorkspace(ctx.workspace, args.cwd ?? ".", "working directory");
      if (!cwd.ok) return fail(cwd.error);
      if (!(await isDirectory(cwd.absolute))) {
        return fail({ code: "NOT_FOUND", message: `The working directory "${args.cwd}" does not exist in the workspace. Create it in an earlier step or fix cwd.` });
      }

      if (ctx.signal.aborted) {
        const reason = abortReason(ctx.signal);
        return fail({ code: "TIMEOUT", message: `"${args.command}" was not started because the step was already cancelled${reason ? ` (${reason})` : ""}.` });
      }
      const outcome = await execute({
        command: args.command,
        args: args.args,
        cwd: cwd.absolute,
        env: buildEnv(args.env, ctx.idempotencyKey),
        input: args.input,
        maxOutputBytes: args.maxOutputBytes,
        timeoutMs: ctx.timeoutMs,
        signal: ctx.signal,
        killGraceMs,
      });
      return interpretOutcome(args.command, outcome, { timeoutMs: ctx.timeoutMs, maxOutputBytes: args.maxOutputBytes, cancelReason: abortReason(ctx.signal) });
    },
  };
}

export const shellTool = createShellTool();
