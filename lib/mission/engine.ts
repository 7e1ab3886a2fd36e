import { describeFailedEvidence } from "../tools/evidence";
import { diagnose } from "../diagnosis/diagnose";
import { diagnosticReflectionEvent } from "../diagnosis/context-log";
import { inputContextFromToolError } from "../diagnosis/from-tool-error";
import type { ToolError, ToolResult } from "../tools/result";
import { agentDefinition, TOOL_NAMES, type StepDefinition, type ToolCallDefinition } from "./definition";
import type { NewMissionEvent } from "./events";
import { allProvidersFailed, approvalGate, phaseGate, recoveryGate, stepLabel, toAgentError } from "./failure";
import { nextAction, phaseTimeLeft, type NextAction } from "./next-action";
import * as t from "./transitions";
import type { EvidenceRecord, MissionState } from "./types";

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
  run(call: StepDefinition | ToolCallDefinition, ctx: { state: MissionState; idempotencyKey: string; timeoutMs: number }): Promise<{ result: ToolResult; evidence: EvidenceRecord[] }>;
  /** Whether a step may be re-run with the same idempotency key after a crash. */
  idempotent(step: StepDefinition): boolean;
  /** True when the run must stop at this boundary (shutdown, lease lost). */
  stopped(): boolean;
  /** ADR-0003 settings; without them no diagnosis is recorded. */
  diagnosis?: { enabled: boolean; whyDepth: number; maxRecoveryAttempts: number };
  /** Files and directories of the mission's workspace, for the diagnosis's input context. */
  workspaceState?(state: MissionState): Promise<{ files: string[]; directories: string[] }>;
}

export type StepOutcome = "progress" | "waiting" | "terminal" | "stopped";

