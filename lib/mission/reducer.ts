import { agentDefinition, agentsInOrder, phaseDefinition, proposes, type Phase } from "./definition";
import { compensationKey, type MissionEvent } from "./events";
import { deriveFinalStatus } from "./status";
import { countRepeat, failureSignature, helperSteps } from "./recovery";
import type { Diagnosis } from "../diagnosis/types";
import type { DiagnosisSummary } from "./types";
import type { HypothesisOutcome, LibraryWalk } from "./library";
import type { AgentState, CompensationState, GateState, MissionState, StepState } from "./types";

import { SYSTEM_ACTOR_ID } from "./gate-policy";
import { definedStep, definedStepCount, refusedBinary, stepAt, stepCount, stepDefinitionOf } from "./steps";
import type { ProposalState } from "./types";

/** Bump when MissionState's shape changes: stored snapshots of an older version are rebuilt by reduce(events). */
export const STATE_VERSION = 9;

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

/**
 * An event that a view of the state (AgentState.elided: the mission page's, which leaves out succeeded
 * steps) cannot follow, because it needs what the view left out (a new attempt, compensations of
 * completed steps). Not a wrong event: whoever holds the view reads the state again.
 */
export class PartialStateError extends Error {
  constructor(event: Pick<MissionEvent, "type" | "seq">, why: string) {
    super(`${event.type} (seq ${event.seq}) needs ${why}, which this view of the mission's state left out: read the state again`);
    this.name = "PartialStateError";
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
    return created(e.missionId, e.payload.definition, e.at, e.actorId);
  }
  if (e.seq !== state.seq + 1) bad(`is out of sequence: expected seq ${state.seq + 1}`);
  if (isTerminal(state)) bad(`comes after the mission ended (${state.phase})`);

  const s: MissionState = { ...state, seq: e.seq, agents: { ...state.agents } };
  const agentOf = (name: string): AgentState => s.agents[name] ?? bad(`names unknown agent "${name}"`);
  const putAgent = (a: AgentState) => (s.agents[a.name] = a);
  /** Step `i` of the agent's attempt, read as an array element is: undefined when there is none (every use checks). */
  const stepOf = (a: AgentState, i: number): StepState => stepAt(a, i) as StepState;
  const putStep = (a: AgentState, st: StepState) => {
    // A step sits at its index less the left-out ones (stepAt), and step.started admits only the next index,
    // so indexes are unique: replace that one element without walking every step (O(n) per event before).
    const at = st.index - (a.elided?.steps ?? 0);
    if (at >= 0 && a.steps[at]?.index === st.index) {
      const steps = a.steps.slice();
      steps[at] = st;
      return putAgent({ ...a, steps });
    }
    return putAgent({ ...a, steps: a.steps.map((x) => (x.index === st.index ? st : x)) });
  };
  /** New work (phases, agents, steps) may start only while nothing holds the mission. */
  const mustBeFree = () => {
    if (openGate(s)) bad("while a gate is open");
    if (s.paused) bad(`while the mission is paused (${s.paused.kind})`);
    if (s.phaseFailure) bad(`while ${s.phaseFailure.phase} has failed and awaits a decision`);
    if (s.aborted) bad("after the mission was aborted");
  };
  /** Events that start an attempt afresh or plan compensations need every step of the agents concerned. */
  const whole = (agents: AgentState[], why: string) => {
    if (agents.some((a) => a.elided)) throw new PartialStateError(e, why);
  };
  const resetPhaseAgents = (phase: Phase) => {
    whole(s.agentOrder.map((n) => s.agents[n]).filter((a) => a.phase === phase), `the steps of ${phase}'s agents`);
    for (const n of s.agentOrder) if (s.agents[n].phase === phase) putAgent({ ...s.agents[n], status: "pending", steps: [], error: null, tolerated: false, approvedSteps: [], recovery: null, pendingRecovery: null, recoveries: [], library: null, libraryConsulted: [] });
  };

