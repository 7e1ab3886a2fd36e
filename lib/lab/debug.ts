import { wireBody } from "../llm/client";
import { modelRequest } from "../mission/autonomous";
import type { MissionEvent } from "../mission/events";
import { applyEvent } from "../mission/reducer";
import type { MissionState } from "../mission/types";
import type { Tape, TapeConfig } from "../trace/format";
import { stateChanges } from "./projection";

/**
 * Debug projection at one seq (seed 002 FDR-N012, mode `debug`): the mission's state after that event,
 * reduced from the log by the real reducer; what the event changed; and the engine's readings behind
 * the write the event belongs to (event_io), with each model turn's request and response. The flight
 * recorder keeps a turn's response (the `think` reading); its request is a pure function of the state
 * the transition started from (`modelRequest`, what the worker sends, as `wireBody` puts it on the wire), so
 * it is derived again from the state at the tape's `from` seq — the same log, reducer and functions.
 */

export interface DebugModelCall {
  agent: string;
  /**
   * The request the turn sent — the JSON body the provider received (`wireBody`), derived from the state at
   * `fromSeq` (see above) — with the model the worker configured for the provider that answered; a failed
   * turn names no model (each provider of the chain got it with its own). Null when the log does not hold that state.
   */
  request: Record<string, unknown> | null;
  /** The response as recorded: the tool call or text with provider, model and latency, or the failure. */
  response: Record<string, unknown>;
}

export interface DebugAtSeq {
  seq: number;
  event: MissionEvent;
  state: MissionState;
  /** `path: value` lines: what this event changed in the state (as `faultline mission watch --mode debug` prints). */
  changes: string[];
  /** The write the event belongs to: its first seq, how many events it wrote, the seq its transition started from; null when no readings were recorded for it (an event a person or the web wrote). */
  write: { seq: number; count: number; fromSeq: number } | null;
  modelCalls: DebugModelCall[];
  /** The LLM reflections of the diagnosis read in this write (their request is not recorded). */
  reflections: Array<Record<string, unknown> | null>;
  /** How many readings of each other kind the write took (clock, ids, tool runs…). */
  otherReads: Record<string, number>;
}

/**
 * `events` are the mission's events from seq 1 through at least `seq`, in order; `tape` the readings of the
 * write holding `seq` (or null); `config` the worker's configuration in force then (the last tape carrying
 * one), whose providers name the model each request was sent for. Throws a sentence when `seq` is not in
 * the events given.
 */
export function debugAtSeq(events: readonly MissionEvent[], seq: number, tape: { seq: number; count: number; tape: Tape } | null, config: TapeConfig | null = null): DebugAtSeq {
  const last = events.at(-1)?.seq ?? 0;
  if (!Number.isInteger(seq) || seq < 1 || seq > last) throw new RangeError(`seq ${seq} is not an event of this mission: choose 1–${last}.`);
  const holds = tape && tape.seq <= seq && seq < tape.seq + tape.count ? tape : null;
  let state: MissionState | null = null;
  let before: MissionState | null = null;
  let from: MissionState | null = null;
  for (const e of events) {
    if (e.seq !== (state?.seq ?? 0) + 1) throw new Error(`The log has a gap: expected seq ${(state?.seq ?? 0) + 1}, read ${e.seq}.`);
    if (e.seq === seq) before = state;
    state = applyEvent(state, e);
    if (holds && state.seq === holds.tape.from) from = state;
    if (e.seq === seq) break;
  }
  const after = state!;
  const modelCalls: DebugModelCall[] = [];
  const reflections: DebugAtSeq["reflections"] = [];
  const otherReads: Record<string, number> = {};
  for (const r of holds?.tape.reads ?? []) {
    if (r.k === "think") {
      modelCalls.push({ agent: r.agent, request: from ? requestBody(from, r.agent, r.v, config) : null, response: r.v });
    } else if (r.k === "reflect") reflections.push(r.v);
    else otherReads[r.k] = (otherReads[r.k] ?? 0) + 1;
  }
  return {
    seq,
    event: events.find((e) => e.seq === seq)!,
    state: after,
    changes: stateChanges(before, after),
    write: holds ? { seq: holds.seq, count: holds.count, fromSeq: holds.tape.from } : null,
    modelCalls,
    reflections,
    otherReads,
  };
}

/** The body as the answering provider got it: with the model the worker configured for that provider (the response names the model that answered, which may differ). */
function requestBody(from: MissionState, agent: string, response: Record<string, unknown>, config: TapeConfig | null): Record<string, unknown> {
  const provider = (response.model as { provider?: unknown } | undefined)?.provider;
  // Agent providers come after the diagnosis's in the config, and an agent's turn asks them first.
  const model = config?.providers.findLast((p) => p.name === provider)?.model;
  const body = wireBody(model ?? "", modelRequest(from, agent));
  if (model === undefined) delete body.model;
  return body;
}