/** Performs the next transition(s) of the mission. */
export async function advance(state: MissionState, io: EngineIO): Promise<{ outcome: StepOutcome; state: MissionState; action: NextAction }> {
  const action = nextAction(state);
  const at = () => new Date(io.now()).toISOString();
  if (action.kind === "none") return { outcome: "terminal", state, action };
  if (action.kind === "wait") return { outcome: "waiting", state, action };
  if (io.stopped()) return { outcome: "stopped", state, action };
  // A phase past its timeout fails before any more of its work starts.
  if (["runAgent", "continueAgent", "requestApproval", "rerunStep"].includes(action.kind) && phaseTimeLeft(state, io.now()) <= 0) {
    const limit = state.definition.phases.find((p) => p.name === state.phase)?.timeoutMs;
    return { outcome: "progress", state: await io.append([t.phaseFailed(state.phase as never, "timeout", `${state.phase} ran longer than its ${limit} ms timeout.`)]), action };
  }
  switch (action.kind) {
    case "startPhase":
      return done(await io.append([t.phaseStarted(action.phase, state.phase === "MISSION_STARTED" ? "The mission start" : state.phase)]));
    case "runAgent": {
      const a = state.agents[action.agent];
      return done(await io.append([t.agentStarted(a.name, a.attempt + 1)]));
    }
    case "continueAgent": {
      const a = state.agents[action.agent];
      const def = agentDefinition(state.definition, a.name);
      const index = a.steps.length;
      if (index >= def.steps.length) return done(await io.append([t.agentCompleted(a.name, a.attempt, def.steps.length)]));
      const started = await io.append([t.stepStarted(state.id, a.name, a.attempt, index, def.steps[index].tool, stepLabel(def.steps[index], index))]);
      return executeStep(started, action.agent, index, io, at);
    }
    case "requestApproval":
      return done(await io.append([t.gateOpened(io.newId(), approvalGate(state, action.agent, action.step, at()), `Step ${action.step + 1} of "${action.agent}" is high-risk.`)]));
    case "interrupted": {
      const a = state.agents[action.agent];
      const def = agentDefinition(state.definition, a.name);
      const st = a.steps[action.step];
      if (st.status === "running" && io.idempotent(def.steps[action.step])) {
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
    case "rerunStep": {
      const a = state.agents[action.agent];
      const rerun = await io.append([t.stepRerun(a.name, a.attempt, action.step, a.steps[action.step].idempotencyKey, "operator")]);
      return executeStep(rerun, a.name, action.step, io, at);
    }
    case "respond":
      return done(await io.append([t.failureResponse(state, action.agent, io.newId(), at())]));
    case "failPhase":
      return done(await io.append([t.phaseFailed(action.phase, "agents_failed", `${action.failed} of ${action.total} agents of ${action.phase} failed (more than half).`)]));
    case "respondPhase":
      return done(await io.append([t.gateOpened(io.newId(), phaseGate(state, at()), `${action.phase} failed.`)]));
    case "completePhase":
      return done(await io.append([t.phaseCompleted(state, action.phase)]));
    case "compensate": {
      const c = action.compensation;
      const call = agentDefinition(state.definition, c.agent).steps[c.step].compensate!;
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

/** Runs a step whose start (or re-run) is recorded, and records its result with the failure response. */
async function executeStep(state: MissionState, agentName: string, index: number, io: EngineIO, at: () => string): Promise<{ outcome: StepOutcome; state: MissionState; action: NextAction }> {
  const action: NextAction = { kind: "continueAgent", agent: agentName };
  const a = state.agents[agentName];
  const def = agentDefinition(state.definition, agentName);
  const step = def.steps[index];
  const label = stepLabel(step, index);
  const agentLeft = (a.startedAt ? Date.parse(a.startedAt) : io.now()) + def.timeoutMs - io.now();
  const phaseLeft = phaseTimeLeft(state, io.now());
  const timeoutMs = Math.max(1, Math.min(step.timeoutMs ?? Infinity, agentLeft, phaseLeft));
  const { result, evidence } = await io.run(step, { state, idempotencyKey: a.steps[index].idempotencyKey, timeoutMs });
  // Shutdown or lease loss mid-step: record nothing; whoever holds the mission next sees it interrupted.
  if (io.stopped()) return { outcome: "stopped", state, action };
  if (result.ok && evidence.length > 0 && evidence.every((r) => r.passed)) {
    return { outcome: "progress", state: await io.append([t.toolSucceeded(agentName, a.attempt, index, compact(result.data), evidence)]), action };
  }
  const now = io.now();
  const phaseExpired = phaseTimeLeft(state, now) <= 0;
  const agentExpired = (a.startedAt ? Date.parse(a.startedAt) : now) + def.timeoutMs <= now;
  let error: ToolError;
  if (result.ok) error = { code: "VALIDATION_FAILED", message: `${label} returned ok, but its evidence did not hold. ${describeFailedEvidence(evidence)}` };
  else if (result.error.code === "TIMEOUT" && (phaseExpired || agentExpired))
    error = { ...result.error, message: phaseExpired ? `${state.phase} reached its timeout during ${label}. ${result.error.message}` : `Agent "${agentName}" exceeded its ${def.timeoutMs} ms timeout during ${label}. ${result.error.message}` };
  else error = result.error;
  const events: Array<NewMissionEvent | ((s: MissionState) => NewMissionEvent)> = [t.toolFailed(agentName, a.attempt, index, error, evidence)];
  if (io.diagnosis?.enabled) events.push(await diagnosisEvent(state, agentName, index, error, result.data, io));
  events.push(t.agentFailed(agentName, a.attempt, toAgentError(error, step, index)));
  if (phaseExpired && !allProvidersFailed(error)) {
    const limit = state.definition.phases.find((p) => p.name === state.phase)?.timeoutMs;
    events.push(t.phaseFailed(a.phase, "timeout", `${a.phase} ran longer than its ${limit} ms timeout (during ${label} of "${agentName}").`));
  } else events.push((s) => t.failureResponse(s, agentName, io.newId(), at()));
  return { outcome: "progress", state: await io.append(events), action };
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

/** ADR-0003: the "5 whys" diagnosis of a failed step, with its ContextLog record. Pure given the IO's clock. */
async function diagnosisEvent(state: MissionState, agentName: string, index: number, error: ToolError, data: Record<string, unknown> | null, io: EngineIO): Promise<NewMissionEvent> {
  const started = io.now();
  const a = state.agents[agentName];
  const step = agentDefinition(state.definition, agentName).steps[index];
  const previousActions = state.completedSteps.slice(-3).map((c) => {
    const s = agentDefinition(state.definition, c.agent).steps[c.step];
    return { tool: s.tool, args: s.args, result: "ok", success: true };
  });
  const input = inputContextFromToolError(
    { tool: step.tool, args: step.args, error, data },
    {
      iteration: a.attempt,
      previousActions,
      availableTools: [...TOOL_NAMES],
      workspaceState: (await io.workspaceState?.(state)) ?? { files: [], directories: [] },
      taskGoal: state.definition.objective,
    },
  );
  const d = diagnose(input, { whyDepth: io.diagnosis!.whyDepth, now: io.now(), maxRecoveryAttempts: io.diagnosis!.maxRecoveryAttempts });
  const log = diagnosticReflectionEvent(input, d, { convId: state.id, traceId: `${state.id}/${agentName}/${index}/${a.attempt}`, elapsedMs: io.now() - started, actor: "system" });
  return t.diagnosticReflection(agentName, a.attempt, index, log, d);
}