  switch (e.type) {
    case "mission.created":
      return bad("can only be the first event");

    case "phase.started": {
      const p = e.payload.phase;
      mustBeFree();
      if (s.phase === p) bad(`for ${p}, which has already started`);
      const next = nextPhase(s);
      if (next !== p) bad(next ? `for ${p}: the next phase is ${next}` : `for ${p}: every phase has completed`);
      s.phase = p;
      s.phaseStartedAt = e.at;
      s.startedAt ??= e.at;
      return withRunState(s);
    }

    case "agent.started": {
      const a = agentOf(e.payload.agent);
      mustBeFree();
      if (a.phase !== s.phase) bad(`for agent "${a.name}" of ${a.phase} during ${s.phase}`);
      if (a.status !== "pending") bad(`for agent "${a.name}" which is ${a.status}`);
      if (e.payload.attempt !== a.attempt + 1) bad(`with attempt ${e.payload.attempt}; expected ${a.attempt + 1}`);
      whole([a], `the definition of "${a.name}"'s steps`);
      putAgent({ ...a, status: "running", attempt: e.payload.attempt, startedAt: e.at, steps: [], error: null, approvedSteps: [], undone: false, recovery: null, pendingRecovery: null, recoveries: [], library: null, libraryConsulted: [], autonomous: a.autonomous ? { actions: 0, finished: null } : null });
      return s;
    }

    case "step.started": {
      const def = agentDefinition(s.definition, e.payload.agent);
      // An external agent ran the call itself and reports it (issue 15): what happened in the world is recorded
      // even while a gate is open, after an earlier call of it failed, or with several of its calls in flight.
      const a = def.external ? reporting(agentOf(e.payload.agent), e.payload.attempt, bad) : running(agentOf(e.payload.agent), e.payload.attempt, bad);
      if (!def.external) mustBeFree();
      else if (s.aborted) bad("after the mission was aborted");
      const expected = stepCount(a);
      if (!def.external && a.steps.some((st) => st.status !== "succeeded")) bad(`for agent "${a.name}" whose step ${expected} has not succeeded`);
      if (e.payload.step !== expected) bad(`for step ${e.payload.step}; the next step of "${a.name}" is ${expected}`);
      if (proposes(def)) {
        // Seed 002: no tool runs without an approved, unexpired proposal whose digest matches the args about to run.
        const p = s.proposals.find((x) => x.id === e.payload.proposalId) ?? bad(`for autonomous agent "${a.name}" without an approved proposal (FDR-N003: every action is a proposal)`);
        if (p.agent !== a.name || (def.external ? p.attempt > a.attempt : p.attempt !== a.attempt)) bad(`for proposal ${p.id} of agent "${p.agent}" attempt ${p.attempt}`);
        const d = p.status === "approved" && p.decision ? p.decision : bad(`for proposal ${p.id}, which is ${p.status}, not approved`);
        if (p.step !== null) bad(`for proposal ${p.id}, which already ran as step ${p.step}`);
        if (p.action.tool === "finish" || p.action.tool === "ask") bad(`for proposal ${p.id} (${p.action.tool}), which is not a tool call`);
        if (!e.payload.argsDigest || e.payload.argsDigest !== d.argsDigest) bad(`for proposal ${p.id} with args digest ${e.payload.argsDigest ?? "(none)"}; the approval binds to ${d.argsDigest}`);
        // An external agent's call started where Faultline cannot see when; its report is recorded whenever it comes.
        if (!def.external && d.expiresAt && Date.parse(e.at) > Date.parse(d.expiresAt)) bad(`for proposal ${p.id}, whose approval expired at ${d.expiresAt}`);
        // (An external agent's call asked in an earlier attempt runs in the current one.)
        s.proposals = s.proposals.map((x) => (x.id === p.id ? { ...x, step: expected, attempt: a.attempt } : x));
      } else {
        if (expected >= definedStepCount(s, a.name)) bad(`for step ${expected}; agent "${a.name}" has no such step`);
        if (definedStep(s, a.name, expected)!.highRisk && !a.approvedSteps.includes(expected)) bad(`for high-risk step ${expected + 1} of "${a.name}" before an operator approved it`);
      }
      putAgent({ ...a, steps: [...a.steps, { index: expected, tool: e.payload.tool, status: "running", idempotencyKey: e.payload.idempotencyKey, evidence: [], error: null, reruns: 0, resumeApproved: false }] });
      return s;
    }

    case "tool.succeeded":
    case "tool.failed": {
      // A step in flight may still record its result while the mission is paused: that is its checkpoint.
      const a = agentDefinition(s.definition, e.payload.agent).external ? reporting(agentOf(e.payload.agent), e.payload.attempt, bad) : running(agentOf(e.payload.agent), e.payload.attempt, bad);
      const st = stepOf(a, e.payload.step);
      if (!st || st.status !== "running") bad(`for step ${e.payload.step} of "${a.name}" which is not running`);
      if (e.type === "tool.succeeded" && !(e.payload.evidence.length > 0 && e.payload.evidence.every((r) => r.passed))) {
        bad(`without passing evidence: a step succeeds only with evidence (RFC 001 §3.3)`);
      }
      setProposalOutcome(s, a.name, a.attempt, st.index, e.type === "tool.succeeded" ? { ok: true, data: e.payload.data, error: null } : { ok: false, data: null, error: e.payload.error });
      if (e.type === "tool.succeeded") {
        putStep(a.repeatedFailure?.step === st.index ? { ...a, repeatedFailure: null } : a, { ...st, status: "succeeded", evidence: e.payload.evidence });
        s.completedSteps = [...s.completedSteps, { agent: a.name, attempt: a.attempt, step: st.index }];
      } else {
        const def = stepDefinitionOf(s, a.name, st.index);
        const repeatedFailure = countRepeat(a.repeatedFailure, st.index, failureSignature(a.name, st.index, def, e.payload.error));
        putStep({ ...a, repeatedFailure }, { ...st, status: "failed", evidence: e.payload.evidence, error: e.payload.error });
      }
      return s;
    }

    case "diagnostic_reflection": {
      const a = running(agentOf(e.payload.agent), e.payload.attempt, bad);
      const st = stepOf(a, e.payload.step);
      if (!st || st.status !== "failed") bad(`for step ${e.payload.step} of "${a.name}", which has not failed: a diagnosis follows a tool failure`);
      putStep(a, { ...st, diagnosis: summarizeDiagnosis(e.payload.diagnosis) });
      return s;
    }

    case "diagnosis.proposal": {
      const a = agentOf(e.payload.agent);
      const st = a.attempt === e.payload.attempt ? stepOf(a, e.payload.step) : undefined;
      if (!st?.diagnosis || st.diagnosis.id !== e.payload.diagnosisId) bad(`for diagnosis ${e.payload.diagnosisId}, which is not the diagnosis of step ${e.payload.step} of "${a.name}"`);
      return s;
    }

    case "recovery.started":
    case "recovery.fast_path": {
      const a = running(agentOf(e.payload.agent), e.payload.attempt, bad);
      const st = stepOf(a, e.payload.step);
      if (!st || st.status !== "failed") bad(`for step ${e.payload.step} of "${a.name}", which has not failed`);
      if (a.recovery) bad(`while recovery ${a.recovery.strategy} of "${a.name}" is still running`);
      if (openGate(s)) bad("while a gate is open");
      if (s.aborted) bad("after the mission was aborted");
      if (e.payload.by === "operator" && !a.pendingRecovery) bad(`(operator) for "${a.name}" without an operator's "Apply recovery plan"`);
      const tried = a.recoveries.filter((r) => r.step === e.payload.step).length;
      if (e.payload.attemptNo !== tried + 1) bad(`with attempt ${e.payload.attemptNo}; expected ${tried + 1}`);
      if (e.payload.plan.steps.at(-1)?.tool !== "retry") bad("for a plan that does not end by re-running the failed step");
      putAgent({ ...a, pendingRecovery: null, recovery: { ...e.payload.plan, step: e.payload.step, attemptNo: e.payload.attemptNo, by: e.payload.by, done: 0 } });
      return s;
    }

    case "recovery.step": {
      const a = running(agentOf(e.payload.agent), e.payload.attempt, bad);
      const r = a.recovery ?? bad(`for "${a.name}", which has no recovery running`);
      if (r.step !== e.payload.step) bad(`for step ${e.payload.step}; the recovery is on step ${r.step}`);
      if (e.payload.index !== r.done || r.done >= helperSteps(r).length) bad(`for helper step ${e.payload.index}; the next is ${r.done} of ${helperSteps(r).length}`);
      putAgent({ ...a, recovery: { ...r, done: r.done + 1 } });
      return s;
    }

    case "recovery.finished": {
      const a = agentOf(e.payload.agent);
      const r = a.recovery ?? bad(`for "${a.name}", which has no recovery running`);
      if (r.step !== e.payload.step || r.attemptNo !== e.payload.attemptNo) bad(`for step ${e.payload.step} attempt ${e.payload.attemptNo}; the recovery is step ${r.step} attempt ${r.attemptNo}`);
      if (e.payload.outcome === "succeeded" && stepOf(a, r.step)?.status !== "succeeded") bad(`(succeeded) while step ${r.step} of "${a.name}" has not succeeded with evidence`);
      putAgent({ ...a, recovery: null, recoveries: [...a.recoveries, { step: r.step, attemptNo: r.attemptNo, strategy: r.strategy, source: r.source, outcome: e.payload.outcome }] });
      return s;
    }

    case "library.hypotheses": {
      const a = running(agentOf(e.payload.agent), e.payload.attempt, bad);
      const st = stepOf(a, e.payload.step);
      if (!st || st.status !== "failed") bad(`for step ${e.payload.step} of "${a.name}", which has not failed: the library is consulted about a failure`);
      if (a.library) bad(`while the library walk of step ${a.library.step} of "${a.name}" is still running`);
      if (a.recovery) bad(`while recovery ${a.recovery.strategy} of "${a.name}" is running`);
      if (a.libraryConsulted.includes(st.index)) bad(`for step ${st.index} of "${a.name}", whose failure already consulted the library in attempt ${a.attempt}`);
      if (e.payload.abstained && e.payload.hypotheses.length) bad("with hypotheses although the library abstained");
      const walk: LibraryWalk | null = e.payload.hypotheses.length && e.payload.walked !== false
        ? { step: st.index, seq: e.seq, hypotheses: e.payload.hypotheses.map((h) => ({ ...h, outcome: null })), current: 0, stage: "probe", oversightApproved: false, actionFailed: false, decision: null }
        : null;
      putAgent({ ...a, library: walk, libraryConsulted: [...a.libraryConsulted, st.index] });
      return s;
    }

    case "library.novel": {
      const a = running(agentOf(e.payload.agent), e.payload.attempt, bad);
      if (!a.libraryConsulted.includes(e.payload.step) || a.library) bad(`for step ${e.payload.step} of "${a.name}": a novel failure follows the library's abstention`);
      return s;
    }

    case "library.probe":
    case "library.resolution":
    case "library.resolved": {
      const a = running(agentOf(e.payload.agent), e.payload.attempt, bad);
      const w = a.library ?? bad(`for "${a.name}", which has no library walk`);
      const h = w.hypotheses[w.current];
      if (w.step !== e.payload.step || w.seq !== e.payload.hypothesesSeq || h?.failure_id !== e.payload.failure_id) bad(`for ${e.payload.failure_id} on step ${e.payload.step}; the walk is at ${h?.failure_id ?? "its end"} on step ${w.step}`);
      const next = (outcome: HypothesisOutcome): LibraryWalk => ({ ...w, hypotheses: w.hypotheses.map((x, i) => (i === w.current ? { ...x, outcome } : x)), current: w.current + 1, stage: "probe", oversightApproved: false, actionFailed: false, decision: null });
      if (e.type === "library.probe") {
        if (w.stage !== "probe") bad(`while the walk of "${a.name}" is at ${w.stage}`);
        const v = e.payload.verdict;
        if (e.payload.by === "operator" && w.decision?.stage !== "probe" && !(v === "skipped" && w.decision?.stage === "oversight")) bad("(operator) without an operator's answer at a library gate");
        const walk: LibraryWalk =
          v === "inconclusive"
            ? { ...w, actionFailed: true, decision: null }
            : v === "confirmed"
              ? { ...w, hypotheses: w.hypotheses.map((x, i) => (i === w.current ? { ...x, outcome: "confirmed" } : x)), stage: "resolve", actionFailed: false, decision: null }
              : next(v);
        putAgent({ ...a, library: walk });
      } else if (e.type === "library.resolution") {
        if (w.stage !== "resolve") bad(`while the walk of "${a.name}" is at ${w.stage}`);
        if (e.payload.by === "operator" && w.decision?.stage !== "resolution") bad("(operator) without an operator's answer at a library gate");
        putAgent({ ...a, library: e.payload.ok ? { ...w, stage: "rerun", decision: null } : next("unresolved") });
      } else {
        if (w.stage !== "rerun") bad(`while the walk of "${a.name}" is at ${w.stage}`);
        const st = stepOf(a, w.step);
        if (e.payload.outcome === "resolved") {
          if (st?.status !== "succeeded") bad(`(resolved) while step ${w.step} of "${a.name}" has not succeeded with evidence`);
          putAgent({ ...a, library: null });
        } else {
          if (st?.status !== "failed") bad(`(unresolved) while step ${w.step} of "${a.name}" has not failed again`);
          putAgent({ ...a, library: next("unresolved") });
        }
      }
      return s;
    }

    case "library.exhausted": {
      const a = running(agentOf(e.payload.agent), e.payload.attempt, bad);
      const w = a.library ?? bad(`for "${a.name}", which has no library walk`);
      if (w.current < w.hypotheses.length) bad(`for "${a.name}" while hypothesis ${w.hypotheses[w.current].failure_id} is still open`);
      putAgent({ ...a, library: null });
      return s;
    }

    case "recovery.loop_detected": {
      agentOf(e.payload.agent);
      return s;
    }

    case "step.interrupted": {
      const a = running(agentOf(e.payload.agent), e.payload.attempt, bad);
      const st = stepOf(a, e.payload.step);
      if (!st || st.status !== "running") bad(`for step ${e.payload.step} of "${a.name}" which is not running`);
      putStep(a, { ...st, status: "interrupted", resumeApproved: false });
      return s;
    }

    case "step.rerun": {
      const a = running(agentOf(e.payload.agent), e.payload.attempt, bad);
      const st = stepOf(a, e.payload.step);
      if (openGate(s) || s.paused || s.aborted) bad("while the mission is held");
      if (e.payload.reason === "library") {
        const w = a.library;
        if (!st || st.status !== "failed" || !w || w.step !== st.index || w.stage !== "rerun") bad(`(library) for step ${e.payload.step} of "${a.name}" without a library resolution ready to be verified`);
        putStep(a, { ...st, status: "running", error: null, reruns: st.reruns + 1 });
        return s;
      }
      if (e.payload.reason === "recovery") {
        const r = a.recovery;
        if (!st || st.status !== "failed" || !r || r.step !== st.index || r.done < helperSteps(r).length) bad(`(recovery) for step ${e.payload.step} of "${a.name}" without a recovery ready to re-run it`);
        putStep(a, { ...st, status: "running", error: null, reruns: st.reruns + 1 });
        return s;
      }
      if (!st || !(st.status === "running" || st.status === "interrupted")) bad(`for step ${e.payload.step} of "${a.name}" which was not interrupted`);
      if (e.payload.reason === "idempotent" && st.status !== "running") bad(`(idempotent) for a step that is ${st.status}`);
      if (e.payload.reason === "operator" && !st.resumeApproved) bad(`for step ${e.payload.step} of "${a.name}" without an operator's resume`);
      if (e.payload.idempotencyKey !== st.idempotencyKey) bad(`with key ${e.payload.idempotencyKey}; the step's key is ${st.idempotencyKey}`);
      putStep(a, { ...st, status: "running", reruns: st.reruns + 1, resumeApproved: false });
      return s;
    }

    case "proposal.submitted": {
      const external = Boolean(agentDefinition(s.definition, e.payload.agent).external);
      // An external agent keeps asking while a gate holds the run (its proposals wait, GATE_OPEN) and may have several calls in flight.
      const a = external ? reporting(agentOf(e.payload.agent), e.payload.attempt, bad) : running(agentOf(e.payload.agent), e.payload.attempt, bad);
      if (!external) mustBeFree();
      else if (s.aborted || s.paused) bad(s.aborted ? "after the mission was aborted" : `while the mission is paused (${s.paused!.kind})`);
      if (s.proposals.some((x) => x.id === e.payload.proposalId)) bad(`reuses proposal id ${e.payload.proposalId}`);
      const open = external ? null : s.proposals.find((x) => x.agent === a.name && (x.status === "pending" || (x.status === "approved" && x.step === null && !isDone(x))));
      if (open) bad(`for agent "${a.name}" while its proposal ${open.id} is still ${open.status === "pending" ? "pending" : "approved and not yet run"}`);
      if (a.autonomous) {
        const max = agentDefinition(s.definition, a.name).autonomous?.maxActions ?? Infinity;
        if (a.autonomous.actions >= max) bad(`for agent "${a.name}", which used its ${max} actions`);
        if (a.autonomous.finished) bad(`for agent "${a.name}", whose finish was already approved`);
        putAgent({ ...a, autonomous: { ...a.autonomous, actions: a.autonomous.actions + 1 } });
      }
      const p: ProposalState = {
        id: e.payload.proposalId,
        agent: a.name,
        attempt: a.attempt,
        actorId: e.payload.actorId,
        action: e.payload.action,
        argsDigest: e.payload.argsDigest,
        level: e.payload.level,
        callId: e.payload.callId,
        submittedAt: e.at,
        submittedSeq: e.seq,
        status: "pending",
        decision: null,
        gateId: null,
        step: null,
        outcome: null,
      };
      s.proposals = [...s.proposals, p];
      return s;
    }

    case "proposal.decided": {
      const p = s.proposals.find((x) => x.id === e.payload.proposalId) ?? bad(`for unknown proposal ${e.payload.proposalId}`);
      const r = e.payload.record;
      if (p.status !== "pending" || (p.decision && p.decision.decision !== "pending")) bad(`for proposal ${p.id}, which was already decided (${p.status})`);
      if (r.decision !== e.payload.decision) bad(`whose record says ${r.decision} but the decision is ${e.payload.decision}`);
      // A proposal that waited only because a gate was open (GATE_OPEN) is decided afresh once it closes, and may be held then.
      if (p.decision?.decision === "pending" && e.payload.decision === "pending" && p.decision.pendingReason !== "GATE_OPEN") bad(`for proposal ${p.id}, which is already pending`);
      // FDR-N003: nobody verifies their own outputs; nobody decides their own proposal.
      if (r.decidedBy === p.actorId || e.actorId === p.actorId) bad(`by ${r.decidedBy}, who proposed it (nobody decides their own proposal)`);
      if (r.decision === "approved" && !r.argsDigest && p.action.tool !== "finish" && p.action.tool !== "ask") bad(`approving proposal ${p.id} without binding the approval to an args digest`);
      const a = agentOf(p.agent);
      const finish = p.action.tool === "finish";
      if (finish && r.decision === "approved") {
        const ev = e.payload.evidence ?? [];
        // FP-5: finish is approved only on the agent's own evidence, checked now; a person may confirm an open-ended goal.
        if (r.authority !== "hitl" && !(ev.length > 0 && ev.every((x) => x.passed))) bad(`approving finish of "${a.name}" without passing evidence (FP-5: the claim of success is never evidence)`);
        if (a.status === "running" && a.attempt === p.attempt && a.autonomous) putAgent({ ...a, autonomous: { ...a.autonomous, finished: { proposalId: p.id, evidence: ev.length ? ev : [{ check: "confirmed_by", expected: "a person's confirmation", actual: r.decidedBy, passed: true }] } } });
      }
      const outcome = r.decision === "pending" ? null : describeDecision(p, r);
      s.proposals = s.proposals.map((x) => (x.id === p.id ? { ...x, status: r.decision, decision: r, outcome } : x));
      return withRunState(s);
    }

    case "proposal.expired": {
      const p = s.proposals.find((x) => x.id === e.payload.proposalId) ?? bad(`for unknown proposal ${e.payload.proposalId}`);
      if (p.status !== "approved" || p.step !== null) bad(`for proposal ${p.id}, which is ${p.status}${p.step !== null ? " and already ran" : ""}`);
      s.proposals = s.proposals.map((x) => (x.id === p.id ? { ...x, status: "expired", outcome: `Not run: ${e.payload.message}` } : x));
      return s;
    }

    case "agent.completed": {
      const a = running(agentOf(e.payload.agent), e.payload.attempt, bad);
      if (a.autonomous) {
        // FP-5: an autonomous agent completes only through an approved `finish`, i.e. its evidence held.
        if (!a.autonomous.finished) bad(`for autonomous agent "${a.name}" before its finish was approved by the evidence (the model's claim is never evidence)`);
        if (a.steps.some((st) => st.status !== "succeeded")) bad(`for agent "${a.name}": not every step succeeded with evidence`);
      } else {
        const total = definedStepCount(s, a.name);
        if (stepCount(a) !== total || a.steps.some((st) => st.status !== "succeeded")) bad(`for agent "${a.name}": not every step succeeded with evidence`);
      }
      putAgent({ ...a, status: "completed" });
      return s;
    }

    case "agent.failed": {
      const a = running(agentOf(e.payload.agent), e.payload.attempt, bad);
      // An autonomous agent may also stop for a structural reason (budget, time, no action, its model unavailable): that reason is the record.
      const structural = a.autonomous && (e.payload.error.failureReason || e.payload.error.context.tool === "model");
      if (!structural && !a.steps.some((st) => st.status === "failed")) bad(`for agent "${a.name}" with no failed step (NoSilentFailure: a failure needs its tool.failed)`);
      putAgent({ ...a, status: "failed", error: e.payload.error, library: null });
      return s;
    }

    case "mission.warning": {
      const a = agentOf(e.payload.agent);
      if (a.status !== "failed" || a.priority !== "optional") bad(`for agent "${a.name}": only a failed optional agent is tolerated with a warning`);
      putAgent({ ...a, tolerated: true });
      s.warnings += 1;
      return s;
    }

    case "phase.failed": {
      if (s.phase !== e.payload.phase) bad(`for ${e.payload.phase} during ${s.phase}`);
      if (s.phaseFailure) bad(`for ${e.payload.phase}, which already failed`);
      if (openGate(s)) bad("while a gate is open");
      s.phaseFailure = { phase: e.payload.phase, reason: e.payload.reason, message: e.payload.message };
      if (phaseDefinition(s.definition, e.payload.phase).compensateOnFailure) s.compensations = [...s.compensations, ...planCompensations(s, e.payload.phase, e)];
      return withRunState(s);
    }

    case "gate.opened": {
      // Gates recorded before gate kinds existed are agent gates.
      const p = { ...e.payload, kind: e.payload.kind ?? "agent", step: e.payload.step ?? null };
      const a = agentOf(p.agent);
      if (openGate(s)) bad("while another gate is open");
      if (s.gates.some((g) => g.id === p.gateId)) bad(`reuses gate id ${p.gateId}`);
      if (p.kind === "agent" && (a.status !== "failed" || a.tolerated)) bad(`(agent) for agent "${a.name}" which is ${a.status}${a.tolerated ? " (tolerated)" : ""}`);
      if (p.kind === "phase" && !s.phaseFailure) bad("(phase) while no phase has failed");
      if (p.kind === "recovery" && stepOf(a, p.step ?? -1)?.status !== "interrupted") bad(`(recovery) for step ${p.step} of "${a.name}", which was not interrupted`);
      if (p.kind === "library") {
        const w = a.library ?? bad(`(library) for agent "${a.name}", which has no library walk`);
        const stage = p.error.library?.stage;
        if (a.status !== "running" || w.current >= w.hypotheses.length || w.decision) bad(`(library) for agent "${a.name}", which has no open hypothesis to ask about`);
        if (stage === "resolution" ? w.stage !== "resolve" : stage === "oversight" || stage === "probe" ? w.stage !== "probe" : true) bad(`(library, ${stage}) while the walk of "${a.name}" is at ${w.stage}`);
        if (p.error.library?.failure_id !== w.hypotheses[w.current].failure_id) bad(`(library) about ${p.error.library?.failure_id}; the walk is at ${w.hypotheses[w.current].failure_id}`);
      }
      if (p.kind === "proposal") {
        const prop = s.proposals.find((x) => x.id === p.proposalId) ?? bad(`(proposal) for unknown proposal ${p.proposalId}`);
        if (prop.status !== "pending" || prop.gateId) bad(`(proposal) for proposal ${prop.id}, which is ${prop.status}${prop.gateId ? " and already has a gate" : ""}`);
        s.proposals = s.proposals.map((x) => (x.id === prop.id ? { ...x, gateId: p.gateId } : x));
      }
      if (p.kind === "approval") {
        if (p.step === null || !definedStep(s, a.name, p.step)?.highRisk) bad(`(approval) for step ${p.step} of "${a.name}", which is not high-risk`);
      }
      const gate: GateState = {
        id: p.gateId,
        kind: p.kind,
        agent: a.name,
        phase: p.phase,
        step: p.step,
        status: "open",
        diagnosis: p.diagnosis ?? null,
        recoveryPlan: p.recoveryPlan ?? null,
        recoveryNote: p.recoveryNote ?? null,
        options: p.options,
        error: p.error,
        openedAt: e.at,
        openedSeq: e.seq,
        decision: null,
        decidedBy: null,
        note: null,
        decidedAt: null,
        openMs: null,
        policy: p.policy ?? null,
        deadlineAt: p.deadlineAt ?? null,
        approvals: [],
        ...(p.kind === "proposal" ? { proposalId: p.proposalId ?? null, prompt: p.prompt ?? null } : {}),
      };
      s.gates = [...s.gates, gate];
      return withRunState(s);
    }

    case "gate.approval": {
      // One person's choice on an N-of-M gate (issue 6); the database layer appends gate.resolved at the Nth.
      const g = s.gates.find((x) => x.id === e.payload.gateId) ?? bad(`for unknown gate ${e.payload.gateId}`);
      if (g.status !== "open") bad(`for gate ${g.id} which was already resolved (${g.decision})`);
      if (!g.policy || g.policy.approvalsRequired < 2) bad(`for gate ${g.id}, whose policy needs no more than one decision`);
      if (!g.options.some((o) => o.action === e.payload.decision)) bad(`with "${e.payload.decision}", which gate ${g.id} does not offer`);
      if ((g.approvals ?? []).some((a) => a.actorId === e.actorId)) bad(`by ${e.actorId}, who already chose on gate ${g.id}`);
      const approval = { actorId: e.actorId, decision: e.payload.decision, note: e.payload.note, at: e.at };
      s.gates = s.gates.map((x) => (x.id === g.id ? { ...x, approvals: [...(x.approvals ?? []), approval] } : x));
      return s;
    }

    case "gate.resolved": {
      const g = s.gates.find((x) => x.id === e.payload.gateId) ?? bad(`for unknown gate ${e.payload.gateId}`);
      if (g.status !== "open") bad(`for gate ${g.id} which was already resolved (${g.decision})`);
      const d = e.payload.decision;
      if (!g.options.some((o) => o.action === d)) bad(`with "${d}", which gate ${g.id} does not offer (${g.options.map((o) => o.action).join(", ")})`);
      // N of M (issue 6): a person's decision needs N distinct approvals of it; the system's timeout does not.
      if (g.policy && g.policy.approvalsRequired > 1 && e.actorId !== SYSTEM_ACTOR_ID && (g.approvals ?? []).filter((a) => a.decision === d).length < g.policy.approvalsRequired) {
        bad(`with "${d}" on gate ${g.id}, which needs ${g.policy.approvalsRequired} distinct approvals of it`);
      }
      s.gates = s.gates.map((x) => (x.id === g.id ? { ...x, status: "resolved", decision: d, decidedBy: e.actorId, note: e.payload.note, decidedAt: e.at, openMs: e.payload.openMs } : x));
      if (g.kind === "proposal" && d !== "abort") {
        // FDR-N013: a person's answer goes through the authority: its proposal.decided comes first; the gate only closes.
        const prop = s.proposals.find((x) => x.id === g.proposalId);
        if (!prop || prop.status === "pending") bad(`(${d}) for proposal gate ${g.id} before the authority recorded the decision of its proposal`);
        return withRunState(s);
      }
      const a = agentOf(g.agent);
      switch (d) {
        case "retry":
          putAgent({ ...a, status: "pending" });
          break;
        case "allow_binary": {
          // A person allowed the refused binary for this mission (the authority checked it first), then the agent retries.
          const binary = refusedBinary(a.error?.context.toolError) ?? bad(`(allow_binary) for gate ${g.id}, whose failure is not a binary refused by the allowlist`);
          if (!s.allowlistGrants.some((x) => x.binary === binary)) s.allowlistGrants = [...s.allowlistGrants, { binary, agent: a.name, gateId: g.id, by: e.actorId, at: e.at }];
          putAgent({ ...a, status: "pending" });
          break;
        }
        case "skip":
          putAgent({ ...a, status: "skipped" });
          break;
        case "approve":
          putAgent({ ...a, approvedSteps: [...a.approvedSteps, g.step!] });
          break;
        case "recover":
          if (!g.recoveryPlan || a.status !== "failed") bad(`(recover) for gate ${g.id}, which has no recovery plan for a failed agent`);
          putAgent({ ...a, status: "running", error: null, pendingRecovery: g.recoveryPlan });
          break;
        case "resume":
          putStep(a, { ...stepOf(a, g.step!), resumeApproved: true });
          break;
        case "retry_phase":
        case "restart_phase":
          resetPhaseAgents(g.phase);
          s.phaseFailure = null;
          s.phaseStartedAt = e.at;
          break;
        case "skip_phase":
          // The decision completes the phase: what did not finish is skipped.
          for (const n of s.agentOrder) {
            const x = s.agents[n];
            if (x.phase === g.phase && !isSettled(x)) putAgent({ ...x, status: "skipped" });
          }
          s.phaseFailure = null;
          s.completedPhases = [...s.completedPhases, g.phase];
          s.phaseStartedAt = null;
          break;
        case "run_probe":
        case "skip_hypothesis":
        case "confirm":
        case "reject":
        case "done":
        case "not_done": {
          const w = a.library ?? bad(`(${d}) for gate ${g.id}: agent "${a.name}" has no library walk`);
          const stage = g.error.library?.stage;
          if (g.kind !== "library" || !stage || stage === "exhausted") return bad(`(${d}) for gate ${g.id}, which is not a library gate of a running walk`);
          // Allowing a Requires-Oversight probe changes only the walk; every other answer is recorded as a library event next.
          putAgent({ ...a, library: d === "run_probe" ? { ...w, oversightApproved: true } : { ...w, decision: { stage, decision: d } } });
          break;
        }
        case "abort":
          s.aborted = true;
          s.compensations = [...s.compensations, ...planCompensations(s, null, e)];
          break;
      }
      return withRunState(s);
    }

    case "mission.paused": {
      if (s.paused) bad(`while already paused (${s.paused.kind})`);
      s.paused = { kind: e.payload.kind, message: e.payload.message, at: e.at };
      return withRunState(s);
    }

    case "mission.aborted": {
      if (s.aborted) bad("after the mission was already aborted");
      // The abort is the decision of every open gate; a pause no longer holds a mission that is ending.
      s.gates = s.gates.map((g) => (g.status === "open" ? { ...g, status: "resolved", decision: "abort", decidedBy: e.actorId, note: e.payload.message, decidedAt: e.at, openMs: Math.max(0, Date.parse(e.at) - Date.parse(g.openedAt)) } : g));
      s.paused = null;
      s.aborted = true;
      s.compensations = [...s.compensations, ...planCompensations(s, null, e)];
      return withRunState(s);
    }

    case "mission.resumed": {
      if (!s.paused) bad("while the mission is not paused");
      s.paused = null;
      if (e.actorId.startsWith("user:")) s.owner = e.actorId;
      return withRunState(s);
    }

    case "compensation.started": {
      const c = s.compensations.find((x) => x.agent === e.payload.agent && x.attempt === e.payload.attempt && x.step === e.payload.step) ?? bad(`for a step that has no planned compensation`);
      if (c.status === "succeeded" || c.status === "failed") bad(`for a compensation that already ${c.status}`);
      if (openGate(s)) bad("while a gate is open");
      if (c.idempotencyKey !== e.payload.idempotencyKey) bad(`with key ${e.payload.idempotencyKey}; expected ${c.idempotencyKey}`);
      s.compensations = s.compensations.map((x) => (x === c ? { ...x, status: "running" } : x));
      // Work being undone is no longer evidence of anything (NoSuccessOnUndoneWork).
      const owner = s.agents[c.agent];
      if (owner.attempt === c.attempt) putAgent({ ...owner, undone: true });
      return s;
    }

    case "compensation.succeeded":
    case "compensation.failed": {
      const c = s.compensations.find((x) => x.agent === e.payload.agent && x.attempt === e.payload.attempt && x.step === e.payload.step);
      if (!c || c.status !== "running") bad(`for a compensation that is not running`);
      s.compensations = s.compensations.map((x) =>
        x === c ? { ...x, status: e.type === "compensation.succeeded" ? "succeeded" : "failed", error: e.type === "compensation.failed" ? e.payload.error : null } : x,
      );
      return s;
    }

    case "phase.completed": {
      if (s.phase !== e.payload.phase) bad(`for ${e.payload.phase} during ${s.phase}`);
      if (openGate(s)) bad("while a gate is open");
      if (s.phaseFailure) bad(`for ${e.payload.phase}, which failed and awaits a decision`);
      const unsettled = s.agentOrder.map((n) => s.agents[n]).filter((a) => a.phase === e.payload.phase && !isSettled(a));
      if (unsettled.length) bad(`for ${e.payload.phase} while agents ${unsettled.map((a) => `"${a.name}" (${a.status})`).join(", ")} are not settled`);
      s.completedPhases = [...s.completedPhases, e.payload.phase];
      s.phaseStartedAt = null;
      return s;
    }

    case "objective.checked": {
      if (nextPhase(s) !== null) bad("before every phase completed");
      if (s.objective.checked) bad("twice");
      s.objective = { checked: true, passed: e.payload.passed, evidence: e.payload.evidence };
      return s;
    }

    case "mission.finished": {
      if (openGate(s)) bad("while a gate is open");
      if (!s.aborted && !s.objective.checked) bad("before the objective was checked (and the mission was not aborted)");
      const unfinished = s.compensations.filter((c) => c.status === "pending" || c.status === "running");
      if (unfinished.length) bad(`while ${unfinished.length} compensation(s) have not run`);
      const derived = deriveFinalStatus(s);
      if (e.payload.finalStatus !== derived) bad(`claiming ${e.payload.finalStatus}, but the evidence derives ${derived}: the final status is derived, never assigned`);
      s.finalStatus = derived;
      s.phase = derived === "FAILED" ? "FAILED" : "MISSION_COMPLETED";
      s.runState = derived === "FAILED" ? "failed" : "completed";
      s.endedAt = e.at;
      s.paused = null;
      return s;
    }
  }
}

