import fs from "node:fs";
import type { Db } from "../db/client";
import { consultLibrary } from "../db/queries/library-protocol";
import { readTraceSource } from "../db/queries/traces";
import { traceLines } from "../lib/trace/export";
import { secretValues } from "../lib/trace/redact";
import { replayTrace, type ReplayReport } from "../lib/trace/replay";
import { splitLines, verifyTrace } from "../lib/trace/verify";
import { isUuid } from "../lib/ids";

/**
 * `faultline trace export|verify` and `faultline lab replay` (FDR-N004, docs/traces.md). The pure work is
 * lib/trace; this reads files and the database and says what went wrong in words, never with a stack.
 */
export interface Io {
  out(line: string): void;
  err(line: string): void;
}

/** Bad input the person can fix (a missing file, an unknown mission): exit 2 with the message. */
export class TraceUsageError extends Error {}


export function missionIdArg(v: string | undefined): string {
  if (!v) throw new TraceUsageError("trace export needs a mission ID: faultline trace export ID [-o FILE]. List missions with: faultline mission list");
  if (!isUuid(v)) throw new TraceUsageError(`"${v}" is not a mission ID (a UUID). List missions with: faultline mission list`);
  return v;
}

/** A trace file's lines; a missing or unreadable file is a usage error saying what to give instead. */
export function readTraceFile(file: string | undefined, command: string): string[] {
  if (!file) throw new TraceUsageError(`${command} needs a trace file: faultline ${command} FILE (written by faultline trace export ID -o FILE).`);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new TraceUsageError(
      code === "ENOENT"
        ? `There is no file "${file}". Give the path of a trace written by faultline trace export ID -o FILE.`
        : code === "EISDIR"
          ? `"${file}" is a directory, not a trace file.`
          : `"${file}" cannot be read (${code ?? (e as Error).message}). Check its permissions.`,
    );
  }
  return splitLines(text);
}

/** Writes a mission's trace to `out` (or stdout). */
export async function traceExport(db: Db, io: Io, p: { missionId: string; out?: string }): Promise<number> {
  const src = await readTraceSource(db, p.missionId);
  if (!src) throw new TraceUsageError(`Mission ${p.missionId} does not exist in this database. List missions with: faultline mission list (DATABASE_URL / FAULTLINE_DATA_DIR choose the database).`);
  const lines = [...traceLines(src, { secrets: secretValues(process.env) })];
  if (p.out) {
    fs.writeFileSync(p.out, `${lines.join("\n")}\n`);
    io.err(`trace of mission ${p.missionId}: ${lines.length} lines, ${src.events.length} events → ${p.out}`);
  } else for (const l of lines) io.out(l);
  return 0;
}

export function traceVerify(io: Io, p: { file?: string; json: boolean }): number {
  const v = verifyTrace(readTraceFile(p.file, "trace verify"));
  if (p.json) io.out(JSON.stringify(v.ok ? { ok: true, lines: v.lines, events: v.trace.events.length, missionId: v.trace.header.missionId } : v, null, 2));
  else if (v.ok) io.out(`ok, ${v.lines} lines (${v.trace.events.length} events of mission ${v.trace.header.missionId}, trace v${v.trace.header.version})`);
  else io.err(`${p.file}: line ${v.line}: ${v.why}`);
  return v.ok ? 0 : 1;
}

/**
 * Replays a trace through the real engine. `withLibrary` opens the configured database only when the
 * trace consulted the failure-mode library (the consultation runs again, for real).
 */
export async function labReplay(io: Io, p: { file?: string; json: boolean; withLibrary<T>(fn: (db: Db) => Promise<T>): Promise<T> }): Promise<number> {
  const v = verifyTrace(readTraceFile(p.file, "lab replay"));
  if (!v.ok) {
    io.err(`${p.file}: line ${v.line}: ${v.why}\nReplay reads only a trace whose chain holds: check it with faultline trace verify ${p.file}, or export it again.`);
    return 1;
  }
  const usesLibrary = [...v.trace.tapes.values()].some((t) => t.reads.some((r) => r.k === "library"));
  const report = usesLibrary ? await p.withLibrary((db) => replayTrace(v.trace, { library: (q, limit) => consultLibrary(db, q, limit) })) : await replayTrace(v.trace);
  if (p.json) io.out(JSON.stringify(report, null, 2));
  else io.out(replayText(report));
  return report.divergences.length ? 1 : 0;
}

export function replayText(r: ReplayReport): string {
  const head = `replayed ${r.events} events of mission ${r.missionId}: ${r.derived} re-derived by the engine in ${r.transitions} transitions, ${r.events - r.derived} recorded input (people, agents' calls, pauses); final status ${r.finalStatus ?? "— (not ended)"}.`;
  if (!r.divergences.length) return `${head}\n0 divergences.${r.note ? `\n${r.note}` : ""}`;
  const d = r.firstDivergence!;
  return [
    head,
    `${r.divergences.length} divergence(s). The first, at seq ${d.seq}${d.type ? ` (${d.type})` : ""}: ${d.why}`,
    `  recorded: ${d.recorded ? JSON.stringify(d.recorded) : "nothing"}`,
    `  replayed: ${d.replayed ? JSON.stringify(d.replayed) : "nothing"}`,
    ...r.divergences.slice(1).map((x) => `then at seq ${x.seq}${x.type ? ` (${x.type})` : ""}: ${x.why}`),
  ].join("\n");
}
