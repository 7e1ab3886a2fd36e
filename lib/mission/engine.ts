import { describeFailedEvidence } from "../tools/evidence";
import { allowedBinariesOf, refusedBinary, stepDefinitionOf } from "./steps";
import { analyseFailure, diagnose, patternTrigger, recoveryCandidates } from "../diagnosis/diagnose";
import { createHash } from "node:crypto";
import { encodeTime } from "ulid";
import { diagnosticReflectionEvent } from "../diagnosis/context-log";
import { inputContextFromToolError } from "../diagnosis/from-tool-error";
import type { Diagnosis, InputContext } from "../diagnosis/types";
import type { ToolError, ToolResult } from "../tools/result";
import { agentDefinition, TOOL_NAMES, type StepDefinition, type ToolCallDefinition } from "./definition";
import { applyEvent } from "./reducer";
import { recoveryStepKey, type DiagnosisProposalRecord, type MissionEvent, type NewMissionEvent } from "./events";
import { chooseRecovery, helperSteps, rerunOverrides, STUCK_LOOP_REPEATS, stuckLoop, type PatternRef, type RecoveryChoice } from "./recovery";
import { allProvidersFailed, describeCall, approvalGate, exhaustedInfo, libraryGate, phaseGate, recoveryGate, stepLabel, toAgentError } from "./failure";
import { actionVerdict, buildLibraryQuery, failureContext, LIBRARY_ACTION_TIMEOUT_MS, LIBRARY_HYPOTHESES, noveltyDraft, substituteAction, WEAK_MATCH_BELOW, type LibraryConsultation, type LibraryQuery } from "./library";
import { nextAction, phaseTimeLeft, type NextAction } from "./next-action";
import * as t from "./transitions";
import type { AgentError, AgentState, EvidenceRecord, MissionState } from "./types";
import type { EvidenceCheck } from "./definition";
import { ASK, FINISH, actionArgsProblem, buildPrompt, proposalGate, structuralError } from "./autonomous";
import { missionLevel, proposes } from "./definition";
import { approvedArgs, attemptProposals } from "./steps";
import { decideExternal, endedRecord, externalDecisionEvents, finishEvidence } from "./external";
import type { ToolData } from "../tools/result";
import { argsDigest } from "../authority/digest";
import { decide, isApprovalValid, DEFAULT_APPROVAL_TTL_MS } from "../authority/authority";
import type { Rule } from "../authority/rules";
import type { ActorRecord, DecisionRecord } from "../authority/types";

/**
 * The orchestration engine: performs one `nextAction` of a mission through an `EngineIO`. The worker
 * gives it PostgreSQL (lease-fenced appends) and real tools; tests and the model checker give it
 * memory and scripted outcomes. One place decides what happens; the IO only carries it out.
 */
export interface EngineIO {
  now(): number;
  newId(): string;
  /** Appends events atomically (one transaction) and returns the new state. */
  append(events: Array<NewMissionEvent | ((s: MissionState) => NewMissionEvent | null)>): Promise<MissionState>;
  /** Runs one tool call and evaluates its evidence. Never throws. */
  run(
    call: StepDefinition | ToolCallDefinition,
    ctx: {
      state: MissionState;
      idempotencyKey: string;
      timeoutMs: number;
      /** A recovery helper step: it may use `allowedBinaries(state)`. */ recovery?: { index: number };
      /** A library entry's probe or resolution action: it may also run `sh` scripts (the library's rule, README). */ library?: { kind: "probe" | "resolution" };
    },
  ): Promise<{ result: ToolResult; evidence: EvidenceRecord[] }>;
  /** Whether a step may be re-run with the same idempotency key after a crash. */
  idempotent(step: StepDefinition): boolean;
  /** True when the run must stop at this boundary (shutdown, lease lost). */
  stopped(): boolean;
  /** ADR-0003 settings; without them no diagnosis is recorded (and no recovery planned). */
  diagnosis?: { enabled: boolean; whyDepth: number; maxRecoveryAttempts: number; fastPath: boolean };
  /** Files and directories of the mission's workspace, for the diagnosis's input context. */
  workspaceState?(state: MissionState): Promise<{ files: string[]; directories: string[] }>;
  /** Binaries a recovery's helper steps may run for this mission (default: the definition's allowlist). */
  allowedBinaries?(state: MissionState): readonly string[];
  /** Learned patterns for a failure trigger (ADR-0003 pattern memory); none when absent. */
  findPatterns?(when: string): Promise<PatternRef[]>;
  /**
   * The failure-mode library (000 Output Protocol): ranked hypotheses for a failure's query, at most
   * `limit`; absent = the protocol is off (FAULTLINE_LIBRARY_PROTOCOL=0). Never throws: a failed query
   * is a consultation with `error`.
   */
  library?(query: LibraryQuery, limit: number): Promise<LibraryConsultation>;
  /** The optional LLM reflection: a proposal checked against the deterministic diagnosis; null when no LLM is configured. */
  reflect?(input: InputContext, diagnosis: Diagnosis): Promise<DiagnosisProposalRecord | null>;
  /**
   * An autonomous agent's model turn (seed 002): the transcript goes to the model, its tool call comes back
   * as the proposal. Absent = no LLM provider configured (an autonomous agent then stops, saying so).
   */
  think?(state: MissionState, agent: string, opts: { timeoutMs: number }): Promise<ThinkResult>;
  /** The authority's inputs the engine cannot know: the admin's default policy, the approval lifetime, the workspace. */
  authority?: { defaultPolicy(): Promise<Rule[]>; approvalTtlMs: number; workspace?(state: MissionState): string };
  /** The agent's evidence rules checked now, in its workspace, against its last action's result (for `finish`). */
  checkEvidence?(state: MissionState, agent: string, checks: EvidenceCheck[]): Promise<EvidenceRecord[]>;
  /** The data of an external agent's calls reported ok in its current attempt (what its finish is checked against). */
  externalResults?(state: MissionState, agent: string): Promise<ToolData[]>;
  /** Registers an actor (FDR-N002) before its first event. */
  ensureActor?(actor: ActorRecord): Promise<void>;
}

