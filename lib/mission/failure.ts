import type { UserFacingError } from "../errors";
import { allowedBinariesOf, refusedBinary, stepDefinitionOf } from "./steps";
import { ruleVerdict } from "../authority/authority";
import { canonicalJson } from "../authority/digest";
import type { Rule } from "../authority/rules";
import type { HITLPrompt } from "../authority/types";
import type { ToolError } from "../tools/result";
import { agentDefinition, phaseDefinition, type Phase, type Priority, type StepDefinition } from "./definition";
import { hasValidEvidence } from "./status";
import { stuckLoop, type RecoveryPlan } from "./recovery";
import { failureContext, resolutionRunsItself, substituteAction, type LibraryGateInfo, type LibraryGateStage, type LibraryWalk } from "./library";
import { AGENT_ERROR_CODES, type AgentError, type AgentErrorCode, type AgentState, type DiagnosisSummary, type GateDecision, type GateError, type GateKind, type GateOption, type MissionState } from "./types";

/** How a specific tool failure maps onto FAILURE_MODEL's agent error codes, and whether a retry can help. */
const TOOL_TO_AGENT: Record<ToolError["code"], { code: AgentErrorCode; recoverable: boolean }> = {
  TIMEOUT: { code: "TIMEOUT", recoverable: true },
  RATE_LIMITED: { code: "RATE_LIMIT_EXCEEDED", recoverable: true },
  CONNECTION_REFUSED: { code: "PROVIDER_ERROR", recoverable: true },
  NETWORK_ERROR: { code: "PROVIDER_ERROR", recoverable: true },
  HTTP_ERROR: { code: "PROVIDER_ERROR", recoverable: true }, // refined by status below
  EXIT_NONZERO: { code: "INTERNAL_ERROR", recoverable: true },
  KILLED: { code: "INTERNAL_ERROR", recoverable: true },
  INTERRUPTED: { code: "INTERNAL_ERROR", recoverable: true },
  OUTPUT_TOO_LARGE: { code: "INVALID_OUTPUT", recoverable: false },
  VALIDATION_FAILED: { code: "VALIDATION_FAILED", recoverable: false },
  COMMAND_NOT_FOUND: { code: "INTERNAL_ERROR", recoverable: false },
  NOT_ALLOWED: { code: "INTERNAL_ERROR", recoverable: false },
  PERMISSION_DENIED: { code: "INTERNAL_ERROR", recoverable: false },
  NOT_FOUND: { code: "INTERNAL_ERROR", recoverable: false },
  INVALID_ARGS: { code: "INTERNAL_ERROR", recoverable: false },
  UNKNOWN_TOOL: { code: "INTERNAL_ERROR", recoverable: false },
  INTERNAL_ERROR: { code: "INTERNAL_ERROR", recoverable: false },
};

/**
 * A tool call in one readable line, without the tool's name: `node -e …`, `GET http://…`, `write out.txt`,
 * `"Summarise…"`; for a recovery's `retry` pseudo-step, the changes it makes to the re-run. Null for a
 * tool it does not know.
 */
export function describeCall(tool: string, args: Record<string, unknown>): string | null {
  const a = args as { command?: unknown; args?: unknown; url?: unknown; method?: unknown; op?: unknown; path?: unknown; prompt?: unknown };
  if (tool === "shell") return [a.command, ...(Array.isArray(a.args) ? a.args : [])].join(" ").trim();
  if (tool === "http") return `${String(a.method ?? "GET")} ${String(a.url ?? "")}`;
  if (tool === "file") return `${String(a.op ?? "")} ${String(a.path ?? "")}`.trim();
  if (tool === "llm") return JSON.stringify(String(a.prompt ?? "").slice(0, 40));
  if (tool === "retry") {
    const { timeoutFactor, ...changes } = args;
    const parts = [...(typeof timeoutFactor === "number" ? [`time limit × ${timeoutFactor}`] : []), ...Object.entries(changes).map(([k, v]) => `${k} = ${JSON.stringify(v)}`)];
    return parts.length ? `re-run with ${parts.join(", ")}` : "re-run as is";
  }
  return null;
}

