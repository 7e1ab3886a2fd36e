import { assertToolResult, toolErrorSchema, type ToolError, type ToolResult } from "../tools/result";
import { missionDefinitionSchema, PHASES, PRIORITIES, type MissionDefinition, type Phase, type Priority, type StepDefinition, type ToolName } from "./definition";
import { advance, type EngineIO } from "./engine";
import type { LibraryHypothesis } from "./library";
import { EVENT_TYPES, type MissionEvent, type NewMissionEvent } from "./events";
import { nextAction, phaseTimeLeft } from "./next-action";
import { STUCK_LOOP_REPEATS } from "./recovery";
import { applyEvent as realApplyEvent, isTerminal, openGate } from "./reducer";
import { deriveFinalStatus } from "./status";
import { argsDigest } from "../authority/digest";
import { decideByPerson } from "../authority/authority";
import { DEFAULT_POLICY_RULES } from "../authority/rules";
import { agentActorId, FINISH } from "./autonomous";
import { explainMission } from "./explain";
import * as t from "./transitions";
import { GATE_DECISIONS, type AgentState, type EvidenceRecord, type FinalStatus, type GateDecision, type GateState, type MissionState } from "./types";

/**
 * An exhaustive, bounded, explicit-state model checker of the REAL mission engine: `advance` (engine.ts),
 * `nextAction` (next-action.ts), `applyEvent` (reducer.ts) and `deriveFinalStatus` (status.ts). Nothing of
 * the state machine is re-implemented here; only the environment is: an `EngineIO` whose `run` and
 * `stopped` return nondeterministic choices (the generalisation of simulate.ts), and operators who resolve
 * gates, pause and resume. See spec/README.md for what is proven and within which bounds.
 *
 * Exploration: breadth-first from `mission.created`. A node is (MissionState, clock, crashes used, pauses
 * used). Its successors are
 *   - every option the open gate offers that the retry policy allows (operator decision),
 *   - `mission.resumed` when paused; `mission.paused` (operator) at any boundary while the pause budget lasts,
 *   - when nothing holds the mission: one `advance(state, io)` for EVERY sequence of answers to the
 *     choice points it meets: each step's tool result (ok / ok without evidence / recoverable failure /
 *     unrecoverable failure / TIMEOUT past the phase deadline / all LLM providers down / crash after
 *     `step.started`), an operator pause that lands while the step runs, each compensation (ok / failed /
 *     crash) and each objective check (passes / fails). Choice sequences are enumerated by replaying a
 *     choice prefix from the (immutable) parent state.
 * States are deduplicated by `canonicalKey`, which keeps exactly what determines future behaviour (see
 * there). BFS order makes every reported counterexample a shortest one (in transitions).
 */

// ---------------------------------------------------------------------------------------------------
// Bounds and the model's mission definition
// ---------------------------------------------------------------------------------------------------

export interface ModelCheckBounds {
  /** Agents; priorities cycle critical, important, optional. */
  agents: number;
  /** Steps per agent. */
  steps: number;
  /** Retries per agent (policy): `retry`, `retry_phase` and `restart_phase` are not chosen once used up. */
  retries: number;
  /** Phases; agent i goes to phase i mod phases. */
  phases: number;
  /** Worker crashes (after a step or compensation started, before its result) on one path. */
  crashes: number;
  /** Operator pauses on one path (each eventually resumed). */
  pauses: number;
  /** Operator aborts of the whole mission (`mission.aborted`) on one path, at any boundary, gate or pause. Default 0. */
  aborts: number;
  /** Objective checks of the definition. */
  objectiveChecks: number;
  /** The critical agent's last step is high-risk (approval gate). */
  highRisk: boolean;
  /** Some steps declare compensations; the first phase compensates on failure. */
  compensate: boolean;
  /** Phases have a timeout; a step may end with TIMEOUT past the phase's deadline. */
  timeouts: boolean;
  /** The optional agent's llm step may fail with every LLM provider down (a gate, whatever the priority). */
  infra: boolean;
  /** The engine records ADR-0003 diagnoses (diagnostic_reflection) of failures. Slower. */
  diagnosis: boolean;
  /**
   * The failure-mode library is consulted after each diagnosis (needs `diagnosis`): it answers either the two
   * hypotheses of MODEL_HYPOTHESES (a Requires-Oversight one with a probe action, a Low one without) or abstains;
   * every probe and resolution action confirms, rejects or cannot run.
   */
  library: boolean;
  /**
   * Issue 14: an autonomous (model-driven) critical agent joins the last phase. Each model turn proposes an
   * allowed command, a forbidden one (`rm -rf /`, denied), a held file write (a proposal gate the operator
   * approves, modifies or rejects, through the real authority), `finish` (the evidence holds or not), or the
   * model is unreachable; `maxActions` 3.
   */
  autonomous: boolean;
}

export const DEFAULT_BOUNDS: ModelCheckBounds = {
  agents: 3,
  steps: 2,
  retries: 2,
  phases: 2,
  crashes: 1,
  pauses: 1,
  aborts: 0,
  objectiveChecks: 1,
  highRisk: true,
  compensate: true,
  timeouts: true,
  infra: true,
  diagnosis: false,
  library: false,
  autonomous: false,
};

/**
 * The bound `vitest` checks (lib/mission/model-check.test.ts): the full one with 1 retry per agent instead
 * of 2, so that it stays well under a minute on 2 cores. `npm run check:model` checks DEFAULT_BOUNDS.
 */
export const CI_BOUNDS: ModelCheckBounds = { ...DEFAULT_BOUNDS, retries: 1 };

/**
 * Issue 14's bound: the autonomous agent beside one scripted critical agent, one phase, one retry; every
 * model turn, every authority answer, operator approve / modify / reject / abort and late pick-ups.
 */
export const AUTONOMOUS_BOUNDS: ModelCheckBounds = { ...DEFAULT_BOUNDS, agents: 1, steps: 1, phases: 1, retries: 1, crashes: 0, pauses: 0, highRisk: false, compensate: false, timeouts: false, infra: false, autonomous: true };

const PHASE_TIMEOUT_MS = 60_000;
/** Shorter than a phase timeout: a step that times out past its deadline also outlives approvals given before it. */
const APPROVAL_TTL_MS = 30_000;
const AGENT_TIMEOUT_MS = 3_600_000;
const MISSION_ID = "00000000-0000-4000-8000-00000000c0de";
const T0 = Date.parse("2026-01-01T00:00:00Z");

const TOOLS: Record<Priority, ToolName[]> = { critical: ["shell", "shell"], important: ["http", "shell"], optional: ["llm", "http"] };
const ARGS: Record<ToolName, Record<string, unknown>> = {
  shell: { command: "node", args: ["-e", "1"] },
  http: { url: "http://127.0.0.1:9/x" },
  file: { op: "read", path: "x" },
  llm: { prompt: "summarise" },
};

export function agentNames(b: Pick<ModelCheckBounds, "agents">): Array<{ name: string; priority: Priority }> {
  return Array.from({ length: b.agents }, (_, i) => {
    const priority = PRIORITIES[i % PRIORITIES.length];
    const round = Math.floor(i / PRIORITIES.length);
    return { name: round ? `${priority}${round + 1}` : priority, priority };
  });
}

/**
 * The mission the checker runs. Per agent (by priority): tools critical shell,shell (non-idempotent: a
 * crash opens a recovery gate), important http,shell (http is idempotent: a crash re-runs it with the same
 * key), optional llm,http. The critical agent's last step is high-risk; the critical agent's first step
 * and the important agent's second step declare compensations. Every phase is skippable; the first one
 * compensates on failure; phases time out after PHASE_TIMEOUT_MS.
 */
export function modelDefinition(b: ModelCheckBounds): MissionDefinition {
  const phases = modelPhases(b.phases);
  const agents = agentNames(b);
  return missionDefinitionSchema.parse({
    name: "model check",
    objective: "every reachable state satisfies the RFC 001 invariants",
    allowedBinaries: b.autonomous ? ["node", "rm"] : ["node"],
    objectiveChecks: Array.from({ length: b.objectiveChecks }, () => ({ tool: "shell", args: ARGS.shell })),
    phases: phases.map((name, j) => ({
      name,
      skippable: true,
      compensateOnFailure: b.compensate && j === 0,
      ...(b.timeouts ? { timeoutMs: PHASE_TIMEOUT_MS } : {}),
      agents: agents
        .filter((_, i) => i % phases.length === j)
        .map(({ name: agent, priority }): Record<string, unknown> => ({
          name: agent,
          priority,
          timeoutMs: AGENT_TIMEOUT_MS,
          steps: Array.from({ length: b.steps }, (_, s) => {
            const tool = TOOLS[priority][s % 2];
            const step: Record<string, unknown> = { tool, args: ARGS[tool] };
            if (b.highRisk && priority === "critical" && s === b.steps - 1) step.highRisk = true;
            if (b.compensate && ((priority === "critical" && s === 0) || (priority === "important" && s === 1))) step.compensate = { tool: "shell", args: ARGS.shell };
            return step;
          }),
        }))
        .concat(b.autonomous && j === phases.length - 1 ? [AUTONOMOUS_AGENT] : []),
    })),
    rules: b.autonomous ? [{ id: "hold-held", effect: "hold", tool: "file", path: "held/**", reason: "a person decides writes under held/" }] : [],
  });
}

