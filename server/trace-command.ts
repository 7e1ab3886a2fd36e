import fs from "node:fs";
import type { Db } from "../db/client";
import { consultLibrary } from "../db/queries/library-protocol";
import { readTraceSource } from "../db/queries/traces";
import { traceLines } from "../lib/trace/export";
import { secretValues } from "../lib/trace/redact";
import { replayTrace, type ReplayReport } from "../lib/trace/replay";
import { splitLines, verifyTrace } from "../lib/trace/verify";
import { isUuid } from "../lib/ids";
import { counterfactualReplay, changedDefinition, type CounterfactualOptions, type CounterfactualReport } from "../lib/trace/counterfactual";
import { CounterfactualInputError, isEmptyChange, parseFlag, parseRulesText, parseSet, type CounterfactualChange } from "../lib/trace/counterfactual-input";
import { verifyCounterfactuals, type CounterfactualVerification } from "../lib/trace/counterfactual-verify";
import type { Trace } from "../lib/trace/format";
import type { Provider } from "../lib/llm/providers";
import type { AuditActor } from "../lib/audit";
import type { MissionState } from "../lib/mission/types";
import { explainMission } from "../lib/mission/explain";
import { getMissionById } from "../db/queries/missions";
import { recordCounterfactualChecks } from "../db/queries/counterfactual-checks";
import { agentTurn } from "./orchestrator/runner";

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
export async function labReplay(io: Io, p: { file?: string; json: boolean; withLibrary<T>(fn: (db: Db) => Promise<T>): Promise<T>; counterfactual?: CounterfactualArgs }): Promise<number> {
  // A counterfactual's own input is checked before the trace is read: a bad --set/--rules/--flag says so at once.
  const change = p.counterfactual ? counterfactualChange(p.counterfactual) : null;
  const v = verifyTrace(readTraceFile(p.file, "lab replay"));
  if (!v.ok) {
    io.err(`${p.file}: line ${v.line}: ${v.why}\nReplay reads only a trace whose chain holds: check it with faultline trace verify ${p.file}, or export it again.`);
    return 1;
  }
  const usesLibrary = [...v.trace.tapes.values()].some((t) => t.reads.some((r) => r.k === "library"));
  if (change && (!isEmptyChange(change) || p.counterfactual?.live)) return counterfactualCommand(io, v.trace, change, { ...p, usesLibrary });
  const report = usesLibrary ? await p.withLibrary((db) => replayTrace(v.trace, { library: (q, limit) => consultLibrary(db, q, limit) })) : await replayTrace(v.trace);
  if (p.json) io.out(JSON.stringify(report, null, 2));
  else io.out(replayText(report));
  return report.divergences.length ? 1 : 0;
}

/** The counterfactual flags of `lab replay`, as given. */
export interface CounterfactualArgs {
  rules?: string;
  set?: string[];
  flag?: string[];
  live?: boolean;
  /** The providers `--live` asks (the configured ones: FAULTLINE_LLM_PROVIDERS, the recorded provider). */
  providers?: () => Provider[];
}

/** --set / --rules / --flag parsed and checked; bad input is a usage error that names it. */
export function counterfactualChange(a: CounterfactualArgs): CounterfactualChange {
  try {
    const change: CounterfactualChange = { sets: (a.set ?? []).map(parseSet), flags: (a.flag ?? []).map(parseFlag) };
    if (a.rules !== undefined) {
      if (!a.rules.trim()) throw new CounterfactualInputError("--rules needs a file: the default policy's rules as JSON or YAML.");
      let text: string;
      try {
        text = fs.readFileSync(a.rules, "utf8");
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        throw new CounterfactualInputError(code === "ENOENT" ? `--rules: there is no file "${a.rules}". Give a rules file (JSON or YAML: a list of rules, or {"rules": [...]} as GET /api/v1/authority/policy answers).` : `--rules: "${a.rules}" cannot be read (${code ?? (e as Error).message}).`);
      }
      change.policy = { source: a.rules, rules: parseRulesText(text, a.rules) };
    }
    return change;
  } catch (e) {
    if (e instanceof CounterfactualInputError) throw new TraceUsageError(e.message);
    throw e;
  }
}

async function counterfactualCommand(io: Io, trace: Trace, change: CounterfactualChange, p: { json: boolean; usesLibrary: boolean; withLibrary<T>(fn: (db: Db) => Promise<T>): Promise<T>; counterfactual?: CounterfactualArgs }): Promise<number> {
  const created = trace.events[0];
  if (created?.type === "mission.created") {
    try {
      changedDefinition(created.payload.definition, change);
    } catch (e) {
      if (e instanceof CounterfactualInputError) throw new TraceUsageError(e.message);
      throw e;
    }
  }
  const live = p.counterfactual?.live ? liveTurns(p.counterfactual.providers) : undefined;
  const run = (library?: CounterfactualOptions["library"]) => counterfactualReplay(trace, change, { library, live });
  const { report } = p.usesLibrary ? await p.withLibrary((db) => run((q, limit) => consultLibrary(db, q, limit))) : await run();
  if (p.json) io.out(JSON.stringify(report, null, 2));
  else io.out(counterfactualText(report));
  return report.changed.stop && report.changed.stop.kind !== "person" ? 1 : 0;
}