export function stepLabel(step: Pick<StepDefinition, "name" | "tool" | "args">, index: number): string {
  if (step.name) return step.name;
  const call = describeCall(step.tool, step.args as Record<string, unknown>);
  return call === null ? `${step.tool} step ${index + 1}` : `${step.tool} ${call}`.trim();
}

/** True when every configured LLM provider failed: an infrastructure failure, never silently absorbed. */
export function allProvidersFailed(e: ToolError | null | undefined): boolean {
  return Boolean(e?.details && (e.details as { allProvidersFailed?: unknown }).allProvidersFailed === true);
}

export function toAgentError(toolError: ToolError, step: StepDefinition, index: number): AgentError {
  let { code, recoverable } = TOOL_TO_AGENT[toolError.code];
  if (toolError.code === "HTTP_ERROR" && toolError.status !== undefined) {
    // 408 and 5xx are worth another try; other 4xx mean the request itself is wrong.
    recoverable = toolError.status === 408 || toolError.status >= 500;
  }
  // A tool that knows better (the llm client) says which agent code applies and whether a retry helps.
  const d = toolError.details as { agentErrorCode?: unknown; recoverable?: unknown } | undefined;
  if (typeof d?.agentErrorCode === "string" && (AGENT_ERROR_CODES as readonly string[]).includes(d.agentErrorCode)) code = d.agentErrorCode as AgentErrorCode;
  if (typeof d?.recoverable === "boolean") recoverable = d.recoverable;
  if (allProvidersFailed(toolError)) code = "PROVIDER_ERROR";
  return {
    code,
    message: toolError.message,
    recoverable,
    ...(toolError.retryAfterMs !== undefined ? { retryAfter: toolError.retryAfterMs } : {}),
    context: { step: index, stepName: stepLabel(step, index), tool: step.tool, toolError },
  };
}

/** FAILURE_MODEL priority response matrix. */
export type FailureResponse = { kind: "continue"; warning: string } | { kind: "gate"; options: GateOption[] };

export function respondToFailure(state: MissionState, agent: AgentState, recovery: RecoveryPlan | null = null): FailureResponse {
  const err = agent.error;
  if (!err) throw new Error(`respondToFailure: agent "${agent.name}" has no error`);
  // All providers down is an infrastructure failure: the mission pauses whatever the agent's priority.
  if (agent.priority === "optional" && !allProvidersFailed(err.context.toolError)) {
    return { kind: "continue", warning: `Optional agent "${agent.name}" failed (${err.code}: ${err.message}); the mission continues without it and can at best end PARTIAL_SUCCESS.` };
  }
  return { kind: "gate", options: agentGateOptions(state, agent, err, recovery) };
}

export const option = (action: GateDecision, key: string, label: string, description: string): GateOption => ({ action, key, label, description, recommended: false });

export function abortOption(state: MissionState): GateOption {
  const kept = state.agentOrder.filter((n) => hasValidEvidence(state.agents[n])).length;
  const comp = compensationsOnAbort(state);
  return option(
    "abort",
    "a",
    "Abort",
    `End the mission now as FAILED, keeping the results of ${kept} completed agent${kept === 1 ? "" : "s"}${comp ? `; ${comp} compensation${comp === 1 ? "" : "s"} will undo completed steps first` : ""}.`,
  );
}

function compensationsOnAbort(state: MissionState): number {
  return state.completedSteps.filter((c) => stepDefinitionOf(state, c.agent, c.step, c.attempt).compensate).length;
}

function recommend(options: GateOption[], action: GateDecision): GateOption[] {
  return options.map((o) => ({ ...o, recommended: o.action === action }));
}

