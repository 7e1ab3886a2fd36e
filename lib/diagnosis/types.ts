import { z } from "zod";

/**
 * Schemas of ADR-0003 "Diagnostic Reflection": the Input Context a failed tool call is described
 * with, and the Output Diagnosis produced for it. Field names are the document's.
 *
 * The input is lenient where a user may pass raw JSON (the CLI): `context` and its members have
 * defaults, and `error.code` may also be a numeric string or an errno/tool-code string.
 * Beyond the document, `error` may carry what Faultline's ToolError knows (`errno`, HTTP `status`,
 * `retryAfterMs`, `toolCode`); all optional, and the classifier never needs them.
 */

export const ERROR_TYPES = [
  "tool_not_found",
  "command_not_found",
  "permission_denied",
  "invalid_arguments",
  "timeout",
  "output_too_large",
  "rate_limited",
  "network_error",
  "syntax_error",
  "environment_missing",
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];
/** The ten types of the taxonomy, plus `unknown` when no evidence fits. */
export type DiagnosedType = ErrorType | "unknown";
export const DIAGNOSED_TYPES: readonly DiagnosedType[] = [...ERROR_TYPES, "unknown"];

export const SEVERITIES = ["recoverable", "user_action_required", "fatal"] as const;
export type Severity = (typeof SEVERITIES)[number];

const probability = z.number().min(0).max(1);

/** A string code that is not a number is an errno name ("ENOENT") or a tool error code ("TIMEOUT"). */
function normalizeErrorCode(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null) return raw;
  const e = { ...(raw as Record<string, unknown>) };
  if (typeof e.code === "string") {
    const code = e.code.trim();
    if (/^-?\d+$/.test(code)) e.code = Number(code);
    else {
      delete e.code;
      if (/^E[A-Z0-9_]+$/.test(code)) e.errno ??= code;
      else e.toolCode ??= code;
    }
  }
  return e;
}

export const failureErrorSchema = z.preprocess(
  normalizeErrorCode,
  z.object({
    message: z.string(),
    code: z.number().int().nullable().optional(),
    stdout: z.string().optional(),
    stderr: z.string().optional(),
    signal: z.string().nullable().optional(),
    // Faultline ToolError extras (optional; see from-tool-error.ts)
    errno: z.string().optional(),
    status: z.number().int().optional(),
    retryAfterMs: z.number().int().nonnegative().optional(),
    toolCode: z.string().optional(),
  }),
);
export type FailureError = z.infer<typeof failureErrorSchema>;

export const previousActionSchema = z.object({
  tool: z.string(),
  args: z.unknown(),
  result: z.string().default(""),
  success: z.boolean(),
});
export type PreviousAction = z.infer<typeof previousActionSchema>;

export const diagnosisContextSchema = z.object({
  iteration: z.number().int().nonnegative().default(0),
  previousActions: z.array(previousActionSchema).default([]),
  availableTools: z.array(z.string()).default([]),
  workspaceState: z
    .object({ files: z.array(z.string()).default([]), directories: z.array(z.string()).default([]) })
    .default({ files: [], directories: [] }),
  taskGoal: z.string().default(""),
});
export type DiagnosisContext = z.infer<typeof diagnosisContextSchema>;
export type DiagnosisContextInput = z.input<typeof diagnosisContextSchema>;

export const inputContextSchema = z.object({
  failure: z.object({
    tool: z.string().min(1),
    args: z.record(z.string(), z.unknown()).default({}),
    error: failureErrorSchema,
  }),
  context: diagnosisContextSchema.default(() => diagnosisContextSchema.parse({})),
});
/** What a caller provides (defaults not yet applied). */
export type InputContextInput = z.input<typeof inputContextSchema>;
export type InputContext = z.infer<typeof inputContextSchema>;

export const whyChainSchema = z
  .record(z.string().regex(/^why[1-9][0-9]*$/), z.string().min(1))
  .refine((chain) => Object.keys(chain).every((k, i) => k === `why${i + 1}`), "whys must be why1, why2, … in order");
/** why1 … whyN (N = AUTONOMOUS_DIAGNOSTIC_WHY_DEPTH). */
export type WhyChain = Record<`why${number}`, string>;

export const alternativeSchema = z.object({
  strategy: z.string().min(1),
  tools: z.array(z.string()),
  description: z.string().min(1),
  confidence: probability,
  estimatedIterations: z.number().int().positive(),
});
export type Alternative = z.infer<typeof alternativeSchema>;

export const recoveryStepSchema = z.object({
  action: z.string().min(1),
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()),
  expectedOutcome: z.string().min(1),
});
export type RecoveryStep = z.infer<typeof recoveryStepSchema>;

export const diagnosisSchema = z.object({
  id: z.string().min(1),
  timestamp: z.iso.datetime(),
  iteration: z.number().int().nonnegative(),
  whyChain: whyChainSchema,
  rootCause: z.object({ category: z.string().min(1), description: z.string().min(1), confidence: probability }),
  errorClassification: z.object({
    type: z.enum([...ERROR_TYPES, "unknown"]),
    severity: z.enum(SEVERITIES),
    canRecover: z.boolean(),
  }),
  alternatives: z.array(alternativeSchema).min(3),
  recoveryPlan: z.object({
    priority: z.number().int().positive(),
    strategy: z.string().min(1),
    steps: z.array(recoveryStepSchema).min(1),
    fallbackChain: z.array(z.string()),
  }),
  learningOpportunity: z.object({
    pattern: z.string().min(1),
    rule: z.string().min(1),
    applicableTaskTypes: z.array(z.string()),
    generalizability: probability,
  }),
});
export type Diagnosis = z.infer<typeof diagnosisSchema>;
