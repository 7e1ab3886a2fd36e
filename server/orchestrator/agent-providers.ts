import type { Env } from "../../lib/env";
import type { Provider } from "../../lib/llm/providers";
import { RECORDED_MODEL, RECORDED_PROVIDER_NAME } from "../model-replay";

/** What autonomous agents' models may use: the configured LLM providers, then the recorded provider when one runs (demo mode, e2e). */
export function agentProviders(e: Pick<Env, "FAULTLINE_LLM_PROVIDERS" | "FAULTLINE_RECORDED_PROVIDER">): Provider[] {
  const list = [...e.FAULTLINE_LLM_PROVIDERS];
  if (e.FAULTLINE_RECORDED_PROVIDER && !list.some((p) => p.name === RECORDED_PROVIDER_NAME)) list.push({ name: RECORDED_PROVIDER_NAME, baseUrl: e.FAULTLINE_RECORDED_PROVIDER.replace(/\/+$/, ""), model: RECORDED_MODEL, timeoutMs: 10_000 });
  return list;
}