function agentGateOptions(state: MissionState, agent: AgentState, err: AgentError, recovery: RecoveryPlan | null): GateOption[] {
  const phase = phaseDefinition(state.definition, agent.phase);
  const wait = err.retryAfter ? `Wait ${Math.ceil(err.retryAfter / 1000)} s, then run` : "Run";
  const loop = stuckLoop(agent);
  const retry = option(
    "retry",
    "r",
    "Retry",
    `${wait} "${agent.name}" again from its first step (attempt ${agent.attempt + 1}).${loop ? ` This exact action already failed the same way ${loop.count} times: a retry alone is unlikely to help.` : ""}`,
  );
  const skip = option(
    "skip",
    "s",
    "Skip",
    agent.priority === "critical"
      ? `Continue without "${agent.name}". It is critical: the mission can no longer end SUCCESS or PARTIAL_SUCCESS and will end FAILED.`
      : `Continue without "${agent.name}". The mission can at best end PARTIAL_SUCCESS.`,
  );
  const options: GateOption[] = agent.priority === "critical" || err.recoverable ? [retry, skip] : [skip];
  // A critical failure fails its phase (FAILURE_MODEL): offer the phase-level choices too where they differ.
  if (agent.priority === "critical" && phase.agents.length > 1) options.push(option("retry_phase", "p", "Retry phase", `Run every agent of ${agent.phase} again from the start.`));
  if (agent.priority === "critical" && phase.skippable) options.push(skipPhaseOption(state, agent.phase));
  options.push(abortOption(state));
  if (recovery) options.unshift(recoverOption(recovery));
  // A binary refused by the allowlist: the remedy is a decision (allow it here, checked by the authority), not a retry.
  const refused = refusedBinary(err.context.toolError);
  if (refused) {
    options.unshift(option("allow_binary", "l", `Allow ${refused} and retry`, `Allow "${refused}" for this mission only, then run "${agent.name}" again (attempt ${agent.attempt + 1}). The authority checks the step against the mission's rules and the default policy first: a rule that denies it refuses the allowance. The definition is not changed; the allowance is recorded with your name.`));
    return recommend(options, "allow_binary");
  }
  const fallback = agent.priority === "critical" ? "abort" : "skip";
  return recommend(options, recovery ? "recover" : err.recoverable && !loop ? "retry" : fallback);
}

/**
 * Whether a person may allow the binary a gate's failure was refused for (allow_binary): the authority
 * evaluates the refused step as if the binary were allowed, against the mission's rules and the default
 * policy. A deny rule refuses the allowance (a person cannot overrule it); hold and allow let the person's
 * decision stand, since a person is deciding.
 */
export function allowBinaryVerdict(state: MissionState, agentName: string, defaultPolicy: readonly Rule[]): { ok: true; binary: string; reason: string } | { ok: false; reason: string } {
  const agent = state.agents[agentName];
  const binary = refusedBinary(agent?.error?.context.toolError);
  if (!agent?.error || !binary) return { ok: false, reason: `Agent "${agentName}" did not fail on a binary refused by the allowlist, so there is nothing to allow.` };
  const step = stepDefinitionOf(state, agentName, agent.error.context.step);
  const action = { tool: step.tool, args: step.args as Record<string, unknown> };
  const v = ruleVerdict({ rules: state.definition.rules, defaultPolicy, allowedBinaries: [...allowedBinariesOf(state), binary], allowedTools: [step.tool] }, action);
  const call = describeCall(step.tool, action.args) ?? step.tool;
  if (v.effect === "deny") return { ok: false, reason: `The authority refuses to allow "${binary}": rule ${v.name} denies \`${call}\` (${v.reason.replace(/\.$/, "")}). A person cannot overrule a deny rule; choose another option, or ask an admin to change the rule.` };
  return { ok: true, binary, reason: v.effect === "none" ? `No rule denies \`${call}\`.` : `Rule ${v.name} (${v.effect}) applies to \`${call}\`; your decision stands.` };
}

/** ADR-0003 "Apply recovery plan": run the plan's helper steps, then the failed step again. */
function recoverOption(plan: RecoveryPlan): GateOption {
  const steps = plan.steps.map((s) => s.action.charAt(0).toLowerCase() + s.action.slice(1));
  const learned = plan.source === "pattern" && plan.pattern ? ` Learned pattern: ${plan.pattern.successes} success${plan.pattern.successes === 1 ? "" : "es"}, ${plan.pattern.failures} failure${plan.pattern.failures === 1 ? "" : "s"}.` : "";
  const name = plan.strategy.replaceAll("_", " ");
  return option("recover", "e", "Apply recovery plan", `${name.charAt(0).toUpperCase()}${name.slice(1)}: ${steps.join(", then ")}; the step's own evidence decides whether it worked.${learned}`);
}

