import type { DiagnosticReflectionEvent } from "../diagnosis/context-log";
import type { Diagnosis } from "../diagnosis/types";
import type { ToolError } from "../tools/result";
import type { MissionDefinition, Phase } from "./definition";
import type { AgentError, DiagnosisSummary, EvidenceRecord, FinalStatus, GateDecision, GateError, GateKind, GateOption, PauseKind } from "./types";
import type { RecoveryPlan, RecoveryRecord } from "./recovery";
import type { GatePolicySnapshot } from "./gate-policy";
import type { HypothesisOutcome, LibraryDraft, LibraryHypothesis, LibraryQuery } from "./library";
import type { DecisionRecord, HITLPrompt, NecessityLevel, ProposedAction } from "../authority/types";

/** An LLM's diagnosis proposal as recorded: who proposed, what, and the deterministic verdict with its reasons. */
export interface DiagnosisProposalRecord {
  status: "accepted" | "rejected" | "invalid" | "unavailable";
  /** The agent actor of the LLM (`llm:<provider>/<model>`). */
  proposedBy: string | null;
  provider: string | null;
  model: string | null;
  proposal: { type: string; rootCause: { category: string; description: string; confidence: number }; whyChain: string[]; citedLines: string[]; recoveryStrategy?: string } | null;
  reasons: string[];
  elapsedMs: number;
}

/**
 * Every mission event. Types are dotted lower case. Each event also carries, as columns,
 * the RFC 001 §3.1 transition triple: reason, impact and evidence.
 */
