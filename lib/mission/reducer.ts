import { agentsInOrder, type Phase } from "./definition";
import type { MissionEvent } from "./events";
import { deriveFinalStatus } from "./status";
import type { AgentState, GateState, MissionState } from "./types";

/** An event that the state machine does not allow in the current state. Names the transition. */
export class IllegalTransitionError extends Error {
  readonly eventType: string;
  readonly seq: number;
  constructor(event: Pick<MissionEvent, "type" | "seq">, why: string) {
    super(`Illegal transition: ${event.type} (seq ${event.seq}) ${why}`);
    this.name = "IllegalTransitionError";
    this.eventType = event.type;
    this.seq = event.seq;
  }
}

/** Mission state is reduce(events): the one pure function every layer uses. */
export function reduce(events: readonly MissionEvent[]): MissionState {
  let state: MissionState | null = null;
  for (const e of events) state = applyEvent(state, e);
  if (!state) throw new Error("reduce: a mission needs at least its mission.created event");
  return state;
}

export function applyEvent(state: MissionState | null, e: MissionEvent): MissionState {
  const bad = (why: string): never => {
    throw new IllegalTransitionError(e, why);
  };
  if (state === null) {
    if (e.type !== "mission.created") return bad("cannot come before mission.created");
    if (e.seq !== 1) return bad("must be the first event (seq 1)");
    return created(e.missionId, e.payload.definition, e.at);
  }
  if (e.seq !== state.seq + 1) bad(`is out of sequence: expected seq ${state.seq + 1}`);
  if (state.runState === "completed" || state.runState === "failed") bad(`comes after the mission ended (${state.phase})`);

  const s: MissionState = { ...state, seq: e.seq, agents: { ...state.agents }, gates: state.gates };
  const agentOf = (name: string): AgentState => s.agents[name] ?? bad(`names unknown agent "${name}"`);
  const putAgent = (a: AgentState) => (s.agents[a.name] = a);
  const openGate = () => s.gates.find((g) => g.status === "open");

  switch (e.type) {
    case "mission.created":
      return bad("can only be the first event");

    case "phase.started": {
      const p = e.payload.phase;
      if (openGate()) bad("while a gate is open");
      if (s.phase === p) bad(`for ${p}, which has already started`);
      const next = nextPhase(s);
      if (next !== p) bad(next ? `for ${p}: the next phase is ${next}` : `for ${p}: every phase has completed`);
      s.phase = p;
      s.runState = "running";
      s.startedAt ??= e.at;
      return s;
    }

    case "agent.started": {
      const a = agentOf(e.payload.agent);
      if (openGate()) bad("while a gate is open");
      if (a.phase !== s.phase) bad(`for agent "${a.name}" of ${a.phase} during ${s.phase}`);
      if (a.status !== "pending") bad(`for agent "${a.name}" which is ${a.status}`);
      if (e.payload.attempt !== a.attempt + 1) bad(`with attempt ${e.payload.attempt}; expected ${a.attempt + 1}`);
      putAgent({ ...a, status: "running", attempt: e.payload.attempt, steps: [], error: null });
      return s;
    }

    case "step.started": {
      const a = running(agentOf(e.payload.agent), e.payload.attempt, bad);
      const expected = a.steps.length;
      if (a.steps.some((st) => st.status !== "succeeded")) bad(`for agent "${a.name}" whose step ${a.steps.length - 1} has not succeeded`);
      if (e.payload.step !== expected) bad(`for step ${e.payload.step}; the next step of "${a.name}" is ${expected}`);
      if (expected >= s.definition.phases.flatMap((p) => p.agents).find((d) => d.name === a.name)!.steps.length) bad(`for step ${expected}; agent "${a.name}" has no such step`);
      putAgent({ ...a, steps: [...a.steps, { index: expected, tool: e.payload.tool, status: "running", idempotencyKey: e.payload.idempotencyKey, evidence: [], error: null }] });
      return s;
    }

    case "tool.succeeded":
    case "tool.failed": {
      const a = running(agentOf(e.payload.agent), e.payload.attempt, bad);
      const st = a.steps[e.payload.step];
      if (!st || st.status !== "running") bad(`for step ${e.payload.step} of "${a.name}" which is not running`);
      if (e.type === "tool.succeeded" && !(e.payload.evidence.length > 0 && e.payload.evidence.every((r) => r.passed))) {
        bad(`without passing evidence: a step succeeds only with evidence (RFC 001 §3.3)`);
      }
      const steps = [...a.steps];
      steps[e.payload.step] =
        e.type === "tool.succeeded"
          ? { ...st, status: "succeeded", evidence: e.payload.evidence }
          : { ...st, status: "failed", evidence: e.payload.evidence, error: e.payload.error };
      putAgent({ ...a, steps });
      return s;
    }

    case "agent.completed": {
      const a = running(agentOf(e.payload.agent), e.payload.attempt, bad);
      const total = stepCount(s, a.name);
      if (a.steps.length !== total || a.steps.some((st) => st.status !== "succeeded")) bad(`for agent "${a.name}": not every step succeeded with evidence`);
      putAgent({ ...a, status: "completed" });
      return s;
    }

    case "agent.failed": {
      const a = running(agentOf(e.payload.agent), e.payload.attempt, bad);
      if (!a.steps.some((st) => st.status === "failed")) bad(`for agent "${a.name}" with no failed step (NoSilentFailure: a failure needs its tool.failed)`);
      putAgent({ ...a, status: "failed", error: e.payload.error });
      return s;
    }

    case "mission.warning": {
      const a = agentOf(e.payload.agent);
      if (a.status !== "failed" || a.priority !== "optional") bad(`for agent "${a.name}": only a failed optional agent is tolerated with a warning`);
      putAgent({ ...a, tolerated: true });
      s.warnings += 1;
      return s;
    }

    case "gate.opened": {
      const a = agentOf(e.payload.agent);
      if (openGate()) bad("while another gate is open");
      if (a.status !== "failed" || a.tolerated) bad(`for agent "${a.name}" which is ${a.status}${a.tolerated ? " (tolerated)" : ""}`);
      if (s.gates.some((g) => g.id === e.payload.gateId)) bad(`reuses gate id ${e.payload.gateId}`);
      const gate: GateState = {
        id: e.payload.gateId,
        agent: a.name,
        phase: e.payload.phase,
        status: "open",
        options: e.payload.options,
        error: e.payload.error,
        openedAt: e.at,
        openedSeq: e.seq,
        decision: null,
        decidedBy: null,
        note: null,
        decidedAt: null,
        openMs: null,
      };
      s.gates = [...s.gates, gate];
      s.runState = "paused";
      return s;
    }

    case "gate.resolved": {
      const g = s.gates.find((x) => x.id === e.payload.gateId) ?? bad(`for unknown gate ${e.payload.gateId}`);
      if (g.status !== "open") bad(`for gate ${g.id} which was already resolved (${g.decision})`);
      if (!g.options.some((o) => o.action === e.payload.decision)) bad(`with "${e.payload.decision}", which gate ${g.id} does not offer (${g.options.map((o) => o.action).join(", ")})`);
      s.gates = s.gates.map((x) =>
        x.id === g.id ? { ...x, status: "resolved", decision: e.payload.decision, decidedBy: e.actorId, note: e.payload.note, decidedAt: e.at, openMs: e.payload.openMs } : x,
      );
      const a = agentOf(g.agent);
      if (e.payload.decision === "retry") putAgent({ ...a, status: "pending" });
      if (e.payload.decision === "skip") putAgent({ ...a, status: "skipped" });
      if (e.payload.decision === "abort") s.aborted = true;
      s.runState = "running";
      return s;
    }

    case "phase.completed": {
      if (s.phase !== e.payload.phase) bad(`for ${e.payload.phase} during ${s.phase}`);
      if (openGate()) bad("while a gate is open");
      const unsettled = s.agentOrder.map((n) => s.agents[n]).filter((a) => a.phase === e.payload.phase && !isSettled(a));
      if (unsettled.length) bad(`for ${e.payload.phase} while agents ${unsettled.map((a) => `"${a.name}" (${a.status})`).join(", ")} are not settled`);
      s.completedPhases = [...s.completedPhases, e.payload.phase];
      return s;
    }

    case "objective.checked": {
      if (nextPhase(s) !== null) bad("before every phase completed");
      if (s.objective.checked) bad("twice");
      s.objective = { checked: true, passed: e.payload.passed, evidence: e.payload.evidence };
      return s;
    }

    case "mission.finished": {
      if (openGate()) bad("while a gate is open");
      if (!s.aborted && !s.objective.checked) bad("before the objective was checked (and the mission was not aborted)");
      const derived = deriveFinalStatus(s);
      if (e.payload.finalStatus !== derived) bad(`claiming ${e.payload.finalStatus}, but the evidence derives ${derived}: the final status is derived, never assigned`);
      s.finalStatus = derived;
      s.phase = derived === "FAILED" ? "FAILED" : "MISSION_COMPLETED";
      s.runState = derived === "FAILED" ? "failed" : "completed";
      s.endedAt = e.at;
      return s;
    }
  }
}

