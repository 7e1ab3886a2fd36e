import { createHash } from "node:crypto";
import { PROJECTION_MODES } from "../lab/modes";
import { z } from "zod";
import { canonicalJson } from "../authority/digest";
import { EVENT_TYPES, type MissionEvent, type MissionEventType } from "../mission/events";

/**
 * The trace artifact of a mission (seed 002 FDR-N004): JSON Lines, one place for its format. Line 1 is
 * the header, then, in seq order, every event of the mission's log, each event the worker's engine
 * produced preceded by an `io` line with the readings the engine consumed to produce it (clock, ids,
 * ToolResults, model responses, the admin's policy…), and a last `end` line. Every line carries `prev`,
 * the sha-256 of the previous line's exact text (null on the header): a changed, removed or inserted line
 * breaks the chain at the line after it. Export, verify and replay all parse with these schemas.
 */
export const TRACE_VERSION = 1;
export const TRACE_FORMAT = "faultline-trace";

const sha = z.string().regex(/^[0-9a-f]{64}$/, "must be a sha-256 in hex");
const prev = sha;

/** What the worker ran with, as far as replay needs it (written on the first batch of each worker's run of the mission). */
export const tapeConfigSchema = z.object({
  /** The ADR-0003 settings the engine ran with (absent: no diagnosis). */
  diagnosis: z.object({ enabled: z.boolean(), whyDepth: z.number(), maxRecoveryAttempts: z.number(), fastPath: z.boolean() }).nullable(),
  approvalTtlMs: z.number().nullable(),
  /** The optional EngineIO capabilities the worker had (library protocol on, an LLM for reflection, a model for autonomous agents…). */
  capabilities: z.array(z.string()),
  /** Which LLM providers the worker was configured with (names and models only). */
  providers: z.array(z.object({ name: z.string(), model: z.string() })),
  /** The worker's own allowlists (FAULTLINE_ALLOWED_BINARIES, FAULTLINE_RECOVERY_BINARIES). */
  allowedBinaries: z.array(z.string()),
  recoveryBinaries: z.array(z.string()),
});
export type TapeConfig = z.infer<typeof tapeConfigSchema>;

/** One reading the engine took through its IO, in the order it took them. */
export const readSchema = z.discriminatedUnion("k", [
  z.object({ k: z.literal("now"), v: z.number() }),
  z.object({ k: z.literal("id"), v: z.string() }),
  /** A tool call and its ToolResult with the evidence evaluated on it. */
  z.object({ k: z.literal("run"), key: z.string(), call: z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()) }), result: z.record(z.string(), z.unknown()), evidence: z.array(z.record(z.string(), z.unknown())) }),
  /** A model turn of an autonomous agent: the response (tool call or text), or the failure. */
  z.object({ k: z.literal("think"), agent: z.string(), v: z.record(z.string(), z.unknown()) }),
  /** The optional LLM reflection's proposal (null: none). */
  z.object({ k: z.literal("reflect"), v: z.record(z.string(), z.unknown()).nullable() }),
  z.object({ k: z.literal("patterns"), when: z.string(), v: z.array(z.unknown()) }),
  /** The failure-mode library's answer, as it was (replay may consult the library again). */
  z.object({ k: z.literal("library"), v: z.record(z.string(), z.unknown()) }),
  z.object({ k: z.literal("policy"), v: z.array(z.unknown()) }),
  z.object({ k: z.literal("evidence"), v: z.array(z.unknown()) }),
  z.object({ k: z.literal("external"), v: z.array(z.unknown()) }),
  z.object({ k: z.literal("workspaceState"), v: z.object({ files: z.array(z.string()), directories: z.array(z.string()) }) }),
  z.object({ k: z.literal("binaries"), v: z.array(z.string()) }),
  z.object({ k: z.literal("workspace"), v: z.string() }),
]);
export type Read = z.infer<typeof readSchema>;

/** The readings behind one engine write (one `append`): which transition it belongs to and what it read. */
export const tapeSchema = z.object({
  /** The seq of the state the engine's transition started from. */
  from: z.number().int().min(0),
  /** Which write of that transition this is (0: the first). */
  turn: z.number().int().min(0),
  config: tapeConfigSchema.optional(),
  reads: z.array(readSchema),
});
export type Tape = z.infer<typeof tapeSchema>;