export type MissionEventBody =
  | { type: "mission.created"; payload: { definition: MissionDefinition } }
  | { type: "phase.started"; payload: { phase: Phase } }
  | { type: "agent.started"; payload: { agent: string; attempt: number } }
  | { type: "step.started"; payload: { agent: string; attempt: number; step: number; tool: string; idempotencyKey: string; /** An autonomous agent's step: the approved proposal it runs. */ proposalId?: string; argsDigest?: string } }
  /** Seed 002 FDR-N003: an actor proposes an action; it touches nothing until the authority approves it. */
  | { type: "proposal.submitted"; payload: { proposalId: string; actorId: string; agent: string; attempt: number; action: ProposedAction; argsDigest: string; level: NecessityLevel; callId: string | null; model?: { provider: string; model: string; latencyMs: number } | null } }
  /** The one authority's answer (or a person's, through it): approved, rejected, or pending with a HITL prompt. */
  | { type: "proposal.decided"; payload: { proposalId: string; decision: DecisionRecord["decision"]; record: DecisionRecord; /** `finish`: the agent's evidence checked now. */ evidence?: EvidenceRecord[]; prompt?: HITLPrompt | null } }
  /** An approval that may no longer run: it expired, or the args about to run do not match its digest. Never applied. */
  | { type: "proposal.expired"; payload: { proposalId: string; why: "expired" | "digest_mismatch"; message: string } }
  | { type: "tool.succeeded"; payload: { agent: string; attempt: number; step: number; data: Record<string, unknown>; evidence: EvidenceRecord[] } }
  | { type: "tool.failed"; payload: { agent: string; attempt: number; step: number; error: ToolError; evidence: EvidenceRecord[] } }
  /** ADR-0003: the "5 whys" diagnosis of a tool failure, with its ContextLog record. */
  | { type: "diagnostic_reflection"; payload: { agent: string; attempt: number; step: number; contextLog: DiagnosticReflectionEvent; diagnosis: Diagnosis } }
  /** An optional LLM's diagnosis proposal, accepted or rejected by the deterministic diagnosis (never self-verified). */
  | { type: "diagnosis.proposal"; payload: { agent: string; attempt: number; step: number; diagnosisId: string; proposal: DiagnosisProposalRecord } }
  /** ADR-0003 recovery: a plan starts on a failed step (by the auto policy or an operator's "Apply recovery plan"). */
  | { type: "recovery.started"; payload: { agent: string; attempt: number; step: number; attemptNo: number; by: "auto" | "operator"; plan: RecoveryPlan } }
  /** The fast path: a learned pattern above its confidence threshold chose the recovery, without full reflection. */
  | { type: "recovery.fast_path"; payload: { agent: string; attempt: number; step: number; attemptNo: number; by: "auto"; plan: RecoveryPlan; contextLog: Record<string, unknown> } }
  /** One helper step of a recovery: a real tool call and its result. */
  | { type: "recovery.step"; payload: { agent: string; attempt: number; step: number; index: number; action: string; tool: string; args: Record<string, unknown>; ok: boolean; error: ToolError | null; output: string | null } }
  /** A recovery ended: succeeded (the step passed its evidence), failed, or abandoned (an operator or the mission moved on). */
  | { type: "recovery.finished"; payload: { agent: string; attempt: number; step: number; attemptNo: number; strategy: string; source: RecoveryPlan["source"]; outcome: RecoveryRecord["outcome"]; reason: string; when: string; patternId: string | null; errorType: string; rootCause: string; tools: string[]; diagnosisId: string; iterations: number } }
  /** The stuck-loop detector stopped a repeated identical failing action. */
  | { type: "recovery.loop_detected"; payload: { agent: string; attempt: number; step: number; signature: string; count: number } }
  /** 000 Output Protocol: the library's ranked hypotheses for a failed step (or its abstention). */
  | { type: "library.hypotheses"; payload: { agent: string; attempt: number; step: number; query: LibraryQuery; libraryVersion: number | null; abstained: boolean; hypotheses: LibraryHypothesis[]; error?: string; /** false: recorded only (an optional agent's failure never holds the mission for a walk). */ walked?: boolean; /** Matches below WEAK_MATCH_BELOW: listed, never probed. */ weak?: LibraryHypothesis[] } }
  /** No entry matched: the failure is logged as novel and a contribution draft is created for reviewers. */
  | { type: "library.novel"; payload: { agent: string; attempt: number; step: number; failedSeq: number; contributionId: string; draft: LibraryDraft } }
  /** A hypothesis's diagnostic probe: run as its probe_action, or performed by an operator. */
  | { type: "library.probe"; payload: { agent: string; attempt: number; step: number; hypothesesSeq: number; failure_id: string; by: "action" | "operator"; verdict: "confirmed" | "rejected" | "skipped" | "inconclusive"; evidence: EvidenceRecord | null; call: { tool: string; args: Record<string, unknown> } | null; output: string | null } }
  /** A confirmed hypothesis's resolution: run as its resolution_action, or carried out by an operator. */
  | { type: "library.resolution"; payload: { agent: string; attempt: number; step: number; hypothesesSeq: number; failure_id: string; by: "action" | "operator"; ok: boolean; evidence: EvidenceRecord | null; call: { tool: string; args: Record<string, unknown> } | null; output: string | null } }
  /** The failed step ran again after a resolution: its own evidence says whether the hypothesis resolved it. */
  | { type: "library.resolved"; payload: { agent: string; attempt: number; step: number; hypothesesSeq: number; failure_id: string; outcome: "resolved" | "unresolved" } }
  /** Every hypothesis was rejected or did not fix the step: escalation to an operator, flagged for investigation. */
  | { type: "library.exhausted"; payload: { agent: string; attempt: number; step: number; hypothesesSeq: number; tried: Array<{ failure_id: string; title: string; outcome: HypothesisOutcome | null }> } }
  | { type: "agent.completed"; payload: { agent: string; attempt: number } }
  | { type: "agent.failed"; payload: { agent: string; attempt: number; error: AgentError } }
  | { type: "mission.warning"; payload: { agent: string; message: string } }
  | { type: "gate.opened"; payload: { gateId: string; kind: GateKind; agent: string; phase: Phase; step: number | null; options: GateOption[]; error: GateError; /** Proposal gates. */ proposalId?: string | null; prompt?: HITLPrompt | null; diagnosis?: DiagnosisSummary | null; recoveryPlan?: RecoveryPlan | null; recoveryNote?: string | null; /** Added by the database layer at append time (issue 6). */ policy?: GatePolicySnapshot | null; deadlineAt?: string | null } }
  /** One person's choice on a gate whose policy needs several distinct approvals (N of M). */
  | { type: "gate.approval"; payload: { gateId: string; decision: GateDecision; note: string | null } }
  | { type: "gate.resolved"; payload: { gateId: string; decision: GateDecision; note: string | null; openMs: number } }
  | { type: "phase.completed"; payload: { phase: Phase; skipped?: boolean } }
  | { type: "phase.failed"; payload: { phase: Phase; reason: "agents_failed" | "timeout"; message: string } }
  | { type: "mission.paused"; payload: { kind: PauseKind; message: string } }
  | { type: "mission.resumed"; payload: { message: string } }
  /** A person (or an agent's API call) aborted the whole mission: open gates close as abort, compensations run, it ends FAILED. */
  | { type: "mission.aborted"; payload: { message: string } }
  | { type: "step.interrupted"; payload: { agent: string; attempt: number; step: number; idempotencyKey: string; idempotent: boolean } }
  | { type: "step.rerun"; payload: { agent: string; attempt: number; step: number; idempotencyKey: string; reason: "idempotent" | "operator" | "recovery" | "library" } }
  | { type: "compensation.started"; payload: { agent: string; attempt: number; step: number; idempotencyKey: string } }
  | { type: "compensation.succeeded"; payload: { agent: string; attempt: number; step: number; evidence: EvidenceRecord[] } }
  | { type: "compensation.failed"; payload: { agent: string; attempt: number; step: number; error: ToolError } }
  | { type: "objective.checked"; payload: { passed: boolean; evidence: EvidenceRecord[] } }
  | { type: "mission.finished"; payload: { finalStatus: FinalStatus } };