function created(id: string, definition: MissionState["definition"], at: string, actorId: string): MissionState {
  const agents: Record<string, AgentState> = {};
  const agentOrder: string[] = [];
  for (const a of agentsInOrder(definition)) {
    agents[a.name] = { name: a.name, phase: a.phase, priority: a.priority, status: "pending", attempt: 0, startedAt: null, steps: [], error: null, tolerated: false, approvedSteps: [], recovery: null, pendingRecovery: null, recoveries: [], repeatedFailure: null, library: null, libraryConsulted: [], autonomous: proposes(a) ? { actions: 0, finished: null } : null };
    agentOrder.push(a.name);
  }
  return {
    version: STATE_VERSION,
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
    proposals: [],
    objective: { checked: false, passed: null, evidence: [] },
    aborted: false,
    paused: null,
    owner: actorId,
    startedBy: actorId,
    phaseStartedAt: null,
    phaseFailure: null,
    completedSteps: [],
    compensations: [],
    allowlistGrants: [],
    warnings: 0,
    createdAt: at,
    startedAt: null,
    endedAt: null,
    finalStatus: null,
  };
}

/** queued until the first phase starts; paused while a gate is open or the mission is paused; else running. */
function withRunState(s: MissionState): MissionState {
  if (isTerminal(s)) return s;
  s.runState = openGate(s) || s.paused ? "paused" : s.startedAt ? "running" : s.runState === "queued" && !s.aborted ? "queued" : "running";
  return s;
}