/** The model's autonomous agent (issue 14). */
export const AUTONOMOUS_AGENT = { name: "auto", priority: "critical", timeoutMs: AGENT_TIMEOUT_MS, autonomous: { goal: "Write out.txt.", tools: ["shell", "file"] as string[], maxActions: 3, evidence: [{ file_exists: "out.txt" }] } };
const AUTO_ACTOR = agentActorId(AUTONOMOUS_AGENT.name, "model", "checked");
/** What the model proposes on one turn, and the exact args. */
const MODEL_TURNS = ["allowed command", "forbidden command", "held write", "finish", "model unreachable"] as const;
const TURN_CALLS: Record<Exclude<(typeof MODEL_TURNS)[number], "model unreachable">, { name: string; args: Record<string, unknown> }> = {
  "allowed command": { name: "shell", args: { command: "node", args: ["--version"] } },
  "forbidden command": { name: "shell", args: { command: "rm", args: ["-rf", "/"] } },
  "held write": { name: "file", args: { op: "write", path: "held/out.txt", content: "x" } },
  finish: { name: FINISH, args: { summary: "done" } },
};
const EVIDENCE_OUTCOMES = ["holds", "does not hold"];
const MODIFIED_ARGS = { op: "write", path: "out.txt", content: "x" };

function modelPhases(n: number): Phase[] {
  if (n < 1 || n > PHASES.length) throw new Error(`phases must be 1..${PHASES.length}`);
  // Always end with EXECUTION, REVIEW when possible: the phases the examples use.
  return PHASES.slice(PHASES.length - n) as Phase[];
}

/**
 * An upper bound on the length (in transitions: one `advance`, or one operator action) of every path
 * from `mission.created` to a terminal state, implied by the retry policy and the budgets:
 *   attempts per agent A = 1 + retries; per attempt ≤ 1 (agent.started) + steps (each step's execution)
 *     + 2 per high-risk step (approval gate opened, decided) + 1 (agent.completed, or the decision at its gate);
 *   phase failures ≤ A·agents + phases, each ≤ 3 (phase.failed, its gate, the decision);
 *   2 per phase (started, completed); per crash ≤ 3 (the dead run, the recovery gate, the decision) + 1 (a
 *   compensation run again); per pause 2; each compensable step completed ≤ A times, 1 each; the objective
 *   check and mission.finished.
 */
export function livenessBound(b: ModelCheckBounds): number {
  const def = modelDefinition(b);
  const A = 1 + b.retries;
  let bound = 0;
  let compensable = 0;
  for (const p of def.phases)
    for (const a of p.agents) {
      const highRisk = a.steps.filter((s) => s.highRisk).length;
      bound += A * (1 + a.steps.length + 2 * highRisk + 1);
      // A step's failure consults the library once per attempt; per hypothesis at most: oversight gate and decision,
      // probe (inconclusive), probe gate, decision and its record, resolution gate, decision and its record, re-run; then exhausted.
      if (b.library) bound += A * a.steps.length * (10 * MODEL_HYPOTHESES.length + 1);
      compensable += a.steps.filter((s) => s.compensate).length * A;
      // An autonomous attempt: agent.started; per action its proposal, the decision at its gate, its run; the stop; its gate's decision.
      if (a.autonomous) bound += A * (3 + 3 * a.autonomous.maxActions);
    }
  bound += 3 * (A * b.agents + def.phases.length);
  bound += 2 * def.phases.length;
  bound += 4 * b.crashes + 2 * b.pauses + b.aborts + compensable + 2;
  return bound;
}

// ---------------------------------------------------------------------------------------------------
// The environment
// ---------------------------------------------------------------------------------------------------

/** What an environment answers when the engine runs a step. */
export type EnvOutcome = "ok" | "no-evidence" | "fail-recoverable" | "fail-unrecoverable" | "timeout" | "infra" | "crash";

const DIAGNOSIS = { enabled: true, whyDepth: 5, maxRecoveryAttempts: 2, fastPath: true };
const sh = (script: string) => ({ tool: "shell" as const, args: { command: "sh", args: ["-c", script] } });
/** The library's answer in the model: every kind of gate the walk can open is reachable from it. */
export const MODEL_HYPOTHESES: LibraryHypothesis[] = [
  { failure_id: "FM-SW-9001", rank: 1, match_score: 0.9, title: "Overseen cause", category: "State", risk_level: "Requires-Oversight", risk_notes: null, diagnostic_probe: "Check it.", resolution_path: "Fix it.", probe_action: { ...sh("true"), confirm_when: { exit_code: 0 } }, resolution_action: { ...sh("true"), expect: { exit_code: 0 } } },
  { failure_id: "FM-SW-9002", rank: 2, match_score: 0.6, title: "Plain cause", category: "State", risk_level: "Low", risk_notes: null, diagnostic_probe: "Look at it.", resolution_path: "Repair it.", probe_action: null, resolution_action: { ...sh("true"), expect: { exit_code: 0 } } },
];
const LIBRARY_ANSWERS = ["two hypotheses", "abstains"];
const ACTION_OUTCOMES = ["exit 0", "exit 1", "cannot run"];
const OBJECTIVE_OUTCOMES = ["passes", "fails"];
const PAUSE_CHOICES = ["no pause", "operator pauses"];
const PASS: EvidenceRecord[] = [{ check: "exit_code", expected: 0, actual: 0, passed: true }];
const FAIL: EvidenceRecord[] = [{ check: "output_matches", expected: "/ready/", actual: "", passed: false }];
const ERRORS: Record<"fail-recoverable" | "fail-unrecoverable" | "timeout" | "infra", ToolError> = {
  "fail-recoverable": { code: "EXIT_NONZERO", message: "exit 1", exitCode: 1 },
  "fail-unrecoverable": { code: "NOT_ALLOWED", message: '"curl" is not on this mission\'s allowlist (allowed: node).' },
  timeout: { code: "TIMEOUT", message: "The step ran past its time limit." },
  infra: { code: "NETWORK_ERROR", message: "All 2 LLM providers failed: a: 500; b: refused", details: { allProvidersFailed: true } },
};

function toolOutcome(o: Exclude<EnvOutcome, "crash">): { result: ToolResult; evidence: EvidenceRecord[] } {
  if (o === "ok") return { result: { ok: true, data: { exitCode: 0 }, error: null }, evidence: PASS };
  if (o === "no-evidence") return { result: { ok: true, data: { exitCode: 0 }, error: null }, evidence: FAIL };
  return { result: { ok: false, data: null, error: ERRORS[o] }, evidence: [] };
}

/** The system under check. Defaults to the real code; tests inject broken copies to prove the checker fails. */
export interface ModelCheckSystem {
  applyEvent: (state: MissionState | null, e: MissionEvent) => MissionState;
  /** The worker's EngineIO.idempotent (default: the step's `idempotent`, else the tool's: http yes, others no). */
  idempotent: (step: StepDefinition) => boolean;
}

const defaultIdempotent = (step: StepDefinition) => step.idempotent ?? step.tool === "http";

/**
 * A copy of the reducer whose `mission.finished` takes its final status from `derive` instead of the real
 * derivation (the real `applyEvent` does everything else). For planting a broken status derivation.
 */
export function withDerivation(derive: (s: MissionState) => FinalStatus, base: ModelCheckSystem["applyEvent"] = realApplyEvent): ModelCheckSystem["applyEvent"] {
  return (state, e) => {
    const next = base(state, e);
    if (e.type !== "mission.finished" || !state) return next;
    const status = derive(state);
    return { ...next, finalStatus: status, phase: status === "FAILED" ? "FAILED" : "MISSION_COMPLETED", runState: status === "FAILED" ? "failed" : "completed" };
  };
}

interface Node {
  state: MissionState;
  /** The environment's clock (ms); advanced only when a step times out past its phase deadline. */
  clock: number;
  crashes: number;
  pauses: number;
  aborts: number;
}

type Action = { kind: "decide"; decision: GateDecision; modify?: boolean; late?: boolean } | { kind: "pause" } | { kind: "resume" } | { kind: "abort" } | { kind: "engine"; choices: number[] };

interface Transition {
  action: Action;
  /** Readable choices made (engine transitions). */
  labels: string[];
  /** Events appended, one array per atomic append (transaction). */
  batches: MissionEvent[][];
  node: Node | null;
  /** The first invariant violated during the transition (before `node` is reached), or a thrown error. */
  violation: Violation | null;
  /** Every invariant violated by the state (or transaction) where the transition stopped. */
  violations: Violation[];
  /** Known violations met on the way (the transition went on). */
  known: Violation[];
  /** Arity of each choice point met, and the choice taken (engine transitions). */
  arities: number[];
  taken: number[];
}

export interface Violation {
  invariant: InvariantName;
  message: string;
}

export const INVARIANTS = [
  "NoSuccessWithoutEvidence",
  "NoSuccessOnUndoneWork",
  "NoSilentFailure",
  "ToolContract",
  "RunStateProjection",
  "TerminalStatusDerived",
  "NoIllegalTransition",
  "NoBlindRerun",
  "BoundedRetries",
  "MonotonicProgress",
  "NoUnapprovedAction",
  "NoSuccessFromClaim",
  "FailureExplained",
] as const;
export type InvariantName = (typeof INVARIANTS)[number];

/**
 * Invariants the real code is known to violate, while a fix is pending. They are still checked and
 * reported with their shortest counterexample ("KNOWN FAIL"), but do not fail the run; the vitest test
 * pins this list, so a fix (or a new known violation) must update it. Empty: NoSuccessOnUndoneWork, found
 * by this checker, was fixed in c19d538 (spec/README.md, Findings).
 */
export const KNOWN_VIOLATIONS: readonly InvariantName[] = [];

interface Ctx {
  b: ModelCheckBounds;
  def: MissionDefinition;
  sys: ModelCheckSystem;
  /** Known violations: recorded, but the transition goes on. */
  known: ReadonlySet<InvariantName>;
  /** Per agent: its step definitions, and which steps declare a compensation. */
  info: Map<string, { steps: StepDefinition[]; compensable: boolean[] }>;
}

