import { ulid } from "ulid";
import { z } from "zod";
import type { Diagnosis, InputContext } from "./types";

/** The ADR-0003 ContextLog event `diagnostic_reflection`, with the document's fields. */

export const diagnosticReflectionEventSchema = z.object({
  id: z.string().min(1),
  ts: z.iso.datetime(),
  actor: z.string().min(1),
  act: z.literal("diagnostic_reflection"),
  conv_id: z.string().min(1),
  trace_id: z.string().min(1),
  iter: z.number().int().nonnegative(),
  name: z.literal("5_whys_analysis"),
  status: z.enum(["ok", "error"]),
  elapsed_ms: z.number().int().nonnegative(),
  metadata: z.object({
    failed_tool: z.string(),
    error_type: z.string(),
    root_cause: z.string(),
    recovery_strategy: z.string(),
    confidence: z.number().min(0).max(1),
    alternatives_count: z.number().int().nonnegative(),
  }),
  result_preview: z.string(),
});
export type DiagnosticReflectionEvent = z.infer<typeof diagnosticReflectionEventSchema>;

export interface ReflectionEventMeta {
  /** The conversation: in Faultline, the mission id. */
  convId: string;
  traceId: string;
  elapsedMs: number;
  actor?: string;
  status?: "ok" | "error";
  /** Defaults to a new ULID. */
  id?: string;
}

const PREVIEW_CHARS = 200;

/** "Root: git not installed; Recovery: curl_download_and_extract; Confidence: 0.9" */
export function resultPreview(d: Diagnosis): string {
  const strategy = d.alternatives.find((a) => a.strategy === d.recoveryPlan.strategy);
  const root = d.rootCause.description.replace(/ \(".*"\)$/s, ""); // without the quoted output line
  const text = `Root: ${root}; Recovery: ${d.recoveryPlan.strategy}; Confidence: ${strategy?.confidence ?? d.rootCause.confidence}`;
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
}

export function diagnosticReflectionEvent(input: InputContext, d: Diagnosis, meta: ReflectionEventMeta): DiagnosticReflectionEvent {
  const plan = d.alternatives.find((a) => a.strategy === d.recoveryPlan.strategy);
  return {
    id: meta.id ?? ulid(Date.parse(d.timestamp)),
    ts: d.timestamp,
    actor: meta.actor ?? "system",
    act: "diagnostic_reflection",
    conv_id: meta.convId,
    trace_id: meta.traceId,
    iter: d.iteration,
    name: "5_whys_analysis",
    status: meta.status ?? "ok",
    elapsed_ms: Math.max(0, Math.round(meta.elapsedMs)),
    metadata: {
      failed_tool: input.failure.tool,
      error_type: d.errorClassification.type,
      root_cause: d.rootCause.category,
      recovery_strategy: d.recoveryPlan.strategy,
      confidence: plan?.confidence ?? d.rootCause.confidence,
      alternatives_count: d.alternatives.length,
    },
    result_preview: resultPreview(d),
  };
}
