import type { ErrorOption, UserFacingError } from "../errors";
import type { ToolError } from "../tools/result";
import type { EvidenceRecord } from "../tools/evidence";
import type { MissionDefinition, Phase, Priority } from "./definition";

export type { EvidenceRecord };

/** RFC 001 §3.1 canonical phases, including the start and the two terminal ones. */
export type MissionPhase = "MISSION_STARTED" | Phase | "MISSION_COMPLETED" | "FAILED";
export type RunState = "queued" | "running" | "paused" | "completed" | "failed";
export type AgentStatus = "pending" | "running" | "completed" | "failed" | "skipped";
export type StepStatus = "running" | "succeeded" | "failed";
export type FinalStatus = "SUCCESS" | "PARTIAL_SUCCESS" | "FAILED";
export type GateDecision = "retry" | "skip" | "abort";

/** FAILURE_MODEL AgentErrorCode. */
export const AGENT_ERROR_CODES = ["RATE_LIMIT_EXCEEDED", "TIMEOUT", "INVALID_OUTPUT", "VALIDATION_FAILED", "PROVIDER_ERROR", "INTERNAL_ERROR"] as const;
export type AgentErrorCode = (typeof AGENT_ERROR_CODES)[number];

export interface AgentError {
  code: AgentErrorCode;
  message: string;
  recoverable: boolean;
  retryAfter?: number;
  context: { step: number; stepName: string; tool: string; toolError: ToolError };
}

export interface StepState {
  index: number;
  tool: string;
  status: StepStatus;
  idempotencyKey: string;
  evidence: EvidenceRecord[];
  error: ToolError | null;
}

export interface AgentState {
  name: string;
  phase: Phase;
  priority: Priority;
  status: AgentStatus;
  /** 0 before the first run; each (re)start increments it. */
  attempt: number;
  steps: StepState[];
  error: AgentError | null;
  /** True once an optional agent's failure was logged as a warning and the mission went on. */
  tolerated: boolean;
}

export interface GateOption extends ErrorOption {
  action: GateDecision;
}

export interface GateState {
  id: string;
  agent: string;
  phase: Phase;
  status: "open" | "resolved";
  options: GateOption[];
  error: UserFacingError;
  openedAt: string;
  openedSeq: number;
  decision: GateDecision | null;
  decidedBy: string | null;
  note: string | null;
  decidedAt: string | null;
  openMs: number | null;
}

export interface MissionState {
  id: string;
  name: string;
  definition: MissionDefinition;
  phase: MissionPhase;
  runState: RunState;
  seq: number;
  agents: Record<string, AgentState>;
  /** Agent names in execution order. */
  agentOrder: string[];
  /** Phases of the definition whose `phase.completed` was recorded. */
  completedPhases: Phase[];
  gates: GateState[];
  objective: { checked: boolean; passed: boolean | null; evidence: EvidenceRecord[] };
  aborted: boolean;
  warnings: number;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
  finalStatus: FinalStatus | null;
}