/** Whether the retry policy lets an operator choose `decision` at `gate`. Every other offered option is always explored. */
export function policyAllows(s: MissionState, gate: GateState, decision: GateDecision, retries: number): boolean {
  if (decision === "retry") return s.agents[gate.agent].attempt <= retries;
  if (decision === "retry_phase" || decision === "restart_phase") return s.agentOrder.every((n) => s.agents[n].phase !== gate.phase || s.agents[n].attempt <= retries);
  return true;
}

class Stop extends Error {
  constructor(readonly violations: Violation[]) {
    super(violations[0].message);
  }
}

/** Performs one transition from `node`. Never throws: a thrown error becomes a violation. */
async function perform(ctx: Ctx, node: Node, action: Action, describe = false): Promise<Transition> {
  let state = node.state;
  let clock = node.clock;
  let crashes = node.crashes;
  let pauses = node.pauses;
  let aborts = node.aborts;
  let crashed = false;
  let ids = 0;
  const batches: MissionEvent[][] = [];
  const knownHits: Violation[] = [];
  const labels: string[] = [];
  const arities: number[] = [];
  const taken: number[] = [];
  let iso = new Date(clock).toISOString();
  let isoClock = clock;
  const at = () => (isoClock === clock ? iso : ((isoClock = clock), (iso = new Date(clock).toISOString())));

  const commit = (list: Array<NewMissionEvent | ((s: MissionState) => NewMissionEvent | null)>, actorId: string): MissionState => {
    const before = state;
    const batch: MissionEvent[] = [];
    let s = state;
    batches.push(batch);
    let refused: MissionEvent | null = null;
    try {
      for (const item of list) {
        const e = typeof item === "function" ? item(s) : item;
        if (!e) continue;
        // One shape for every event (a spread of many shapes is slow).
        refused = { type: e.type, payload: e.payload, reason: e.reason, impact: e.impact, evidence: e.evidence, missionId: MISSION_ID, seq: s.seq + 1, actorId, at: at() } as MissionEvent;
        s = ctx.sys.applyEvent(s, refused);
        batch.push(refused);
        refused = null;
      }
    } catch (err) {
      // What was applied before the failure may already break an invariant: that is the root cause.
      const first = [checkBatch(ctx, before, batch, s), ...checkState(ctx, s)].filter((x): x is Violation => x !== null && !ctx.known.has(x.invariant));
      if (refused) batch.push(refused);
      throw new Stop(first.length ? first : [{ invariant: "NoIllegalTransition", message: `${refused ? `${refused.type} was refused` : "building the next event failed"}: ${(err as Error).message}` }]);
    }
    state = s;
    const found = [checkBatch(ctx, before, batch, s), ...checkState(ctx, s)].filter((x): x is Violation => x !== null);
    knownHits.push(...found.filter((x) => ctx.known.has(x.invariant)));
    const failing = found.filter((x) => !ctx.known.has(x.invariant));
    if (failing.length) throw new Stop(failing);
    return s;
  };

  const choose = (options: string[], what: string): number => {
    const i = taken.length;
    const c = action.kind === "engine" && i < action.choices.length ? action.choices[i] : 0;
    arities.push(options.length);
    taken.push(c);
    if (describe) labels.push(`${what} → ${options[c]}`);
    return c;
  };

  const io: EngineIO = {
    now: () => clock,
    // Unique: seq strictly grows between transitions that append a gate.
    newId: () => `gate-${node.state.seq}-${++ids}`,
    append: async (list) => commit(list, "worker:model-check"),
    idempotent: ctx.sys.idempotent,
    stopped: () => crashed,
    diagnosis: ctx.b.diagnosis ? DIAGNOSIS : undefined,
    library: ctx.b.library
      ? async () => (choose(LIBRARY_ANSWERS, describe ? "the library" : "") === 0 ? { libraryVersion: 1, abstained: false, hypotheses: MODEL_HYPOTHESES } : { libraryVersion: 1, abstained: true, hypotheses: [] })
      : undefined,
    think: ctx.b.autonomous
      ? async () => {
          const turn = MODEL_TURNS[choose([...MODEL_TURNS], describe ? "the model proposes" : "")];
          if (turn === "model unreachable") return { ok: false, error: ERRORS.infra };
          const c = TURN_CALLS[turn];
          return { ok: true, actor: { actorId: AUTO_ACTOR, kind: "agent", name: "auto", meta: {} }, call: { id: null, name: c.name, args: c.args, argsError: null }, text: "", model: { provider: "model", model: "checked", latencyMs: 0 } };
        }
      : undefined,
    checkEvidence: async () => (choose(EVIDENCE_OUTCOMES, describe ? "the evidence at finish" : "") === 0 ? [{ check: "file_exists", expected: "out.txt", actual: true, passed: true }] : [{ check: "file_exists", expected: "out.txt", actual: false, passed: false, detail: "expected out.txt to exist" }]),
    authority: { defaultPolicy: async () => DEFAULT_POLICY_RULES, approvalTtlMs: APPROVAL_TTL_MS },
    run: async (_call, { idempotencyKey, library }) => {
      const [, agent, stepStr, , comp] = idempotencyKey.split("/");
      let r: { result: ToolResult; evidence: EvidenceRecord[] };
      if (library) {
        const c = choose(ACTION_OUTCOMES, describe ? `${library.kind} action of ${agent} step ${stepStr}` : "");
        r = c === 0 ? toolOutcome("ok") : c === 1 ? { result: { ok: false, data: null, error: ERRORS["fail-recoverable"] }, evidence: [] } : toolOutcome("fail-unrecoverable");
      } else if (agent === "objective") {
        const c = choose(OBJECTIVE_OUTCOMES, describe ? `objective check ${stepStr}` : "");
        r = toolOutcome(c === 0 ? "ok" : "no-evidence");
      } else if (comp === "compensate") {
        const options: EnvOutcome[] = ["ok", "fail-recoverable", ...(crashes < ctx.b.crashes ? (["crash"] as const) : [])];
        const o = options[choose(options, describe ? `compensation of ${agent} step ${stepStr}` : "")];
        if (o === "crash") {
          crashed = true;
          crashes++;
        }
        r = toolOutcome(o === "crash" ? "ok" : o);
      } else {
        const step = ctx.info.get(agent)!.steps[Number(stepStr)] ?? { tool: _call.tool };
        const options: EnvOutcome[] = ["ok", "no-evidence", "fail-recoverable", "fail-unrecoverable"];
        if (ctx.b.timeouts) options.push("timeout");
        if (ctx.b.infra && step.tool === "llm") options.push("infra");
        if (crashes < ctx.b.crashes) options.push("crash");
        const o = options[choose(options, describe ? `${agent} attempt ${state.agents[agent].attempt} step ${stepStr}` : "")];
        // An operator's pause may land while the step runs: the step still records its result.
        if (!state.paused && pauses < ctx.b.pauses && choose(PAUSE_CHOICES, "while it runs") === 1) {
          pauses++;
          commit([t.missionPaused("operator", "paused by an operator while a step ran")], "user:operator");
        }
        if (o === "crash") {
          crashed = true;
          crashes++;
        }
        if (o === "timeout") clock += PHASE_TIMEOUT_MS;
        r = toolOutcome(o === "crash" ? "ok" : o);
      }
      assertToolResult(r.result);
      return r;
    },
  };

  let violations: Violation[] = [];
  try {
    if (action.kind === "decide") {
      const gate = openGate(state)!;
      if (describe) labels.push(`operator decides ${action.decision}${action.modify ? " (modified args)" : ""}${action.late ? " (picked up after the approval expired)" : ""} at the ${gate.kind} gate of ${gate.agent}`);
      const p = gate.proposalId ? state.proposals.find((x) => x.id === gate.proposalId) : undefined;
      if (p && action.decision !== "abort") {
        // A person's answer goes through the real authority, as the console, REST and CLI do.
        const r = decideByPerson({
          proposal: p,
          pendingRecord: p.decision!,
          decider: { actorId: "user:operator", kind: "human" },
          proposerActorId: p.actorId,
          answer: action.modify ? "modify" : action.decision === "approve" ? "approve" : "reject",
          args: action.modify ? MODIFIED_ARGS : undefined,
          note: action.decision === "approve" ? null : "not this",
          now: clock,
          approvalTtlMs: APPROVAL_TTL_MS,
          rules: ctx.def.rules,
          defaultPolicy: DEFAULT_POLICY_RULES,
          allowedTools: AUTONOMOUS_AGENT.autonomous.tools,
          allowedBinaries: ctx.def.allowedBinaries,
          reviewerAllowed: false,
        });
        if (!r.ok) throw new Error(`the authority refused the operator's answer: ${r.message}`);
        commit([t.proposalDecided(p.id, r.record), t.gateResolved(gate, action.decision, null, at(), "operator")], "user:operator");
        // The worker picks the approval up only after it expired (it was down, or busy): it must refuse it.
        if (action.late) clock += APPROVAL_TTL_MS + 1;
      } else commit([t.gateResolved(gate, action.decision, null, at(), "operator")], "user:operator");
    } else if (action.kind === "pause") {
      labels.push("operator pauses");
      pauses++;
      commit([t.missionPaused("operator", "paused by an operator")], "user:operator");
    } else if (action.kind === "resume") {
      labels.push("operator resumes");
      commit([t.missionResumed("resumed by an operator")], "user:operator");
    } else if (action.kind === "abort") {
      labels.push("operator aborts the mission");
      aborts++;
      commit([t.missionAborted("aborted by an operator")], "user:operator");
    } else {
      if (describe) {
        const next = nextAction(state);
        labels.push(`engine: ${next.kind}${"agent" in next ? ` ${next.agent}` : ""}${"phase" in next ? ` ${next.phase}` : ""}${"compensation" in next ? ` ${next.compensation.agent} step ${next.compensation.step}` : ""}`);
      }
      const r = await advance(state, io);
      if (r.outcome === "waiting" || r.outcome === "terminal") throw new Error(`advance returned ${r.outcome} from a state that nothing holds`);
      if (describe && r.outcome === "stopped") labels.push("the worker died; another worker takes over from the log");
    }
  } catch (err) {
    violations = err instanceof Stop ? err.violations : [{ invariant: "NoIllegalTransition", message: `the transition threw: ${(err as Error).stack ?? String(err)}` }];
  }
  return { action, labels, batches, node: violations.length ? null : { state, clock, crashes, pauses, aborts }, violation: violations[0] ?? null, violations, known: knownHits, arities, taken };
}

