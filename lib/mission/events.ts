import type { UserFacingError } from "../errors";
import type { DiagnosticReflectionEvent } from "../diagnosis/context-log";
import type { Diagnosis } from "../diagnosis/types";
import type { ToolError } from "../tools/result";
import type { MissionDefinition, Phase } from "./definition";
import type { AgentError, DiagnosisSummary, EvidenceRecord, FinalStatus, GateDecision, GateKind, GateOption, PauseKind } from "./types";

/**
 * Every mission event. Types are dotted lower case. Each event also carries, as columns,
 * the RFC 001 §3.1 transition triple: reason, impact and evidence.
 */
export type MissionEventBody =
  | { type: "mission.created"; payload: { definition: MissionDefinition } }
  | { type: "phase.started"; payload: { phase: Phase } }
  | { type: "agent.started"; payload: { agent: string; attempt: number } }
  | { type: "step.started"; payload: { agent: string; attempt: number; step: number; tool: string; idempotencyKey: string } }
  | { type: "tool.succeeded"; payload: { agent: string; attempt: number; step: number; data: Record<string, unknown>; evidence: EvidenceRecord[] } }
  | { type: "tool.failed"; payload: { agent: string; attempt: number; step: number; error: ToolError; evidence: EvidenceRecord[] } }
  /** ADR-0003: the "5 whys" diagnosis of a tool failure, with its ContextLog record. */
  | { type: "diagnostic_reflection"; payload: { agent: string; attempt: number; step: number; contextLog: DiagnosticReflectionEvent; diagnosis: Diagnosis } }
  | { type: "agent.completed"; payload: { agent: string; attempt: number } }
  | { type: "agent.failed"; payload: { agent: string; attempt: number; error: AgentError } }
  | { type: "mission.warning"; payload: { agent: string; message: string } }
  | { type: "gate.opened"; payload: { gateId: string; kind: GateKind; agent: string; phase: Phase; step: number | null; options: GateOption[]; error: UserFacingError; diagnosis?: DiagnosisSummary | null } }
  | { type: "gate.resolved"; payload: { gateId: string; decision: GateDecision; note: string | null; openMs: number } }
  | { type: "phase.completed"; payload: { phase: Phase; skipped?: boolean } }
  | { type: "phase.failed"; payload: { phase: Phase; reason: "agents_failed" | "timeout"; message: string } }
  | { type: "mission.paused"; payload: { kind: PauseKind; message: string } }
  | { type: "mission.resumed"; payload: { message: string } }
  | { type: "step.interrupted"; payload: { agent: string; attempt: number; step: number; idempotencyKey: string; idempotent: boolean } }
  | { type: "step.rerun"; payload: { agent: string; attempt: number; step: number; idempotencyKey: string; reason: "idempotent" | "operator" } }
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
  "tool.succeeded",
  "tool.failed",
  "diagnostic_reflection",
  "agent.completed",
  "agent.failed",
  "mission.warning",
  "gate.opened",
  "gate.resolved",
  "phase.completed",
  "phase.failed",
  "mission.paused",
  "mission.resumed",
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

/** Idempotency key of the compensation of one step. */
export function compensationKey(missionId: string, agent: string, step: number, attempt: number): string {
  return `${idempotencyKey(missionId, agent, step, attempt)}/compensate`;
}
