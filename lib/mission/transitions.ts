import type { ToolError } from "../tools/result";
import type { DiagnosticReflectionEvent } from "../diagnosis/context-log";
import type { Diagnosis, RecoveryStep } from "../diagnosis/types";
import type { RecoveryPlan, RecoveryRecord } from "./recovery";
import type { MissionDefinition, Phase } from "./definition";
import { idempotencyKey, type DiagnosisProposalRecord, type NewMissionEvent } from "./events";
import { gateUserError, respondToFailure, type GateSpec } from "./failure";
import { explainFinalStatus, deriveFinalStatus } from "./status";
import type { AgentError, AgentState, EvidenceRecord, GateDecision, GateState, MissionState, PauseKind } from "./types";
import { compensationKey } from "./events";
import type { DecisionRecord, HITLPrompt, NecessityLevel, ProposedAction } from "../authority/types";
import { WEAK_MATCH_BELOW, type LibraryConsultation, type LibraryDraft, type LibraryGateInfo, type LibraryHypothesis, type LibraryQuery } from "./library";

/**
 * Builders for every transition: each returns the event with its RFC 001 §3.1 triple
 * (reason, impact, evidence). The orchestrator, the web and the CLI build events only here.
 */

export function missionCreated(definition: MissionDefinition): NewMissionEvent {
  const agents = definition.phases.reduce((n, p) => n + p.agents.length, 0);
  return {
    type: "mission.created",
    payload: { definition },
    reason: "A mission definition was submitted and validated.",
    impact: `Mission "${definition.name}" is queued: ${definition.phases.length} phase(s), ${agents} agent(s).`,
    evidence: { phases: definition.phases.map((p) => p.name), agents },
  };
}

export function phaseStarted(phase: Phase, previous: string): NewMissionEvent {
  return { type: "phase.started", payload: { phase }, reason: `${previous} is complete.`, impact: `Agents of ${phase} run next.`, evidence: null };
}

export function agentStarted(agent: string, attempt: number): NewMissionEvent {
  return {
    type: "agent.started",
    payload: { agent, attempt },
    reason: attempt === 1 ? `Agent "${agent}" is next in its phase.` : `An operator chose to retry agent "${agent}".`,
    impact: `Attempt ${attempt} of "${agent}" runs from its first step.`,
    evidence: null,
  };
}

export function stepStarted(missionId: string, agent: string, attempt: number, step: number, tool: string, label: string, proposal?: { proposalId: string; argsDigest: string }): NewMissionEvent {
  const key = idempotencyKey(missionId, agent, step, attempt);
  return {
    type: "step.started",
    payload: { agent, attempt, step, tool, idempotencyKey: key, ...(proposal ?? {}) },
    reason: proposal ? `Step ${step + 1} of "${agent}": ${label}, as approved in proposal ${proposal.proposalId} (args digest checked).` : `Step ${step + 1} of "${agent}": ${label}.`,
    impact: "A side effect may happen; its idempotency key is recorded before it runs.",
    evidence: { idempotencyKey: key },
  };
}

export function toolSucceeded(agent: string, attempt: number, step: number, data: Record<string, unknown>, evidence: EvidenceRecord[]): NewMissionEvent {
  // An LLM call that fell back to another provider says so: no silent fallback.
  const attempts = Array.isArray(data.attempts) ? (data.attempts as Array<{ provider?: string; ok?: boolean; summary?: string; message?: string }>) : [];
  const failed = attempts.filter((a) => a.ok === false);
  const fallback = failed.length ? ` after falling back from ${failed.map((a) => `${a.provider} (${a.summary ?? a.message ?? "failed"})`).join(", ")} to ${String(data.provider)}` : "";
  return {
    type: "tool.succeeded",
    payload: { agent, attempt, step, data, evidence },
    reason: `The tool returned ok${fallback} and ${evidence.length} evidence check(s) passed.`,
    impact: `Step ${step + 1} of "${agent}" is proven done.`,
    evidence: { checks: evidence },
  };
}