/** What a model turn produced: one tool call (the first, if several), or text only, or a failure. */
export type ThinkResult =
  | { ok: true; actor: ActorRecord; call: { id: string | null; name: string; args: Record<string, unknown>; argsError: string | null } | null; text: string; model: { provider: string; model: string; latencyMs: number } }
  | { ok: false; error: ToolError };

export type StepOutcome = "progress" | "waiting" | "terminal" | "stopped";

/** Performs the next transition(s) of the mission. */
export async function advance(state: MissionState, io: EngineIO): Promise<{ outcome: StepOutcome; state: MissionState; action: NextAction }> {
  const action = nextAction(state);
  const at = () => new Date(io.now()).toISOString();
  if (action.kind === "none") return { outcome: "terminal", state, action };
  if (action.kind === "wait") return { outcome: "waiting", state, action };
  if (io.stopped()) return { outcome: "stopped", state, action };
  // A phase past its timeout fails before any more of its work starts.
  if (["runAgent", "continueAgent", "propose", "executeProposal", "stopAgent", "requestApproval", "rerunStep", "startRecovery", "recoveryStep", "recoveryRerun", "libraryProbe", "libraryResolve", "libraryRerun", "libraryGate"].includes(action.kind) && phaseTimeLeft(state, io.now()) <= 0) {
    const limit = state.definition.phases.find((p) => p.name === state.phase)?.timeoutMs;
    const abandoned = state.agentOrder.map((n) => state.agents[n]).filter((a) => a.recovery);
    return {
      outcome: "progress",
      state: await io.append([...abandoned.map((a) => t.recoveryFinished(a, "abandoned", `${state.phase} reached its timeout during recovery ${a.recovery!.strategy}.`)), t.phaseFailed(state.phase as never, "timeout", `${state.phase} ran longer than its ${limit} ms timeout.`)]),
      action,
    };
  }
  switch (action.kind) {
    case "startPhase":
      return done(await io.append([t.phaseStarted(action.phase, state.phase === "MISSION_STARTED" ? "The mission start" : state.phase)]));
    case "runAgent": {
      const a = state.agents[action.agent];
      return done(await io.append([t.agentStarted(a.name, a.attempt + 1)]));
    }
    case "propose":
      return done(await io.append(await proposeNext(state, action.agent, io, at)));
    case "executeProposal": {
      const a = state.agents[action.agent];
      const p = state.proposals.find((x) => x.id === action.proposalId)!;
      const args = approvedArgs(p);
      // The approval binds to the digest of the args that run, and expires: a changed or expired approval is refused, never applied.
      const valid = isApprovalValid(p.decision!, args, io.now());
      if (!valid.ok) return done(await io.append([t.proposalExpired(p.id, valid.why === "expired" ? "expired" : "digest_mismatch", valid.message)]));
      const index = a.steps.length;
      const label = `${p.action.tool} ${describeCall(p.action.tool, args) ?? ""}`.trim();
      const started = await io.append([t.stepStarted(state.id, a.name, a.attempt, index, p.action.tool, label, { proposalId: p.id, argsDigest: argsDigest(args) })]);
      return executeStep(started, a.name, index, io, at);
    }
    case "externalFailure": {
      // An external agent's failed call (issue 15): diagnosed and looked up like any failure; the library's
      // hypotheses are recorded, not probed (its probes would run here, not where the agent runs), and no
      // recovery plan runs for it; the response matrix answers (a gate holds its next proposals: GATE_OPEN).
      const a = state.agents[action.agent];
      const error = a.steps[action.step].error!;
      const next = await planAfterFailure(state, a.name, action.step, error, null, io, { diagnose: true, external: true });
      return done(await io.append([...next.events, ...respondEvents(a.name, action.step, error, null, io, at)]));
    }
    case "redecide":
      return done(await io.append(await redecide(state, action.proposalId, io, at)));
    case "stopAgent": {
      const a = state.agents[action.agent];
      const max = agentDefinition(state.definition, a.name).autonomous!.maxActions;
      const message =
        action.reason === "RESOURCE_EXHAUSTED"
          ? `"${a.name}" used its ${max} proposals (maxActions) in attempt ${a.attempt} without an approved finish.`
          : `The last ${attemptProposals(state, a).slice(-3).length} proposals of "${a.name}" were the same action and each was rejected: no permitted action is left to take.`;
      return done(await io.append(stopEvents(a, structuralError(a, action.reason, message), io, at)));
    }
    case "continueAgent": {
      const a = state.agents[action.agent];
      const def = agentDefinition(state.definition, a.name);
      if (proposes(def)) return done(await io.append([t.autonomousCompleted(a.name, a.attempt, a.autonomous?.actions ?? 0)]));
      const index = a.steps.length;
      if (index >= def.steps.length) return done(await io.append([t.agentCompleted(a.name, a.attempt, def.steps.length)]));
      const started = await io.append([t.stepStarted(state.id, a.name, a.attempt, index, def.steps[index].tool, stepLabel(def.steps[index], index))]);
      return executeStep(started, action.agent, index, io, at);
    }
    case "requestApproval":
      return done(await io.append([t.gateOpened(io.newId(), approvalGate(state, action.agent, action.step, at()), `Step ${action.step + 1} of "${action.agent}" is high-risk.`)]));
    case "interrupted": {
      const a = state.agents[action.agent];
      const st = a.steps[action.step];
      if (st.status === "running" && io.idempotent(stepDefinitionOf(state, a.name, action.step))) {
        const rerun = await io.append([t.stepRerun(a.name, a.attempt, action.step, st.idempotencyKey, "idempotent")]);
        return executeStep(rerun, a.name, action.step, io, at);
      }
      return done(
        await io.append([
          ...(st.status === "running" ? [t.stepInterrupted(a.name, a.attempt, action.step, st.idempotencyKey, false)] : []),
          (s: MissionState) => t.gateOpened(io.newId(), recoveryGate(s, a.name, action.step, at()), `A worker stopped during step ${action.step + 1} of "${a.name}".`),
        ]),
      );
    }
    // The failed step runs again: an operator's retry, a recovery plan's or a library resolution's check.
    case "rerunStep":
    case "recoveryRerun":
    case "libraryRerun": {
      const a = state.agents[action.agent];
      const reason = action.kind === "rerunStep" ? "operator" : action.kind === "recoveryRerun" ? "recovery" : "library";
      const rerun = await io.append([t.stepRerun(a.name, a.attempt, action.step, a.steps[action.step].idempotencyKey, reason)]);
      return executeStep(rerun, a.name, action.step, io, at);
    }
    case "startRecovery": {
      const a = state.agents[action.agent];
      const plan = a.pendingRecovery!;
      const step = a.steps.findLast((st) => st.status === "failed")!.index;
      return done(await io.append([t.recoveryStarted(a, step, plan, "operator", `An operator chose "Apply recovery plan" (${plan.strategy}).`)]));
    }
    case "recoveryStep": {
      const a = state.agents[action.agent];
      const r = a.recovery!;
      const helper = helperSteps(r)[action.index];
      const st = a.steps[r.step];
      const def = agentDefinition(state.definition, a.name);
      const left = Math.min((a.startedAt ? Date.parse(a.startedAt) : io.now()) + def.timeoutMs - io.now(), phaseTimeLeft(state, io.now()));
      const call = { tool: helper.tool as ToolCallDefinition["tool"], args: helper.args };
      const { result, evidence } = await io.run(call, { state, idempotencyKey: recoveryStepKey(st.idempotencyKey, r.attemptNo, action.index), timeoutMs: Math.max(1, Math.min(RECOVERY_STEP_TIMEOUT_MS, left)), recovery: { index: action.index } });
      if (io.stopped()) return { outcome: "stopped", state, action };
      const ok = result.ok && evidence.every((e) => e.passed);
      const error: ToolError | null = ok ? null : result.ok ? { code: "VALIDATION_FAILED", message: `The helper step returned ok but its evidence did not hold. ${describeFailedEvidence(evidence)}` } : result.error;
      const events: Array<NewMissionEvent | ((s: MissionState) => NewMissionEvent | null)> = [t.recoveryStep(a, action.index, helper, { ok, error, output: ok ? summarize(result.data) : null })];
      if (!ok) {
        events.push((s) => t.recoveryFinished(s.agents[a.name], "failed", `Helper step ${action.index + 1} of ${r.strategy} (${helper.action}) failed: ${error!.code}: ${error!.message}`));
        // The step's failure is what it was; what follows it is decided again, without this strategy.
        const next = await planAfterFailure(preview(state, events, io), a.name, r.step, st.error!, null, io);
        events.push(...next.events);
        if (!next.recovering) events.push(...respondEvents(a.name, r.step, st.error!, next.choice, io, at));
      }
      return done(await io.append(events));
    }
    case "respond":
      return done(await io.append([t.failureResponse(state, action.agent, io.newId(), at())]));
    case "libraryGate":
      return done(await io.append([t.gateOpened(io.newId(), libraryGate(state, action.agent, action.stage, at()), `The failure-mode library's walk of "${action.agent}" needs an operator (${action.stage}).`)]));
    case "libraryRecord": {
      const a = state.agents[action.agent];
      const d = a.library!.decision!;
      if (d.stage === "resolution") return done(await io.append([t.libraryResolution(a, { by: "operator", ok: d.decision === "done", evidence: null, call: null, output: null })]));
      return done(await io.append([t.libraryProbe(a, { by: "operator", verdict: d.decision === "confirm" ? "confirmed" : d.decision === "reject" ? "rejected" : "skipped", evidence: null, call: null, output: null })]));
    }
    case "libraryProbe":
    case "libraryResolve": {
      const a = state.agents[action.agent];
      const w = a.library!;
      const h = w.hypotheses[w.current];
      const probe = action.kind === "libraryProbe";
      const action_ = probe ? h.probe_action! : h.resolution_action!;
      const sub = substituteAction(action_, failureContext(state, a, w.step));
      if ("missing" in sub) throw new Error(`nextAction chose ${action.kind} for ${h.failure_id} whose action needs ${sub.missing.join(", ")}`);
      const call = { tool: sub.call.tool, args: sub.call.args };
      const key = `${a.steps[w.step].idempotencyKey}/library/${w.seq}/${w.current}/${probe ? "probe" : "resolution"}`;
      const { result } = await io.run(call, { state, idempotencyKey: key, timeoutMs: Math.max(1, Math.min(LIBRARY_ACTION_TIMEOUT_MS, phaseTimeLeft(state, io.now()))), library: { kind: probe ? "probe" : "resolution" } });
      if (io.stopped()) return { outcome: "stopped", state, action };
      const check = "confirm_when" in sub.call ? sub.call.confirm_when : sub.call.expect;
      const { verdict, evidence } = actionVerdict(check, result);
      const output = summarize((result.ok ? result.data : result.data ?? { stdout: result.error.stdout ?? result.error.message }) as Record<string, unknown>);
      if (probe) return done(await io.append([t.libraryProbe(a, { by: "action", verdict, evidence, call, output })]));
      return done(await io.append([t.libraryResolution(a, { by: "action", ok: verdict === "confirmed", evidence, call, output })]));
    }
    case "libraryExhausted": {
      const a = state.agents[action.agent];
      const w = a.library!;
      const index = w.step;
      const error = a.steps[index].error!;
      const info = exhaustedInfo(w);
      return done(
        await io.append([
          t.libraryExhausted(a),
          (s) => t.agentFailed(a.name, s.agents[a.name].attempt, toAgentError(error, stepDefinitionOf(s, a.name, index), index)),
          (s) => t.failureResponse(s, a.name, io.newId(), at(), { plan: null, note: "The failure-mode library's hypotheses were exhausted: an operator decides (flagged for investigation)." }, info),
        ]),
      );
    }
    case "failPhase":
      return done(await io.append([t.phaseFailed(action.phase, "agents_failed", `${action.failed} of ${action.total} agents of ${action.phase} failed (more than half).`)]));
    case "respondPhase":
      return done(await io.append([t.gateOpened(io.newId(), phaseGate(state, at()), `${action.phase} failed.`)]));
    case "completePhase":
      return done(await io.append([t.phaseCompleted(state, action.phase)]));
    case "compensate": {
      const c = action.compensation;
      const call = stepDefinitionOf(state, c.agent, c.step, c.attempt).compensate!;
      // A compensation interrupted by a crash is run again: compensations are idempotent by key.
      const s1 = c.status === "pending" ? await io.append([t.compensationStarted(state.id, c.agent, c.attempt, c.step)]) : state;
      const { result, evidence } = await io.run(call, { state: s1, idempotencyKey: c.idempotencyKey, timeoutMs: call.timeoutMs ?? 60_000 });
      if (io.stopped()) return { outcome: "stopped", state: s1, action };
      const passed = result.ok && evidence.length > 0 && evidence.every((r) => r.passed);
      const error: ToolError = result.ok ? { code: "VALIDATION_FAILED", message: "The compensation returned ok but its evidence did not hold." } : result.error;
      return done(await io.append([passed ? t.compensationSucceeded(c.agent, c.attempt, c.step, evidence) : t.compensationFailed(c.agent, c.attempt, c.step, error)]));
    }
    case "checkObjective": {
      const evidence: EvidenceRecord[] = [];
      for (const [i, call] of state.definition.objectiveChecks.entries()) {
        const { result, evidence: ev } = await io.run(call, { state, idempotencyKey: `${state.id}/objective/${i}`, timeoutMs: call.timeoutMs ?? 60_000 });
        if (io.stopped()) return { outcome: "stopped", state, action };
        evidence.push(...(ev.length ? ev : [{ check: "objective", expected: "ok", actual: result.error?.message ?? "ok", passed: false }]));
      }
      return done(await io.append([t.objectiveChecked(evidence.every((e) => e.passed), evidence)]));
    }
    case "finish":
      return done(await io.append([t.missionFinished(state)]));
  }

  function done(s: MissionState) {
    return { outcome: "progress" as const, state: s, action };
  }
}