function skipPhaseOption(state: MissionState, phase: Phase): GateOption {
  const critical = state.agentOrder.map((n) => state.agents[n]).some((a) => a.phase === phase && a.priority === "critical" && !hasValidEvidence(a));
  return option("skip_phase", "k", "Skip phase", `Continue with the next phase without finishing ${phase}.${critical ? " A critical agent would not complete: the mission will end FAILED." : " The mission can at best end PARTIAL_SUCCESS."}`);
}

/** FAILURE_MODEL "Failure Communication": what, why, options, technical. */
export function gateUserError(state: MissionState, agent: AgentState, options: GateOption[], at: string): UserFacingError {
  const err = agent.error!;
  const te = err.context.toolError;
  return {
    what: `Agent "${agent.name}" (${agent.priority}) failed at step ${err.context.step + 1}, ${err.context.stepName}, in ${agent.phase} on attempt ${agent.attempt}.`,
    why: te.message,
    options,
    technical: {
      code: te.code,
      agentErrorCode: err.code,
      recoverable: err.recoverable,
      timestamp: at,
      missionId: state.id,
      agentId: agent.name,
      step: `${err.context.step + 1}: ${err.context.stepName}`,
      ...(te.exitCode !== undefined && te.exitCode !== null ? { exitCode: te.exitCode } : {}),
      ...(te.signal ? { signal: te.signal } : {}),
      ...(te.status !== undefined ? { httpStatus: te.status } : {}),
      ...(te.errno ? { errno: te.errno } : {}),
      ...(te.stderr ? { stderr: te.stderr.slice(-2000) } : {}),
      ...(te.stdout ? { stdout: te.stdout.slice(-2000) } : {}),
    },
  };
}

export interface GateSpec {
  diagnosis?: DiagnosisSummary | null;
  recoveryPlan?: RecoveryPlan | null;
  recoveryNote?: string | null;
  kind: GateKind;
  agent: string;
  phase: Phase;
  step: number | null;
  options: GateOption[];
  error: GateError;
  /** A proposal gate: the pending proposal and its HITL prompt. */
  proposalId?: string | null;
  prompt?: HITLPrompt | null;
}

/** A failed phase (too many agents failed, or its timeout passed): retry phase, skip phase where allowed, abort. */
export function phaseGate(state: MissionState, at: string): GateSpec {
  const f = state.phaseFailure!;
  const def = phaseDefinition(state.definition, f.phase);
  const agents = state.agentOrder.map((n) => state.agents[n]).filter((a) => a.phase === f.phase);
  const options = [option("retry_phase", "r", "Retry phase", `Run every agent of ${f.phase} again from the start (the phase timeout restarts).`)];
  if (def.skippable) options.push(skipPhaseOption(state, f.phase));
  options.push(abortOption(state));
  // The gate and its UserFacingError show the same options, recommendation included.
  const offered = recommend(options, f.reason === "timeout" ? "retry_phase" : "abort");
  return {
    kind: "phase",
    agent: agents[0].name,
    phase: f.phase,
    step: null,
    options: offered,
    error: {
      what: `Phase ${f.phase} failed: ${f.reason === "timeout" ? "it ran past its timeout" : "more than half of its agents failed"}.`,
      why: f.message,
      options: offered,
      technical: {
        code: f.reason === "timeout" ? "PHASE_TIMEOUT" : "PHASE_AGENTS_FAILED",
        timestamp: at,
        missionId: state.id,
        phase: f.phase,
        agents: agents.map((a) => `${a.name}: ${a.status}`).join(", "),
        ...(def.timeoutMs ? { timeoutMs: def.timeoutMs } : {}),
      },
    },
  };
}

