import { z } from "zod";
import { DECISIONS, FAILURE_REASONS, PENDING_REASONS, type Counterfactual, type DecisionRecord, type FailureExplanation, type HITLPrompt } from "./types";

/**
 * The seed 002 records an API answers with, as zod schemas: what the OpenAPI document (and the TypeScript
 * client typed from it) says a DecisionRecord, a Counterfactual and a HITLPrompt are. The types in
 * ./types.ts stay the source; the checks at the end fail to compile when the two part.
 */

export const counterfactualSchema = z
  .object({
    change: z
      .discriminatedUnion("type", [
        z.object({ type: z.literal("add_observation"), observation: z.unknown() }),
        z.object({ type: z.literal("relax_constraint"), constraint: z.string() }),
        z.object({ type: z.literal("increase_confidence"), to: z.number() }),
        z.object({ type: z.literal("resolve_ambiguity"), resolution: z.unknown() }),
        z.object({ type: z.literal("obtain_confirmation"), from: z.string() }),
      ])
      .meta({ description: "What would have to change" }),
    expectedOutcome: z.enum(["success", "different_failure"]),
    confidence: z.enum(["high", "medium", "low"]),
  })
  .meta({ id: "Counterfactual", description: "FDR-N015: the change under which the outcome would differ" });

export const decisionRecordSchema = z
  .object({
    decision: z.enum(DECISIONS),
    authority: z.string().meta({ description: "Who decided: `rule:<id>`, `allowlist`, `default-policy:<id>`, `evidence`, `level`, `hitl`, `authority-error`" }),
    level: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]).meta({ description: "Necessity level (FDR-N006)" }),
    verification: z.enum(["deterministic", "posterior_consistency", "semantic_audit", "user_confirmation"]),
    decidedBy: z.string().meta({ description: "Actor id of the decider" }),
    reason: z.string(),
    failureReason: z.enum(FAILURE_REASONS).nullable(),
    pendingReason: z.enum(PENDING_REASONS).nullable(),
    counterfactual: counterfactualSchema.nullable(),
    decisionTimeMs: z.number(),
    note: z.string().nullable(),
    decidedAt: z.string(),
    modified: z.object({ args: z.record(z.string(), z.unknown()), scope: z.object({ allowedPaths: z.array(z.string()).optional() }).optional() }).nullish(),
    argsDigest: z.string().nullish().meta({ description: "sha-256 of the canonical JSON of the args an approval binds to" }),
    expiresAt: z.string().nullish().meta({ description: "When an approval stops being valid" }),
  })
  .meta({ id: "DecisionRecord", description: "FDR-N013: every decision, by a rule, a level check or a person" });

export const hitlPromptSchema = z
  .object({
    situation: z.string(),
    currentState: z.string(),
    yourProposal: z.unknown(),
    whyPending: z.object({ reason: z.enum(PENDING_REASONS), details: z.record(z.string(), z.unknown()) }),
    options: z.array(
      z.discriminatedUnion("type", [
        z.object({ type: z.literal("retry"), description: z.string() }),
        z.object({ type: z.literal("modify"), description: z.string(), allowedModifications: z.array(z.string()) }),
        z.object({ type: z.literal("request_info"), description: z.string(), suggestedQuestions: z.array(z.string()) }),
        z.object({ type: z.literal("abort"), description: z.string() }),
      ]),
    ),
    responseFormat: z.unknown(),
  })
  .meta({ id: "HITLPrompt", description: "FDR-N017: what a person is asked about a pending proposal" });

export const failureExplanationSchema = z
  .object({
    kind: z.enum(["structural", "governance", "informational", "procedural", "resource"]),
    title: z.string(),
    description: z.string(),
    evidence: z.array(z.looseObject({ type: z.string() })),
    counterfactual: counterfactualSchema.nullable(),
  })
  .meta({ id: "FailureExplanation", description: "FDR-N005: why it failed, never blaming the model or the agent (FE-R3)" });

// The schemas and the types describe the same values, both ways (a compile error here means they parted).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _same: [
  Same<z.output<typeof counterfactualSchema>, Counterfactual>,
  Same<z.output<typeof decisionRecordSchema>, DecisionRecord>,
  Same<z.output<typeof hitlPromptSchema>, HITLPrompt>,
  Same<z.output<typeof failureExplanationSchema>, FailureExplanation>,
] = [true, true, true, true];
void _same;