export function toolFailed(agent: string, attempt: number, step: number, error: ToolError, evidence: EvidenceRecord[]): NewMissionEvent {
  return {
    type: "tool.failed",
    payload: { agent, attempt, step, error, evidence },
    reason: error.message,
    impact: `Step ${step + 1} of "${agent}" failed (${error.code}); the agent cannot complete attempt ${attempt}.`,
    evidence: {
      code: error.code,
      ...(error.exitCode != null ? { exitCode: error.exitCode } : {}),
      ...(error.status !== undefined ? { httpStatus: error.status } : {}),
      ...(evidence.length ? { checks: evidence } : {}),
    },
  };
}

export function agentCompleted(agent: string, attempt: number, steps: number): NewMissionEvent {
  return {
    type: "agent.completed",
    payload: { agent, attempt },
    reason: `All ${steps} step(s) of "${agent}" succeeded with evidence.`,
    impact: `"${agent}" counts toward the mission's success.`,
    evidence: { attempt, steps },
  };
}

export function agentFailed(agent: string, attempt: number, error: AgentError): NewMissionEvent {
  return {
    type: "agent.failed",
    payload: { agent, attempt, error },
    reason: `${error.code}: ${error.message}`,
    impact: error.recoverable ? `"${agent}" failed; a retry may help.` : `"${agent}" failed; a retry is unlikely to help.`,
    evidence: { code: error.code, toolCode: error.context.toolError.code, step: error.context.step },
  };
}

/** Applies the priority response matrix to a failed agent: a warning, or a gate. */
export function failureResponse(state: MissionState, agentName: string, gateId: string, at: string, recovery: { plan: RecoveryPlan | null; note: string | null } = { plan: null, note: null }, library?: LibraryGateInfo): NewMissionEvent {
  const agent = state.agents[agentName];
  const response = respondToFailure(state, agent, recovery.plan);
  if (response.kind === "continue") {
    const warning = library?.flagged ? `${response.warning} The library's hypotheses were exhausted: flagged for investigation.` : response.warning;
    return { type: "mission.warning", payload: { agent: agentName, message: warning }, reason: `"${agentName}" is optional.`, impact: warning, evidence: { priority: agent.priority } };
  }
  const error = library ? { ...gateUserError(state, agent, response.options, at), library } : gateUserError(state, agent, response.options, at);
  const diagnosis = agent.steps.find((s) => s.status === "failed")?.diagnosis ?? null;
  return gateOpened(
    gateId,
    { kind: "agent", agent: agentName, phase: agent.phase, step: null, options: response.options, error, diagnosis, recoveryPlan: recovery.plan, recoveryNote: recovery.note },
    agent.priority === "optional" ? `Every LLM provider failed for "${agentName}": an infrastructure failure pauses the mission whatever the priority.` : `"${agentName}" is ${agent.priority}; the response matrix opens a gate.`,
  );
}

/** Opens a gate: the mission is held until an operator decides. */
export function gateOpened(gateId: string, spec: GateSpec, reason: string): NewMissionEvent {
  return {
    type: "gate.opened",
    payload: { gateId, ...spec },
    reason,
    impact: "The mission is paused until an operator decides.",
    evidence: { kind: spec.kind, options: spec.options.map((o) => o.action), recommended: spec.options.find((o) => o.recommended)?.action ?? null },
  };
}

export function phaseFailed(phase: Phase, reason: "agents_failed" | "timeout", message: string): NewMissionEvent {
  return {
    type: "phase.failed",
    payload: { phase, reason, message },
    reason: message,
    impact: `${phase} cannot complete; downstream phases wait for an operator's decision.`,
    evidence: { reason },
  };
}