/** Every environment action from `node`, each with its transition. Engine transitions are enumerated over all choice sequences. */
async function successors(ctx: Ctx, node: Node): Promise<Transition[]> {
  const s = node.state;
  if (isTerminal(s)) return [];
  const out: Transition[] = [];
  const gate = openGate(s);
  if (gate) for (const o of gate.options) if (policyAllows(s, gate, o.action, ctx.b.retries)) out.push(await perform(ctx, node, { kind: "decide", decision: o.action }));
  // Approve with modification: a held write approved with other args (what runs is bound to their digest).
  if (gate?.kind === "proposal" && gate.options.some((o) => o.action === "approve") && s.proposals.find((p) => p.id === gate.proposalId)?.action.tool === "file") {
    out.push(await perform(ctx, node, { kind: "decide", decision: "approve", modify: true }));
    out.push(await perform(ctx, node, { kind: "decide", decision: "approve", late: true }));
  }
  if (s.paused) out.push(await perform(ctx, node, { kind: "resume" }));
  else if (node.pauses < ctx.b.pauses) out.push(await perform(ctx, node, { kind: "pause" }));
  if (!s.aborted && node.aborts < ctx.b.aborts) out.push(await perform(ctx, node, { kind: "abort" }));
  if (!gate && !s.paused) {
    const explore = async (prefix: number[]) => {
      const tr = await perform(ctx, node, { kind: "engine", choices: prefix });
      out.push(tr);
      for (let j = prefix.length; j < tr.arities.length; j++)
        for (let k = 1; k < tr.arities[j]; k++) await explore([...tr.taken.slice(0, j), k]);
    };
    await explore([]);
  }
  return out;
}

function agentInfo(def: MissionDefinition): Ctx["info"] {
  return new Map(def.phases.flatMap((p) => p.agents.map((a) => [a.name, { steps: a.steps, compensable: a.steps.map((st) => Boolean(st.compensate)) }] as const)));
}

// ---------------------------------------------------------------------------------------------------
// Canonical state hash
// ---------------------------------------------------------------------------------------------------

/**
 * The canonical key of a node: what determines its future behaviour (the engine's next actions, the
 * reducer's guards, the derived status, the operators' options under the retry policy). Invariants are
 * checked on every generated state before it is merged, and what they read is either in the key or frozen
 * until it is overwritten, so they hold on merged states too.
 * Kept: phase, runState, whether the mission started, aborted, paused, the phase failure (phase, reason),
 * completed phases, whether the current phase is past its deadline at the node's clock (the only way time
 * matters: the clock only ever jumps past a deadline), the objective (checked, passed), the final status;
 * per agent: status, attempt (the retry policy reads it) and undone; for a running agent its approved steps and
 * per step: status, passing evidence, error presence, resumeApproved; for a failed or skipped agent whether
 * it has an error (phaseAgentsFailed) and is tolerated, and, until its failure is responded to (no gate of
 * its own open, not aborted), the error's code, recoverable and all-providers-down (respondToFailure);
 * the open gate (kind, agent, phase, step, the actions it offers); compensations (agent, attempt, step,
 * status) in order; completed steps that declare a compensation and have none planned yet, in order;
 * crashes and pauses used.
 * Dropped: ids, seq, timestamps (but the deadline flag), idempotency keys, messages, reasons,
 * UserFacingErrors, diagnoses, resolved gates, reruns, warnings, owner, evidence details, error details
 * once responded to, steps and approvals of agents that are not running (agent.started and phase resets
 * overwrite them before anything reads them; a completed agent's steps are all succeeded), completed
 * steps without a compensation, the definition (constant).
 * `verifyAbstraction` checks, on every merge, that the merged states have the same successors.
 */
export function canonicalKey(node: Node, info: Ctx["info"]): string {
  const s = node.state;
  let k = `${s.phase}|${s.runState}|${s.startedAt ? "S" : "s"}${s.aborted ? "A" : "a"}${s.paused ? "P" : "p"}${phaseTimeLeft(s, node.clock) <= 0 ? "X" : "x"}|`;
  k += `${s.phaseFailure ? `${s.phaseFailure.phase}:${s.phaseFailure.reason}` : "-"}|${s.completedPhases.join(",")}|${s.objective.checked ? `O${s.objective.passed ? 1 : 0}` : "o"}|${s.finalStatus ?? "-"}`;
  const g = openGate(s);
  for (const n of s.agentOrder) {
    const a = s.agents[n];
    k += `|${a.status}${a.attempt}${a.undone ? "U" : ""}`;
    // Recovery (ADR-0003): attempts made per step bound what may still be tried; a running one is resumed where it stands.
    if (a.recoveries.length) k += `{${a.recoveries.map((r) => `${r.step}:${r.strategy}:${r.outcome[0]}`).join(",")}}`;
    if (a.recovery) k += `<${a.recovery.step}:${a.recovery.strategy}:${a.recovery.done}>`;
    if (a.pendingRecovery) k += `<P${a.pendingRecovery.strategy}>`;
    // The library walk (000 Output Protocol): where it stands, and which failures already consulted the library.
    if (a.libraryConsulted.length) k += `L${a.libraryConsulted.join(",")}`;
    if (a.library) {
      const w = a.library;
      k += `{${w.step}:${w.current}:${w.stage}:${w.oversightApproved ? "O" : ""}${w.actionFailed ? "F" : ""}${w.decision ? `${w.decision.stage}=${w.decision.decision}` : ""}}`;
    }
    // The stuck-loop detector: the latest failing action and its run length (saturated: beyond the threshold nothing
    // changes). Dead once the agent can never run again: its phase completed, or the mission was aborted.
    if (a.repeatedFailure && !s.aborted && !s.completedPhases.includes(a.phase)) k += `~${a.repeatedFailure.signature}:${Math.min(a.repeatedFailure.count, STUCK_LOOP_REPEATS)}`;
    if (a.status === "running") {
      // Only a running agent's steps and approvals are read; agent.started and phase resets overwrite them.
      k += `[${a.approvedSteps.join(",")}](`;
      for (const st of a.steps) k += `${st.status}${st.status === "succeeded" ? (passing(st.evidence) ? "+" : "-") : ""}${st.error ? "E" : ""}${st.resumeApproved ? "R" : ""},`;
      k += ")";
      // An autonomous agent: its budget used, whether it finished, and its attempt's proposals (which action, how
      // decided, whether it ran, whether an approval not yet run has expired at the node's clock).
      if (a.autonomous) {
        k += `A${a.autonomous.actions}${a.autonomous.finished ? `F${passing(a.autonomous.finished.evidence) ? "+" : "-"}` : ""}<`;
        for (const p of s.proposals) {
          if (p.agent !== n || p.attempt !== a.attempt) continue;
          const live = p.status === "approved" && p.step === null && p.action.tool !== FINISH;
          k += `${p.argsDigest.slice(7, 13)}${p.decision?.modified ? "m" : ""}${p.status[0]}${p.step !== null ? "r" : ""}${live && p.decision?.expiresAt && node.clock > Date.parse(p.decision.expiresAt) ? "x" : ""},`;
        }
        k += ">";
      }
    } else if (a.status === "failed" || a.status === "skipped") {
      // phaseAgentsFailed reads whether a skipped agent had failed; the response matrix reads a failed agent's error until it responded.
      k += a.tolerated ? "T" : "";
      k += a.error ? "E" : "";
      if (a.status === "failed" && a.error && !a.tolerated && !s.aborted && !(g && g.kind === "agent" && g.agent === n))
        k += `${a.error.code}:${a.error.recoverable ? 1 : 0}:${a.error.context.toolError.details?.allProvidersFailed ? 1 : 0}`;
    }
  }
  if (g) {
    k += `|G${g.kind}:${g.agent}:${g.phase}:${g.step}:${g.proposalId ? (s.proposals.find((p) => p.id === g.proposalId)?.action.tool ?? "?") : ""}:`;
    for (const o of g.options) k += `${o.action},`;
  } else k += "|g";
  k += "|";
  for (const c of s.compensations) k += `${c.agent}/${c.attempt}/${c.step}:${c.status},`;
  k += "|";
  for (const c of s.completedSteps) {
    if (!info.get(c.agent)!.compensable[c.step]) continue;
    if (s.compensations.some((x) => x.agent === c.agent && x.attempt === c.attempt && x.step === c.step)) continue;
    k += `${c.agent}/${c.attempt}/${c.step},`;
  }
  return `${k}|c${node.crashes}p${node.pauses}a${node.aborts}`;
}

/**
 * Two independent 32-bit hashes (FNV-1a and a multiplicative one) of the key: 64 bits. A false merge needs
 * two distinct keys with equal 64-bit hashes; for n states its probability is about n²/2^65 (3·10⁻⁶ at 10⁷).
 */
function hash64(key: string): [number, number] {
  let h1 = 0x811c9dc5;
  let h2 = 0x9e3779b9;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  h2 = Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35);
  return [h1 >>> 0, (h2 ^ (h2 >>> 16)) >>> 0];
}

