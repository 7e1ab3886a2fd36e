import { decideByPerson, DEFAULT_APPROVAL_TTL_MS } from "../authority/authority";
import { DEFAULT_POLICY_RULES } from "../authority/rules";
import type { ErrorType } from "../diagnosis/types";
import { actionArgsProblem } from "../mission/autonomous";
import { agentDefinition, type MissionDefinition, type StepDefinition, type ToolCallDefinition } from "../mission/definition";
import { advance, type EngineIO, type ThinkResult } from "../mission/engine";
import type { MissionEvent, NewMissionEvent } from "../mission/events";
import { allowBinaryVerdict } from "../mission/failure";
import { applyEvent } from "../mission/reducer";
import { allowedBinariesOf } from "../mission/steps";
import * as t from "../mission/transitions";
import type { EvidenceRecord, GateDecision, GateState, MissionState, PatternRef } from "../mission/types";
import { stepIdempotent } from "../tools";
import type { ToolResult } from "../tools/result";
import type { TraceSource } from "../trace/export";
import type { Tape, TapeConfig } from "../trace/format";
import { capabilitiesOf, recordingIO } from "../trace/record";
import { createRng, deriveSeed } from "./rng";

/**
 * A mission world for the lab (seed 002 Part III): one mission, run headless by the real engine
 * (`advance`, the reducer, the diagnosis, the recovery planner, the authority) through an EngineIO whose
 * clock and ids come from a seed and whose tools, models, crashes, outages and operator are supplied by
 * an environment (a lab scenario's, lib/lab/scenario.ts). Like the worker, it runs the engine behind the
 * flight recorder (lib/trace/record.ts): every write carries the readings behind it, so the run has a
 * trace in the format of lib/trace, which `faultline trace verify` checks and `faultline lab replay` replays.
 *
 * Its event stream (FDR-N010) is `subscribe`: after every write, listeners get the events appended and
 * the readings behind them, synchronously and in order. They get copies, frozen: nothing a listener does
 * reaches the world, and a listener that throws is reported on the stream's end, never to the engine.
 * The world's only writers are its engine and the actors inside it (the scripted operator answers gates
 * through the authority, as a person does); it has no method by which an observer could write.
 */

/** One tool call the engine makes, with what the environment needs to script it. */
export interface WorldToolCall {
  tool: string;
  args: Record<string, unknown>;
  evidence: StepDefinition["evidence"];
  /** A scripted step, a recovery helper, a library action, a compensation, an objective check. */
  kind: "step" | "recovery" | "library" | "compensation" | "objective";
  agent: string;
  step: number;
  attempt: number;
  /** Re-runs of the step with the same idempotency key so far (crash takeovers). */
  reruns: number;
  idempotencyKey: string;
  timeoutMs: number;
  /** The world's clock when the call starts. */
  now: number;
  missionId: string;
  /** Binaries this call may run (the mission's allowlist; a recovery helper's adds the recovery binaries). */
  allowedBinaries: readonly string[];
}

/** What a call came to, how long it took on the world's clock, and the fault the environment injected (if any). */
export interface WorldToolOutcome {
  result: ToolResult;
  evidence: EvidenceRecord[];
  durationMs: number;
  injected?: { type: ErrorType; source: "fault" | "outage"; name: string } | null;
}

/** A person's answer at a gate, given through the authority. */
export interface OperatorAnswer {
  decision: GateDecision | "modify";
  note?: string | null;
  /** modify: the args that run instead. */
  args?: Record<string, unknown>;
  /** How long the person took (on the world's clock). */
  delayMs: number;
}

/** A database outage the world's writes run into: progress waits, and the pause is recorded. */
export interface WorldOutage {
  service: string;
  /** When it ends (world clock). */
  until: number;
  message: string;
}