export type MissionEventType = MissionEventBody["type"];

/** An event about to be appended: body plus the transition triple. */
export type NewMissionEvent = MissionEventBody & {
  reason: string;
  impact: string;
  evidence: Record<string, unknown> | null;
  /** Who this event is by, when not the appender (an agent's proposal, the authority's decision). */
  actorId?: string;
};

/** An event as stored in the log. */
export type MissionEvent = NewMissionEvent & {
  missionId: string;
  seq: number;
  actorId: string;
  at: string;
};

export const EVENT_TYPES: readonly MissionEventType[] = [
  "mission.created",
  "phase.started",
  "agent.started",
  "step.started",
  "proposal.submitted",
  "proposal.decided",
  "proposal.expired",
  "tool.succeeded",
  "tool.failed",
  "diagnostic_reflection",
  "diagnosis.proposal",
  "recovery.started",
  "recovery.fast_path",
  "recovery.step",
  "recovery.finished",
  "recovery.loop_detected",
  "library.hypotheses",
  "library.novel",
  "library.probe",
  "library.resolution",
  "library.resolved",
  "library.exhausted",
  "agent.completed",
  "agent.failed",
  "mission.warning",
  "gate.opened",
  "gate.approval",
  "gate.resolved",
  "phase.completed",
  "phase.failed",
  "mission.paused",
  "mission.resumed",
  "mission.aborted",
  "step.interrupted",
  "step.rerun",
  "compensation.started",
  "compensation.succeeded",
  "compensation.failed",
  "objective.checked",
  "mission.finished",
];

/** Idempotency key of one side effect (ARCHITECTURE: mission, agent, step, attempt). */
export function idempotencyKey(missionId: string, agent: string, step: number, attempt: number): string {
  return `${missionId}/${agent}/${step}/${attempt}`;
}

/** Idempotency key of helper step `index` of recovery attempt `attemptNo` on the step with key `stepKey`. */
export function recoveryStepKey(stepKey: string, attemptNo: number, index: number): string {
  return `${stepKey}/recovery/${attemptNo}/${index}`;
}

/** Idempotency key of the compensation of one step. */
export function compensationKey(missionId: string, agent: string, step: number, attempt: number): string {
  return `${idempotencyKey(missionId, agent, step, attempt)}/compensate`;
}
