import type { ToolError } from "../tools/result";
import type { MissionDefinition, StepDefinition } from "./definition";
import { advance, type EngineIO } from "./engine";
import type { MissionEvent, NewMissionEvent } from "./events";
import { applyEvent } from "./reducer";
import * as t from "./transitions";
import type { EvidenceRecord, GateDecision, GateState, MissionState } from "./types";

/**
 * A pure, in-memory drive of the real engine: the same `advance` the worker uses, with tool outcomes,
 * crashes and gate decisions supplied by the caller. For tests and model checking.
 */
export type StepOutcome = { kind: "ok" } | { kind: "no-evidence" } | { kind: "fail"; error: ToolError };

export interface SimulationScript {
  outcome(agent: string, step: number, attempt: number): StepOutcome;
  decide(gate: GateState, state: MissionState): GateDecision;
  /** Simulate a worker dying after recording this step's start (before its result). */
  crashAfterStart?(agent: string, step: number, attempt: number, reruns: number): boolean;
  /** Outcome of a recovery helper step (default ok). */
  recoveryStep?(agent: string, step: number, index: number): StepOutcome;
  /** Learned patterns the engine finds for a failure trigger (default none). */
  patterns?: EngineIO["findPatterns"];
  /** The optional LLM reflection (default none). */
  reflect?: EngineIO["reflect"];
  /** The failure-mode library's answer to a failure's query (default: no library). */
  library?: EngineIO["library"];
  /** Outcome of a library probe or resolution action (default ok: exit 0). */
  libraryAction?(agent: string, step: number, kind: "probe" | "resolution"): StepOutcome;
  /** Outcome of a compensation (default ok). */
  compensation?(agent: string, step: number): StepOutcome;
  objectivePassed?: boolean;
  maxEvents?: number;
  /** Mission id (gate ids derive from it); a fixed one by default, for reproducible runs. */
  missionId?: string;
}

const PASS: EvidenceRecord[] = [{ check: "exit_code", expected: 0, actual: 0, passed: true }];
const FAIL: EvidenceRecord[] = [{ check: "output_matches", expected: "/ready/", actual: "", passed: false }];

export async function simulate(definition: MissionDefinition, script: SimulationScript): Promise<{ state: MissionState; events: MissionEvent[] }> {
  const id = script.missionId ?? "00000000-0000-4000-8000-000000000000";
  const events: MissionEvent[] = [];
  let clock = Date.parse("2026-01-01T00:00:00Z");
  let ids = 0;
  let state: MissionState | null = null;
  let crashed = false;
  const push = (list: Array<NewMissionEvent | ((s: MissionState) => NewMissionEvent | null)>, actorId = "worker:sim"): MissionState => {
    for (const item of list) {
      const e = typeof item === "function" ? item(state!) : item;
      if (!e) continue;
      const ev = { ...e, missionId: id, seq: (state?.seq ?? 0) + 1, actorId: e.actorId ?? actorId, at: new Date((clock += 1000)).toISOString() } as MissionEvent;
      state = applyEvent(state, ev);
      events.push(ev);
    }
    return state!;
  };
  push([t.missionCreated(definition)], "user:sim");
  const io: EngineIO = {
    now: () => clock,
    newId: () => `${id.slice(0, 24)}${String(++ids).padStart(12, "0")}`,
    append: async (list) => push(list),
    run: async (call, { state: s, idempotencyKey, recovery, library }) => {
      const [, agent, stepStr, attemptStr, comp] = idempotencyKey.split("/");
      const step = Number(stepStr);
      if (comp === "compensate") return toResult(script.compensation?.(agent, step) ?? { kind: "ok" });
      if (recovery) return toResult(script.recoveryStep?.(agent, step, recovery.index) ?? { kind: "ok" });
      if (library) return toResult(script.libraryAction?.(agent, step, library.kind) ?? { kind: "ok" });
      if (agent === "objective") return toResult(script.objectivePassed === false ? { kind: "no-evidence" } : { kind: "ok" });
      const st = s.agents[agent]?.steps[step];
      if (script.crashAfterStart?.(agent, step, Number(attemptStr), st?.reruns ?? 0)) crashed = true;
      return toResult(script.outcome(agent, step, Number(attemptStr)));
    },
    idempotent: (step: StepDefinition) => step.idempotent ?? step.tool === "http",
    stopped: () => crashed,
    diagnosis: { enabled: true, whyDepth: 5, maxRecoveryAttempts: 2, fastPath: true },
    findPatterns: script.patterns,
    library: script.library,
    reflect: script.reflect,
  };
  const max = script.maxEvents ?? 10_000;
  for (;;) {
    if (events.length > max) throw new Error(`simulation exceeded ${max} events`);
    const r = await advance(state!, io);
    if (r.outcome === "terminal") return { state: r.state, events };
    if (r.outcome === "stopped") {
      crashed = false; // the next "worker" takes over from the log
      continue;
    }
    if (r.outcome === "waiting") {
      const s: MissionState = r.state;
      const gate = s.gates.find((g) => g.status === "open");
      if (gate) push([t.gateResolved(gate, script.decide(gate, s), null, new Date(clock + 1000).toISOString(), "sim operator")], "user:operator");
      else push([t.missionResumed("resumed by the simulation")], "user:operator");
    }
  }

  function toResult(o: StepOutcome) {
    if (o.kind === "ok") return { result: { ok: true as const, data: { exitCode: 0 }, error: null }, evidence: PASS };
    if (o.kind === "no-evidence") return { result: { ok: true as const, data: { exitCode: 0 }, error: null }, evidence: FAIL };
    return { result: { ok: false as const, data: null, error: o.error }, evidence: [] };
  }
}
