import { canonicalJson } from "../authority/digest";
import { missionLevel, type MissionDefinition } from "../mission/definition";
import type { MissionEvent } from "../mission/events";
import { lineText, sha256, TRACE_FORMAT, TRACE_VERSION, type LabHeader, type Tape, type TapeConfig } from "./format";
import { REDACTION_NAMES, redactor } from "./redact";

export interface TraceSource {
  mission: { id: string; name: string; definition: MissionDefinition };
  /** The whole log, in seq order. */
  events: MissionEvent[];
  /** The engine's readings, each with the seq of the first event its write produced and how many it produced. */
  tapes: Array<{ seq: number; count: number; tape: Tape }>;
}

/**
 * The trace of a mission, line by line (JSON Lines without the newlines): the header, then per event its
 * io line (when the engine produced it) and the event line, then the end line. Secrets are redacted by the
 * named list (lib/trace/redact.ts) before anything is hashed; every line carries the previous line's sha-256.
 */
export function* traceLines(src: TraceSource, opts: { secrets?: readonly string[]; /** A seeded run's seed (the lab's worlds). */ seed?: number | null; /** Written by the lab: its header part. */ lab?: LabHeader } = {}): Generator<string> {
  const redact = redactor({ secrets: opts.secrets });
  const tapes = new Map(src.tapes.map((t) => [t.seq, t]));
  const configs = src.tapes.flatMap((t) => (t.tape.config ? [t.tape.config] : []));
  const distinct = [...new Map(configs.map((c) => [canonicalJson(c), c])).values()];
  let n = 0;
  let prev: string | null = null;
  const emit = (line: Record<string, unknown>): string => {
    const text = lineText({ ...line, n: ++n, prev });
    prev = sha256(text);
    return text;
  };
  yield emit({
    t: "header",
    format: TRACE_FORMAT,
    version: TRACE_VERSION,
    missionId: src.mission.id,
    name: redact(src.mission.name),
    definition: redact(src.mission.definition),
    configDigest: distinct.length ? sha256(canonicalJson(distinct)) : null,
    necessityLevel: missionLevel(src.mission.definition).effective,
    providers: providersOf(distinct, src.tapes),
    seed: opts.seed ?? null,
    events: src.events.length,
    redactions: [...REDACTION_NAMES],
    ...(opts.lab ? { lab: opts.lab } : {}),
  });
  for (const e of src.events) {
    const t = tapes.get(e.seq);
    if (t) yield emit({ t: "io", seq: t.seq, count: t.count, ...(redact(t.tape) as Tape) });
    yield emit({ t: "event", seq: e.seq, type: e.type, actorId: e.actorId, at: e.at, payload: redact(e.payload), reason: redact(e.reason), impact: redact(e.impact), evidence: redact(e.evidence ?? null) });
  }
  yield emit({ t: "end", lines: n + 1, events: src.events.length });
}

/** The providers the worker had and those whose answers are on the tapes (autonomous turns, reflections). */
function providersOf(configs: TapeConfig[], tapes: TraceSource["tapes"]): Array<{ name: string; model: string }> {
  const all = new Map<string, { name: string; model: string }>();
  const add = (name: unknown, model: unknown) => {
    if (typeof name === "string" && typeof model === "string") all.set(`${name}/${model}`, { name, model });
  };
  for (const c of configs) for (const p of c.providers) add(p.name, p.model);
  for (const t of tapes)
    for (const r of t.tape.reads) {
      if (r.k === "think" && r.v.ok) {
        const m = r.v.model as { provider?: string; model?: string } | undefined;
        add(m?.provider, m?.model);
      }
      if (r.k === "reflect" && r.v) add(r.v.provider, r.v.model);
    }
  return [...all.values()].sort((a, b) => `${a.name}/${a.model}`.localeCompare(`${b.name}/${b.model}`));
}