/** Visited states: 64-bit hash → state id. A 53-bit number keys a Map; the other 11 bits are checked in a side array. */
class StateIndex {
  private readonly map = new Map<number, number>();
  private readonly extra = new Map<string, number>();
  private low = new Uint16Array(1 << 16);
  get(key: string): { id: number | undefined; h: [number, number] } {
    const h = hash64(key);
    const n = h[0] * 2 ** 21 + (h[1] >>> 11);
    const id = this.map.get(n);
    if (id === undefined) return { id, h };
    if (this.low[id] === (h[1] & 0x7ff)) return { id, h };
    return { id: this.extra.get(`${h[0]}:${h[1]}`), h };
  }
  set(h: [number, number], id: number) {
    const n = h[0] * 2 ** 21 + (h[1] >>> 11);
    if (this.map.has(n)) this.extra.set(`${h[0]}:${h[1]}`, id);
    else this.map.set(n, id);
    if (id >= this.low.length) {
      const bigger = new Uint16Array(this.low.length * 2);
      bigger.set(this.low);
      this.low = bigger;
    }
    this.low[id] = h[1] & 0x7ff;
  }
}

/** A growable Int32 array. */
class IntList {
  data = new Int32Array(1 << 16);
  length = 0;
  push(x: number) {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = x;
  }
}

// ---------------------------------------------------------------------------------------------------
// Invariants
// ---------------------------------------------------------------------------------------------------

/**
 * Independent of status.ts: an agent that completed every step of its definition, each with passing evidence;
 * an autonomous agent: every action that ran succeeded with passing evidence, and its finish was approved on
 * passing evidence (or confirmed by a person), never on its own claim.
 */
function provenByEvidence(ctx: Ctx, a: AgentState): boolean {
  if (a.autonomous !== undefined && a.autonomous !== null) {
    if (a.status !== "completed" || !a.autonomous.finished || !passing(a.autonomous.finished.evidence)) return false;
    for (const st of a.steps) if (st.status !== "succeeded" || !passing(st.evidence)) return false;
    return true;
  }
  if (a.status !== "completed" || a.steps.length !== ctx.info.get(a.name)!.steps.length) return false;
  for (const st of a.steps) if (st.status !== "succeeded" || !passing(st.evidence)) return false;
  return true;
}

function passing(ev: EvidenceRecord[]): boolean {
  if (ev.length === 0) return false;
  for (const r of ev) if (!r.passed) return false;
  return true;
}

/** Invariants of every committed state: every violation found (none: []). */
function checkState(ctx: Ctx, s: MissionState): Violation[] {
  const out: Violation[] = [];
  const fs = s.finalStatus;
  // NoSuccessWithoutEvidence (RFC 001 §3.8): SUCCESS / PARTIAL_SUCCESS ⇒ every critical agent proven by evidence; SUCCESS ⇒ every agent.
  if (fs === "SUCCESS" || fs === "PARTIAL_SUCCESS") {
    const missing = s.agentOrder.map((n) => s.agents[n]).filter((a) => (fs === "SUCCESS" || a.priority === "critical") && !provenByEvidence(ctx, a));
    if (missing.length) out.push(v("NoSuccessWithoutEvidence", `finalStatus ${fs} but ${missing.map((a) => `${a.priority} agent "${a.name}" is ${a.status} without valid evidence`).join(", ")}`));
    if (s.aborted || s.objective.passed !== true) out.push(v("NoSuccessWithoutEvidence", `finalStatus ${fs} but ${s.aborted ? "the mission was aborted" : "the objective checks did not pass"}`));
  }
  for (const n of s.agentOrder) {
    const a = s.agents[n];
    if (a.status === "completed" && !provenByEvidence(ctx, a)) out.push(v("NoSuccessWithoutEvidence", `agent "${a.name}" is completed but not every step succeeded with passing evidence`));
    for (const st of a.steps) {
      // NoSilentFailure: a running attempt has no failed step (its agent.failed is in the same transaction).
      // A failure being handled explicitly (the library's walk over its hypotheses, an ADR-0003 recovery) keeps its agent running, on the record.
      if (st.status === "failed" && a.status === "running" && !handled(a, st.index)) out.push(v("NoSilentFailure", `agent "${a.name}" is running with a failed step`));
      if (st.status === "succeeded" && (st.error !== null || !passing(st.evidence))) out.push(v("ToolContract", `step ${st.index} of "${a.name}" succeeded without passing evidence or with an error`));
      if (st.status === "failed" && !st.error) out.push(v("ToolContract", `step ${st.index} of "${a.name}" failed without an error`));
    }
    if (a.attempt > 1 + ctx.b.retries) out.push(v("BoundedRetries", `agent "${a.name}" is on attempt ${a.attempt}; the policy allows ${1 + ctx.b.retries}`));
  }
  let open = 0;
  for (const g of s.gates) if (g.status === "open") open++;
  if (open > 1) out.push(v("RunStateProjection", `${open} gates are open at once`));
  if (isTerminal(s)) {
    const derived = deriveFinalStatus(s);
    if (fs !== derived) out.push(v("TerminalStatusDerived", `the mission ended ${fs}, but deriveFinalStatus gives ${derived}`));
    // And the RFC 001 §3.3 rule itself, independently of status.ts: evidence counts unless a compensation
    // undid (or tried to undo) a step of the agent's current attempt.
    const proven = s.agentOrder.filter((n) => provenByEvidence(ctx, s.agents[n]) && !s.compensations.some((c) => c.agent === n && c.attempt === s.agents[n].attempt && c.status !== "pending"));
    const ok = !s.aborted && s.objective.checked && s.objective.passed === true && s.agentOrder.every((n) => s.agents[n].priority !== "critical" || proven.includes(n)) && proven.length > 0;
    const rfc = !ok ? "FAILED" : proven.length === s.agentOrder.length ? "SUCCESS" : "PARTIAL_SUCCESS";
    if (fs !== rfc) out.push(v("TerminalStatusDerived", `the mission ended ${fs}, but RFC 001 §3.3 gives ${rfc}`));
    const phase = derived === "FAILED" ? "FAILED" : "MISSION_COMPLETED";
    const runState = derived === "FAILED" ? "failed" : "completed";
    if (s.phase !== phase || s.runState !== runState) out.push(v("TerminalStatusDerived", `finalStatus ${fs} with phase ${s.phase} and runState ${s.runState}`));
    if (open || s.paused) out.push(v("TerminalStatusDerived", "ended with a gate open or paused"));
    if (s.compensations.some((c) => c.status === "pending" || c.status === "running")) out.push(v("TerminalStatusDerived", "ended with compensations not run"));
  } else {
    if (fs !== null) out.push(v("TerminalStatusDerived", `finalStatus ${fs} on a mission that has not ended`));
    // runState paused ⇔ a gate is open or the mission is paused.
    const held = open > 0 || s.paused !== null;
    if ((s.runState === "paused") !== held) out.push(v("RunStateProjection", `runState ${s.runState} but ${held ? "" : "no "}gate is open and paused is ${s.paused ? s.paused.kind : "null"}`));
  }
  // Issue 14 (seed 002). NoSuccessFromClaim: an autonomous agent completes only through a finish proposal that the
  // evidence (or a person) approved; the model's words are never evidence (FP-5).
  for (const p of s.proposals) {
    if (p.action.tool === FINISH && p.status === "approved" && p.decision?.authority !== "evidence" && p.decision?.authority !== "hitl")
      out.push(v("NoSuccessFromClaim", `finish proposal ${p.id} of "${p.agent}" was approved by ${p.decision?.authority ?? "nobody"}, not by the evidence or a person`));
    // FailureExplained: every rejected proposal says why (a FailureReason and a reason).
    if (p.status === "rejected" && !(p.decision?.failureReason && p.decision.reason)) out.push(v("FailureExplained", `proposal ${p.id} of "${p.agent}" was rejected without a FailureReason and a reason`));
  }
  for (const n of s.agentOrder) {
    const a = s.agents[n];
    if (a.autonomous && a.status === "completed") {
      const f = a.autonomous.finished ? s.proposals.find((p) => p.id === a.autonomous!.finished!.proposalId) : undefined;
      if (!f || f.status !== "approved" || f.action.tool !== FINISH) out.push(v("NoSuccessFromClaim", `autonomous agent "${n}" completed without an approved finish proposal`));
      else if (f.decision?.authority === "evidence" && !passing(a.autonomous.finished!.evidence)) out.push(v("NoSuccessFromClaim", `autonomous agent "${n}" completed on a finish whose evidence did not hold`));
    }
  }
  // FailureExplained (FDR-N005, FE-R3): a mission that ended without SUCCESS has a FailureReason and an explanation that blames nobody.
  if (isTerminal(s) && fs !== "SUCCESS") {
    const e = explainMission(s);
    if (!e.failureReason || !e.explanation) out.push(v("FailureExplained", `the mission ended ${fs} without a FailureReason and an explanation`));
    else if (BLAME.test(`${e.explanation.title} ${e.explanation.description}`)) out.push(v("FailureExplained", `the explanation blames the model or the agent (FE-R3): ${e.explanation.title}`));
  }
  // NoSuccessOnUndoneWork: the evidence of work that a saga compensation undid no longer proves it, so it
  // cannot count toward SUCCESS / PARTIAL_SUCCESS. (Checked last, so that it can be listed in KNOWN_VIOLATIONS.)
  if (fs === "SUCCESS" || fs === "PARTIAL_SUCCESS") {
    const undone = s.compensations.find((c) => c.status === "succeeded" && s.agents[c.agent].attempt === c.attempt && s.agents[c.agent].status === "completed" && (fs === "SUCCESS" || s.agents[c.agent].priority === "critical"));
    if (undone) out.push(v("NoSuccessOnUndoneWork", `finalStatus ${fs} but step ${undone.step} of ${s.agents[undone.agent].priority} agent "${undone.agent}" (attempt ${undone.attempt}), which counts as completed with evidence, was undone by its compensation`));
  }
  return out;
}