/** What a world's mission meets: its tools, models, crashes, outages and operator. */
export interface WorldEnvironment {
  /** The LLM providers the world's models are (scripted or recorded), by name and model. */
  providers: Array<{ name: string; model: string }>;
  tool(call: WorldToolCall): Promise<WorldToolOutcome>;
  /** An autonomous agent's next model turn; absent = no model configured. */
  think?(agent: string, state: MissionState, now: number): Promise<ThinkResult & { latencyMs?: number }>;
  /** The worker dies right after recording this step's start. */
  crashAfterStart?(agent: string, step: number, attempt: number, reruns: number): boolean;
  operator(gate: GateState, state: MissionState): OperatorAnswer;
  /** The database outage (if any) a write at `now` runs into. */
  outage?(now: number): WorldOutage | null;
  /** The evidence rules an autonomous agent's `finish` is checked against: its last action's result. */
  checkEvidence?(agent: string, checks: NonNullable<StepDefinition["evidence"]>, last: { tool: string; data: Record<string, unknown> } | null): Promise<EvidenceRecord[]>;
}

/** Learned patterns (ADR-0003 pattern memory) that a world reads and its recoveries teach. */
export interface PatternStore {
  find(when: string): PatternRef[];
  learn(events: readonly MissionEvent[]): void;
}

export interface WorldSpec {
  definition: MissionDefinition;
  /** The run's seed: its clock, its ids, its mission id. */
  seed: number;
  environment: WorldEnvironment;
  /** ADR-0003 settings (AUTONOMOUS_*). Default: diagnosis on, why depth 5, 2 recovery attempts, fast path on. */
  diagnosis?: NonNullable<EngineIO["diagnosis"]>;
  memory?: PatternStore;
  /** Binaries recovery helper steps may run besides the mission's allowlist (the worker's FAULTLINE_RECOVERY_BINARIES). */
  recoveryBinaries?: readonly string[];
  /** How long a dead worker's lease takes to expire before another takes the mission over. */
  takeoverMs?: number;
  /** A run that writes more events than this is stopped as a runaway (default 5,000). */
  maxEvents?: number;
}

/** One write of the world, as its stream delivers it. */
export interface WorldWrite {
  type: "write";
  /** Who wrote: the engine (a worker), the operator (a gate answer), the infrastructure. */
  by: "engine" | "operator" | "creator";
  events: readonly MissionEvent[];
  /** The engine's readings behind its events (seq: the first of them, count: how many), or null for input. */
  tape: { seq: number; count: number; tape: Tape } | null;
}
/** Every tool call the world made, with the fault injected into it (null: none): the ground truth of its failures. */
export interface WorldCall {
  type: "call";
  key: string;
  agent: string;
  step: number;
  kind: WorldToolCall["kind"];
  ok: boolean;
  injected: WorldToolOutcome["injected"] | null;
}
export interface WorldCrash {
  type: "crash";
  agent: string;
  step: number;
  worker: string;
}
export interface WorldEnd {
  type: "end";
  state: MissionState | null;
  /** Why the run could not finish (a scenario's operator answered what the gate does not offer, a runaway…). */
  error: string | null;
  /** Errors thrown by listeners (each once): they reached no one but this list. */
  listenerErrors: string[];
}
export type WorldEvent = WorldWrite | WorldCall | WorldCrash | WorldEnd;
export type WorldListener = (event: WorldEvent) => void;

export interface World {
  readonly missionId: string;
  readonly definition: MissionDefinition;
  readonly seed: number;
  /** What the worker ran with (diagnosis settings, capabilities, providers, allowlists): the trace's config. */
  readonly config: TapeConfig;
  /** The mission's state now: a copy (changing it changes nothing). */
  state(): MissionState | null;
  /** The world's event stream. Returns the unsubscribe function. */
  subscribe(listener: WorldListener): () => void;
  /** Runs the mission to its end (once). */
  run(): Promise<WorldEnd>;
  /** The record so far, as a trace's source (lib/trace/export.ts `traceLines`). */
  source(): TraceSource;
}

export const LAB_OPERATOR = "user:lab-operator";
const LAB_CREATOR = "user:lab";
const DEFAULT_DIAGNOSIS = { enabled: true, whyDepth: 5, maxRecoveryAttempts: 2, fastPath: true };
/** A worker's lease (FAULTLINE_LEASE_MS default): how long a crashed worker's mission waits before a takeover. */
const DEFAULT_TAKEOVER_MS = 15_000;
/** Where every world's clock starts (the mission's creation): a fixed instant, so runs of one seed read alike. */
export const WORLD_EPOCH = Date.parse("2026-01-01T00:00:00Z");

