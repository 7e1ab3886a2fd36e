import type { MissionEvent } from "../mission/events";
import { lineText, lineToEvent, sha256, TRACE_FORMAT, TRACE_VERSION, traceLineSchema, type Tape, type Trace, type TraceHeader } from "./format";

export type VerifyResult = { ok: true; lines: number; trace: Trace } | { ok: false; line: number; why: string };

/**
 * Checks a trace line by line: each line is JSON in the trace's canonical form, fits the versioned schema,
 * carries its own line number and the sha-256 of the line before it; events run from seq 1 without gaps,
 * each io line sits right before the event it explains, and the end line closes it. Answers the first
 * line that fails and why, or the parsed trace.
 */
export function verifyTrace(lines: Iterable<string>): VerifyResult {
  let header: TraceHeader | null = null;
  const events: MissionEvent[] = [];
  const tapes = new Map<number, Tape & { count: number }>();
  let prevText: string | null = null;
  let n = 0;
  let ended = false;
  let pendingIo: number | null = null;
  const fail = (line: number, why: string): VerifyResult => ({ ok: false, line, why });
  for (const raw of lines) {
    n++;
    const text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (ended) return fail(n, text.trim() ? `a line follows the end line (line ${n - 1}): lines were appended after the export.` : "an empty line follows the end line: the file was changed after the export.");
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      return fail(n, `${text.trim() ? "this line is not JSON" : "this line is empty"} (${e instanceof Error ? e.message : String(e)})${n === 1 ? ": the file is not a Faultline trace" : ": the trace was changed or cut"}.`);
    }
    const obj = json as Record<string, unknown>;
    if (n === 1) {
      if (obj?.t !== "header" || obj?.format !== TRACE_FORMAT) return fail(1, `the first line is not a trace header (format "${TRACE_FORMAT}"): the file is not a Faultline trace. Export one with \`faultline trace export MISSION_ID\`.`);
      if (obj.version !== TRACE_VERSION) return fail(1, `the trace is version ${JSON.stringify(obj.version)}; this Faultline reads version ${TRACE_VERSION}. Export it again with this version, or use the Faultline that wrote it.`);
    }
    const parsed = traceLineSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return fail(n, `this line does not fit the trace format v${TRACE_VERSION}: ${issue.path.join(".") || "(line)"}: ${issue.message}.`);
    }
    const line = parsed.data;
    if (lineText(line) !== text) return fail(n, "this line is not in the trace's canonical form (sorted keys, no spaces): it was edited after the export.");
    if (line.n !== n) return fail(n, line.n > n ? `line ${n} says it is line ${line.n}: ${line.n - n} line(s) are missing before it.` : `line ${n} says it is line ${line.n}: a line was inserted or repeated before it.`);
    if (n > 1 && line.prev !== sha256(prevText!)) return fail(n - 1, `line ${n - 1} was changed after the export: its sha-256 is ${sha256(prevText!)}, and line ${n} recorded ${line.prev}.`);
    prevText = text;
    switch (line.t) {
      case "header":
        if (n !== 1) return fail(n, "a second header: traces were concatenated.");
        header = line;
        break;
      case "io":
        if (pendingIo !== null) return fail(n, "two io lines in a row: each io line comes right before the event it explains.");
        if (line.seq !== events.length + 1) return fail(n, `this io line explains seq ${line.seq}, but the next event is seq ${events.length + 1}.`);
        tapes.set(line.seq, { from: line.from, turn: line.turn, count: line.count, reads: line.reads, ...(line.config ? { config: line.config } : {}) });
        pendingIo = line.seq;
        break;
      case "event":
        if (line.seq !== events.length + 1) return fail(n, line.seq > events.length + 1 ? `event seq ${line.seq} follows seq ${events.length}: event(s) ${events.length + 1}…${line.seq - 1} are missing.` : `event seq ${line.seq} comes again after seq ${events.length}.`);
        pendingIo = null;
        events.push(lineToEvent(header!.missionId, line));
        break;
      case "end":
        if (pendingIo !== null) return fail(n, `the io line before it explains seq ${pendingIo}, which is missing.`);
        if (line.lines !== n) return fail(n, `the end line counts ${line.lines} lines; the file has ${n}.`);
        if (line.events !== events.length || header!.events !== events.length) return fail(n, `the trace holds ${events.length} events; the header says ${header!.events} and the end line ${line.events}.`);
        ended = true;
        break;
    }
  }
  if (n === 0) return fail(1, "the file is empty: it is not a Faultline trace.");
  if (!ended) return fail(n, `the trace stops at line ${n} without its end line: it was cut.`);
  return { ok: true, lines: n, trace: { header: header!, events, tapes } };
}

/** Splits a trace file's text into lines (a final newline does not make an extra line). */
export function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines;
}