/**
 * Runs a step whose start (or re-run) is recorded, and records its result with the failure response. A
 * success that the same agent's next scripted step follows starts that step in the same transaction (one
 * transaction a step, issue 19), which then runs here too.
 */
async function executeStep(state: MissionState, agentName: string, index: number, io: EngineIO, at: () => string): Promise<{ outcome: StepOutcome; state: MissionState; action: NextAction }> {
  let r = await runStartedStep(state, agentName, index, io, at);
  while (r.chained !== undefined) r = await runStartedStep(r.state, agentName, r.chained, io, at);
  return r;
}

/**
 * The start of the agent's next step, written with the success of the one before — exactly when the next
 * transition would start it: on the state at commit (an operator's pause or abort, a gate, anyone's event
 * recorded meanwhile is in it) the canonical next action is to continue this agent, its next step is a
 * scripted one (a high-risk step asks for approval instead) and the phase has time left.
 */
function chainedStart(agentName: string, now: number): (s: MissionState) => NewMissionEvent | null {
  return (s) => {
    const next = nextAction(s);
    if (next.kind !== "continueAgent" || next.agent !== agentName || phaseTimeLeft(s, now) <= 0) return null;
    const a = s.agents[agentName];
    const def = agentDefinition(s.definition, agentName);
    const index = a.steps.length;
    if (proposes(def) || index >= def.steps.length) return null;
    return t.stepStarted(s.id, a.name, a.attempt, index, def.steps[index].tool, stepLabel(def.steps[index], index));
  };
}

