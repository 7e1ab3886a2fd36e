import { z } from "zod";
import { isHttpUrl } from "../tools/util";

/**
 * LLM providers: OpenAI-compatible endpoints, configured with the environment variable
 * FAULTLINE_LLM_PROVIDERS, a JSON array in fallback order:
 *
 *   FAULTLINE_LLM_PROVIDERS='[{"name":"local","baseUrl":"http://127.0.0.1:11434/v1","model":"llama3.1"},
 *                            {"name":"openai","baseUrl":"https://api.openai.com/v1","apiKey":"sk-…","model":"gpt-4o-mini","timeoutMs":30000}]'
 *
 * Absent or empty means "no LLM": necessity level 0, everything else works without it; the `llm`
 * tool then fails with a message saying so. Framework-free (no Next.js, no database).
 */

export const DEFAULT_PROVIDER_TIMEOUT_MS = 60_000;


export const providerSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(60, "must be at most 60 characters")
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, "may contain letters, digits, '_', '.', '-' and must start with a letter or digit"),
  /** Base URL of the OpenAI-compatible API, e.g. https://api.openai.com/v1 (no trailing /chat/completions). */
  baseUrl: z
    .string()
    .refine(isHttpUrl, "must be an absolute http:// or https:// URL")
    .transform((u) => u.replace(/\/+$/, "")),
  apiKey: z.string().min(1, "must not be empty (leave it out instead)").optional(),
  model: z.string().trim().min(1, "must name the model"),
  timeoutMs: z.number().int().positive().max(600_000).default(DEFAULT_PROVIDER_TIMEOUT_MS),
});
export type Provider = z.output<typeof providerSchema>;
export type ProviderInput = z.input<typeof providerSchema>;

export const providersSchema = z.array(providerSchema).superRefine((list, ctx) => {
  const seen = new Set<string>();
  list.forEach((p, i) => {
    if (seen.has(p.name)) ctx.addIssue({ code: "custom", path: [i, "name"], message: `"${p.name}" is used twice; provider names must be unique` });
    seen.add(p.name);
  });
});

export class ProviderConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProviderConfigError";
  }
}

/** [1].baseUrl */
function formatIssuePath(path: readonly PropertyKey[]): string {
  return path.map((k) => (typeof k === "number" ? `[${k}]` : `.${String(k)}`)).join("").replace(/^\./, "");
}

/**
 * Parses FAULTLINE_LLM_PROVIDERS' text. Empty/absent → []. Throws ProviderConfigError naming the
 * variable and every problem (with the provider's index) — the API key is never echoed.
 */
export function parseProviders(text: string | undefined | null): Provider[] {
  if (text === undefined || text === null || text.trim() === "") return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ProviderConfigError(`FAULTLINE_LLM_PROVIDERS is not valid JSON (${e instanceof Error ? e.message : String(e)}). It must be a JSON array like [{"name":"local","baseUrl":"http://127.0.0.1:8080/v1","model":"m"}].`);
  }
  const parsed = providersSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${formatIssuePath(i.path) || "(value)"}: ${i.message}`);
    throw new ProviderConfigError(`FAULTLINE_LLM_PROVIDERS is not valid: ${problems.join("; ")}. Each entry needs {name, baseUrl, model} and may have apiKey and timeoutMs.`);
  }
  return parsed.data;
}

/** Providers from the environment (FAULTLINE_LLM_PROVIDERS). Throws ProviderConfigError when malformed. */
export function providersFromEnv(source: Record<string, string | undefined> = process.env): Provider[] {
  return parseProviders(source.FAULTLINE_LLM_PROVIDERS);
}

/** A provider as it may be shown to people: never the API key. */
export function describeProvider(p: Provider): { name: string; baseUrl: string; model: string; timeoutMs: number; hasApiKey: boolean } {
  return { name: p.name, baseUrl: p.baseUrl, model: p.model, timeoutMs: p.timeoutMs, hasApiKey: p.apiKey !== undefined };
}