/** `--live`: model turns the trace does not hold are asked of the configured providers, through the LLM client. */
function liveTurns(configured: (() => Provider[]) | undefined): CounterfactualOptions["live"] {
  const providers = configured?.() ?? [];
  if (!providers.length) throw new TraceUsageError("--live needs a provider: set FAULTLINE_LLM_PROVIDERS (a JSON array of OpenAI-compatible providers [{name, baseUrl, model, apiKey?}]) and run again.");
  return (s, agent, o) => agentTurn(providers, s, agent, AbortSignal.timeout(Math.max(1, o.timeoutMs)));
}

function describeChangeArgs(c: CounterfactualReport["change"]): string {
  const parts = [...c.sets.map((s) => `--set ${s.path}=${JSON.stringify(s.value)}`), ...(c.rules ? [`--rules ${c.rules.source} (${c.rules.count} rule(s))`] : []), ...c.flags.map((f) => `--flag ${f.name}=${f.value}`), ...c.withoutRules.map((r) => `without ${r}`)];
  return parts.join(", ") || "no change";
}

export function counterfactualText(r: CounterfactualReport): string {
  const lines = [
    `counterfactual replay of mission ${r.missionId} with ${describeChangeArgs(r.change)}`,
    `  original: ${r.original.events} events, final status ${r.original.finalStatus ?? "— (not ended)"}`,
    `  changed:  ${r.changed.events} events in ${r.changed.transitions} transitions${r.changed.liveModelTurns ? ` (${r.changed.liveModelTurns} live model turn(s))` : ""}, ${r.changed.ended ? `final status ${r.changed.finalStatus}` : "not ended"}`,
  ];
  const d = r.firstDifference;
  const stop = r.changed.stop;
  if (!d) lines.push("The changed run follows the original event for event.");
  else lines.push(`It parts from the original at seq ${d.seq}${d.type ? ` (${d.type})` : ""}: ${stop && d.why === stop.why ? "the changed run stops there (below)." : d.why}`, `  original: ${d.original ? JSON.stringify(d.original) : "nothing"}`, `  changed:  ${d.changed ? JSON.stringify(d.changed) : "nothing"}`);
  if (stop) {
    const at = stop.step === null ? "" : stop.kind === "model_output" ? `, proposal ${stop.step + 1}` : `, step ${stop.step + 1}`;
    lines.push(`Stopped at seq ${stop.seq} (${stop.kind}${stop.agent ? `, agent "${stop.agent}"` : ""}${at}): ${stop.why}`);
  }
  lines.push(r.sameOutcome ? `Same outcome: ${r.changed.finalStatus}.` : r.changed.ended ? `The outcome changes: ${r.original.finalStatus ?? "not ended"} → ${r.changed.finalStatus}.` : "The changed run's outcome is not known: it did not end.");
  return lines.join("\n");
}

/**
 * `faultline mission explain ID --verify`: the mission's trace (exported from the database), each
 * counterfactual of its record replayed and judged, the verdicts stored for the mission page.
 */
export async function missionExplainVerify(db: Db, io: Io, p: { missionId: string; json: boolean; actor: AuditActor; live?: boolean; providers?: () => Provider[] }): Promise<number> {
  const live = p.live ? liveTurns(p.providers) : undefined;
  const row = await getMissionById(db, p.missionId);
  const src = row ? await readTraceSource(db, p.missionId) : null;
  if (!row || !src) throw new TraceUsageError(`Mission ${p.missionId} does not exist in this database. List missions with: faultline mission list`);
  const v = verifyTrace([...traceLines(src, { secrets: secretValues(process.env) })]);
  if (!v.ok) throw new Error(`The mission's own trace does not verify (line ${v.line}: ${v.why}).`);
  const results = await verifyCounterfactuals(v.trace, row.state, { library: (q, limit) => consultLibrary(db, q, limit), live });
  await recordCounterfactualChecks(db, p.actor, { missionId: p.missionId, missionSeq: row.state.seq, results });
  const e = explainMission(row.state);
  if (p.json) io.out(JSON.stringify({ missionId: p.missionId, finalStatus: e.finalStatus, failureReason: e.failureReason, explanation: e.explanation, verifications: results }, null, 2));
  else io.out(verifyText(row.state, results));
  return results.some((r) => r.verdict === "did_not_hold") ? 1 : 0;
}

const VERDICT_WORDS = { held: "holds", did_not_hold: "DOES NOT HOLD", undetermined: "undetermined" } as const;

export function verifyText(s: MissionState, results: readonly CounterfactualVerification[]): string {
  if (!results.length) return `Mission ${s.id} (${s.finalStatus ?? "not ended"}) states no counterfactual to verify: its explanation has none and no proposal was rejected with one.`;
  const lines = [`Mission ${s.id} (${s.finalStatus ?? "not ended"}): ${results.length} counterfactual(s) replayed from its trace.`];
  for (const r of results) {
    const p = r.subject.startsWith("proposal:") ? s.proposals.find((x) => `proposal:${x.id}` === r.subject) : null;
    const whose = p ? `proposal ${p.id} of "${p.agent}" (${p.action.tool} ${JSON.stringify(p.action.args)})` : "the mission's explanation";
    lines.push(`- ${VERDICT_WORDS[r.verdict]}: ${whose}: ${JSON.stringify(r.counterfactual.change)} → ${r.counterfactual.expectedOutcome}`, `  ${r.summary}`);
  }
  return lines.join("\n");
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