async function runStartedStep(state: MissionState, agentName: string, index: number, io: EngineIO, at: () => string): Promise<{ outcome: StepOutcome; state: MissionState; action: NextAction; chained?: number }> {
  const action: NextAction = { kind: "continueAgent", agent: agentName };
  const a = state.agents[agentName];
  const def = agentDefinition(state.definition, agentName);
  const step = stepDefinitionOf(state, agentName, index);
  const label = stepLabel(step, index);
  const agentLeft = (a.startedAt ? Date.parse(a.startedAt) : io.now()) + def.timeoutMs - io.now();
  const phaseLeft = phaseTimeLeft(state, io.now());
  // A recovery's re-run may change the call's arguments and time limit (the plan's `retry` step).
  const recovering = a.recovery?.step === index ? a.recovery : null;
  // A library resolution's verification: the step's own evidence decides whether the hypothesis resolved it.
  const walking = a.library?.step === index && a.library.stage === "rerun" ? a.library : null;
  const over = recovering ? rerunOverrides(recovering) : { args: {}, timeoutFactor: 1 };
  const call = Object.keys(over.args).length ? { ...step, args: { ...step.args, ...over.args } } : step;
  const timeoutMs = Math.max(1, Math.min((step.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS) * over.timeoutFactor, agentLeft, phaseLeft));
  const { result, evidence } = await io.run(call, { state, idempotencyKey: a.steps[index].idempotencyKey, timeoutMs });
  // Shutdown or lease loss mid-step: record nothing; whoever holds the mission next sees it interrupted.
  if (io.stopped()) return { outcome: "stopped", state, action };
  if (result.ok && evidence.length > 0 && evidence.every((r) => r.passed)) {
    const succeeded = t.toolSucceeded(agentName, a.attempt, index, compact(result.data), evidence);
    const events: Array<NewMissionEvent | ((s: MissionState) => NewMissionEvent | null)> = [succeeded];
    if (recovering) events.push((s) => t.recoveryFinished(s.agents[agentName], "succeeded", `Step ${index + 1} of "${agentName}" passed its evidence after recovery ${recovering.strategy}.`));
    if (walking) events.push((s) => t.libraryResolved(s.agents[agentName], "resolved"));
    events.push(chainedStart(agentName, io.now()));
    const after = await io.append(events);
    const next = after.agents[agentName].steps[index + 1];
    return { outcome: "progress", state: after, action, chained: next?.status === "running" && after.agents[agentName].attempt === a.attempt ? index + 1 : undefined };
  }
  const now = io.now();
  const phaseExpired = phaseTimeLeft(state, now) <= 0;
  const agentExpired = (a.startedAt ? Date.parse(a.startedAt) : now) + def.timeoutMs <= now;
  let error: ToolError;
  if (result.ok) error = { code: "VALIDATION_FAILED", message: `${label} returned ok, but its evidence did not hold. ${describeFailedEvidence(evidence)}` };
  else if (result.error.code === "TIMEOUT" && (phaseExpired || agentExpired))
    error = { ...result.error, message: phaseExpired ? `${state.phase} reached its timeout during ${label}. ${result.error.message}` : `Agent "${agentName}" exceeded its ${def.timeoutMs} ms timeout during ${label}. ${result.error.message}` };
  else error = result.error;
  const events: Array<NewMissionEvent | ((s: MissionState) => NewMissionEvent | null)> = [t.toolFailed(agentName, a.attempt, index, error, evidence)];
  if (recovering) events.push((s) => t.recoveryFinished(s.agents[agentName], "failed", `Step ${index + 1} of "${agentName}" failed again after recovery ${recovering.strategy} (${error.code}: ${error.message.split("\n")[0]}).`));
  if (walking) {
    // The hypothesis did not resolve the failure: this failure is diagnosed too, then the walk goes on (no new query, no recovery).
    if (io.diagnosis?.enabled) events.push(...(await planAfterFailure(preview(state, events, io), agentName, index, error, result.data, io, { diagnose: true, noRecovery: true })).events);
    events.push((s) => t.libraryResolved(s.agents[agentName], "unresolved", error));
    if (!phaseExpired) return { outcome: "progress", state: await io.append(events), action };
  }
  if (phaseExpired && !allProvidersFailed(error)) {
    if (io.diagnosis?.enabled && !walking) events.push(...(await planAfterFailure(preview(state, events, io), agentName, index, error, result.data, io, { diagnose: true, noRecovery: true })).events);
    const limit = state.definition.phases.find((p) => p.name === state.phase)?.timeoutMs;
    events.push(t.agentFailed(agentName, a.attempt, toAgentError(error, step, index)));
    events.push(t.phaseFailed(a.phase, "timeout", `${a.phase} ran longer than its ${limit} ms timeout (during ${label} of "${agentName}").`));
    return { outcome: "progress", state: await io.append(events), action };
  }
  const next = await planAfterFailure(preview(state, events, io), agentName, index, error, result.data, io, { diagnose: true });
  events.push(...next.events);
  if (!next.recovering) events.push(...respondEvents(agentName, index, error, next.choice, io, at));
  return { outcome: "progress", state: await io.append(events), action };
}

