import fs from "node:fs";
import path from "node:path";
import type { NecessityLevel } from "../authority/types";
import { missionLevel } from "../mission/definition";
import type { MissionEvent } from "../mission/events";
import { levelWarning } from "../authority/necessity";
import { traceLines } from "../trace/export";
import type { LabHeader } from "../trace/format";
import type { World, WorldCall, WorldCrash, WorldEnd, WorldEvent, WorldWrite } from "./world";
import { applyEvent } from "../mission/reducer";
import type { MissionState } from "../mission/types";
import { domainFor } from "./domains";
import { createProjection, isProjectionMode, unknownModeMessage, type Projection, type ProjectionComponents, type ProjectionMode } from "./projection";

/**
 * The lab (seed 002 FDR-N009 to N012): `withLab(world, options)` attaches an observer to a world. It
 * subscribes to the world's event stream (FDR-N010) and never writes to it (FDR-N011, forbidden pattern
 * FP-7): from what it sees it keeps the run's record, writes the run's trace (lib/trace format, with the
 * lab's own header member and nothing else different) and hands it to reports. It holds no handle by
 * which it could write — the world's stream gives copies, frozen — and the LabWorld it returns refuses
 * every write verb with an error that says so.
 */

/**
 * What the lab shows while the run goes on (FDR-N012, lib/lab/projection.ts): silent, watch or debug,
 * drawn by the domain's renderers (FDR-N016) and written to `out` (default: standard output). Interactive
 * is refused here: a lab run's gates are answered by its scenario's operator through the authority, so
 * nobody at a terminal could answer one — `faultline mission watch --mode interactive` is where a person does.
 */
export type LabProjection = { mode: ProjectionMode; components?: ProjectionComponents; out?: (text: string) => void };

export interface LabOptions {
  /** This run's id, unique per run (FDR-N009: a lab is not reused; a second run is a second lab). */
  runId: string;
  /** The necessity level the experiment declares; default: the detected one. A lower one is a warning (FDR-N008). */
  necessityLevel?: NecessityLevel;
  /** What the lab shows while the run goes on. `silent`: nothing (the trace is always written, FDR-N012). */
  projection?: LabProjection;
  /** Where the trace is written when the run ends (JSON Lines); none: kept in memory only. */
  outputPath?: string;
  /** Values to redact wherever they appear (the environment's secrets; lib/trace/redact.ts). */
  secrets?: readonly string[];
  /** A suite run's coordinates, written in the trace's lab header. */
  coordinates?: Pick<LabHeader, "suite" | "scenario" | "repeat" | "suiteSeed">;
}

export interface LabMeta {
  runId: string;
  necessityLevel: NecessityLevel;
  detectedLevel: NecessityLevel;
  /** Set when the declared level is below the detected one (the detected level applies). */
  levelWarning: string | null;
  /** The mode the run started in (the trace's lab header records it). */
  projection: { mode: ProjectionMode };
  outputPath: string | null;
}

/** What the lab observed of one run. */
export interface LabRecord {
  runId: string;
  missionId: string;
  events: MissionEvent[];
  /** Every tool call, with the seq of the last event written before it (its result comes after). */
  calls: Array<WorldCall & { afterSeq: number }>;
  crashes: WorldCrash[];
  end: WorldEnd;
  /** The trace's lines (the file's content without newlines). */
  trace: string[];
  outputPath: string | null;
}

/** The world as the lab shows it: what can be read and watched, and `run`; nothing that writes. */
export interface LabWorld extends Pick<World, "missionId" | "seed" | "state" | "subscribe"> {
  readonly labMeta: LabMeta;
  /** The projection now (FDR-N012: `projection.setMode("debug")` switches at run time; it only changes what is shown). */
  readonly projection: Pick<Projection, "mode" | "setMode">;
  /** Lets the world run to its end, then closes the record and writes the trace. */
  run(): Promise<LabRecord>;
  /** The record, once the run ended (null before). */
  record(): LabRecord | null;
}

/** An attempt to write through the lab: FP-7. */
export class LabObserverError extends Error {
  constructor(verb: string) {
    super(
      `The lab observes and never writes (seed 002 FDR-N011, forbidden pattern FP-7): "${verb}" is not available through withLab. ` +
        "A proposal goes through the authority as its actor's (the engine submits it), a person's answer through the authority's HITL decision, never through the lab.",
    );
    this.name = "LabObserverError";
  }
}

/** Every way a caller might try to write through the lab; each one throws LabObserverError. */
const WRITE_VERBS = new Set(["append", "submit", "submitProposal", "propose", "decide", "decideGate", "approve", "reject", "modify", "pause", "resume", "abort", "commit", "dispatch", "emit", "apply", "write"]);