export function missionPaused(kind: PauseKind, message: string): NewMissionEvent {
  return {
    type: "mission.paused",
    payload: { kind, message },
    reason: message,
    impact: "No new step starts until the mission is resumed; a step in flight still records its result.",
    evidence: { kind },
  };
}

export function missionResumed(message: string): NewMissionEvent {
  return { type: "mission.resumed", payload: { message }, reason: message, impact: "The mission continues from its last checkpoint.", evidence: null };
}

export function missionAborted(message: string): NewMissionEvent {
  return {
    type: "mission.aborted",
    payload: { message },
    reason: message,
    impact: "The mission ends FAILED: open gates close as abort, compensations (if any) undo completed steps, no new step starts; a step in flight still records its result.",
    evidence: null,
  };
}

export function stepInterrupted(agent: string, attempt: number, step: number, key: string, idempotent: boolean): NewMissionEvent {
  return {
    type: "step.interrupted",
    payload: { agent, attempt, step, idempotencyKey: key, idempotent },
    reason: `Step ${step + 1} of "${agent}" was started by a worker that stopped before recording its result.`,
    impact: "Whether its side effect happened is unknown; it is not re-run without an operator.",
    evidence: { idempotencyKey: key, idempotent },
  };
}

export function stepRerun(agent: string, attempt: number, step: number, key: string, reason: "idempotent" | "operator" | "recovery" | "library"): NewMissionEvent {
  return {
    type: "step.rerun",
    payload: { agent, attempt, step, idempotencyKey: key, reason },
    reason:
      reason === "idempotent"
        ? `Step ${step + 1} of "${agent}" was interrupted by a worker crash; it is idempotent, so it runs again with the same key.`
        : reason === "recovery"
          ? `The recovery's helper steps are done: step ${step + 1} of "${agent}" runs again, and its own evidence decides whether the recovery worked.`
          : reason === "library"
            ? `A confirmed library hypothesis's resolution is done: step ${step + 1} of "${agent}" runs again, and its own evidence decides whether it resolved the failure.`
          : `An operator chose to resume step ${step + 1} of "${agent}" after a worker crash.`,
    impact: `The step runs again with idempotency key ${key}.`,
    evidence: { idempotencyKey: key },
  };
}

export function compensationStarted(missionId: string, agent: string, attempt: number, step: number): NewMissionEvent {
  const key = compensationKey(missionId, agent, step, attempt);
  return {
    type: "compensation.started",
    payload: { agent, attempt, step, idempotencyKey: key },
    reason: `Saga: step ${step + 1} of "${agent}" (attempt ${attempt}) completed and declares a compensation.`,
    impact: "Its effect is being undone.",
    evidence: { idempotencyKey: key },
  };
}

export function compensationSucceeded(agent: string, attempt: number, step: number, evidence: EvidenceRecord[]): NewMissionEvent {
  return { type: "compensation.succeeded", payload: { agent, attempt, step, evidence }, reason: "The compensation ran and its evidence holds.", impact: `Step ${step + 1} of "${agent}" is undone.`, evidence: { checks: evidence } };
}

export function compensationFailed(agent: string, attempt: number, step: number, error: ToolError): NewMissionEvent {
  return {
    type: "compensation.failed",
    payload: { agent, attempt, step, error },
    reason: error.message,
    impact: `Step ${step + 1} of "${agent}" could NOT be undone; it needs manual attention.`,
    evidence: { code: error.code },
  };
}

/** One person's choice on a gate that needs several distinct approvals (issue 6, gate policies). */
export function gateApproval(gate: GateState, decision: GateDecision, note: string | null, who: string, count: number, required: number): NewMissionEvent {
  return {
    type: "gate.approval",
    payload: { gateId: gate.id, decision, note },
    reason: `${who} chose ${decision}${note ? `: ${note}` : ""}.`,
    impact: count >= required ? `${count} of ${required} required approvals of ${decision}: the gate is decided.` : `${count} of ${required} required approvals of ${decision}; the gate stays open until ${required - count} more ${required - count === 1 ? "person chooses" : "people choose"} it.`,
    evidence: { gateId: gate.id, decision, approvals: count, required },
  };
}