/** FAILURE_MODEL crash recovery: resume from the last checkpoint, restart the phase, or abort and keep artifacts. */
export function recoveryGate(state: MissionState, agentName: string, step: number, at: string): GateSpec {
  const a = state.agents[agentName];
  const label = stepLabel(stepDefinitionOf(state, agentName, step), step);
  const lastCompletedPhase = state.completedPhases.at(-1) ?? null;
  const incomplete = state.agentOrder.map((n) => state.agents[n]).filter((x) => x.phase === a.phase && (x.status === "running" || x.status === "pending"));
  const st = a.steps[step];
  // The gate and its UserFacingError show the same options, recommendation included.
  const options = recommend(
    [
      option("resume", "c", "Resume", `Continue from the last checkpoint: run step ${step + 1} (${label}) again with the same idempotency key ${st.idempotencyKey}. If it had already taken effect and is not idempotent, it may happen twice.`),
      option("restart_phase", "p", "Restart phase", `Restart ${a.phase}: every agent of the phase runs again from its first step.`),
      abortOption(state),
    ],
    "resume",
  );
  return {
    kind: "recovery",
    agent: agentName,
    phase: a.phase,
    step,
    options,
    error: {
      what: `The worker running step ${step + 1} (${label}) of agent "${agentName}" stopped before recording its result.`,
      why: `The step is not idempotent, so whether its side effect happened is unknown and it is not re-run without an operator. Last completed phase: ${lastCompletedPhase ?? "none"}; current phase: ${a.phase}; incomplete agents: ${incomplete.map((x) => x.name).join(", ") || "none"}.`,
      options,
      technical: { code: "INTERRUPTED", timestamp: at, missionId: state.id, agentId: agentName, step: `${step + 1}: ${label}`, idempotencyKey: st.idempotencyKey, lastCompletedPhase, currentPhase: a.phase, incompleteAgents: incomplete.map((x) => x.name) },
    },
  };
}

/** A high-risk step waits for an operator's approval before it runs (RFC 001 §3.4). */
export function approvalGate(state: MissionState, agentName: string, step: number, at: string): GateSpec {
  const a = state.agents[agentName];
  const def = agentDefinition(state.definition, agentName);
  const s = def.steps[step];
  const label = stepLabel(s, step);
  const options = [
    option("approve", "y", "Approve", `Run step ${step + 1} (${label}) now.`),
    option("skip", "s", "Skip", a.priority === "critical" ? `Do not run it and skip "${agentName}". It is critical: the mission will end FAILED.` : `Do not run it and skip "${agentName}"; the mission can at best end PARTIAL_SUCCESS.`),
    abortOption(state),
  ];
  return {
    kind: "approval",
    agent: agentName,
    phase: a.phase,
    step,
    options,
    error: {
      what: `Step ${step + 1} of agent "${agentName}" (${label}) is marked high-risk and waits for approval.`,
      // Canonical (sorted keys): jsonb does not keep key order, and a replay must derive the same words.
      why: `The definition marks it high-risk: it runs only after an operator approves. Tool ${s.tool}, arguments ${canonicalJson(s.args)}.`,
      options,
      technical: { code: "APPROVAL_REQUIRED", timestamp: at, missionId: state.id, agentId: agentName, step: `${step + 1}: ${label}`, tool: s.tool, args: s.args },
    },
  };
}

export function priorityRank(p: Priority): number {
  return p === "critical" ? 0 : p === "important" ? 1 : 2;
}

/**
 * The failure-mode library needs a person (000 Output Protocol, Layer 4): before the probe of a
 * Requires-Oversight entry (run it / skip the hypothesis), to perform a probe that has no runnable
 * action (confirm / reject), or to carry out a resolution that is not applied automatically (done /
 * not done). Abort is always offered.
 */
