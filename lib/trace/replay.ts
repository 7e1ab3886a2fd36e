import { canonicalJson } from "../authority/digest";
import { DEFAULT_APPROVAL_TTL_MS } from "../authority/authority";
import { advance, type EngineIO, type ThinkResult } from "../mission/engine";
import type { MissionEvent, NewMissionEvent } from "../mission/events";
import { withPolicySnapshot, type GatePolicySnapshot } from "../mission/gate-policy";
import { applyEvent, IllegalTransitionError } from "../mission/reducer";
import { allowedBinariesOf } from "../mission/steps";
import { stepIdempotent } from "../tools";
import type { MissionState } from "../mission/types";
import type { LibraryConsultation } from "../mission/library";
import type { Read, Tape, TapeConfig, Trace } from "./format";
import { redactor } from "./redact";

/**
 * Where a run derived again from a trace parts from the recorded one: the seq of the first recorded event
 * that differs (or where the derived run wrote something the record does not hold), its type, why, and
 * each side's event as shown (`shown`), or null where that side wrote nothing. `Recorded` and `Derived`
 * name the two sides in the report (the worker's record and the replay; the original and the changed run).
 */
export type EventParting<Recorded extends string, Derived extends string> = { seq: number; type: string | null; why: string } & Record<Recorded | Derived, Record<string, unknown> | null>;

/** One place where the replayed engine does not produce what the worker recorded. */
export type Divergence = EventParting<"recorded", "replayed">;

export interface ReplayReport {
  missionId: string;
  /** Events replayed (the trace's events: each one re-derived or taken as recorded input). */
  events: number;
  /** Of them, re-derived by the engine (the rest are people's and agents' input, applied as recorded). */
  derived: number;
  /** Engine transitions run. */
  transitions: number;
  divergences: Divergence[];
  firstDivergence: Divergence | null;
  /** The final status the replay's state derives (null: the mission had not ended). */
  finalStatus: string | null;
  /** Said when nothing could be re-derived (a trace without engine readings). */
  note?: string;
}

export interface ReplayOptions {
  /**
   * The failure-mode library to consult, for real (the CLI passes its database's ranking). Absent: the
   * library's recorded answers are played back like the other readings.
   */
  library?: EngineIO["library"];
}

/** Fields that measure the computation's own duration (not a clock reading the trace holds): not compared. */
export const MEASURED_FIELDS: readonly string[] = ["decisionTimeMs"];

/** The original transition wrote nothing more: the replay of this transition ends here (a stop or crash). */
class Stop extends Error {}
/** The replay needs a value the trace does not hold (its engine went another way): it says which. */
class Unrecorded extends Error {}

const redact = redactor();

/** The comparable form of an event: what it says, without its position and append time, as JSON, redacted. */
export function comparable(e: Pick<MissionEvent, "type" | "actorId" | "payload" | "reason" | "impact" | "evidence">): string {
  return canonicalJson(mask(redact(JSON.parse(JSON.stringify({ type: e.type, actorId: e.actorId, payload: e.payload, reason: e.reason, impact: e.impact, evidence: e.evidence ?? null })))));
}

/**
 * True only when two events' compared parts are the same values (the derived and the recorded event
 * usually are): then their comparable forms are equal without building them. False says nothing: the
 * caller compares the comparable forms (redaction, masked fields and JSON's own rules decide then).
 */
export function sameComparable(a: Pick<MissionEvent, "type" | "actorId" | "payload" | "reason" | "impact" | "evidence">, b: Pick<MissionEvent, "type" | "actorId" | "payload" | "reason" | "impact" | "evidence">): boolean {
  return a.type === b.type && a.actorId === b.actorId && sameValue(a.reason, b.reason) && sameValue(a.impact, b.impact) && sameValue(a.evidence ?? null, b.evidence ?? null) && sameValue(a.payload, b.payload);
}

/**
 * Structural equality that is conservative for JSON: identical values, or plain arrays/objects whose
 * own enumerable members are pairwise identical this way. Anything JSON would transform (`toJSON`, a
 * member present on one side only, even if undefined) answers false, and the caller serialises.
 */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  const arr = Array.isArray(a);
  if (arr !== Array.isArray(b)) return false;
  if (arr) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!sameValue(x[i], y[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  if (typeof x.toJSON === "function" || typeof y.toJSON === "function") return false;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const k of keys) if (!Object.prototype.propertyIsEnumerable.call(y, k) || !sameValue(x[k], y[k])) return false;
  return true;
}

function mask(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(mask);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = MEASURED_FIELDS.includes(k) ? 0 : mask(x);
  return out;
}