export function gateResolved(gate: GateState, decision: GateDecision, note: string | null, at: string, who: string): NewMissionEvent {
  const openMs = Math.max(0, Date.parse(at) - Date.parse(gate.openedAt));
  const impact: Record<GateDecision, string> = {
    retry: `"${gate.agent}" runs again from its first step.`,
    skip: `The mission continues without "${gate.agent}".`,
    abort: "The mission ends FAILED; compensations (if any) undo completed steps; everything produced so far is kept.",
    retry_phase: `Every agent of ${gate.phase} runs again from the start.`,
    skip_phase: `${gate.phase} is skipped; the mission continues with the next phase.`,
    resume: `The interrupted step of "${gate.agent}" runs again with the same idempotency key.`,
    restart_phase: `${gate.phase} restarts: every agent of it runs again from its first step.`,
    approve: gate.kind === "proposal" ? `The approved proposal of "${gate.agent}" runs next, exactly as approved (its args digest is checked).` : `The high-risk step of "${gate.agent}" runs now.`,
    recover: `Recovery ${gate.recoveryPlan?.strategy ?? "plan"} runs on "${gate.agent}": its helper steps, then the failed step again.`,
    run_probe: `The probe of ${gate.error.library?.failure_id ?? "the hypothesis"} runs now.`,
    skip_hypothesis: `${gate.error.library?.failure_id ?? "The hypothesis"} is skipped; the next hypothesis is considered.`,
    confirm: `${gate.error.library?.failure_id ?? "The hypothesis"} is confirmed; its resolution comes next.`,
    reject: gate.kind === "proposal" ? `The proposal of "${gate.agent}" does not run; the agent is told why and may propose something else.` : `${gate.error.library?.failure_id ?? "The hypothesis"} is rejected; the next hypothesis is considered.`,
    done: `Step ${(gate.step ?? 0) + 1} of "${gate.agent}" runs again; its own evidence decides whether the resolution worked.`,
    not_done: `${gate.error.library?.failure_id ?? "The hypothesis"} is unresolved; the next hypothesis is considered.`,
    allow_binary: `The refused binary is allowed for this mission only; "${gate.agent}" runs again from its first step.`,
  };
  return {
    type: "gate.resolved",
    payload: { gateId: gate.id, decision, note, openMs },
    reason: `${who} chose ${decision}${note ? `: ${note}` : ""}.`,
    impact: impact[decision],
    evidence: { gateId: gate.id, decision, openMs },
  };
}

export function phaseCompleted(state: MissionState, phase: Phase): NewMissionEvent {
  // (A phase skipped at its gate is completed by that decision.)
  const agents = state.agentOrder.map((n) => state.agents[n]).filter((a) => a.phase === phase);
  const counts = agents.reduce<Record<string, number>>((c, a) => ({ ...c, [a.status]: (c[a.status] ?? 0) + 1 }), {});
  return {
    type: "phase.completed",
    payload: { phase },
    reason: `Every agent of ${phase} is settled.`,
    impact: "Progress up to this phase is committed (checkpoint).",
    evidence: counts,
  };
}

export function objectiveChecked(passed: boolean, evidence: EvidenceRecord[]): NewMissionEvent {
  return {
    type: "objective.checked",
    payload: { passed, evidence },
    reason: evidence.length ? `${evidence.filter((e) => e.passed).length} of ${evidence.length} objective check(s) passed.` : "The definition declares no objective checks.",
    impact: passed ? "The objective counts as met." : "The objective is not met: the mission will end FAILED.",
    evidence: { checks: evidence },
  };
}