/** The failed step `index` of a running agent is on the record as being handled: a library walk or a recovery on it. */
function handled(a: AgentState, index: number): boolean {
  return a.library?.step === index || a.recovery?.step === index || (a.pendingRecovery !== null && a.steps.findLast((st) => st.status === "failed")?.index === index);
}

/** Invariants of one atomic append: `before` --batch--> `after`. */
function checkBatch(ctx: Ctx, before: MissionState, batch: MissionEvent[], after: MissionState): Violation | null {
  for (const [i, e] of batch.entries()) {
    if (e.type === "tool.succeeded" && !(e.payload.evidence.length > 0 && e.payload.evidence.every((r) => r.passed))) return v("ToolContract", `tool.succeeded for step ${e.payload.step} of "${e.payload.agent}" without passing evidence`);
    if (e.type === "tool.failed") {
      if (!toolErrorSchema.safeParse(e.payload.error).success) return v("ToolContract", `tool.failed for step ${e.payload.step} of "${e.payload.agent}" without a valid error`);
      const { agent, attempt, step } = e.payload;
      // NoSilentFailure: the failure moves the agent to FAILED (or RETRY) in the same transaction, never to success.
      const a = after.agents[agent];
      if (a.attempt === attempt && a.status === "running" && handled(a, step)) continue;
      if (!batch.slice(i + 1).some((x) => x.type === "agent.failed" && x.payload.agent === agent && x.payload.attempt === attempt)) return v("NoSilentFailure", `tool.failed for step ${step} of "${agent}" (attempt ${attempt}) is not followed by agent.failed in the same transaction`);
      if (a.attempt === attempt && !(a.status === "failed" || a.status === "pending" || a.status === "skipped")) return v("NoSilentFailure", `after tool.failed for step ${step} of "${agent}", the agent is ${a.status}, not failed or retried`);
      if (a.attempt === attempt && a.steps[step] && a.steps[step].status !== "failed") return v("NoSilentFailure", `after tool.failed, step ${step} of "${agent}" is ${a.steps[step].status}`);
    }
    // NoUnapprovedAction (seed 002): an autonomous agent's tool runs only for an approved, unexpired proposal whose digest matches.
    if (e.type === "step.started" && before.agents[e.payload.agent]?.autonomous) {
      const p = before.proposals.find((x) => x.id === e.payload.proposalId);
      const args = p ? (p.decision?.modified?.args ?? p.action.args) : null;
      if (!p || p.status !== "approved" || !p.decision) return v("NoUnapprovedAction", `step ${e.payload.step} of "${e.payload.agent}" started without an approved proposal`);
      if (e.payload.argsDigest !== argsDigest(args) || p.decision.argsDigest !== argsDigest(args)) return v("NoUnapprovedAction", `step ${e.payload.step} of "${e.payload.agent}" started with args whose digest is not the approved one`);
      if (p.decision.expiresAt && Date.parse(e.at) > Date.parse(p.decision.expiresAt)) return v("NoUnapprovedAction", `step ${e.payload.step} of "${e.payload.agent}" started after its approval expired`);
    }
    if (e.type === "compensation.succeeded" && !(e.payload.evidence.length > 0 && e.payload.evidence.every((r) => r.passed))) return v("ToolContract", "compensation.succeeded without passing evidence");
    // RFC 001 §3.4, no blind continuation: a step whose worker died runs again by itself only if it is idempotent.
    if (e.type === "step.rerun" && e.payload.reason === "idempotent") {
      const step = ctx.info.get(e.payload.agent)!.steps[e.payload.step];
      if (!defaultIdempotent(step)) return v("NoBlindRerun", `step ${e.payload.step} of "${e.payload.agent}" is not idempotent but was re-run without an operator`);
    }
    if (e.type === "step.rerun" && e.payload.reason === "operator" && before.agents[e.payload.agent].steps[e.payload.step]?.resumeApproved !== true)
      return v("NoBlindRerun", `step ${e.payload.step} of "${e.payload.agent}" was re-run for an operator who did not choose resume`);
  }
  // NoSilentFailure across the transaction: a step failed in an attempt never succeeds, nor its agent completes, in that attempt.
  for (const n of before.agentOrder) {
    const a0 = before.agents[n];
    const a1 = after.agents[n];
    if (a0.attempt !== a1.attempt || !a0.steps.some((st) => st.status === "failed")) continue;
    // Only a re-run of the failed step, recorded in this transaction for its recovery or library resolution, may turn it around.
    const reran = (i: number) => batch.some((e) => e.type === "step.rerun" && e.payload.agent === n && e.payload.step === i && (e.payload.reason === "library" || e.payload.reason === "recovery"));
    if (a1.status === "completed" && !a0.steps.every((st) => st.status !== "failed" || reran(st.index))) return v("NoSilentFailure", `agent "${n}" completed attempt ${a1.attempt} in which a step failed`);
    for (const st of a0.steps) if (st.status === "failed" && !reran(st.index) && a1.steps[st.index] && a1.steps[st.index].status !== "failed") return v("NoSilentFailure", `step ${st.index} of "${n}" failed in attempt ${a1.attempt} and is now ${a1.steps[st.index].status}`);
  }
  return null;
}

const v = (invariant: InvariantName, message: string): Violation => ({ invariant, message });

/** FE-R3: words that put a failure on the model or the agent instead of on structure. */
export const BLAME = /\b(model|agent|llm)\b[^.]{0,40}\b(fault|mistake|blame|hallucinat\w*|misbehav\w*|incompeten\w*|stupid|wrong)\b|\bblame/i;

// ---------------------------------------------------------------------------------------------------
// The search
// ---------------------------------------------------------------------------------------------------

export interface ModelCheckOptions extends Partial<ModelCheckBounds> {
  /** The system under check (default: the real reducer). */
  system?: Partial<ModelCheckSystem>;
  /** Invariants reported but not failing the run (default KNOWN_VIOLATIONS; [] to fail on every one). */
  knownViolations?: readonly InvariantName[];
  /** Stop at the first violation that is not known (default false: find the shortest counterexample of each invariant). */
  stopOnFirstViolation?: boolean;
  /** On each merge of a new state into a known one, check both have the same successors (slower). */
  verifyAbstraction?: boolean;
  /** Give up after this many distinct states (reported as a MonotonicProgress failure: the space is not bounded). */
  maxStates?: number;
  /** Progress lines (per BFS level). */
  log?: (line: string) => void;
}

export interface CounterexampleStep {
  action: string;
  events: string[];
}

export interface InvariantResult {
  name: InvariantName;
  ok: boolean;
  /** Listed in the known violations: reported, but it does not fail the run. */
  known: boolean;
  violations: number;
  message?: string;
  /** The shortest path (in transitions) to the first violation found, with its events. */
  counterexample?: CounterexampleStep[];
}

export interface ModelCheckResult {
  bounds: ModelCheckBounds;
  ok: boolean;
  /** States generated (every transition's target, duplicates included) + the initial one. */
  statesExplored: number;
  distinctStates: number;
  transitions: number;
  /** Largest BFS depth (shortest distance from the start) of a distinct state. */
  maxDepth: number;
  /** Longest path from the start to a terminal state (in transitions), when the graph is acyclic. */
  longestPath: number | null;
  /** The bound every path must respect (livenessBound). */
  depthBound: number;
  terminalStates: Record<FinalStatus, number>;
  mergesVerified: number;
  /** How often each event type was appended, each engine action taken, each decision made (gate kind:decision), over all transitions. */
  coverage: { events: Record<string, number>; actions: Record<string, number>; decisions: Record<string, number> };
  timeMs: number;
  invariants: InvariantResult[];
}