export function shown(e: MissionEvent): Record<string, unknown> {
  return { seq: e.seq, type: e.type, actorId: e.actorId, at: e.at, payload: e.payload, reason: e.reason, impact: e.impact, evidence: e.evidence ?? null };
}

/**
 * Compares one derived engine write with the events recorded for the same write: null when they say the
 * same, else the index where they part and why (a count that differs, or the first field that differs,
 * located by `where`). `names` words the two sides: the derived run and the record, and their events.
 */
export function writeParting(
  derived: readonly MissionEvent[],
  recorded: readonly MissionEvent[],
  names: { derived: string; recorded: string; derivedEvent: string; recordedEvent: string },
  where: (derived: MissionEvent, recorded: MissionEvent) => string,
): { at: number; why: string } | null {
  for (let at = 0; at < Math.max(derived.length, recorded.length); at++) {
    const a = derived[at];
    const b = recorded[at];
    if (!a) return { at, why: `The ${names.recorded} wrote ${recorded.length} event(s) here; the ${names.derived} wrote ${derived.length}.` };
    if (!b) return { at, why: `The ${names.derived} wrote ${derived.length} event(s) here; the ${names.recorded} wrote ${recorded.length}.` };
    if (!sameComparable(a, b) && comparable(a) !== comparable(b)) return { at, why: `The ${names.derivedEvent} ${a.type} differs from the ${names.recordedEvent} ${b.type} at ${where(a, b)}.` };
  }
  return null;
}

export function firstDifference(a: unknown, b: unknown, path = ""): string {
  if (canonicalJson(a) === canonicalJson(b)) return "";
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], path ? `${path}.${k}` : k);
      if (d) return d;
    }
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
  }
  return path || "(value)";
}

/**
 * Replays a trace through the real engine (`advance`): the reducer, diagnosis, library walk, authority
 * and final-status derivation run again; the worker's readings (ToolResults, model turns, clock, ids,
 * the admin's policy…) are played back from the io lines, and the library is consulted for real when
 * `opts.library` is given. Events nobody's engine produced (a person's decision, an agent's call, a
 * pause) are applied as recorded. Each engine write is compared with the events the worker recorded for it.
 */