/** The projection modes of the lab (seed 002 FDR-N012), from least to most shown: lib/lab/modes.ts. */
export { PROJECTION_MODES };

/**
 * The lab's own part of a header (lib/lab `withLab`): which experiment run this trace is. A trace written
 * by the lab is the world's trace plus this member, nothing else (FP-7: the lab only observes).
 */
export const labHeaderSchema = z.object({
  runId: z.string().min(1),
  /** The necessity level the experiment declares (the header's `necessityLevel` is the detected one). */
  necessityLevel: z.number().int().min(0).max(3),
  projection: z.enum(PROJECTION_MODES),
  /** A suite run's coordinates (`faultline lab run`). */
  suite: z.string().optional(),
  scenario: z.string().optional(),
  repeat: z.number().int().min(1).optional(),
  suiteSeed: z.number().int().optional(),
});
export type LabHeader = z.infer<typeof labHeaderSchema>;

export const headerLineSchema = z.object({
  t: z.literal("header"),
  n: z.literal(1),
  format: z.literal(TRACE_FORMAT),
  version: z.number().int(),
  missionId: z.string(),
  name: z.string(),
  definition: z.record(z.string(), z.unknown()),
  /** sha-256 of the canonical JSON of the worker configurations and flags recorded on the io lines (null: no worker ran it). */
  configDigest: sha.nullable(),
  necessityLevel: z.number().int().min(0).max(3),
  /** Providers the worker had and the ones that answered (autonomous turns, reflections). */
  providers: z.array(z.object({ name: z.string(), model: z.string() })),
  /** The random seed of a seeded (lab) run; null for a worker's run, whose ids and clock readings are on the io lines. */
  seed: z.number().int().nullable(),
  events: z.number().int().min(0),
  /** The names of the redactions applied (docs/traces.md). */
  redactions: z.array(z.string()),
  /** Present when the lab wrote the trace: the experiment run it records. */
  lab: labHeaderSchema.optional(),
  prev: z.null(),
});
export type TraceHeader = z.infer<typeof headerLineSchema>;

export const ioLineSchema = tapeSchema.extend({
  t: z.literal("io"),
  n: z.number().int().min(2),
  /** The seq of the first event this engine write produced, and how many it produced. */
  seq: z.number().int().min(1),
  count: z.number().int().min(1),
  prev,
});
export type IoLine = z.infer<typeof ioLineSchema>;

export const eventLineSchema = z.object({
  t: z.literal("event"),
  n: z.number().int().min(2),
  seq: z.number().int().min(1),
  type: z.enum(EVENT_TYPES as [MissionEventType, ...MissionEventType[]]),
  actorId: z.string(),
  /** When it was appended (the clock reading of the write). */
  at: z.string(),
  payload: z.record(z.string(), z.unknown()),
  reason: z.string(),
  impact: z.string(),
  evidence: z.record(z.string(), z.unknown()).nullable(),
  prev,
});
export type EventLine = z.infer<typeof eventLineSchema>;

export const endLineSchema = z.object({ t: z.literal("end"), n: z.number().int().min(2), lines: z.number().int(), events: z.number().int(), prev });
export type EndLine = z.infer<typeof endLineSchema>;

export const traceLineSchema = z.discriminatedUnion("t", [headerLineSchema, ioLineSchema, eventLineSchema, endLineSchema]);
export type TraceLine = z.infer<typeof traceLineSchema>;

/** A parsed trace: what replay works from. */
export interface Trace {
  header: TraceHeader;
  events: MissionEvent[];
  /** The engine's readings, by the seq of the first event of their write. */
  tapes: Map<number, Tape & { count: number }>;
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The trace's JSON: object keys sorted, so one mission always exports to the same bytes. */
export function lineText(line: Record<string, unknown>): string {
  return canonicalJson(line);
}

/** Turns a trace line into the event it records. */
export function lineToEvent(missionId: string, l: EventLine): MissionEvent {
  return { missionId, seq: l.seq, type: l.type, actorId: l.actorId, at: l.at, payload: l.payload, reason: l.reason, impact: l.impact, evidence: l.evidence } as MissionEvent;
}