export function missionFinished(state: MissionState): NewMissionEvent {
  const finalStatus = deriveFinalStatus(state);
  return {
    type: "mission.finished",
    payload: { finalStatus },
    reason: explainFinalStatus(state),
    impact: `Final status ${finalStatus}, derived from the evidence.`,
    evidence: Object.fromEntries(state.agentOrder.map((n) => [n, state.agents[n].status])),
  };
}

export function diagnosticReflection(agent: string, attempt: number, step: number, contextLog: DiagnosticReflectionEvent, diagnosis: Diagnosis): NewMissionEvent {
  return {
    type: "diagnostic_reflection",
    payload: { agent, attempt, step, contextLog, diagnosis },
    reason: `"5 whys" diagnosis of step ${step + 1} of "${agent}": ${diagnosis.errorClassification.type} (${diagnosis.errorClassification.severity}).`,
    impact: `Root cause: ${diagnosis.rootCause.description} (confidence ${diagnosis.rootCause.confidence}). Recommended recovery: ${diagnosis.recoveryPlan.strategy}.`,
    evidence: { diagnosisId: diagnosis.id, type: diagnosis.errorClassification.type, confidence: diagnosis.rootCause.confidence },
  };
}

export function diagnosisProposal(agent: string, attempt: number, step: number, diagnosisId: string, proposal: DiagnosisProposalRecord): NewMissionEvent {
  const who = proposal.proposedBy ?? "the LLM";
  const verdict =
    proposal.status === "accepted"
      ? `accepted: it agrees with the evidence`
      : proposal.status === "rejected"
        ? "rejected by the deterministic diagnosis"
        : proposal.status === "invalid"
          ? "not a valid proposal"
          : "not available (no provider answered)";
  return {
    type: "diagnosis.proposal",
    payload: { agent, attempt, step, diagnosisId, proposal },
    reason: `${who} proposed a diagnosis of step ${step + 1} of "${agent}"${proposal.proposal ? ` (${proposal.proposal.type})` : ""}: ${verdict}.`,
    impact: proposal.reasons.join(" ") || "Recorded for review; a proposal never changes the diagnosis by itself.",
    evidence: { status: proposal.status, provider: proposal.provider, model: proposal.model },
  };
}

export function recoveryStarted(agent: AgentState, step: number, plan: RecoveryPlan, by: "auto" | "operator", reason: string, contextLog?: Record<string, unknown>): NewMissionEvent {
  const attemptNo = agent.recoveries.filter((r) => r.step === step).length + 1;
  const helpers = plan.steps.filter((s) => s.tool !== "retry").length;
  const body = { agent: agent.name, attempt: agent.attempt, step, attemptNo, plan };
  return {
    ...(plan.source === "pattern" && contextLog ? { type: "recovery.fast_path" as const, payload: { ...body, by: "auto" as const, contextLog } } : { type: "recovery.started" as const, payload: { ...body, by } }),
    reason,
    impact: `Recovery ${plan.strategy} (attempt ${attemptNo}): ${helpers} helper step${helpers === 1 ? "" : "s"}, then step ${step + 1} of "${agent.name}" runs again and its evidence decides.`,
    evidence: { strategy: plan.strategy, source: plan.source, patternId: plan.pattern?.id ?? null, steps: plan.steps.map((s) => s.action) },
  } as NewMissionEvent;
}

export function recoveryStep(agent: AgentState, index: number, s: RecoveryStep, result: { ok: boolean; error: ToolError | null; output: string | null }): NewMissionEvent {
  const r = agent.recovery!;
  return {
    type: "recovery.step",
    payload: { agent: agent.name, attempt: agent.attempt, step: r.step, index, action: s.action, tool: s.tool, args: s.args, ok: result.ok, error: result.error, output: result.output },
    reason: `Recovery ${r.strategy}, helper step ${index + 1}: ${s.action} (${s.tool}).`,
    impact: result.ok ? `Done: ${s.expectedOutcome}.` : `It failed (${result.error?.code}: ${result.error?.message}); this recovery attempt fails.`,
    evidence: result.ok ? { output: result.output } : { error: result.error },
  };
}

