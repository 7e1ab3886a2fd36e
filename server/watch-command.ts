import readline from "node:readline";
import type { DbHandle } from "../db/client";
import { wakeOnNotify } from "../db/listen";
import { EVENTS_CHANNEL, listEventsAfter } from "../db/queries/events";
import { decideGate } from "../db/queries/gates";
import { getMissionById } from "../db/queries/missions";
import { readTapesAfter } from "../db/queries/traces";
import type { AuditActor } from "../lib/audit";
import { isAppError } from "../lib/errors";
import { createProjection, isProjectionMode, MODE_CAPABILITIES, type ProjectionComponents, type ProjectionMode } from "../lib/lab/projection";
import type { MissionEvent } from "../lib/mission/events";
import { applyEvent } from "../lib/mission/reducer";
import type { GateDecision, GateState, MissionState } from "../lib/mission/types";
import type { Read } from "../lib/trace/format";
import { domainFor } from "../lib/lab/domains";

/**
 * `faultline mission watch ID --mode M` (seed 002 FDR-N012): follows a mission live from the database and
 * draws it with a projection (lib/lab/projection.ts). Events are read by seq after the last one drawn —
 * NOTIFY on the events channel only wakes the reader, and a poll every second covers a lost NOTIFY — so
 * none is missed or drawn twice. The state is the reducer's fold of the events drawn, so debug shows the
 * state at each seq. Keys switch the mode while it runs (s, w, i, d; q quits); in interactive and debug an
 * open gate is answered from the terminal through the same decision path as `faultline gate decide`
 * (decideGate: the gate's policy, the authority for proposal gates, an audit row, as the CLI's actor).
 * It exits when the mission ends, with the final status's exit code (0 SUCCESS, 1 FAILED, 3 PARTIAL_SUCCESS).
 */

export class WatchUsageError extends Error {}

const KEYS: Record<string, ProjectionMode> = { s: "silent", w: "watch", i: "interactive", d: "debug" };
const FINAL_EXIT = { SUCCESS: 0, FAILED: 1, PARTIAL_SUCCESS: 3 } as const;

export interface WatchIO {
  out(text: string): void;
  err(text: string): void;
  input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (on: boolean) => unknown };
}

export interface WatchOptions {
  missionId: string;
  mode: ProjectionMode;
  actor: AuditActor;
  url: string;
  /** Renderers to draw with (FDR-N016); none: the mission's domain's (lib/lab/domains), else the default. */
  components?: ProjectionComponents;
}

function isTerminal(s: MissionState): boolean {
  return s.runState === "completed" || s.runState === "failed";
}