function created(id: string, definition: MissionState["definition"], at: string): MissionState {
  const agents: Record<string, AgentState> = {};
  const agentOrder: string[] = [];
  for (const a of agentsInOrder(definition)) {
    agents[a.name] = { name: a.name, phase: a.phase, priority: a.priority, status: "pending", attempt: 0, steps: [], error: null, tolerated: false };
    agentOrder.push(a.name);
  }
  return {
    id,
    name: definition.name,
    definition,
    phase: "MISSION_STARTED",
    runState: "queued",
    seq: 1,
    agents,
    agentOrder,
    completedPhases: [],
    gates: [],
    objective: { checked: false, passed: null, evidence: [] },
    aborted: false,
    warnings: 0,
    createdAt: at,
    startedAt: null,
    endedAt: null,
    finalStatus: null,
  };
}

function running(a: AgentState, attempt: number, bad: (why: string) => never): AgentState {
  if (a.status !== "running") bad(`for agent "${a.name}" which is ${a.status}, not running`);
  if (a.attempt !== attempt) bad(`for attempt ${attempt} of agent "${a.name}", whose current attempt is ${a.attempt}`);
  return a;
}

function stepCount(s: MissionState, agent: string): number {
  for (const p of s.definition.phases) for (const a of p.agents) if (a.name === agent) return a.steps.length;
  return 0;
}

/** An agent that needs nothing more: done, skipped, or an optional failure that was logged. */
export function isSettled(a: AgentState): boolean {
  return a.status === "completed" || a.status === "skipped" || (a.status === "failed" && a.tolerated);
}

/** The next phase of the definition to start or finish, or null when every phase completed. */
export function nextPhase(s: MissionState): Phase | null {
  return s.definition.phases.map((p) => p.name).find((p) => !s.completedPhases.includes(p)) ?? null;
}

/** Share of agents settled, 0..1. */
export function progress(s: MissionState): number {
  if (s.agentOrder.length === 0) return 0;
  return s.agentOrder.filter((n) => isSettled(s.agents[n])).length / s.agentOrder.length;
}