export async function modelCheck(options: ModelCheckOptions = {}): Promise<ModelCheckResult> {
  const started = performance.now();
  const b: ModelCheckBounds = { ...DEFAULT_BOUNDS };
  for (const k of Object.keys(DEFAULT_BOUNDS) as Array<keyof ModelCheckBounds>) if (options[k] !== undefined) (b as unknown as Record<string, unknown>)[k] = options[k];
  const def = modelDefinition(b);
  const ctx: Ctx = { b, def, sys: { applyEvent: options.system?.applyEvent ?? realApplyEvent, idempotent: options.system?.idempotent ?? defaultIdempotent }, info: agentInfo(def), known: new Set(options.knownViolations ?? KNOWN_VIOLATIONS) };
  const bound = livenessBound(b);
  const maxStates = options.maxStates ?? 20_000_000;
  const log = options.log ?? (() => {});

  // Per distinct state (id = index; the initial state is 0): its BFS parent, the action from it, whether it is terminal.
  const parent = new IntList();
  const via = new IntList();
  const terminal = new IntList();
  const index = new StateIndex();
  // Every transition between distinct states, for the liveness check.
  const edgeFrom = new IntList();
  const edgeTo = new IntList();
  const found = new Map<InvariantName, { message: string; at: number; action: Action | null; count: number; cycle?: number[] }>();
  const record = (inv: InvariantName, message: string, at: number, action: Action | null) => {
    const f = found.get(inv);
    if (f) f.count++;
    else found.set(inv, { message, at, action, count: 1 });
  };
  const terminalStates: Record<FinalStatus, number> = { SUCCESS: 0, PARTIAL_SUCCESS: 0, FAILED: 0 };
  const coverage: ModelCheckResult["coverage"] = { events: {}, actions: {}, decisions: {} };
  const count = (m: Record<string, number>, k: string) => (m[k] = (m[k] ?? 0) + 1);
  const add = (from: number, action: number, node: Node) => {
    const id = parent.length;
    parent.push(from);
    via.push(action);
    const end = isTerminal(node.state);
    terminal.push(end ? 1 : 0);
    if (end) terminalStates[node.state.finalStatus!]++;
    return id;
  };

  const init: Node = { state: ctx.sys.applyEvent(null, { ...t.missionCreated(def), missionId: MISSION_ID, seq: 1, actorId: "user:model-check", at: new Date(T0).toISOString() } as MissionEvent), clock: T0, crashes: 0, pauses: 0, aborts: 0 };
  const keep: Node[] | null = options.verifyAbstraction ? [init] : null;
  index.set(index.get(canonicalKey(init, ctx.info)).h, add(-1, -1, init));
  for (const x of checkState(ctx, init.state)) record(x.invariant, x.message, 0, null);
  let frontier: Array<{ id: number; node: Node } | null> = [{ id: 0, node: init }];
  let explored = 1;
  let transitions = 0;
  let maxDepth = 0;
  let mergesVerified = 0;
  let deadlock: number | null = null;
  let overBound: number | null = null;
  let truncated = false;

  const signature = async (node: Node) => {
    const out = new Map<string, string>();
    for (const tr of await successors(ctx, node)) out.set(actionCode(tr), tr.node ? canonicalKey(tr.node, ctx.info) : `violation:${tr.violation?.invariant}`);
    return out;
  };

  search: for (let d = 0; frontier.length; d++) {
    const next: Array<{ id: number; node: Node }> = [];
    for (let f = 0; f < frontier.length; f++) {
      const { id, node } = frontier[f]!;
      frontier[f] = null; // an expanded state can be collected
      if (d >= bound) {
        overBound ??= id;
        continue;
      }
      const trs = await successors(ctx, node);
      if (trs.length === 0) deadlock ??= id;
      const gate = openGate(node.state);
      const engineAction = !gate && !node.state.paused ? nextAction(node.state).kind : null;
      for (const tr of trs) {
        transitions++;
        if (tr.action.kind === "engine") count(coverage.actions, engineAction!);
        else if (tr.action.kind === "decide") count(coverage.decisions, `${gate!.kind}:${tr.action.decision}`);
        for (const batch of tr.batches) for (const e of batch) count(coverage.events, e.type);
        if (!tr.node) {
          for (const x of tr.violations) record(x.invariant, x.message, id, tr.action);
          if (options.stopOnFirstViolation) break search;
          continue;
        }
        explored++;
        for (const k of tr.known) record(k.invariant, k.message, id, tr.action);
        const key = canonicalKey(tr.node, ctx.info);
        const hit = index.get(key);
        let to = hit.id;
        if (to === undefined) {
          to = add(id, encodeAction(tr.action.kind === "engine" ? { kind: "engine", choices: tr.taken } : tr.action), tr.node);
          index.set(hit.h, to);
          maxDepth = d + 1;
          if (!terminal.data[to]) next.push({ id: to, node: tr.node });
          keep?.push(tr.node);
          if (parent.length >= maxStates) {
            truncated = true;
            break search;
          }
        } else if (keep) {
          const [x, y] = await Promise.all([signature(tr.node), signature(keep[to])]);
          mergesVerified++;
          if (x.size !== y.size || [...x].some(([k, other]) => y.get(k) !== other)) {
            throw new Error(`canonicalKey merged two states with different successors:\n${key}\n(reached by ${describePath(pathTo(parent, via, id).concat([tr.action]))})`);
          }
        }
        edgeFrom.push(id);
        edgeTo.push(to);
      }
    }
    if (next.length) log(`depth ${d + 1}: ${next.length} states to expand (${parent.length} distinct, ${transitions} transitions, ${Math.round(performance.now() - started)} ms)`);
    frontier = next;
  }

  // MonotonicProgress (bounded): no deadlock, no cycle, every path ends within `bound` transitions.
  let longestPath: number | null = null;
  const progressProblem = ((): { message: string; at: number; cycle?: number[] } | null => {
    if (truncated) return { message: `gave up after ${maxStates} distinct states: the state space does not look bounded`, at: parent.length - 1 };
    if (deadlock !== null) return { message: "a state that has not ended has no successor (deadlock)", at: deadlock };
    if (overBound !== null) return { message: `a path of ${bound} transitions has not ended: more than the bound implied by the retry policy`, at: overBound };
    const n = parent.length;
    // Kahn's algorithm over the transition graph (CSR), computing the longest path on the way.
    const start = new Int32Array(n + 1);
    for (let i = 0; i < edgeFrom.length; i++) start[edgeFrom.data[i] + 1]++;
    for (let i = 0; i < n; i++) start[i + 1] += start[i];
    const fill = start.slice(0, n);
    const to = new Int32Array(edgeFrom.length);
    const indeg = new Int32Array(n);
    for (let i = 0; i < edgeFrom.length; i++) {
      to[fill[edgeFrom.data[i]]++] = edgeTo.data[i];
      indeg[edgeTo.data[i]]++;
    }
    const longest = new Int32Array(n);
    const stack: number[] = [];
    for (let i = 0; i < n; i++) if (indeg[i] === 0) stack.push(i);
    let seen = 0;
    while (stack.length) {
      const i = stack.pop()!;
      seen++;
      for (let e = start[i]; e < start[i + 1]; e++) {
        const j = to[e];
        if (longest[i] + 1 > longest[j]) longest[j] = longest[i] + 1;
        if (--indeg[j] === 0) stack.push(j);
      }
    }
    if (seen < n) {
      // Every state left has a predecessor left: walking back from one must close a cycle.
      const back = new Map<number, number>();
      for (let i = 0; i < edgeFrom.length; i++) if (indeg[edgeFrom.data[i]] > 0 && indeg[edgeTo.data[i]] > 0) back.set(edgeTo.data[i], edgeFrom.data[i]);
      const walk: number[] = [];
      const at = new Map<number, number>();
      for (let x = indeg.findIndex((d) => d > 0); !at.has(x); x = back.get(x)!) {
        at.set(x, walk.length);
        walk.push(x);
      }
      const cycle = walk.slice(at.get(walk.length ? back.get(walk.at(-1)!)! : 0)).reverse();
      return { message: `the reachable graph has a cycle of ${cycle.length} transition(s): a path can loop forever`, at: cycle[0], cycle };
    }
    let worst = 0;
    for (let i = 0; i < n; i++) if (terminal.data[i] && longest[i] > worst) worst = longest[i];
    longestPath = worst;
    if (worst > bound) return { message: `a path takes ${worst} transitions to end; the bound is ${bound}`, at: -1 };
    return null;
  })();
  if (progressProblem) found.set("MonotonicProgress", { message: progressProblem.message, at: progressProblem.at, action: null, count: 1, cycle: progressProblem.cycle });

  const invariants: InvariantResult[] = [];
  for (const name of INVARIANTS) {
    const f = found.get(name);
    if (!f) {
      invariants.push({ name, ok: true, known: ctx.known.has(name), violations: 0 });
      continue;
    }
    let actions = f.at >= 0 ? pathTo(parent, via, f.at).concat(f.action ? [f.action] : []) : null;
    if (actions && f.cycle) {
      const lasso = actions.length;
      actions = actions.concat(await cycleActions(ctx, init, actions, f.cycle, (key) => index.get(key).id));
      f.message += ` (after transition ${actions.length} the state is again the one after transition ${lasso}: transitions ${lasso + 1}-${actions.length} repeat forever)`;
    }
    invariants.push({ name, ok: false, known: ctx.known.has(name), violations: f.count, message: f.message, ...(actions ? { counterexample: await replay(ctx, init, actions) } : {}) });
  }
  return {
    bounds: b,
    ok: invariants.every((i) => i.ok || i.known),
    statesExplored: explored,
    distinctStates: parent.length,
    transitions,
    maxDepth,
    longestPath,
    depthBound: bound,
    terminalStates,
    mergesVerified,
    coverage,
    timeMs: Math.round(performance.now() - started),
    invariants,
  };
}

/** An action in 29 bits: kind (2), then the decision (3), or the number of choices (3) and each choice (3 bits: < 8 options). */
function encodeAction(a: Action): number {
  if (a.kind === "decide") return GATE_DECISIONS.indexOf(a.decision) << 2;
  if (a.kind === "pause") return 1;
  // An abort is a "decide" code past every gate decision.
  if (a.kind === "abort") return ABORT_CODE << 2;
  if (a.kind === "resume") return 2;
  if (a.choices.length > 8 || a.choices.some((c) => c > 7)) throw new Error("encodeAction: too many choices");
  let x = 3 | (a.choices.length << 2);
  a.choices.forEach((c, i) => (x |= c << (5 + 3 * i)));
  return x;
}

const ABORT_CODE = 63;

function decodeAction(x: number): Action {
  const kind = x & 3;
  if (kind === 0) return x >> 2 === ABORT_CODE ? { kind: "abort" } : { kind: "decide", decision: GATE_DECISIONS[x >> 2] };
  if (kind === 1) return { kind: "pause" };
  if (kind === 2) return { kind: "resume" };
  const n = (x >> 2) & 7;
  return { kind: "engine", choices: Array.from({ length: n }, (_, i) => (x >> (5 + 3 * i)) & 7) };
}

/**
 * Random runs through the same environment (for property tests): from `mission.created`, each run takes a
 * random successor until the mission ends: with probability `happy` (default 0.5) the engine transition in
 * which every tool succeeds when there is one, else a uniformly random one. Returns each run's events and
 * final state.
 */