/** An agent stops without a failed step (a structural reason, or its model unavailable): the response matrix answers. */
function stopEvents(a: AgentState, error: AgentError, io: EngineIO, at: () => string): Array<NewMissionEvent | ((s: MissionState) => NewMissionEvent | null)> {
  return [t.agentFailed(a.name, a.attempt, error), (s) => t.failureResponse(s, a.name, io.newId(), at())];
}

/**
 * One turn of an autonomous agent (seed 002): the model chooses an action; it becomes a proposal; the one
 * authority decides it in the same transaction (approved, rejected with a FailureReason and counterfactual,
 * or pending with a HITL prompt and a gate). A model that answers with text only proposes `finish`: its
 * words are a claim, and only the evidence decides (FP-5).
 */
async function proposeNext(state: MissionState, agentName: string, io: EngineIO, at: () => string): Promise<Array<NewMissionEvent | ((s: MissionState) => NewMissionEvent | null)>> {
  const a = state.agents[agentName];
  const def = agentDefinition(state.definition, agentName);
  const auto = def.autonomous!;
  const left = Math.min((a.startedAt ? Date.parse(a.startedAt) : io.now()) + def.timeoutMs - io.now(), phaseTimeLeft(state, io.now()));
  if (left <= 0) return stopEvents(a, structuralError(a, "TIMEOUT", `"${agentName}" reached its ${def.timeoutMs} ms time limit after ${a.autonomous?.actions ?? 0} proposal(s) without an approved finish.`), io, at);
  if (!io.think) {
    const message = `"${agentName}" is autonomous: a model chooses its actions, and no LLM provider is configured. Set FAULTLINE_LLM_PROVIDERS (a JSON array of OpenAI-compatible providers) and restart the worker, or give the agent scripted steps.`;
    return stopEvents(a, structuralError(a, null, message, { code: "NOT_FOUND", message, details: { noProvidersConfigured: true } }, "PROVIDER_ERROR"), io, at);
  }
  const turn = await io.think(state, agentName, { timeoutMs: left });
  if (!turn.ok) return stopEvents(a, { ...toAgentError(turn.error, { tool: "llm", args: {}, highRisk: false }, a.steps.length), context: { step: a.steps.length, stepName: "choosing its next action", tool: "model", toolError: turn.error }, failureReason: null }, io, at);
  await io.ensureActor?.(turn.actor);
  const call = turn.call ?? { id: null, name: FINISH, args: { summary: turn.text }, argsError: null };
  const proposalId = io.newId();
  const level = missionLevel(state.definition).effective;
  const digest = argsDigest(call.args);
  const evidence = call.name === FINISH && auto.evidence.length ? ((await io.checkEvidence?.(state, agentName, auto.evidence)) ?? []) : undefined;
  const rejectedDigests = attemptProposals(state, a).filter((p) => p.status === "rejected").map((p) => p.argsDigest);
  const record: DecisionRecord = decide({
    proposal: { id: proposalId, actorId: turn.actor.actorId, agent: agentName, action: { tool: call.name, args: call.args }, argsDigest: digest },
    level,
    rules: state.definition.rules,
    defaultPolicy: (await io.authority?.defaultPolicy()) ?? [],
    allowedTools: auto.tools,
    allowedBinaries: io.allowedBinaries?.(state) ?? allowedBinariesOf(state),
    workspace: io.authority?.workspace?.(state),
    observations: evidence ? { evidence } : undefined,
    history: { rejectedDigests },
    now: io.now(),
    approvalTtlMs: io.authority?.approvalTtlMs ?? DEFAULT_APPROVAL_TTL_MS,
    argsProblem: call.argsError ?? actionArgsProblem(call.name, call.args),
  });
  const events: Array<NewMissionEvent | ((s: MissionState) => NewMissionEvent | null)> = [
    t.proposalSubmitted({ proposalId, actorId: turn.actor.actorId, agent: agentName, attempt: a.attempt, action: { tool: call.name, args: call.args }, argsDigest: digest, level, callId: call.id, model: turn.model }),
    (s) => t.proposalDecided(proposalId, record, { ...(evidence ? { evidence } : {}), ...(record.decision === "pending" ? { prompt: buildPrompt(s, s.proposals.find((p) => p.id === proposalId)!, record) } : {}) }),
  ];
  if (record.decision === "pending") {
    events.push((s) => {
      const p = s.proposals.find((x) => x.id === proposalId)!;
      const prompt = buildPrompt(s, p, record);
      return t.gateOpened(io.newId(), proposalGate(s, p, record, prompt, at()), call.name === ASK ? `"${agentName}" asked a question.` : `The authority holds the proposal for a decision (${record.pendingReason}).`);
    });
  }
  return events;
}

