import { describe, expect, it } from "vitest";
import { describeProvider, parseProviders, ProviderConfigError, providersFromEnv } from "./providers";

describe("LLM provider config (FAULTLINE_LLM_PROVIDERS)", () => {
  it("absent or empty means no LLM", () => {
    expect(parseProviders(undefined)).toEqual([]);
    expect(parseProviders("  ")).toEqual([]);
    expect(providersFromEnv({})).toEqual([]);
    expect(parseProviders("[]")).toEqual([]);
  });

  it("parses providers in fallback order with defaults, trimming the base URL", () => {
    const list = parseProviders(
      JSON.stringify([
        { name: "local", baseUrl: "http://127.0.0.1:8080/v1/", model: "m1" },
        { name: "cloud", baseUrl: "https://api.example.com/v1", apiKey: "sk-secret", model: "m2", timeoutMs: 2000 },
      ]),
    );
    expect(list.map((p) => p.name)).toEqual(["local", "cloud"]);
    expect(list[0]).toEqual({ name: "local", baseUrl: "http://127.0.0.1:8080/v1", model: "m1", timeoutMs: 60_000 });
    expect(list[1].timeoutMs).toBe(2000);
    expect(describeProvider(list[1])).toEqual({ name: "cloud", baseUrl: "https://api.example.com/v1", model: "m2", timeoutMs: 2000, hasApiKey: true });
  });

  it("names the variable, the entry and the field, and never echoes the API key", () => {
    expect(() => parseProviders("{nope")).toThrow(/FAULTLINE_LLM_PROVIDERS is not valid JSON/);
    let err: unknown;
    try {
      parseProviders(JSON.stringify([{ name: "a", baseUrl: "ftp://x", model: "m", apiKey: "sk-very-secret" }, { name: "a", baseUrl: "http://x", model: "" }]));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ProviderConfigError);
    const msg = (err as Error).message;
    expect(msg).toContain("[0].baseUrl: must be an absolute http:// or https:// URL");
    expect(msg).toContain("[1].model");
    expect(msg).toContain('"a" is used twice');
    expect(msg).not.toContain("sk-very-secret");
    expect(() => parseProviders(JSON.stringify([{ name: "a", baseUrl: "http://x", model: "m", extra: 1 }]))).toThrow(/\[0\]/);
  });
});
