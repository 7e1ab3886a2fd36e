import type { GateApproval, GateDecision, GateKind, GatePolicySnapshot } from "./gate-policy";
import type { ErrorOption, UserFacingError } from "../errors";
import type { ToolError } from "../tools/result";
import type { EvidenceRecord } from "../tools/evidence";
import type { MissionDefinition, Phase, Priority } from "./definition";
import type { RecoveryStep } from "../diagnosis/types";
import type { ProbeAction, ResolutionAction, RiskLevel } from "../library/entry";
import type { DecisionRecord, FailureReason, HITLPrompt, NecessityLevel, ProposedAction } from "../authority/types";

export { GATE_DECISIONS, type GateDecision, type GateKind } from "./gate-policy";

export type { EvidenceRecord };

/** RFC 001 §3.1 canonical phases, including the start and the two terminal ones. */
export type MissionPhase = "MISSION_STARTED" | Phase | "MISSION_COMPLETED" | "FAILED";
export type RunState = "queued" | "running" | "paused" | "completed" | "failed";
export type AgentStatus = "pending" | "running" | "completed" | "failed" | "skipped";
/** `interrupted`: started, but its worker died before recording a result. */
export type StepStatus = "running" | "succeeded" | "failed" | "interrupted";
export type FinalStatus = "SUCCESS" | "PARTIAL_SUCCESS" | "FAILED";
/** `agent`: an external agent went silent past its heartbeat timeout (issue 15). */
export type PauseKind = "operator" | "infrastructure" | "client" | "agent";

/** FAILURE_MODEL AgentErrorCode. */
export const AGENT_ERROR_CODES = ["RATE_LIMIT_EXCEEDED", "TIMEOUT", "INVALID_OUTPUT", "VALIDATION_FAILED", "PROVIDER_ERROR", "INTERNAL_ERROR"] as const;
export type AgentErrorCode = (typeof AGENT_ERROR_CODES)[number];

export interface AgentError {
  code: AgentErrorCode;
  message: string;
  recoverable: boolean;
  retryAfter?: number;
  context: { step: number; stepName: string; tool: string; toolError: ToolError };
  /** Seed 002 FailureReason, when the agent stopped for a structural reason (an autonomous agent's budget, time, no action). */
  failureReason?: FailureReason | null;
}

export interface StepState {
  index: number;
  tool: string;
  status: StepStatus;
  idempotencyKey: string;
  evidence: EvidenceRecord[];
  error: ToolError | null;
  /** How many times the step was re-run after an interruption (same idempotency key). */
  reruns: number;
  /** An operator chose to resume this interrupted step. */
  resumeApproved: boolean;
  /** The "5 whys" diagnosis of this step's failure (ADR-0003), when it failed. */
  diagnosis?: DiagnosisSummary | null;
}

/** What the console shows of a diagnosis; the full one is in the `diagnostic_reflection` event. */
export interface DiagnosisSummary {
  id: string;
  whyChain: string[];
  rootCause: { category: string; description: string; confidence: number };
  type: string;
  severity: string;
  canRecover: boolean;
  alternatives: Array<{ strategy: string; description: string; confidence: number }>;
  recoveryStrategy: string;
  recoverySteps: Array<{ action: string; tool: string; args?: Record<string, unknown>; expectedOutcome: string }>;
  fallbackChain: string[];
}

export interface AgentState {
  name: string;
  phase: Phase;
  priority: Priority;
  status: AgentStatus;
  /** 0 before the first run; each (re)start increments it. */
  attempt: number;
  /** When the current attempt started (the agent's timeout counts from here). */
  startedAt: string | null;
  steps: StepState[];
  error: AgentError | null;
  /** True once an optional agent's failure was logged as a warning and the mission went on. */
  tolerated: boolean;
  /** High-risk steps an operator approved for the current attempt. */
  approvedSteps: number[];
  /** A compensation undid (or tried to undo) a step of the current attempt: its evidence no longer counts. */
  undone?: boolean;
  /** ADR-0003: the recovery running on the failed step (helper steps, then the step again). */
  recovery: ActiveRecovery | null;
  /** An operator chose "Apply recovery plan": the recovery starts at the next boundary. */
  pendingRecovery: RecoveryPlan | null;
  /** Recovery attempts of the current attempt and their outcomes (at most AUTONOMOUS_MAX_RECOVERY_ATTEMPTS per step). */
  recoveries: RecoveryRecord[];
  /** The latest failing action and how often in a row it failed the same way (the stuck-loop detector). */
  repeatedFailure: RepeatedFailure | null;
  /** The failure-mode library's walk over the hypotheses of a failed step (000 Output Protocol). */
  library: LibraryWalk | null;
  /** Steps whose failure already consulted the library in the current attempt (once per failure). */
  libraryConsulted: number[];
  /** An autonomous agent's loop (issue 14); null for scripted agents. */
  autonomous?: AutonomousAgentState | null;
  /**
   * Only in a view of the state (the mission page's, lib/views/state-view.ts), never stored: the first
   * `steps` steps of the current attempt — all succeeded — are left out of `steps` and of the agent's
   * steps in the view's definition; `definedSteps` is how many steps the whole definition has. Read a
   * step through stepAt / stepCount (lib/mission/steps.ts).
   */
  elided?: { steps: number; definedSteps: number };
}