/** A proposal that waited on a gate (GATE_OPEN), decided now that the gate is closed (issue 15). */
async function redecide(state: MissionState, proposalId: string, io: EngineIO, at: () => string): Promise<Array<NewMissionEvent | ((s: MissionState) => NewMissionEvent | null)>> {
  const p = state.proposals.find((x) => x.id === proposalId)!;
  const now = io.now();
  const ended = endedRecord(state, p, now);
  if (ended) return externalDecisionEvents(p, ended, { newId: () => io.newId(), at: at() });
  const evidence = p.action.tool === FINISH ? finishEvidence(state, p.agent, (await io.externalResults?.(state, p.agent)) ?? []) : undefined;
  const rejectedDigests = attemptProposals(state, state.agents[p.agent]).filter((x) => x.status === "rejected").map((x) => x.argsDigest);
  const record = decideExternal(state, p, { defaultPolicy: (await io.authority?.defaultPolicy()) ?? [], now, approvalTtlMs: io.authority?.approvalTtlMs, evidence, rejectedDigests });
  return externalDecisionEvents(p, record, { evidence, newId: () => io.newId(), at: at() });
}

/** Default time limit of a step that declares none (a recovery may scale it). */
const DEFAULT_STEP_TIMEOUT_MS = 60_000;
/** Time limit of one recovery helper step. */
const RECOVERY_STEP_TIMEOUT_MS = 60_000;