export function recoveryFinished(agent: AgentState, outcome: RecoveryRecord["outcome"], why: string): NewMissionEvent {
  const r = agent.recovery!;
  const iterations = r.done + (outcome === "abandoned" ? 0 : 1);
  return {
    type: "recovery.finished",
    payload: {
      agent: agent.name,
      attempt: agent.attempt,
      step: r.step,
      attemptNo: r.attemptNo,
      strategy: r.strategy,
      source: r.source,
      outcome,
      reason: why,
      when: r.when,
      patternId: r.pattern?.id ?? null,
      errorType: r.errorType,
      rootCause: r.rootCause,
      tools: r.tools,
      diagnosisId: r.diagnosisId,
      iterations,
    },
    reason: why,
    impact:
      outcome === "succeeded"
        ? `"${agent.name}" continues after its step recovered (${r.strategy}, ${iterations} tool call${iterations === 1 ? "" : "s"}); the pattern "${r.when} → ${r.strategy}" gains a success.`
        : outcome === "failed"
          ? `Recovery ${r.strategy} did not work; the pattern "${r.when} → ${r.strategy}" records a failure.`
          : `Recovery ${r.strategy} was abandoned; no outcome is learned from it.`,
    evidence: { outcome, strategy: r.strategy, attemptNo: r.attemptNo },
  };
}

export function loopDetected(agent: AgentState, step: number, loop: { signature: string; count: number }): NewMissionEvent {
  return {
    type: "recovery.loop_detected",
    payload: { agent: agent.name, attempt: agent.attempt, step, signature: loop.signature, count: loop.count },
    reason: `Step ${step + 1} of "${agent.name}" failed the same way ${loop.count} times (same tool, arguments and error): a stuck loop.`,
    impact: "No automatic recovery or retry is recommended for this action; an operator decides.",
    evidence: { signature: loop.signature, count: loop.count },
  };
}

// ---------------------------------------------------------------- the failure-mode library's Output Protocol

const pct = (x: number) => x.toFixed(2);

export function libraryHypotheses(agent: AgentState, step: number, query: LibraryQuery, c: LibraryConsultation, walked = true, weak: LibraryHypothesis[] = []): NewMissionEvent {
  const list = c.hypotheses.map((h) => `${h.failure_id} ${h.title} (${pct(h.match_score)}, ${h.risk_level})`).join("; ");
  const weakList = weak.length ? ` Weak matches (below ${pct(WEAK_MATCH_BELOW)}), listed but not probed: ${weak.map((h) => `${h.failure_id} ${h.title} (${pct(h.match_score)})`).join("; ")}.` : "";
  return {
    type: "library.hypotheses",
    payload: { agent: agent.name, attempt: agent.attempt, step, query, libraryVersion: c.libraryVersion, abstained: c.abstained, hypotheses: c.hypotheses, walked, ...(weak.length ? { weak } : {}), ...(c.error ? { error: c.error } : {}) },
    reason: `The failure of step ${step + 1} of "${agent.name}" was looked up in the failure-mode library${c.libraryVersion !== null ? ` (version ${c.libraryVersion})` : ""}: "${query.observed_symptom.slice(0, 160)}".`,
    impact: c.error
      ? `The library could not be queried (${c.error}); the failure is handled without it.`
      : c.hypotheses.length
        ? `${c.hypotheses.length} hypothes${c.hypotheses.length === 1 ? "is" : "es"}, highest first: ${list}. ${walked ? "Each is probed in turn." : `"${agent.name}" is optional: they are recorded, not probed, and the mission goes on.`}${weakList}`
        : weak.length
          ? `No entry is likely enough to probe.${weakList} The failure is handled by its diagnosis.`
          : "No entry matched well enough: the library abstains, and the failure is logged as novel.",
    evidence: { libraryVersion: c.libraryVersion, abstained: c.abstained, results: c.hypotheses.map((h) => ({ failure_id: h.failure_id, match_score: h.match_score })) },
  };
}