export async function missionWatch(h: DbHandle, io: WatchIO, opts: WatchOptions): Promise<number> {
  if (!isProjectionMode(opts.mode)) throw new WatchUsageError(`Unknown --mode "${opts.mode}": use one of silent, watch, interactive, debug (docs/lab.md "Projections").`);
  const row = await getMissionById(h.db, opts.missionId);
  if (!row) throw new WatchUsageError(`No mission ${opts.missionId}. List them with: faultline mission list`);

  // FDR-N016: the mission's domain draws it (its renderers), unless the caller gives renderers of its own.
  const domain = opts.components ? null : domainFor(row.definition);
  if (domain) io.err(`── domain: ${domain.name} (${domain.description})`);
  const view = createProjection({ mode: opts.mode, missionId: opts.missionId, components: opts.components ?? domain?.components });
  let state: MissionState | null = null;
  let last = 0;
  // A NOTIFY naming the mission, a key or a decision ends the wait between reads; a poll every second covers a lost NOTIFY.
  const waker = wakeOnNotify(opts.url, EVENTS_CHANNEL, { applicationName: "faultline-cli-watch", matches: (p) => p.includes(opts.missionId) });
  let quit = false;
  let deciding = false;
  const inputQueue: string[] = [];
  const HINT = io.input.isTTY ? "      answer: press the option's number" : `      answer: a line with the option's number or its name, then an optional note (e.g. "1 looks right")`;

  const openGate = (): GateState | null => state?.gates.find((g) => g.status === "open") ?? null;
  const showGate = (g: GateState) => {
    io.out(`      OPEN GATE ${g.id}: ${g.error.what}\n      why: ${g.error.why ?? "unknown"}`);
    g.options.forEach((o, i) => io.out(`      [${i + 1}] ${o.action}${o.recommended ? " (recommended)" : ""}: ${o.description}`));
    io.out(HINT);
  };

  const handle = async (line: string) => {
    const text = line.trim();
    if (!text) return;
    const [word, ...noteParts] = text.split(/\s+/);
    const mode = KEYS[word] ?? (isProjectionMode(word) ? word : null);
    if (mode && noteParts.length === 0) {
      view.setMode(mode);
      io.err(`── mode: ${mode}`);
      const g = openGate();
      if (g && MODE_CAPABILITIES[mode].hitl === "interact") showGate(g);
      return;
    }
    if (word === "q" || word === "quit") {
      quit = true;
      waker.wake();
      return;
    }
    const g = openGate();
    if (!g) return io.err(`"${text}": no gate is open to answer, and it is not a mode key (s, w, i, d) or q.`);
    if (MODE_CAPABILITIES[view.mode].hitl !== "interact") return io.err(`Answering a gate needs interactive or debug mode (this is ${view.mode}): press i, then answer.`);
    const byNumber = /^\d+$/.test(word) ? g.options[Number(word) - 1] : g.options.find((o) => o.action === word);
    if (!byNumber) return io.err(`"${word}" is not an option of gate ${g.id}: choose 1-${g.options.length} or one of ${g.options.map((o) => o.action).join(", ")}.`);
    deciding = true;
    try {
      const note = noteParts.join(" ") || "answered from faultline mission watch";
      await decideGate(h.db, { gateId: g.id, decision: byNumber.action as GateDecision, note, actor: opts.actor });
      io.err(`── gate ${g.id}: ${byNumber.action} recorded (by ${opts.actor.name})`);
    } catch (e) {
      io.err(`The decision was refused: ${isAppError(e) ? e.userMessage : (e as Error).message}`);
    } finally {
      deciding = false;
      waker.wake();
    }
  };

  // Input: single keys when stdin is a terminal, else one command a line (scripts, tests).
  let rl: readline.Interface | null = null;
  const onKey = (buf: Buffer) => {
    const k = buf.toString();
    if (k === "\u0003") {
      quit = true;
      waker.wake();
      return;
    }
    inputQueue.push(k);
    waker.wake();
  };
  if (io.input.isTTY && io.input.setRawMode) {
    io.input.setRawMode(true);
    io.input.on("data", onKey);
  } else {
    rl = readline.createInterface({ input: io.input });
    rl.on("line", (l) => {
      inputQueue.push(l);
      waker.wake();
    });
  }
  await waker.ready;
  try {
    for (;;) {
      while (inputQueue.length && !deciding) await handle(inputQueue.shift()!);
      if (quit) {
        io.err(`── stopped watching mission ${opts.missionId} (it goes on).`);
        return 0;
      }
      const events = await listEventsAfter(h.db, { missionId: opts.missionId, afterSeq: last, limit: 500 });
      const tapes = events.length && view.capabilities.llmCalls !== "none" ? new Map((await readTapesAfter(h.db, opts.missionId, last)).map((t) => [t.seq, t.tape.reads])) : new Map<number, Read[]>();
      for (const e of events) draw(e, tapes.get(e.seq));
      if (events.length === 500) continue;
      const now = state as MissionState | null; // assigned in draw(), which TypeScript does not follow
      if (now && isTerminal(now)) {
        const f = view.footer(now);
        io.out(f ?? `final status: ${now.finalStatus}`);
        return FINAL_EXIT[now.finalStatus ?? "FAILED"];
      }
      await waker.sleep(1000);
    }
  } finally {
    await waker.close();
    rl?.close();
    if (io.input.isTTY && io.input.setRawMode) {
      io.input.off("data", onKey);
      io.input.setRawMode(false);
    }
    (io.input as NodeJS.ReadableStream & { pause?: () => void }).pause?.();
  }

  function draw(e: MissionEvent, reads: Read[] | undefined) {
    if (e.seq !== last + 1) throw new Error(`Mission ${opts.missionId}: expected event seq ${last + 1}, read ${e.seq}. The log has a gap; report this.`);
    const before = state;
    state = applyEvent(state, e);
    last = e.seq;
    if (before === null) {
      const head = view.header(state);
      if (head) io.out(head);
    }
    const text = view.event({ event: e, before, after: state, reads });
    if (text) io.out(text);
    if (e.type === "gate.opened" && view.capabilities.hitl === "interact") io.out(HINT);
  }
}
