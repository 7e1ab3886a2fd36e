import type { UserFacingError } from "../errors";
import type { ToolError } from "../tools/result";
import type { MissionDefinition, Phase } from "./definition";
import type { AgentError, EvidenceRecord, FinalStatus, GateDecision, GateOption } from "./types";

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
  | { type: "agent.completed"; payload: { agent: string; attempt: number } }
  | { type: "agent.failed"; payload: { agent: string; attempt: number; error: AgentError } }
  | { type: "mission.warning"; payload: { agent: string; message: string } }
  | { type: "gate.opened"; payload: { gateId: string; agent: string; phase: Phase; options: GateOption[]; error: UserFacingError } }
  | { type: "gate.resolved"; payload: { gateId: string; decision: GateDecision; note: string | null; openMs: number } }
  | { type: "phase.completed"; payload: { phase: Phase } }
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
  "agent.completed",
  "agent.failed",
  "mission.warning",
  "gate.opened",
  "gate.resolved",
  "phase.completed",
  "objective.checked",
  "mission.finished",
];

/** Idempotency key of one side effect (ARCHITECTURE: mission, agent, step, attempt). */
export function idempotencyKey(missionId: string, agent: string, step: number, attempt: number): string {
  return `${missionId}/${agent}/${step}/${attempt}`;
}
