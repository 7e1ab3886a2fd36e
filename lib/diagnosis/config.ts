import { z } from "zod";

/**
 * ADR-0003 configuration flags, zod-validated, with the document's defaults.
 * A bad value is reported with the variable's name and what it must be.
 */

const flag = (def: boolean) =>
  z
    .enum(["0", "1", "true", "false", "yes", "no", "on", "off"], { error: "must be 1/0, true/false, yes/no or on/off" })
    .transform((v) => v === "1" || v === "true" || v === "yes" || v === "on")
    .default(def);
const int = (def: number, min: number, max: number) =>
  z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(min).max(max).default(def);

export const diagnosisConfigSchema = z.object({
  /** Run diagnostic reflection after every tool failure. */
  AUTONOMOUS_DIAGNOSTIC_REFLECTION_ENABLED: flag(true),
  /** Depth of the why-chain. */
  AUTONOMOUS_DIAGNOSTIC_WHY_DEPTH: int(5, 1, 10),
  /** Temperature of the optional LLM reflection. */
  AUTONOMOUS_DIAGNOSTIC_TEMP: z.coerce.number({ error: "must be a number" }).min(0).max(2).default(0.2),
  /** Token budget of the optional LLM reflection. */
  AUTONOMOUS_DIAGNOSTIC_MAX_TOKENS: int(1024, 64, 32_768),
  /** Recovery attempts per failure before the operator decides. */
  AUTONOMOUS_MAX_RECOVERY_ATTEMPTS: int(2, 0, 10),
  /** Apply learned patterns without full reflection. */
  AUTONOMOUS_FAST_RECOVERY_ENABLED: flag(true),
  /** Keep the full diagnostic context in memory records. */
  AUTONOMOUS_STORE_FULL_DIAGNOSTICS: flag(true),
});
export type DiagnosisConfig = z.infer<typeof diagnosisConfigSchema>;

export class DiagnosisConfigError extends Error {}

/** Read the flags from an environment (unset and empty values take the defaults). */
export function loadDiagnosisConfig(source: Record<string, string | undefined> = process.env): DiagnosisConfig {
  const keys = Object.keys(diagnosisConfigSchema.shape);
  const present = Object.fromEntries(keys.flatMap((k) => (source[k] === undefined || source[k] === "" ? [] : [[k, source[k]!.trim()]])));
  const parsed = diagnosisConfigSchema.safeParse(present);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `  ${String(i.path[0])}: ${i.message} (got ${JSON.stringify(present[String(i.path[0])])})`);
  throw new DiagnosisConfigError(`Invalid diagnostic reflection settings:\n${lines.join("\n")}`);
}
