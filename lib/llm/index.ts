/** Framework-free LLM access: provider config, an OpenAI-compatible client, explicit fallback. */
export * from "./providers";
export * from "./client";
export * from "./chain";