/** Where an autonomous agent's loop stands in its current attempt. */
export interface AutonomousAgentState {
  /** Proposals submitted in the current attempt (the maxActions budget). */
  actions: number;
  /** `finish` was approved: the evidence the authority checked (never the model's claim; FP-5). */
  finished: { proposalId: string; evidence: EvidenceRecord[] } | null;
}

/** A proposal: the read model of its `proposal.*` events (seed 002 FDR-N003). */
export interface ProposalState {
  id: string;
  agent: string;
  attempt: number;
  /** The agent actor that proposed (kind agent), or an external caller's actor. */
  actorId: string;
  action: ProposedAction;
  /** sha-256 of the canonical JSON of the proposed args. */
  argsDigest: string;
  level: NecessityLevel;
  /** The model's tool call id (or an external agent's callId). */
  callId: string | null;
  submittedAt: string;
  submittedSeq: number;
  status: "pending" | "approved" | "rejected" | "expired";
  decision: DecisionRecord | null;
  /** The gate a pending proposal opened (its HITL prompt is on the gate). */
  gateId: string | null;
  /** The step an approved tool proposal became, once it started. */
  step: number | null;
  /** What the proposer was told came of it: the ToolResult in short, or the decision. */
  outcome: string | null;
}


/** A gate's explanation; library gates (and the exhausted escalation) also carry the hypothesis. */
export type GateError = UserFacingError & { library?: LibraryGateInfo };

export interface GateOption extends ErrorOption {
  action: GateDecision;
  /** Keyboard shortcut on a focused gate. */
  key: string;
}

export interface GateState {
  id: string;
  kind: GateKind;
  agent: string;
  phase: Phase;
  /** The step concerned (approval and recovery gates). */
  step: number | null;
  status: "open" | "resolved";
  options: GateOption[];
  error: GateError;
  /** The "5 whys" diagnosis of the failure behind an agent gate. */
  diagnosis: DiagnosisSummary | null;
  /** The recovery plan offered as "Apply recovery plan" (policy propose, or auto not allowed here). */
  recoveryPlan: RecoveryPlan | null;
  /** Why no recovery was applied automatically (attempts used, stuck loop, policy, risk). */
  recoveryNote: string | null;
  openedAt: string;
  openedSeq: number;
  decision: GateDecision | null;
  decidedBy: string | null;
  note: string | null;
  decidedAt: string | null;
  openMs: number | null;
  /** The gate policy in force when the gate opened (issue 6), or null: anyone with gate.decide, one decision. */
  policy: GatePolicySnapshot | null;
  /** When the policy's timeout decides as the system (null: never). */
  deadlineAt: string | null;
  /** Distinct people's choices so far, on a gate whose policy needs several approvals. */
  approvals: GateApproval[];
  /** A proposal gate's proposal and its HITL prompt (FDR-N017). */
  proposalId?: string | null;
  prompt?: HITLPrompt | null;
}

export interface MissionState {
  /** Shape version of this snapshot (STATE_VERSION); older snapshots are rebuilt from the events. */
  version: number;
  /** Set at start when rebuilding this older snapshot failed because its events no longer replay: the STATE_VERSION that refused them (not tried again under it). */
  replayRefused?: number;
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
  /** Every proposal of the mission's agents, in submission order (seed 002). */
  proposals: ProposalState[];
  objective: { checked: boolean; passed: boolean | null; evidence: EvidenceRecord[] };
  aborted: boolean;
  /** A pause not caused by a gate: operator, infrastructure or client. */
  paused: { kind: PauseKind; message: string; at: string } | null;
  /** The user actor who owns the mission (started it, or last resumed it). */
  owner: string;
  /** Who created the mission (its `mission.created` actor): gate policies may refuse them (issue 6). */
  startedBy: string;
  /** When the current phase started (phase timeouts count from here). */
  phaseStartedAt: string | null;
  /** The current phase failed (agents failed or timeout) and awaits its gate's decision. */
  phaseFailure: { phase: Phase; reason: "agents_failed" | "timeout"; message: string } | null;
  /** Every step that succeeded, in order: the saga's log for compensation. */
  completedSteps: Array<{ agent: string; attempt: number; step: number }>;
  /** Compensations to run (reverse order of completion), and their outcomes. */
  compensations: CompensationState[];
  /** Binaries a person allowed at a gate for this mission only, through the authority (allow_binary). */
  allowlistGrants: AllowlistGrant[];
  warnings: number;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
  finalStatus: FinalStatus | null;
}

