/**
 * The governance contract of seed 002 (LLM Necessity & Lab, parts I, II and IV): actors, proposals, the
 * authority's decisions and their records, necessity levels, failure explanations and HITL prompts.
 * Type names, enum values and rules (FE-R3, FE-R4, FP-5) are the document's; keep them.
 */

/** FDR-N002: every actor is one of three kinds, equal under the protocol. */
export const ACTOR_KINDS = ["human", "agent", "system"] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

export interface ActorRecord {
  actorId: string;
  kind: ActorKind;
  name: string;
  /** For agents: provider, model, role (belief_proposer, rule_interpreter, intent_parser, executor, reviewer). */
  meta: Record<string, unknown>;
}

/** FDR-N006: the four necessity levels. */
export type NecessityLevel = 0 | 1 | 2 | 3;

/** FDR-N008: level detection as a computed value. */
export interface LevelDetection {
  readonly observation: 0 | 1;
  readonly rules: 0 | 2;
  readonly language: 0 | 3;
  readonly detectedAt: number;
}

/** FDR-N005: failure as structure. */
export const FAILURE_REASONS = ["NO_EXECUTABLE_ACTION", "GOAL_UNREACHABLE", "AUTHORITY_REJECTION", "UNRESOLVED_AMBIGUITY", "HUMAN_REQUIRED", "TIMEOUT", "RESOURCE_EXHAUSTED"] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** FDR-N017: why a decision waits (before a decision; actionable), distinct from FailureReason. */
export const PENDING_REASONS = ["POLICY_HOLD", "LOW_CONFIDENCE", "LEVEL_REQUIRES_CONFIRMATION", "GATE_OPEN", "AGENT_ASKED"] as const;
export type PendingReason = (typeof PENDING_REASONS)[number];

/** FDR-N015. */
export type CounterfactualChange =
  | { type: "add_observation"; observation: unknown }
  | { type: "relax_constraint"; constraint: string }
  | { type: "increase_confidence"; to: number }
  | { type: "resolve_ambiguity"; resolution: unknown }
  | { type: "obtain_confirmation"; from: string };

export interface Counterfactual {
  change: CounterfactualChange;
  expectedOutcome: "success" | "different_failure";
  confidence: "high" | "medium" | "low";
}

/** FDR-N014: the verification method each level gets. */
export const VERIFICATION_METHODS = { 0: "deterministic", 1: "posterior_consistency", 2: "semantic_audit", 3: "user_confirmation" } as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[NecessityLevel];

/** What an actor proposes: one tool call (or the agent's `finish` / `ask`). */
export interface ProposedAction {
  tool: string;
  args: Record<string, unknown>;
}

export const DECISIONS = ["approved", "rejected", "pending"] as const;
export type Decision = (typeof DECISIONS)[number];

/** FDR-N013: every decision, by a rule, a level check or a person, has a DecisionRecord. */
export interface DecisionRecord {
  decision: Decision;
  /** Which authority decided: `rule:<id>`, `allowlist`, `default-policy:<id>`, `evidence`, `level`, `hitl`, `authority-error`. */
  authority: string;
  level: NecessityLevel;
  verification: VerificationMethod;
  /** Actor id of the decider: `system:authority` for rules, a person's or a reviewer agent's actor id for HITL. */
  decidedBy: string;
  reason: string;
  failureReason: FailureReason | null;
  pendingReason: PendingReason | null;
  /** FE-R4: when determinable. */
  counterfactual: Counterfactual | null;
  decisionTimeMs: number;
  note: string | null;
  decidedAt: string;
  /** Approve with modification: the args that will run (the approval binds to their digest) and a narrowed scope. */
  modified?: { args: Record<string, unknown>; scope?: { allowedPaths?: string[] } } | null;
  /** sha-256 of the canonical JSON of the args this decision binds to (approved only). */
  argsDigest?: string | null;
  /** When an approval stops being valid (approved only). */
  expiresAt?: string | null;
}

/** The rule effects of the mission's rules and the admin's default policy. Deny wins. */
export const RULE_EFFECTS = ["allow", "deny", "hold"] as const;
export type RuleEffect = (typeof RULE_EFFECTS)[number];

/** FDR-N017. */
export type HITLAction =
  | { type: "retry"; description: string }
  | { type: "modify"; description: string; allowedModifications: string[] }
  | { type: "request_info"; description: string; suggestedQuestions: string[] }
  | { type: "abort"; description: string };

export interface HITLPrompt {
  situation: string;
  /** Rendered by the renderer the console uses for the mission (one renderer for both audiences). */
  currentState: string;
  yourProposal: unknown;
  whyPending: { reason: PendingReason; details: Record<string, unknown> };
  options: HITLAction[];
  responseFormat: unknown;
}

/** FDR-N005: a structured explanation; FE-R3: it never blames the model or the agent. */
export interface FailureExplanation {
  kind: "structural" | "governance" | "informational" | "procedural" | "resource";
  title: string;
  description: string;
  evidence: Array<{ type: string; [key: string]: unknown }>;
  counterfactual: Counterfactual | null;
}

/** The authority's decider id for rule-made decisions. */
export const AUTHORITY_ACTOR_ID = "system:authority";
