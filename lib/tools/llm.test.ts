import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stepSchema, type StepDefinition } from "../mission/definition";
import { startFakeLlmServer, type FakeLlmServer } from "../llm/test-server";
import { freeLoopbackPort } from "../net";
import { isAllProvidersFailed } from "../llm/chain";
import { evaluateEvidence, evidencePassed, getTool, runTool } from "./index";
import { createLlmTool, parseModelJson } from "./llm";
import type { ToolContext } from "./result";

let srv: FakeLlmServer;
let refusedPort: number;
beforeAll(async () => {
  srv = await startFakeLlmServer({ slowMs: 1500 });
  refusedPort = await freeLoopbackPort();
  // The registered `llm` tool reads FAULTLINE_LLM_PROVIDERS once, on its first call: a failing provider first, then a healthy one.
  process.env.FAULTLINE_LLM_PROVIDERS = JSON.stringify([
    { name: "primary", baseUrl: `${srv.url}/fail500`, model: "big" },
    { name: "backup", baseUrl: `${srv.url}/ok`, model: "small" },
  ]);
});
afterAll(async () => {
  delete process.env.FAULTLINE_LLM_PROVIDERS;
  await srv.close();
});

function ctx(over: Partial<ToolContext> = {}): ToolContext {
  return { workspace: "/tmp", allowedBinaries: [], signal: new AbortController().signal, timeoutMs: 10_000, idempotencyKey: "mission/agent/0/1", ...over };
}
const step = (raw: unknown): StepDefinition => stepSchema.parse(raw);

describe("the llm tool through runTool", () => {
  it("is registered, idempotent, and validates its arguments", async () => {
    expect(getTool("llm")?.idempotent).toBe(true);
    const bad = await runTool("llm", { prompt: "", temperature: 5, extra: 1 }, ctx());
    expect(!bad.ok && bad.error.code).toBe("INVALID_ARGS");
    expect(!bad.ok && bad.error.message).toMatch(/prompt: must not be empty/);
    expect(!bad.ok && bad.error.message).toMatch(/temperature/);
  });

  it("falls back from the failing provider and records both attempts in data", async () => {
    const r = await runTool("llm", { prompt: "status?", system: "Be brief.", maxTokens: 20 }, ctx());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.data).toMatchObject({ content: "echo: status?", provider: "backup", model: "ok-model" });
    expect(r.data.json).toBeUndefined();
    const attempts = r.data.attempts as { provider: string; ok: boolean; code: string | null }[];
    expect(attempts.map((a) => [a.provider, a.ok, a.code])).toEqual([
      ["primary", false, "HTTP_ERROR"],
      ["backup", true, null],
    ]);
    const sent = srv.requests.filter((q) => q.mode === "ok").at(-1)!;
    expect(sent.body).toMatchObject({ model: "small", max_tokens: 20, messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "status?" }] });
    expect(sent.headers["idempotency-key"]).toBe("mission/agent/0/1");
  });

  it("default evidence is `completed`; output_matches reads content and json_path reads json", async () => {
    const plain = step({ tool: "llm", args: { prompt: "ready?" } });
    const r1 = await runTool("llm", plain.args, ctx());
    expect(await evaluateEvidence(plain, r1, { workspace: "/tmp" })).toEqual([{ check: "completed", expected: true, actual: true, passed: true }]);

    const checked = step({ tool: "llm", args: { prompt: "ready?" }, evidence: [{ output_matches: "^echo: ready" }, { output_matches: "nope" }] });
    const recs = await evaluateEvidence(checked, await runTool("llm", checked.args, ctx()), { workspace: "/tmp" });
    expect(recs.map((r) => r.passed)).toEqual([true, false]);
    expect(recs[1].detail).toBe('expected /nope/ but the output was "echo: ready?"');

    const tool = createLlmTool(() => [srv.provider("json")]);
    const jr = await tool.run({ prompt: "give json", expectJson: true }, ctx());
    expect(jr.ok && jr.data).toMatchObject({ json: { answer: 42, status: "ready" }, provider: "json" });
    const js = step({ tool: "llm", args: {}, evidence: [{ json_path: "$.status", equals: "ready" }, { json_path: "$.answer", equals: 41 }] });
    const jrecs = await evaluateEvidence(js, jr, { workspace: "/tmp" });
    expect(jrecs.map((r) => r.passed)).toEqual([true, false]);
    expect(jrecs[1].detail).toBe("expected $.answer to equal 41 but it was 42");
  });

  it("expectJson with a non-JSON answer keeps the content and says why json is missing", async () => {
    const tool = createLlmTool(() => [srv.provider("ok")]);
    const r = await tool.run({ prompt: "not json", expectJson: true }, ctx());
    expect(r.ok && r.data.json).toBeUndefined();
    expect(r.ok && r.data.jsonError).toMatch(/expectJson was set but ok's answer is not JSON/);
    const s = step({ tool: "llm", args: {}, evidence: [{ json_path: "$.a" }] });
    expect(evidencePassed(await evaluateEvidence(s, r, { workspace: "/tmp" }))).toBe(false);
  });

  it("every provider failing: allProvidersFailed with the explicit message; the default evidence fails", async () => {
    const tool = createLlmTool(() => [srv.provider("fail500", { name: "a" }), { name: "b", baseUrl: `http://127.0.0.1:${refusedPort}/v1`, model: "m", timeoutMs: 1000 }]);
    const r = await tool.run({ prompt: "x" }, ctx());
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(isAllProvidersFailed(r.error)).toBe(true);
    expect(r.error.code).toBe("NETWORK_ERROR");
    expect(r.error.message).toMatch(/^All 2 LLM providers failed: a: 500 "upstream exploded"; b: refused \(ECONNREFUSED\)\./);
    const [rec] = await evaluateEvidence(step({ tool: "llm", args: {} }), r, { workspace: "/tmp" });
    expect(rec.passed).toBe(false);
    expect(rec.detail).toMatch(/^expected the LLM call to complete but it failed: All 2 LLM providers failed/);
  });

  it("the step's time limit stops the call; a bad or absent configuration is a clear failure", async () => {
    const slow = createLlmTool(() => [srv.provider("slow")]);
    const t = await slow.run({ prompt: "x" }, ctx({ timeoutMs: 150 }));
    expect(!t.ok && t.error).toMatchObject({ code: "TIMEOUT", details: { kind: "cancelled", allProvidersFailed: false } });
    expect(!t.ok && t.error.message).toMatch(/time limit of 150 ms/);

    const none = await createLlmTool(() => []).run({ prompt: "x" }, ctx());
    expect(!none.ok && none.error).toMatchObject({ code: "NOT_FOUND", details: { noProvidersConfigured: true } });
    const broken = await createLlmTool(() => {
      throw new Error("FAULTLINE_LLM_PROVIDERS is not valid JSON");
    }).run({ prompt: "x" }, ctx());
    expect(!broken.ok && broken.error.message).toBe("No usable LLM provider: FAULTLINE_LLM_PROVIDERS is not valid JSON");
  });

  it("parses fenced and bare JSON answers", () => {
    expect(parseModelJson('```json\n{"a":1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseModelJson(' [1,2] ')).toEqual({ ok: true, value: [1, 2] });
    expect(parseModelJson("hello").ok).toBe(false);
  });
});