export function libraryNovel(agent: AgentState, step: number, failedSeq: number, contributionId: string, draft: LibraryDraft, policyNote: string): NewMissionEvent {
  return {
    type: "library.novel",
    payload: { agent: agent.name, attempt: agent.attempt, step, failedSeq, contributionId, draft },
    reason: `No library entry matches the failure of step ${step + 1} of "${agent.name}": it is a novel failure.`,
    impact: `A pre-filled contribution draft (${draft.category}, ${draft.risk_level}) waits for reviewers. ${policyNote}`,
    evidence: { contributionId, failedSeq },
  };
}

export function libraryProbe(agent: AgentState, p: { by: "action" | "operator"; verdict: "confirmed" | "rejected" | "skipped" | "inconclusive"; evidence: EvidenceRecord | null; call: { tool: string; args: Record<string, unknown> } | null; output: string | null; note?: string }): NewMissionEvent {
  const w = agent.library!;
  const h = w.hypotheses[w.current];
  const who = p.by === "action" ? "Its probe action ran" : "An operator performed the probe";
  return {
    type: "library.probe",
    payload: { agent: agent.name, attempt: agent.attempt, step: w.step, hypothesesSeq: w.seq, failure_id: h.failure_id, by: p.by, verdict: p.verdict, evidence: p.evidence, call: p.call, output: p.output },
    reason: `Hypothesis ${w.current + 1} of ${w.hypotheses.length}, ${h.failure_id} "${h.title}": ${p.verdict === "skipped" ? "an operator skipped it at its oversight gate" : `${who}${p.evidence ? ` (${p.evidence.check} expected ${JSON.stringify(p.evidence.expected)}, got ${JSON.stringify(p.evidence.actual)?.slice(0, 200)})` : ""}`}.${p.note ? ` ${p.note}` : ""}`,
    impact:
      p.verdict === "confirmed"
        ? `Confirmed: its resolution comes next (${h.resolution_path.slice(0, 200)}).`
        : p.verdict === "inconclusive"
          ? "The probe could not decide; an operator is asked to perform it."
          : `${p.verdict === "skipped" ? "Skipped" : "Rejected"}: the next hypothesis is considered.`,
    evidence: { failure_id: h.failure_id, verdict: p.verdict, ...(p.evidence ? { check: p.evidence } : {}) },
  };
}

export function libraryResolution(agent: AgentState, p: { by: "action" | "operator"; ok: boolean; evidence: EvidenceRecord | null; call: { tool: string; args: Record<string, unknown> } | null; output: string | null }): NewMissionEvent {
  const w = agent.library!;
  const h = w.hypotheses[w.current];
  return {
    type: "library.resolution",
    payload: { agent: agent.name, attempt: agent.attempt, step: w.step, hypothesesSeq: w.seq, failure_id: h.failure_id, by: p.by, ok: p.ok, evidence: p.evidence, call: p.call, output: p.output },
    reason: `${h.failure_id} "${h.title}" is confirmed: ${p.by === "action" ? "its resolution action ran" : "an operator carried out its resolution path"}${p.ok ? "" : " and it did not complete"}.`,
    impact: p.ok ? `Step ${w.step + 1} of "${agent.name}" runs again; its own evidence decides whether the failure is resolved.` : "Not resolved: the next hypothesis is considered.",
    evidence: { failure_id: h.failure_id, ok: p.ok, ...(p.evidence ? { check: p.evidence } : {}) },
  };
}