export function libraryGate(state: MissionState, agentName: string, stage: LibraryGateStage, at: string): GateSpec {
  const a = state.agents[agentName];
  const w = a.library!;
  const h = w.hypotheses[w.current];
  const ctx = failureContext(state, a, w.step);
  const label = stepLabel(ctx.step, w.step);
  const probe = h.probe_action ? substituteAction(h.probe_action, ctx) : null;
  const note =
    stage === "oversight"
      ? `Risk level Requires-Oversight: its probe runs only after an operator allows it.`
      : stage === "probe"
        ? !h.probe_action
          ? "The entry has no machine-executable probe: an operator performs it."
          : w.actionFailed
            ? "Its probe action could not run or could not decide: an operator performs the probe."
            : probe && "missing" in probe
              ? `Its probe action needs ${probe.missing.map((m) => `{{${m}}}`).join(", ")}, which the failure does not provide safely: an operator performs the probe.`
              : null
        : resolutionRunsItself(h, ctx.step, w);
  const options =
    stage === "oversight"
      ? [option("run_probe", "y", "Run the probe", `Run the probe of ${h.failure_id} now: ${h.diagnostic_probe}`), option("skip_hypothesis", "n", "Skip this hypothesis", `Do not probe ${h.failure_id}; go on with the next hypothesis${w.current + 1 < w.hypotheses.length ? "" : " (it is the last: the failure is escalated)"}.`), abortOption(state)]
      : stage === "probe"
        ? [option("confirm", "y", "Confirm", `I performed the probe and it confirms "${h.title}": its resolution comes next.`), option("reject", "n", "Reject", `The probe rejects "${h.title}": go on with the next hypothesis.`), abortOption(state)]
        : [option("done", "y", "Done", `I carried out the resolution: re-run step ${w.step + 1} (${label}); its own evidence decides.`), option("not_done", "n", "Not done", `The resolution was not carried out or did not help: go on with the next hypothesis.`), abortOption(state)];
  const offered = recommend(options, options[0].action);
  const library: LibraryGateInfo = {
    stage,
    failure_id: h.failure_id,
    title: h.title,
    risk_level: h.risk_level,
    risk_notes: h.risk_notes,
    match_score: h.match_score,
    rank: h.rank,
    total: w.hypotheses.length,
    diagnostic_probe: h.diagnostic_probe,
    resolution_path: h.resolution_path,
    note,
    flagged: false,
    tried: w.hypotheses.slice(0, w.current).map((x) => ({ failure_id: x.failure_id, title: x.title, outcome: x.outcome })),
  };
  const what =
    stage === "oversight"
      ? `Hypothesis ${w.current + 1} of ${w.hypotheses.length} for step ${w.step + 1} of "${agentName}", ${h.failure_id} "${h.title}", requires oversight before its probe runs.`
      : stage === "probe"
        ? `Perform the diagnostic probe of hypothesis ${w.current + 1} of ${w.hypotheses.length}, ${h.failure_id} "${h.title}", for step ${w.step + 1} (${label}) of "${agentName}".`
        : `Hypothesis ${h.failure_id} "${h.title}" is confirmed for step ${w.step + 1} (${label}) of "${agentName}": carry out its resolution.`;
  return {
    kind: "library",
    agent: agentName,
    phase: a.phase,
    step: w.step,
    options: offered,
    error: {
      what,
      why: `The failure-mode library ranks "${h.title}" ${w.current + 1} of ${w.hypotheses.length} for this failure (match score ${h.match_score.toFixed(2)}, risk ${h.risk_level}).${note ? ` ${note}` : ""}`,
      options: offered,
      technical: { code: "LIBRARY_GATE", timestamp: at, missionId: state.id, agentId: agentName, step: `${w.step + 1}: ${label}`, failureId: h.failure_id, matchScore: h.match_score, riskLevel: h.risk_level, ...(ctx.error ? { toolError: `${ctx.error.code}: ${ctx.error.message.split("\n")[0]}` } : {}) },
      library,
    },
  };
}

/** What the exhausted escalation gate shows: flagged for investigation, with every hypothesis tried. */
export function exhaustedInfo(w: LibraryWalk): LibraryGateInfo {
  return {
    stage: "exhausted",
    failure_id: null,
    title: null,
    risk_level: null,
    risk_notes: null,
    match_score: null,
    rank: null,
    total: w.hypotheses.length,
    diagnostic_probe: null,
    resolution_path: null,
    note: "Every hypothesis of the failure-mode library was rejected or did not fix the step: flagged for investigation.",
    flagged: true,
    tried: w.hypotheses.map((x) => ({ failure_id: x.failure_id, title: x.title, outcome: x.outcome })),
  };
}