export function withLab(world: World, options: LabOptions): LabWorld {
  if (!options.runId?.trim()) throw new Error("withLab needs a runId: each run is its own experiment with its own trace (FDR-N009).");
  if (world.state() !== null) throw new Error(`withLab must wrap world ${world.missionId} before it runs: a trace starts at the mission's first event (FDR-N004).`);
  const level = missionLevel(world.definition);
  const declared = options.necessityLevel ?? level.effective;
  const projection = options.projection ?? { mode: "silent" };
  if (!isProjectionMode(projection.mode)) throw new Error(unknownModeMessage(String(projection.mode)));
  if (projection.mode === "interactive")
    throw new Error(
      'Projection mode "interactive" is not available in the lab: a lab run\'s gates are answered by its scenario\'s operator through the authority, so there is nobody to answer at a terminal. Use watch or debug here, or `faultline mission watch ID --mode interactive` for a mission in the database. The trace is written in every mode.',
    );
  const labMeta: LabMeta = Object.freeze({ runId: options.runId, necessityLevel: declared, detectedLevel: level.effective, levelWarning: levelWarning(declared, level.effective, level.why), projection: Object.freeze({ mode: projection.mode }), outputPath: options.outputPath ?? null });
  // FDR-N016: the world's domain draws it (lib/lab/domains) unless the caller injects renderers.
  const view = createProjection({ mode: projection.mode, missionId: world.missionId, components: projection.components ?? domainFor(world.definition)?.components });
  const show = projection.out ?? ((text: string) => void process.stdout.write(`${text}\n`));
  let shown: MissionState | null = null;
  /** Draws a write's events; an observer's failure to draw never reaches the run (the world reports listener errors on its end). */
  const project = (w: WorldWrite) => {
    if (view.mode === "silent" && shown !== null) {
      for (const e of w.events) shown = applyEvent(shown, e);
      return;
    }
    for (const e of w.events) {
      const before = shown;
      shown = applyEvent(shown, e);
      if (before === null) {
        const h = view.header(shown);
        if (h) show(h);
      }
      const text = view.event({ event: e, before, after: shown, reads: w.tape && w.tape.seq === e.seq ? w.tape.tape.reads : undefined });
      if (text) show(text);
    }
  };

  const writes: WorldWrite[] = [];
  const calls: LabRecord["calls"] = [];
  let lastSeq = 0;
  const crashes: WorldCrash[] = [];
  let record: LabRecord | null = null;

  const observe = (e: WorldEvent) => {
    if (e.type === "write") {
      writes.push(e);
      lastSeq = e.events.at(-1)?.seq ?? lastSeq;
      project(e);
    } else if (e.type === "call") calls.push({ ...e, afterSeq: lastSeq });
    else if (e.type === "crash") crashes.push(e);
    else {
      close(e);
      const f = shown ? view.footer(shown) : null;
      if (f) show(f);
    }
  };
  world.subscribe(observe);

  function close(end: WorldEnd) {
    const events = writes.flatMap((w) => w.events);
    const tapes = writes.flatMap((w) => (w.tape ? [w.tape] : []));
    const header: LabHeader = { runId: options.runId, necessityLevel: declared, projection: projection.mode, ...options.coordinates };
    const trace = [...traceLines({ mission: { id: world.missionId, name: world.definition.name, definition: world.definition }, events, tapes }, { secrets: options.secrets, seed: world.seed, lab: header })];
    if (options.outputPath) {
      fs.mkdirSync(path.dirname(path.resolve(options.outputPath)), { recursive: true });
      fs.writeFileSync(options.outputPath, `${trace.join("\n")}\n`);
    }
    record = { runId: options.runId, missionId: world.missionId, events, calls, crashes, end, trace, outputPath: options.outputPath ?? null };
  }

  const surface: LabWorld = {
    labMeta,
    projection: Object.freeze({
      get mode() {
        return view.mode;
      },
      setMode: (mode: ProjectionMode) => {
        if (mode === "interactive") throw new Error('Projection mode "interactive" is not available in the lab (nobody at a terminal answers a lab run\'s gates): use watch or debug.');
        view.setMode(mode);
      },
    }),
    missionId: world.missionId,
    seed: world.seed,
    state: () => world.state(),
    subscribe: (listener) => world.subscribe(listener),
    async run() {
      await world.run();
      if (!record) throw new Error(`The world ${world.missionId} ended without its end event reaching the lab.`);
      return record;
    },
    record: () => record,
  };
  return new Proxy(Object.freeze(surface), {
    get(target, prop, receiver) {
      if (typeof prop === "string" && WRITE_VERBS.has(prop)) return () => {
        throw new LabObserverError(prop);
      };
      return Reflect.get(target, prop, receiver);
    },
    set(_t, prop) {
      throw new LabObserverError(`set ${String(prop)}`);
    },
    defineProperty(_t, prop) {
      throw new LabObserverError(`define ${String(prop)}`);
    },
  });
}