/** The agent fails and the response matrix answers (warning or gate), with the recovery plan offered when there is one. */
function respondEvents(agentName: string, index: number, error: ToolError, choice: RecoveryChoice | null, io: EngineIO, at: () => string): Array<(s: MissionState) => NewMissionEvent | null> {
  return [
    (s) => {
      const a = s.agents[agentName];
      return t.agentFailed(agentName, a.attempt, toAgentError(error, stepDefinitionOf(s, agentName, index), index));
    },
    (s) => t.failureResponse(s, agentName, io.newId(), at(), { plan: choice?.plan ?? null, note: choice ? choice.reason : null }),
  ];
}

/**
 * ADR-0003 after a failure of step `index`: the "5 whys" diagnosis (when `diagnose`), the optional LLM
 * proposal, the stuck-loop check, and the recovery choice. Returns the events to record and whether a
 * recovery starts (then the agent keeps running); otherwise the caller records the agent's failure and
 * the response, with `choice.plan` offered at the gate.
 */
async function planAfterFailure(
  state: MissionState,
  agentName: string,
  index: number,
  error: ToolError,
  data: Record<string, unknown> | null,
  io: EngineIO,
  opts: { diagnose?: boolean; noRecovery?: boolean; external?: boolean } = {},
): Promise<{ events: NewMissionEvent[]; recovering: boolean; choice: RecoveryChoice | null }> {
  const events: NewMissionEvent[] = [];
  const a = state.agents[agentName];
  // Reported once, when the count reaches the threshold (later repeats are already known).
  const loop = stuckLoop(a);
  if (loop && opts.diagnose && loop.count === STUCK_LOOP_REPEATS) events.push(t.loopDetected(a, index, loop));
  if (!io.diagnosis?.enabled) return { events, recovering: false, choice: null };
  const step = stepDefinitionOf(state, agentName, index);
  const input = await inputContext(state, agentName, index, error, data, io);
  const tried = a.recoveries.filter((r) => r.step === index).map((r) => r.strategy);
  const settings = { whyDepth: io.diagnosis.whyDepth, maxRecoveryAttempts: io.diagnosis.maxRecoveryAttempts };
  const started = io.now();
  // Full reflection, unless a trusted learned pattern decides the strategy (the fast path).
  // Ids from the IO's readings (not drawn inside the diagnosis): a replay gives the diagnosis the id it had.
  const diagnosedAt = io.now();
  const analysis = analyseFailure(input, settings); // classified once for the diagnosis, its candidates and a re-plan
  let d = diagnose(analysis, { ...settings, now: diagnosedAt, exclude: tried, id: `diag_${ulidFrom(diagnosedAt, io.newId())}` });
  const when = patternTrigger(d);
  const patterns = (await io.findPatterns?.(when)) ?? [];
  const candidates = recoveryCandidates(analysis, settings);
  const choose = (diag: Diagnosis) =>
    chooseRecovery({
      state,
      agent: a,
      step: index,
      stepDef: step,
      candidates,
      diagnosis: { id: diag.id, type: diag.errorClassification.type, severity: diag.errorClassification.severity, canRecover: diag.errorClassification.canRecover, rootCause: diag.rootCause.description },
      when,
      patterns,
      maxAttempts: io.diagnosis!.maxRecoveryAttempts,
      fastPath: io.diagnosis!.fastPath,
      allowedBinaries: io.allowedBinaries?.(state) ?? allowedBinariesOf(state),
    });
  // Every LLM provider down is an infrastructure failure: health checks pause and resume missions; no step-level recovery.
  let choice = opts.noRecovery || opts.external || allProvidersFailed(error) ? null : choose(d);
  if (choice?.plan && choice.plan.strategy !== d.recoveryPlan.strategy) {
    // The diagnosis's plan is the strategy that will run (or is offered): a learned pattern's, or the best runnable one.
    d = diagnose(analysis, { ...settings, now: io.now(), id: d.id, exclude: tried, prefer: choice.plan.strategy });
    choice = { ...choice, plan: { ...choice.plan, diagnosisId: d.id } };
  }
  if (opts.diagnose) {
    const log = diagnosticReflectionEvent(input, d, { id: ulidFrom(Date.parse(d.timestamp), io.newId()), convId: state.id, traceId: `${state.id}/${agentName}/${index}/${a.attempt}`, elapsedMs: io.now() - started, actor: "system" });
    events.push(t.diagnosticReflection(agentName, a.attempt, index, log, d));
    // The optional LLM reflection is skipped on the fast path: a trusted pattern already decided.
    if (io.reflect && !(choice?.auto && choice.plan?.source === "pattern")) {
      const proposal = await io.reflect(input, d);
      if (proposal) events.push(t.diagnosisProposal(agentName, a.attempt, index, d.id, proposal));
    }
  }
  // 000 Output Protocol: the library is consulted once per failure, after its diagnosis. Hypotheses → the walk
  // starts and the agent keeps running; an abstention → a novel failure with a draft, then ADR-0003 as before.
  // A binary refused by the allowlist has a known cause and its own remedy at the gate (allow_binary): no walk.
  if (opts.diagnose && !opts.noRecovery && !allProvidersFailed(error) && !refusedBinary(error) && io.library && state.definition.library !== false && !a.libraryConsulted.includes(index)) {
    const query = buildLibraryQuery(step, error, data, d);
    const found = await io.library(query, LIBRARY_HYPOTHESES);
    // An optional agent's failure never holds the mission: its hypotheses are recorded, not walked.
    const walked = a.priority !== "optional" && !opts.external;
    // Weak matches are listed, never probed: the walk covers only hypotheses likely enough to be the cause.
    const strong = found.hypotheses.filter((h) => h.match_score >= WEAK_MATCH_BELOW);
    const weak = found.hypotheses.filter((h) => h.match_score < WEAK_MATCH_BELOW);
    events.push(t.libraryHypotheses(a, index, query, { ...found, hypotheses: strong }, walked, weak));
    if (strong.length && walked) return { events, recovering: true, choice: null };
    if (!found.error && !found.hypotheses.length) {
      const physical = Boolean(query.force_applied) || !["shell", "http", "file", "llm"].some((x) => query.object_class?.startsWith(`${x}:`));
      const draft = noveltyDraft(query, error, d, { missionId: state.id, failedSeq: state.seq, physical });
      const note = choice?.auto && choice.plan ? `A conservative resolution runs under the mission's recovery policy "auto": ${choice.plan.strategy}.` : "No resolution is attempted automatically (the mission's recovery policy does not allow it here): an operator decides.";
      events.push(t.libraryNovel(a, index, state.seq, io.newId(), draft, note));
    }
  }
  if (!choice?.auto || !choice.plan) return { events, recovering: false, choice };
  const plan = choice.plan;
  const contextLog =
    plan.source === "pattern"
      ? { id: io.newId(), ts: new Date(io.now()).toISOString(), actor: "system", act: "fast_path_recovery", conv_id: state.id, trace_id: `${state.id}/${agentName}/${index}/${a.attempt}`, iter: a.attempt, name: "learned_pattern", status: "ok", elapsed_ms: io.now() - started, metadata: { pattern_id: plan.pattern?.id ?? null, when: plan.when, then: plan.strategy, confidence: plan.pattern?.confidence ?? null }, result_preview: `Pattern ${plan.when} → ${plan.strategy}` }
      : undefined;
  events.push(t.recoveryStarted(a, index, plan, "auto", choice.reason, contextLog));
  return { events, recovering: true, choice };
}