export interface AllowlistGrant {
  binary: string;
  /** The agent whose refused step led to the grant, and the gate that granted it. */
  agent: string;
  gateId: string;
  by: string;
  at: string;
}

export interface CompensationState {
  agent: string;
  attempt: number;
  step: number;
  idempotencyKey: string;
  status: "pending" | "running" | "succeeded" | "failed";
  error: ToolError | null;
}

// ─── Recovery (ADR-0003) as the mission state carries it; lib/mission/recovery.ts plans it.

/** A learned pattern as the planner sees it. */
export interface PatternRef {
  id: string;
  when: string;
  then: string;
  successes: number;
  failures: number;
  confidence: number;
  threshold: number;
  enabled: boolean;
}

/** A recovery the orchestrator can run: the strategy, its concrete steps, and where it came from. */
export interface RecoveryPlan {
  strategy: string;
  description: string;
  /** Helper steps, then one `retry` step (re-run the failed step with these argument changes). */
  steps: RecoveryStep[];
  tools: string[];
  /** `pattern`: a learned pattern chose the strategy without full reflection (fast path). */
  source: "diagnosis" | "pattern";
  pattern: PatternRef | null;
  /** The learned-pattern trigger of the failure. */
  when: string;
  diagnosisId: string;
  errorType: string;
  rootCause: string;
}

/** A recovery in progress on an agent's failed step. */
export interface ActiveRecovery extends RecoveryPlan {
  step: number;
  attemptNo: number;
  /** Who started it: the auto policy, or an operator's "Apply recovery plan". */
  by: "auto" | "operator";
  /** Helper steps completed so far. */
  done: number;
}

/** One recovery attempt of the agent's current attempt, and how it ended. */
export interface RecoveryRecord {
  step: number;
  attemptNo: number;
  strategy: string;
  source: RecoveryPlan["source"];
  outcome: "succeeded" | "failed" | "abandoned";
}

export interface RepeatedFailure {
  step: number;
  signature: string;
  count: number;
}

// ─── The failure-mode library's walk as the mission state carries it; lib/mission/library.ts drives it.

/** A ranked hypothesis as recorded in `library.hypotheses`: the entry as it was when it was consulted. */
export interface LibraryHypothesis {
  failure_id: string;
  rank: number;
  match_score: number;
  title: string;
  category: string;
  risk_level: RiskLevel;
  risk_notes: string | null;
  diagnostic_probe: string;
  resolution_path: string;
  probe_action: ProbeAction | null;
  resolution_action: ResolutionAction | null;
}

export type HypothesisOutcome = "confirmed" | "rejected" | "resolved" | "unresolved" | "skipped";

/** The walk over a failed step's hypotheses (AgentState.library). */
export interface LibraryWalk {
  step: number;
  /** seq of the `library.hypotheses` event (the library_matches key). */
  seq: number;
  hypotheses: Array<LibraryHypothesis & { outcome: HypothesisOutcome | null }>;
  /** The hypothesis being worked on (index into hypotheses). */
  current: number;
  /** probe → (confirmed) resolve → rerun; rejected or unresolved → the next hypothesis's probe. */
  stage: "probe" | "resolve" | "rerun";
  /** A Requires-Oversight hypothesis's probe was allowed by an operator (Layer 4). */
  oversightApproved: boolean;
  /** Its probe/resolution action could not run or decide: an operator is asked instead. */
  actionFailed: boolean;
  /** An operator's decision at a library gate, recorded as a library event at the next boundary. */
  decision: { stage: LibraryGateStage; decision: GateDecision } | null;
}

export type LibraryGateStage = "oversight" | "probe" | "resolution";

/** What a library gate (and the exhausted escalation) shows about the hypothesis. */
export interface LibraryGateInfo {
  stage: LibraryGateStage | "exhausted";
  failure_id: string | null;
  title: string | null;
  risk_level: RiskLevel | null;
  risk_notes: string | null;
  match_score: number | null;
  rank: number | null;
  total: number;
  diagnostic_probe: string | null;
  resolution_path: string | null;
  /** Why an action did not run by itself (no action, risk, unknown placeholder, failed run). */
  note: string | null;
  /** The exhausted escalation: flagged for investigation, with every hypothesis tried. */
  flagged: boolean;
  tried: Array<{ failure_id: string; title: string; outcome: HypothesisOutcome | null }>;
}