export async function replayTrace(trace: Trace, opts: ReplayOptions = {}): Promise<ReplayReport> {
  const events = trace.events;
  const divergences: Divergence[] = [];
  const states = new Map<number, MissionState>();
  let state = null as MissionState | null;
  let ptr = 0;
  let derived = 0;
  let transitions = 0;
  let config = null as TapeConfig | null;
  let lastAt = events[0]?.at ?? new Date(0).toISOString();

  const remember = (s: MissionState) => {
    states.set(s.seq, s);
    if (states.size > 512) states.delete(states.keys().next().value!);
  };
  const applyRecorded = (e: MissionEvent): boolean => {
    try {
      state = applyEvent(state, e);
      remember(state);
      lastAt = e.at;
      return true;
    } catch (err) {
      if (!(err instanceof IllegalTransitionError)) throw err;
      divergences.push({ seq: e.seq, type: e.type, why: `The reducer refuses the recorded event: ${err.message}. The replay cannot go on from here.`, recorded: shown(e), replayed: null });
      return false;
    }
  };
  const tapeAt = (i: number): (Tape & { count: number }) | undefined => (i < events.length ? trace.tapes.get(events[i].seq) : undefined);
  /** Skips the recorded batch at `ptr` (applies it as recorded). */
  const skipBatch = (): boolean => {
    const t = tapeAt(ptr)!;
    for (let k = 0; k < t.count; k++) if (!applyRecorded(events[ptr++])) return false;
    return true;
  };

  while (ptr < events.length) {
    const e = events[ptr];
    const tape = trace.tapes.get(e.seq);
    if (!tape) {
      if (!applyRecorded(e)) break;
      ptr++;
      continue;
    }
    if (tape.config) config = tape.config;
    const start = tape.from === state?.seq ? state : states.get(tape.from);
    if (tape.turn !== 0 || !start || !config) {
      const why =
        tape.turn !== 0
          ? `The worker wrote these ${tape.count} event(s) as write ${tape.turn + 1} of a transition; the replay's transition ended before it.`
          : !config
            ? "The trace holds no worker configuration before this engine write (its io lines were cut or edited)."
            : `The worker's transition started from seq ${tape.from}, which the replay no longer holds.`;
      divergences.push({ seq: e.seq, type: e.type, why, recorded: shown(e), replayed: null });
      if (!skipBatch()) break;
      continue;
    }
    transitions++;
    const pb = playback(config, tape.from);
    let outcome = "";
    try {
      const r = await advance(start, pb.io);
      outcome = r.action.kind;
    } catch (err) {
      if (err instanceof Unrecorded) pb.diverge(err.message);
      else if (!(err instanceof Stop)) pb.diverge(`The replayed engine failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (pb.writes === 0 && !pb.diverged) pb.diverge(`The worker's engine wrote here; the replay's engine decided "${outcome || "nothing"}" and wrote nothing.`);
    if (pb.fatal) break;
    // Later writes of the worker's transition that the replay's transition did not make: taken as recorded.
    for (;;) {
      let j = ptr;
      while (j < events.length && !trace.tapes.has(events[j].seq)) j++;
      const rest = tapeAt(j);
      if (!rest || rest.from !== tape.from || rest.turn === 0) break;
      while (ptr < j) if (!applyRecorded(events[ptr++])) return report();
      if (!pb.diverged) pb.diverge(`The worker wrote these ${rest.count} event(s) as write ${rest.turn + 1} of its transition; the replay's transition ended before it.`);
      if (!skipBatch()) return report();
    }
  }
  return report();

  function report(): ReplayReport {
    const s = state as MissionState | null;
    const note = trace.tapes.size === 0 && events.length > 1 ? "This trace holds no engine readings (its events were recorded before the flight recorder, or by no worker): every event was applied as recorded and nothing was re-derived." : undefined;
    return { missionId: trace.header.missionId, events: s?.seq ?? 0, derived, transitions, divergences, firstDivergence: divergences[0] ?? null, finalStatus: s?.finalStatus ?? null, ...(note ? { note } : {}) };
  }
  /** An EngineIO that plays one transition back from the trace, and compares each of its writes. */
  function playback(cfg: TapeConfig, from: number) {
    let turn = 0;
    let pos = 0;
    let lastNow = Date.parse(lastAt);
    let fresh = 0;
    const pb = { io: null as unknown as EngineIO, writes: 0, turn: 0, diverged: false, fatal: false, diverge };

    /** The tape of this transition's next write, applying people's and agents' events recorded before it. */
    function current(): (Tape & { count: number }) | null {
      while (ptr < events.length && !trace.tapes.has(events[ptr].seq)) {
        if (!applyRecorded(events[ptr])) {
          pb.fatal = true;
          throw new Stop();
        }
        ptr++;
      }
      const t = tapeAt(ptr);
      return t && t.from === from && t.turn === turn ? t : null;
    }

    function read<K extends Read["k"]>(k: K): Extract<Read, { k: K }> | undefined {
      const t = current();
      if (!t) throw new Stop();
      if (t.reads[pos]?.k === k) return t.reads[pos++] as Extract<Read, { k: K }>;
      // Another order than the worker's: the engine went another way. Take the next reading of this kind, if any.
      const i = t.reads.findIndex((r, j) => j >= pos && r.k === k);
      if (i < 0) return undefined;
      pos = i + 1;
      return t.reads[i] as Extract<Read, { k: K }>;
    }

    function diverge(why: string, replayed: MissionEvent | null = null) {
      const at = ptr < events.length ? events[ptr] : null;
      pb.diverged = true;
      divergences.push({ seq: at?.seq ?? (state?.seq ?? 0) + 1, type: at?.type ?? replayed?.type ?? null, why, recorded: at ? shown(at) : null, replayed: replayed ? shown(replayed) : null });
    }

    const has = (c: string) => cfg.capabilities.includes(c);
    const io: EngineIO = {
      now: () => {
        const r = read("now");
        if (r) lastNow = r.v;
        return lastNow;
      },
      newId: () => read("id")?.v ?? `replay-${++fresh}`,
      stopped: () => false,
      idempotent: stepIdempotent,
      diagnosis: cfg.diagnosis ?? undefined,
      run: async (call, ctx) => {
        const r = read("run");
        const wanted = canonicalJson(redact({ tool: call.tool, args: call.args }));
        if (!r) throw new Unrecorded(`The replay runs ${call.tool} (${ctx.idempotencyKey}), whose ToolResult the trace does not hold: the worker did not run it here.`);
        if (r.key !== ctx.idempotencyKey || canonicalJson(r.call) !== wanted) throw new Unrecorded(`The replay runs ${call.tool} ${wanted} (${ctx.idempotencyKey}) where the worker ran ${r.call.tool} ${canonicalJson(r.call.args)} (${r.key}): the trace holds no ToolResult for it.`);
        return { result: r.result, evidence: r.evidence } as unknown as Awaited<ReturnType<EngineIO["run"]>>;
      },
      append: async (list) => write(list),
    };
    if (has("workspaceState")) io.workspaceState = async () => read("workspaceState")?.v ?? { files: [], directories: [] };
    if (has("allowedBinaries")) io.allowedBinaries = (s) => read("binaries")?.v ?? allowedBinariesOf(s);
    if (has("findPatterns")) io.findPatterns = async () => (read("patterns")?.v ?? []) as Awaited<ReturnType<NonNullable<EngineIO["findPatterns"]>>>;
    if (has("library"))
      io.library = async (query, limit) => {
        const r = read("library");
        if (opts.library) return opts.library(query, limit);
        if (!r) throw new Unrecorded("The replay consults the failure-mode library where the worker did not; the trace holds no answer for it (replay with a library to consult it for real).");
        return r.v as unknown as LibraryConsultation;
      };
    if (has("reflect")) io.reflect = async () => (read("reflect")?.v ?? null) as Awaited<ReturnType<NonNullable<EngineIO["reflect"]>>>;
    if (has("think"))
      io.think = async (_s, agent) => {
        const r = read("think");
        if (!r) throw new Unrecorded(`The replay asks the model of "${agent}" for a turn the worker did not take: the trace holds no model output for it (a model is never asked again in a replay).`);
        return r.v as unknown as ThinkResult;
      };
    if (has("authority")) {
      io.authority = {
        approvalTtlMs: cfg.approvalTtlMs ?? DEFAULT_APPROVAL_TTL_MS,
        defaultPolicy: async () => (read("policy")?.v ?? []) as Awaited<ReturnType<NonNullable<EngineIO["authority"]>["defaultPolicy"]>>,
        ...(has("authority.workspace") ? { workspace: () => read("workspace")?.v ?? "" } : {}),
      };
    }
    if (has("checkEvidence")) io.checkEvidence = async () => (read("evidence")?.v ?? []) as Awaited<ReturnType<NonNullable<EngineIO["checkEvidence"]>>>;
    if (has("externalResults")) io.externalResults = async () => (read("external")?.v ?? []) as Awaited<ReturnType<NonNullable<EngineIO["externalResults"]>>>;
    if (has("ensureActor")) io.ensureActor = async () => {};
    pb.io = io;
    return pb;

    /** One write of the replayed engine: derived with the reducer, compared with the worker's write. */
    async function write(list: Parameters<EngineIO["append"]>[0]): Promise<MissionState> {
      const t = current();
      const base = state!;
      let s = base;
      const out: MissionEvent[] = [];
      const recorded = t ? events.slice(ptr, ptr + t.count) : [];
      let refused: string | null = null;
      try {
        for (const item of list) {
          let built: NewMissionEvent | null = typeof item === "function" ? item(s) : item;
          if (!built) continue;
          const rec = recorded[out.length];
          // The gate policy in force is read by the database at append time: its recorded snapshot is played back.
          if (built.type === "gate.opened" && built.payload.policy === undefined && !(rec?.type === "gate.opened" && !("policy" in rec.payload))) {
            const policy = rec?.type === "gate.opened" ? ((rec.payload.policy ?? null) as GatePolicySnapshot | null) : null;
            built = withPolicySnapshot(built, policy, rec?.at ?? lastAt);
          }
          const ev = { ...built, missionId: base.id, seq: s.seq + 1, actorId: built.actorId ?? rec?.actorId ?? "replay", at: rec?.at ?? lastAt } as MissionEvent;
          s = applyEvent(s, ev);
          out.push(ev);
        }
      } catch (err) {
        if (!(err instanceof IllegalTransitionError)) throw err;
        refused = err.message;
      }
      if (!t) {
        if (out.length || refused) diverge(`The replay writes ${out.length} event(s) here that the worker did not write in this transition${refused ? ` (and the reducer refuses the next: ${refused})` : ""}.`, out[0] ?? null);
        throw new Stop();
      }
      const parting = refused
        ? { at: 0, why: `The reducer refuses the replayed event: ${refused}.` }
        : writeParting(out, recorded, { derived: "replay", recorded: "worker", derivedEvent: "replayed", recordedEvent: "recorded" }, (a, b) => firstDifference(JSON.parse(comparable(a)), JSON.parse(comparable(b))));
      pb.writes++;
      if (parting) {
        const { at, why } = parting;
        const rec = recorded[Math.min(at, recorded.length - 1)];
        pb.diverged = true;
        divergences.push({ seq: rec.seq, type: rec.type, why, recorded: shown(rec), replayed: out[at] ? shown(out[at]) : null });
        // Resynchronise on the record: later transitions are replayed from what happened.
        for (const e of recorded) if (!applyRecorded(e)) {
          pb.fatal = true;
          throw new Stop();
        }
        ptr += t.count;
        turn++;
        pb.turn = turn;
        pos = 0;
        throw new Stop();
      }
      state = s;
      remember(s);
      lastAt = out.at(-1)?.at ?? lastAt;
      derived += out.length;
      ptr += t.count;
      turn++;
      pb.turn = turn;
      pos = 0;
      return s;
    }
  }
}