/** The state the given events would lead to (the reducer is pure), to decide what follows them in the same transaction. */
function preview(state: MissionState, events: ReadonlyArray<NewMissionEvent | ((s: MissionState) => NewMissionEvent | null)>, io: EngineIO): MissionState {
  let s = state;
  for (const item of events) {
    const e = typeof item === "function" ? item(s) : item;
    if (e) s = applyEvent(s, { ...e, missionId: s.id, seq: s.seq + 1, actorId: "preview", at: new Date(io.now()).toISOString() } as MissionEvent);
  }
  return s;
}

/** A short, bounded summary of a helper step's output for the timeline. */
function summarize(data: Record<string, unknown>): string | null {
  const text = typeof data.stdout === "string" ? data.stdout : typeof data.body === "string" ? data.body : typeof data.status === "number" ? `HTTP ${data.status}` : JSON.stringify(data);
  const trimmed = text.trim();
  return trimmed ? (trimmed.length > 500 ? `${trimmed.slice(0, 500)}…` : trimmed) : null;
}


/** Largest string kept per field of a tool's data in the event log. */
const MAX_FIELD = 4096;

/** Keeps event payloads small: long strings are cut, with a marker saying so. */
function compact(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    if (typeof v === "string" && v.length > MAX_FIELD) out[k] = `${v.slice(0, MAX_FIELD)}… [${v.length - MAX_FIELD} more characters not kept]`;
    else if (v !== null && typeof v === "object" && JSON.stringify(v).length > MAX_FIELD * 4) out[k] = `[${k}: ${JSON.stringify(v).length} characters not kept]`;
    else out[k] = v;
  }
  return out;
}

/** ADR-0003 Input Context of a failed step: the failure and what the agent had around it. */
async function inputContext(state: MissionState, agentName: string, index: number, error: ToolError, data: Record<string, unknown> | null, io: EngineIO): Promise<InputContext> {
  const a = state.agents[agentName];
  const step = stepDefinitionOf(state, agentName, index);
  const previousActions = state.completedSteps.slice(-3).map((c) => {
    const s = stepDefinitionOf(state, c.agent, c.step, c.attempt);
    return { tool: s.tool, args: s.args, result: "ok", success: true };
  });
  return inputContextFromToolError(
    { tool: step.tool, args: step.args, error, data },
    {
      iteration: a.attempt,
      previousActions,
      availableTools: [...TOOL_NAMES],
      workspaceState: (await io.workspaceState?.(state)) ?? { files: [], directories: [] },
      taskGoal: state.definition.objective,
    },
  );
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * A ULID made from a clock reading and an id drawn through the IO (rather than drawn inside the diagnosis):
 * the same readings give the same ULID, so a replayed diagnosis carries the id the recorded one did (lib/trace).
 */
function ulidFrom(now: number, seed: string): string {
  const bytes = createHash("sha256").update(seed).digest();
  let random = "";
  for (let i = 0; i < 16; i++) random += CROCKFORD[bytes[i] & 31];
  return `${encodeTime(Math.max(0, Math.floor(now)), 10)}${random}`;
}