export async function randomRuns(options: Partial<ModelCheckBounds> & { runs: number; seed: number; happy?: number; system?: Partial<ModelCheckSystem>; knownViolations?: readonly InvariantName[] }): Promise<Array<{ events: MissionEvent[]; state: MissionState; violation: Violation | null }>> {
  const b: ModelCheckBounds = { ...DEFAULT_BOUNDS };
  for (const k of Object.keys(DEFAULT_BOUNDS) as Array<keyof ModelCheckBounds>) if (options[k] !== undefined) (b as unknown as Record<string, unknown>)[k] = options[k];
  const def = modelDefinition(b);
  const ctx: Ctx = { b, def, sys: { applyEvent: options.system?.applyEvent ?? realApplyEvent, idempotent: options.system?.idempotent ?? defaultIdempotent }, info: agentInfo(def), known: new Set(options.knownViolations ?? KNOWN_VIOLATIONS) };
  let seed = options.seed >>> 0 || 1;
  const random = () => {
    // xorshift32: reproducible from the seed.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  const out: Array<{ events: MissionEvent[]; state: MissionState; violation: Violation | null }> = [];
  for (let r = 0; r < options.runs; r++) {
    const created = { ...t.missionCreated(def), missionId: MISSION_ID, seq: 1, actorId: "user:model-check", at: new Date(T0).toISOString() } as MissionEvent;
    let node: Node = { state: ctx.sys.applyEvent(null, created), clock: T0, crashes: 0, pauses: 0, aborts: 0 };
    const events: MissionEvent[] = [created];
    let violation: Violation | null = null;
    for (;;) {
      const trs = await successors(ctx, node);
      if (trs.length === 0) break;
      const ok = trs.find((x) => x.action.kind === "engine" && x.taken.every((c) => c === 0));
      const tr = ok && random() < (options.happy ?? 0.5) ? ok : trs[Math.floor(random() * trs.length)];
      events.push(...tr.batches.flat());
      if (!tr.node) {
        violation = tr.violation;
        break;
      }
      node = tr.node;
    }
    out.push({ events, state: node.state, violation });
  }
  return out;
}

/** The actions that go once around `cycle` (state ids, cycle[0] reached by `prefix`). */
async function cycleActions(ctx: Ctx, init: Node, prefix: Action[], cycle: number[], idOf: (key: string) => number | undefined): Promise<Action[]> {
  let node = init;
  for (const a of prefix) node = (await perform(ctx, node, a)).node!;
  const out: Action[] = [];
  for (let i = 0; i < cycle.length; i++) {
    const target = cycle[(i + 1) % cycle.length];
    const tr = (await successors(ctx, node)).find((x) => x.node && idOf(canonicalKey(x.node, ctx.info)) === target);
    if (!tr) break;
    out.push(tr.action.kind === "engine" ? { kind: "engine", choices: tr.taken } : tr.action);
    node = tr.node!;
  }
  return out;
}

function pathTo(parent: IntList, via: IntList, id: number): Action[] {
  const out: Action[] = [];
  for (let i = id; i > 0; i = parent.data[i]) out.push(decodeAction(via.data[i]));
  return out.reverse();
}

function actionCode(tr: Transition): string {
  const a = tr.action;
  return a.kind === "decide" ? `decide:${a.decision}` : a.kind === "engine" ? `engine:${tr.taken.join(".")}` : a.kind;
}

function describePath(actions: Action[]): string {
  return actions.map((a) => (a.kind === "decide" ? a.decision : a.kind === "engine" ? `engine[${a.choices.join(",")}]` : a.kind)).join(" → ");
}

/** Replays a path of actions from the initial node, collecting each transition's choices and events. */
async function replay(ctx: Ctx, init: Node, actions: Action[]): Promise<CounterexampleStep[]> {
  const steps: CounterexampleStep[] = [];
  let node: Node | null = init;
  for (const a of actions) {
    if (!node) break;
    const tr = await perform(ctx, node, a, true);
    const events = tr.batches.flatMap((batch, i) => batch.map((e) => `${tr.batches.length > 1 ? `[tx ${i + 1}] ` : ""}${describeEvent(e)}`));
    for (const k of tr.known) events.push(`✗ ${k.invariant} (known): ${k.message}`);
    for (const x of tr.violations) events.push(`✗ ${x.invariant}: ${x.message}`);
    steps.push({ action: tr.labels.join("; "), events });
    node = tr.node;
  }
  return steps;
}

/** An event's type and key payload fields, for counterexamples. */
export function describeEvent(e: MissionEvent): string {
  const p = e.payload as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof p.agent === "string") parts.push(p.agent);
  if (typeof p.attempt === "number") parts.push(`#${p.attempt}`);
  if (typeof p.step === "number") parts.push(`step ${p.step}`);
  if (typeof p.phase === "string") parts.push(p.phase);
  if (e.type === "tool.failed" || e.type === "compensation.failed") parts.push((p.error as ToolError).code);
  if (e.type === "tool.succeeded") parts.push(`evidence ${(p.evidence as EvidenceRecord[]).filter((r) => r.passed).length}/${(p.evidence as EvidenceRecord[]).length}`);
  if (e.type === "agent.failed") {
    const err = p.error as { code: string; recoverable: boolean };
    parts.push(`${err.code}${err.recoverable ? " recoverable" : ""}`);
  }
  if (e.type === "gate.opened") parts.push(`${String(p.kind)} gate [${(p.options as Array<{ action: string }>).map((o) => o.action).join(",")}]`);
  if (e.type === "gate.resolved") parts.push(String(p.decision));
  if (e.type === "phase.failed" || e.type === "step.rerun") parts.push(String(p.reason));
  if (e.type === "mission.paused") parts.push(String(p.kind));
  if (e.type === "objective.checked") parts.push(p.passed ? "passed" : "not passed");
  if (e.type === "mission.finished") parts.push(String(p.finalStatus));
  if (e.type === "proposal.submitted") parts.push(`${(p.action as { tool: string }).tool} ${JSON.stringify((p.action as { args: unknown }).args)}`);
  if (e.type === "proposal.decided") parts.push(`${String(p.decision)} by ${(p.record as { authority: string }).authority}`);
  if (e.type === "proposal.expired") parts.push(String(p.why));
  return `${e.type}(${parts.join(", ")})`;
}

/** Event types no transition appended. */
export function missingEvents(r: Pick<ModelCheckResult, "coverage">): string[] {
  return EVENT_TYPES.filter((e) => !r.coverage.events[e] && e !== "mission.created");
}

/** The result as a report. */
export function formatResult(r: ModelCheckResult): string {
  const b = r.bounds;
  const lines = [
    `Faultline mission lifecycle: exhaustive bounded model check of the real engine + reducer`,
    `bounds: ${b.agents} agents (${agentNames(b)
      .map((a) => a.priority)
      .join(", ")}) in ${b.phases} phase(s), ${b.steps} steps each, ${b.retries} retries per agent (policy), ${b.crashes} crash(es), ${b.pauses} pause(s), ${b.objectiveChecks} objective check(s); ` +
      `high-risk ${b.highRisk ? "on" : "off"}, compensations ${b.compensate ? "on" : "off"}, phase timeouts ${b.timeouts ? "on" : "off"}, LLM outage ${b.infra ? "on" : "off"}, diagnosis ${b.diagnosis ? "on" : "off"}, library ${b.library ? "on" : "off"}`,
    `assumptions: retry / retry_phase / restart_phase are not chosen once an agent used its ${b.retries} retr${b.retries === 1 ? "y" : "ies"} (policy); every other option a gate offers is explored; at most ${b.crashes} crash(es) and ${b.pauses} pause(s) per path, every pause resumed; operators eventually decide`,
    `states explored: ${r.statesExplored}`,
    `distinct states: ${r.distinctStates}`,
    `transitions:     ${r.transitions}`,
    `max depth:       ${r.maxDepth} (BFS); longest path to an end: ${r.longestPath ?? "n/a"}; bound implied by the retry policy: ${r.depthBound}`,
    `terminal states: SUCCESS ${r.terminalStates.SUCCESS}, PARTIAL_SUCCESS ${r.terminalStates.PARTIAL_SUCCESS}, FAILED ${r.terminalStates.FAILED}`,
    ...(r.mergesVerified ? [`merges verified (same successors): ${r.mergesVerified}`] : []),
    `coverage: event types ${EVENT_TYPES.length - 1 - missingEvents(r).length}/${EVENT_TYPES.length - 1}${missingEvents(r).length ? ` (never: ${missingEvents(r).join(", ")})` : ""}`,
    `          engine actions ${Object.entries(r.coverage.actions)
      .sort()
      .map(([k, n]) => `${k} ${n}`)
      .join(", ")}`,
    `          decisions ${Object.entries(r.coverage.decisions)
      .sort()
      .map(([k, n]) => `${k} ${n}`)
      .join(", ")}`,
    `time:            ${(r.timeMs / 1000).toFixed(1)} s`,
    "",
  ];
  for (const i of r.invariants) {
    const verdict = i.ok ? (i.known ? "PASS (listed in KNOWN_VIOLATIONS: fixed, or not reachable at this bound)" : "PASS") : i.known ? "KNOWN FAIL" : "FAIL";
    lines.push(`${verdict} ${i.name}${i.ok ? "" : ` (${i.violations} violating transition(s)): ${i.message}`}`);
    if (!i.ok && i.counterexample) {
      lines.push(`  shortest counterexample (${i.counterexample.length} transitions):`);
      i.counterexample.forEach((s, k) => {
        lines.push(`  ${String(k + 1).padStart(3)}. ${s.action}`);
        for (const e of s.events) lines.push(`         ${e}`);
      });
    }
  }
  const known = r.invariants.filter((i) => i.known && !i.ok).map((i) => i.name);
  lines.push("", r.ok ? `RESULT: PASS${known.length ? ` (known violations, not failing the run: ${known.join(", ")})` : ""}` : "RESULT: FAIL");
  return lines.join("\n");
}