/** The compensations owed for completed steps that declare one, latest first; only `phase`'s when given. */
function planCompensations(s: MissionState, phase: Phase | null, e: MissionEvent): CompensationState[] {
  if (s.agentOrder.some((n) => s.agents[n].elided)) throw new PartialStateError(e, "every completed step");
  const planned = new Set(s.compensations.map((c) => `${c.agent}/${c.attempt}/${c.step}`));
  return [...s.completedSteps]
    .reverse()
    .filter((c) => (phase === null || s.agents[c.agent].phase === phase) && stepDefinitionOf(s, c.agent, c.step, c.attempt).compensate && !planned.has(`${c.agent}/${c.attempt}/${c.step}`))
    .map((c) => ({ ...c, idempotencyKey: compensationKey(s.id, c.agent, c.step, c.attempt), status: "pending" as const, error: null }));
}

/** An external agent's current attempt, running or failed (its reports and questions still come in while a gate holds it). */
function reporting(a: AgentState, attempt: number, bad: (why: string) => never): AgentState {
  if (a.status !== "running" && a.status !== "failed") bad(`for agent "${a.name}" which is ${a.status}`);
  if (a.attempt !== attempt) bad(`for attempt ${attempt} of agent "${a.name}", whose current attempt is ${a.attempt}`);
  return a;
}