/** A deep-frozen copy: what listeners and readers get. */
function frozenCopy<T>(v: T): T {
  const copy = structuredClone(v);
  const freeze = (x: unknown) => {
    if (x && typeof x === "object" && !Object.isFrozen(x)) {
      Object.freeze(x);
      for (const k of Object.keys(x)) freeze((x as Record<string, unknown>)[k]);
    }
  };
  freeze(copy);
  return copy;
}

export function createWorld(spec: WorldSpec): World {
  const env = spec.environment;
  const ids = createRng(deriveSeed(spec.seed, "ids"));
  const jitter = createRng(deriveSeed(spec.seed, "clock"));
  const missionId = createRng(deriveSeed(spec.seed, "mission")).uuid();
  const diagnosis = spec.diagnosis ?? DEFAULT_DIAGNOSIS;
  const recoveryBinaries = [...(spec.recoveryBinaries ?? ["sleep"])];
  const maxEvents = spec.maxEvents ?? 5000;
  const listeners = new Set<WorldListener>();
  const listenerErrors: string[] = [];
  const events: MissionEvent[] = [];
  const tapes: Array<NonNullable<WorldWrite["tape"]>> = [];
  const lastResult = new Map<string, { tool: string; data: Record<string, unknown> }>();
  let state: MissionState | null = null;
  let clock = WORLD_EPOCH;
  let worker = 1;
  let crashed = false;
  let started = false;

  const emit = (e: WorldEvent) => {
    if (!listeners.size) return;
    const copy = frozenCopy(e);
    for (const l of [...listeners]) {
      try {
        l(copy);
      } catch (err) {
        const msg = err instanceof Error ? err.message : String(err);
        if (!listenerErrors.includes(msg)) listenerErrors.push(msg);
      }
    }
  };

  /** Appends atomically (all the items or none, as a transaction): the tape covers the items from `firstItem` on. */
  const commit = (list: ReadonlyArray<NewMissionEvent | ((s: MissionState) => NewMissionEvent | null)>, by: WorldWrite["by"], actorId: string, tape: Tape | null, firstItem = 0): MissionState => {
    let s = state;
    const out: MissionEvent[] = [];
    const taped = { seq: 0, count: 0 };
    const at = new Date(clock).toISOString();
    list.forEach((item, index) => {
      const built = typeof item === "function" ? item(s!) : item;
      if (!built) return;
      if (tape && index >= firstItem && taped.count++ === 0) taped.seq = (s?.seq ?? 0) + 1;
      const ev = { ...built, missionId, seq: (s?.seq ?? 0) + 1, actorId: built.actorId ?? actorId, at } as MissionEvent;
      s = applyEvent(s, ev);
      out.push(ev);
    });
    if (!out.length) return state!;
    state = s;
    events.push(...out);
    const written = tape && taped.count ? { seq: taped.seq, count: taped.count, tape } : null;
    if (written) tapes.push(written);
    spec.memory?.learn(out);
    clock += jitter.int(2, 20);
    emit({ type: "write", by, events: out, tape: written });
    return state!;
  };

  const workerId = () => `worker:lab-${worker}`;
  const recoveryAllowlist = (s: MissionState) => [...new Set([...allowedBinariesOf(s), ...recoveryBinaries])];

  const inner: EngineIO = {
    now: () => clock,
    newId: () => ids.uuid(),
    append: async (list) => commit(list, "engine", workerId(), null),
    run: async (call, ctx) => {
      const [, agent, stepStr, attemptStr, ...rest] = ctx.idempotencyKey.split("/");
      const kind: WorldToolCall["kind"] = ctx.recovery ? "recovery" : ctx.library ? "library" : rest.includes("compensate") ? "compensation" : agent === "objective" ? "objective" : "step";
      const step = Number(stepStr);
      const st = kind === "step" ? ctx.state.agents[agent]?.steps[step] : undefined;
      const out = await env.tool({
        tool: call.tool,
        args: call.args as Record<string, unknown>,
        evidence: (call as ToolCallDefinition).evidence,
        kind,
        agent,
        step,
        attempt: Number(attemptStr),
        reruns: st?.reruns ?? 0,
        idempotencyKey: ctx.idempotencyKey,
        timeoutMs: ctx.timeoutMs,
        now: clock,
        missionId,
        allowedBinaries: kind === "recovery" || kind === "library" ? recoveryAllowlist(ctx.state) : allowedBinariesOf(ctx.state),
      });
      clock += Math.max(0, Math.round(out.durationMs));
      emit({ type: "call", key: ctx.idempotencyKey, agent, step, kind, ok: out.result.ok && out.evidence.every((e) => e.passed), injected: out.injected ?? null });
      if (kind === "step" && out.result.data) lastResult.set(agent, { tool: call.tool, data: out.result.data });
      if (kind === "step" && env.crashAfterStart?.(agent, step, Number(attemptStr), st?.reruns ?? 0)) {
        crashed = true;
        emit({ type: "crash", agent, step, worker: workerId() });
      }
      return { result: out.result, evidence: out.evidence };
    },
    idempotent: stepIdempotent,
    stopped: () => crashed,
    diagnosis,
    allowedBinaries: recoveryAllowlist,
    ...(spec.memory ? { findPatterns: async (when: string) => spec.memory!.find(when) } : {}),
    authority: { defaultPolicy: async () => DEFAULT_POLICY_RULES, approvalTtlMs: DEFAULT_APPROVAL_TTL_MS },
    workspaceState: async () => ({ files: [], directories: [] }),
  };
  if (env.think) {
    inner.think = async (s, agent) => {
      const r = await env.think!(agent, frozenCopy(s), clock);
      clock += Math.max(0, Math.round(r.latencyMs ?? (r.ok ? r.model.latencyMs : 0)));
      const { latencyMs: _, ...turn } = r as ThinkResult & { latencyMs?: number };
      return turn as ThinkResult;
    };
    inner.ensureActor = async () => {};
  }
  if (env.checkEvidence) inner.checkEvidence = (_s, agent, checks) => env.checkEvidence!(agent, checks, lastResult.get(agent) ?? null);

  const config: TapeConfig = {
    diagnosis,
    approvalTtlMs: DEFAULT_APPROVAL_TTL_MS,
    capabilities: capabilitiesOf(inner),
    providers: [...env.providers],
    allowedBinaries: [],
    recoveryBinaries,
  };
  // The flight recorder, as in the worker: an engine write during a database outage waits for the database,
  // then records the pause and the resume before the progress that waited (the tape covers the progress only).
  const recorder = recordingIO(inner, {
    config,
    append: async (list, tape) => {
      const outage = env.outage?.(clock);
      if (!outage) return commit(list, "engine", workerId(), tape);
      const since = clock;
      clock = Math.max(clock, outage.until);
      const downS = Math.round((clock - since) / 100) / 10;
      return commit(
        [
          (s) => (s.paused ? null : t.missionPaused("infrastructure", `The ${outage.service} became unavailable at ${new Date(since).toISOString()} (${outage.message}); no progress could be recorded.`)),
          (s) => (s.paused?.kind === "infrastructure" ? t.missionResumed(`The ${outage.service} is available again after ${downS} s; the mission resumes from its last committed event.`) : null),
          ...list,
        ],
        "engine",
        workerId(),
        tape,
        2,
      );
    },
  });

  /** A person's answer at the open gate, through the authority (FDR-N013), as the console and CLI give it. */
  function answer(gate: GateState, s: MissionState): void {
    const a = env.operator(gate, s);
    clock += Math.max(0, Math.round(a.delayMs));
    const at = new Date(clock).toISOString();
    const note = a.note ?? null;
    const who = "The lab's scripted operator";
    const decision = a.decision === "modify" ? "approve" : a.decision;
    if (a.decision !== "modify" && !gate.options.some((o) => o.action === a.decision)) {
      throw new WorldStop(`The scripted operator answered "${a.decision}" at the ${gate.kind} gate of "${gate.agent}", which offers ${gate.options.map((o) => o.action).join(", ")}. Change the scenario's operator answer for this gate.`);
    }
    const p = gate.proposalId ? s.proposals.find((x) => x.id === gate.proposalId) : undefined;
    if (p) {
      const def = agentDefinition(s.definition, p.agent);
      const r = decideByPerson({
        proposal: p,
        pendingRecord: p.decision!,
        decider: { actorId: LAB_OPERATOR, kind: "human" },
        proposerActorId: p.actorId,
        answer: a.decision === "modify" ? "modify" : a.decision === "approve" ? "approve" : "reject",
        args: a.args,
        note: a.decision === "abort" ? (note ?? "The mission was aborted at this proposal.") : note,
        now: clock,
        approvalTtlMs: DEFAULT_APPROVAL_TTL_MS,
        rules: s.definition.rules,
        defaultPolicy: DEFAULT_POLICY_RULES,
        allowedTools: def.autonomous?.tools ?? [],
        allowedBinaries: s.definition.allowedBinaries,
        reviewerAllowed: false,
        argsProblem: (args) => actionArgsProblem(p.action.tool, args),
      });
      if (!r.ok) throw new WorldStop(`The authority refused the scripted operator's ${a.decision} on the proposal of "${p.agent}" (${p.action.tool}): ${r.message}`);
      const gateDecision: GateDecision = a.decision === "abort" ? "abort" : r.record.decision === "approved" ? "approve" : "reject";
      commit([t.proposalDecided(p.id, r.record), t.gateResolved(gate, gateDecision, note, at, who)], "operator", LAB_OPERATOR, null);
      return;
    }
    if (a.decision === "modify") throw new WorldStop(`The scripted operator answered "modify" at the ${gate.kind} gate of "${gate.agent}": only a proposal's gate takes modified args.`);
    if (decision === "allow_binary") {
      const v = allowBinaryVerdict(s, gate.agent, DEFAULT_POLICY_RULES);
      if (!v.ok) throw new WorldStop(`The authority refused the scripted operator's allow_binary: ${v.reason}`);
    }
    commit([t.gateResolved(gate, decision as GateDecision, note, at, who)], "operator", LAB_OPERATOR, null);
  }

  async function drive(): Promise<string | null> {
    commit([t.missionCreated(spec.definition)], "creator", LAB_CREATOR, null);
    for (;;) {
      if (events.length > maxEvents) return `The run wrote more than ${maxEvents} events without ending and was stopped (a runaway: check the scenario's faults and operator answers).`;
      let r;
      try {
        recorder.begin(state!.seq);
        r = await advance(state!, recorder.io);
      } finally {
        recorder.end();
      }
      if (r.outcome === "terminal") return null;
      if (r.outcome === "stopped") {
        // The worker died: the next one takes the mission over from the log once the lease expires.
        crashed = false;
        worker++;
        clock += spec.takeoverMs ?? DEFAULT_TAKEOVER_MS;
        continue;
      }
      if (r.outcome === "waiting") {
        const s = r.state;
        const gate = s.gates.find((g) => g.status === "open");
        if (gate) answer(gate, s);
        else if (s.paused) commit([t.missionResumed("The lab's scripted operator resumed the mission.")], "operator", LAB_OPERATOR, null);
        else return "The mission waits for an external agent's calls; the lab runs only agents Faultline runs itself (scripted or autonomous).";
      }
    }
  }

  return {
    missionId,
    definition: spec.definition,
    seed: spec.seed,
    config,
    state: () => (state ? frozenCopy(state) : null),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async run() {
      if (started) throw new Error("This world has already run: a world runs once (each run its own world, seed and trace).");
      started = true;
      let error: string | null;
      try {
        error = await drive();
      } catch (e) {
        // Said in the run's result, never thrown past it: a suite goes on, and the trace holds every event up to it.
        error = e instanceof WorldStop ? e.message : `The engine failed: ${e instanceof Error ? e.message : String(e)}. This is a bug in Faultline, not in the scenario; the run's trace holds every event up to it.`;
      }
      const end: WorldEnd = { type: "end", state: state ? frozenCopy(state) : null, error, listenerErrors: [...listenerErrors] };
      emit(end);
      return end;
    },
    source: () => ({ mission: { id: missionId, name: spec.definition.name, definition: spec.definition }, events: [...events], tapes: [...tapes] }),
  };
}

/** The run cannot go on for a reason in the scenario (said in words), not a bug in the engine. */
class WorldStop extends Error {}
