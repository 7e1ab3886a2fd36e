import { z } from "zod";
import { completeWithFallback, type FallbackData } from "../llm/chain";
import type { ChatMessage } from "../llm/client";
import { providersFromEnv, type Provider } from "../llm/providers";
import { errorMessage } from "./util";
import { fail, ok, type Tool, type ToolContext, type ToolResult } from "./result";

/**
 * The `llm` tool: one chat completion through the configured providers, in fallback order
 * (lib/llm/chain.ts). Every attempt is in `data.attempts` (and in `error.details.attempts` on
 * failure). When every provider fails the error has `details.allProvidersFailed = true`: the mission
 * runner pauses the mission on it — there is no placeholder output.
 *
 * Args: { prompt, system?, maxTokens?, temperature?, expectJson? }.
 * Data: { content, json? (expectJson and the content parsed), jsonError? (expectJson and it did not),
 *         provider, model, finishReason, usage, attempts }.
 */

export const llmArgsSchema = z.strictObject({
  prompt: z.string().min(1, "must not be empty"),
  system: z.string().min(1, "must not be empty (leave it out instead)").optional(),
  maxTokens: z.number().int().positive().max(1_000_000).optional(),
  temperature: z.number().min(0).max(2).optional(),
  expectJson: z.boolean().optional(),
});
export type LlmArgs = z.infer<typeof llmArgsSchema>;

export type LlmData = Omit<FallbackData, "content"> & { content: string; json?: unknown; jsonError?: string };

/** JSON from a model's answer: the whole text, or the body of a single ``` fenced block. */
export function parseModelJson(content: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  const trimmed = content.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/i.exec(trimmed);
  const text = fenced ? fenced[1] : trimmed;
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, reason: errorMessage(e) };
  }
}

export function createLlmTool(getProviders: () => Provider[]): Tool<LlmArgs> {
  return {
    name: "llm",
    description: "Ask an LLM (OpenAI-compatible providers from FAULTLINE_LLM_PROVIDERS, tried in order; every fallback is recorded).",
    args: llmArgsSchema,
    // A completion changes nothing outside Faultline: re-running it cannot duplicate a side effect.
    idempotent: true,
    async run(args: LlmArgs, ctx: ToolContext): Promise<ToolResult> {
      let providers: Provider[];
      try {
        providers = getProviders();
      } catch (e) {
        return fail({ code: "NOT_FOUND", message: `No usable LLM provider: ${errorMessage(e)}`, details: { noProvidersConfigured: true, allProvidersFailed: false, attempts: [] } });
      }
      const messages: ChatMessage[] = [...(args.system ? [{ role: "system" as const, content: args.system }] : []), { role: "user", content: args.prompt }];
      const limit = new AbortController();
      const timer = setTimeout(() => limit.abort(new Error(`the step's time limit of ${ctx.timeoutMs} ms passed`)), ctx.timeoutMs);
      try {
        const result = await completeWithFallback(
          providers,
          { messages, maxTokens: args.maxTokens, temperature: args.temperature, json: args.expectJson },
          AbortSignal.any([ctx.signal, limit.signal]),
          { idempotencyKey: ctx.idempotencyKey },
        );
        if (!result.ok) return result;
        const data: LlmData = { ...result.data };
        if (args.expectJson) {
          const parsed = parseModelJson(data.content);
          if (parsed.ok) data.json = parsed.value;
          else data.jsonError = `expectJson was set but ${data.provider}'s answer is not JSON (${parsed.reason})`;
        }
        return ok(data);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

let envProviders: Provider[] | undefined;
/** FAULTLINE_LLM_PROVIDERS, read once per process (a malformed value is reported on every call, not cached). */
function providersFromEnvOnce(): Provider[] {
  return (envProviders ??= providersFromEnv());
}

export const llmTool: Tool<LlmArgs> = createLlmTool(providersFromEnvOnce);