export function libraryResolved(agent: AgentState, outcome: "resolved" | "unresolved", error?: ToolError): NewMissionEvent {
  const w = agent.library!;
  const h = w.hypotheses[w.current];
  return {
    type: "library.resolved",
    payload: { agent: agent.name, attempt: agent.attempt, step: w.step, hypothesesSeq: w.seq, failure_id: h.failure_id, outcome },
    reason: outcome === "resolved" ? `Step ${w.step + 1} of "${agent.name}" passed its evidence after the resolution of ${h.failure_id} "${h.title}".` : `Step ${w.step + 1} of "${agent.name}" failed again after the resolution of ${h.failure_id} (${error?.code}: ${error?.message.split("\n")[0]}).`,
    impact: outcome === "resolved" ? `The failure is resolved by library entry ${h.failure_id}; "${agent.name}" continues.` : "Unresolved: the next hypothesis is considered.",
    evidence: { failure_id: h.failure_id, outcome },
  };
}

export function libraryExhausted(agent: AgentState): NewMissionEvent {
  const w = agent.library!;
  const tried = w.hypotheses.map((h) => ({ failure_id: h.failure_id, title: h.title, outcome: h.outcome }));
  return {
    type: "library.exhausted",
    payload: { agent: agent.name, attempt: agent.attempt, step: w.step, hypothesesSeq: w.seq, tried },
    reason: `Every hypothesis for step ${w.step + 1} of "${agent.name}" was tried: ${tried.map((t) => `${t.failure_id} ${t.outcome ?? "open"}`).join(", ")}.`,
    impact: "Escalated to an operator (Layer 4) and flagged for investigation.",
    evidence: { tried },
  };
}

/** Seed 002 FDR-N003: an actor's proposal; nothing runs until the authority approves it. */
export function proposalSubmitted(p: { proposalId: string; actorId: string; agent: string; attempt: number; action: ProposedAction; argsDigest: string; level: NecessityLevel; callId: string | null; model?: { provider: string; model: string; latencyMs: number } | null }): NewMissionEvent {
  return {
    type: "proposal.submitted",
    payload: p,
    actorId: p.actorId,
    reason: `"${p.agent}" chose its next action: ${p.action.tool}.`,
    impact: "Nothing runs until the authority decides.",
    evidence: { argsDigest: p.argsDigest, level: p.level },
  };
}

/** The authority's decision (a rule's, a level check's, or a person's through it), with its DecisionRecord. */
export function proposalDecided(proposalId: string, record: DecisionRecord, extra: { evidence?: EvidenceRecord[]; prompt?: HITLPrompt | null } = {}): NewMissionEvent {
  const what = record.decision === "approved" ? "approved" : record.decision === "rejected" ? `rejected (${record.failureReason})` : `pending (${record.pendingReason})`;
  return {
    type: "proposal.decided",
    payload: { proposalId, decision: record.decision, record, ...extra },
    actorId: record.decidedBy,
    reason: record.reason,
    impact: record.decision === "approved" ? (record.modified ? "The modified args run next (the approval binds to their digest)." : "The action runs next (the approval binds to its args digest).") : record.decision === "rejected" ? "Nothing runs; the proposer receives the decision and its counterfactual." : "The mission waits for a decision (HITL prompt).",
    evidence: { decision: what, authority: record.authority, level: record.level, decisionTimeMs: record.decisionTimeMs, argsDigest: record.argsDigest ?? null },
  };
}

/** An approval that can no longer be applied: expired, or the args about to run are not the ones approved. */
export function proposalExpired(proposalId: string, why: "expired" | "digest_mismatch", message: string): NewMissionEvent {
  return { type: "proposal.expired", payload: { proposalId, why, message }, reason: message, impact: "The approved action does not run; the agent proposes again.", evidence: { why } };
}

/** An autonomous agent's finish was approved by its evidence. */
export function autonomousCompleted(agent: string, attempt: number, actions: number): NewMissionEvent {
  return {
    type: "agent.completed",
    payload: { agent, attempt },
    reason: `"${agent}" proposed finish and its evidence held (the claim itself is never evidence).`,
    impact: `"${agent}" counts toward the mission's success.`,
    evidence: { attempt, actions },
  };
}