function running(a: AgentState, attempt: number, bad: (why: string) => never): AgentState {
  if (a.status !== "running") bad(`for agent "${a.name}" which is ${a.status}, not running`);
  if (a.attempt !== attempt) bad(`for attempt ${attempt} of agent "${a.name}", whose current attempt is ${a.attempt}`);
  return a;
}

export function isTerminal(s: Pick<MissionState, "runState">): boolean {
  return s.runState === "completed" || s.runState === "failed";
}

export function openGate(s: MissionState): GateState | undefined {
  return s.gates.find((g) => g.status === "open");
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

/**
 * FAILURE_MODEL: a phase fails when more than half of its agents failed (failed, or skipped after
 * failing). It takes a phase gate only when some of those failures went by without an operator's
 * decision (optional agents tolerated with a warning); failures already decided at their own gates
 * are not asked about twice.
 */
export function phaseAgentsFailed(s: MissionState, phase: Phase): { failed: number; total: number; tooMany: boolean } {
  const agents = s.agentOrder.map((n) => s.agents[n]).filter((a) => a.phase === phase);
  const failed = agents.filter((a) => a.status === "failed" || (a.status === "skipped" && a.error !== null)).length;
  const undecided = agents.filter((a) => a.status === "failed" && a.tolerated).length;
  return { failed, total: agents.length, tooMany: failed * 2 > agents.length && undecided > 0 };
}

/** What the console shows of a diagnosis (the full one stays in its `diagnostic_reflection` event). */
export function summarizeDiagnosis(d: Diagnosis): DiagnosisSummary {
  return {
    id: d.id,
    whyChain: Object.values(d.whyChain),
    rootCause: d.rootCause,
    type: d.errorClassification.type,
    severity: d.errorClassification.severity,
    canRecover: d.errorClassification.canRecover,
    alternatives: d.alternatives.map((x) => ({ strategy: x.strategy, description: x.description, confidence: x.confidence })),
    recoveryStrategy: d.recoveryPlan.strategy,
    recoverySteps: d.recoveryPlan.steps.map((x) => ({ action: x.action, tool: x.tool, args: x.args, expectedOutcome: x.expectedOutcome })),
    fallbackChain: d.recoveryPlan.fallbackChain,
  };
}

/** A `finish` or `ask` proposal needs no step: once decided it is done. */
function isDone(p: ProposalState): boolean {
  return p.action.tool === "finish" || p.action.tool === "ask";
}

/** Largest outcome text kept on a proposal (what the proposer is told next). */
const MAX_OUTCOME = 4000;

function clip(text: string): string {
  return text.length > MAX_OUTCOME ? `${text.slice(0, MAX_OUTCOME)}… [${text.length - MAX_OUTCOME} more characters not kept]` : text;
}

/** What the proposer is told of a decision that runs nothing (rejected, or a finish / ask answered). */
function describeDecision(p: ProposalState, r: NonNullable<ProposalState["decision"]>): string | null {
  if (r.decision === "approved" && !isDone(p)) return null; // its ToolResult will be the outcome
  return clip(JSON.stringify({ decision: r.decision, failureReason: r.failureReason, explanation: r.reason, counterfactual: r.counterfactual, ...(r.note ? { note: r.note } : {}), ...(r.modified ? { modifiedArgs: r.modified.args } : {}) }));
}

/** The ToolResult of an autonomous agent's step, kept on its proposal for the model's next turn. */
function setProposalOutcome(s: MissionState, agent: string, attempt: number, step: number, result: { ok: boolean; data: unknown; error: unknown }): void {
  const p = s.proposals.find((x) => x.agent === agent && x.attempt === attempt && x.step === step);
  if (!p) return;
  const modified = p.decision?.modified ? { note: "A person modified your proposal before approving it; these args ran.", ranArgs: p.decision.modified.args } : {};
  s.proposals = s.proposals.map((x) => (x === p ? { ...x, outcome: clip(JSON.stringify({ ...result, ...modified })) } : x));
}
