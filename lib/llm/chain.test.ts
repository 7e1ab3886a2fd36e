import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completeWithFallback, isAllProvidersFailed } from "./chain";
import type { ChatRequest } from "./client";
import { startFakeLlmServer, type FakeLlmServer } from "./test-server";
import { freeLoopbackPort } from "../net";

let srv: FakeLlmServer;
beforeAll(async () => {
  srv = await startFakeLlmServer({ slowMs: 1500 });
});
afterAll(async () => {
  await srv.close();
});

const req = { messages: [{ role: "user" as const, content: "hello" }] };

describe("completeWithFallback", () => {
  it("the first healthy provider answers with a single attempt", async () => {
    const r = await completeWithFallback([srv.provider("ok"), srv.provider("fail500")], req);
    expect(r.ok && r.data).toMatchObject({ content: "echo: hello", provider: "ok", attempts: [{ provider: "ok", ok: true, code: null }] });
    expect(srv.count("fail500")).toBe(0);
  });

  it("falls back in order and records every failed attempt before the answer", async () => {
    const r = await completeWithFallback([srv.provider("fail500"), srv.provider("rate429"), srv.provider("slow", { timeoutMs: 150 }), srv.provider("ok")], req);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.data.provider).toBe("ok");
    expect(r.data.attempts.map((a) => [a.provider, a.ok, a.code, a.kind])).toEqual([
      ["fail500", false, "HTTP_ERROR", "unavailable"],
      ["rate429", false, "RATE_LIMITED", "rate_limited"],
      ["slow", false, "TIMEOUT", "unavailable"],
      ["ok", true, null, null],
    ]);
    expect(r.data.attempts[1].retryAfterMs).toBe(7000);
    for (const a of r.data.attempts) {
      expect(a.latencyMs).toEqual(expect.any(Number));
      expect(a.message.length).toBeGreaterThan(0);
    }
  });

  it("all providers failing: NETWORK_ERROR, allProvidersFailed, an explicit message naming each provider", async () => {
    const port = await freeLoopbackPort();
    const r = await completeWithFallback([srv.provider("fail500"), { name: "gone", baseUrl: `http://127.0.0.1:${port}/v1`, model: "m", timeoutMs: 1000 }, srv.provider("slow", { timeoutMs: 100 })], req);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(isAllProvidersFailed(r.error)).toBe(true);
    expect(r.error.code).toBe("NETWORK_ERROR");
    expect(r.error.message).toBe(
      'All 3 LLM providers failed: fail500: 500 "upstream exploded"; gone: refused (ECONNREFUSED); slow: timed out after 100 ms. No output was produced and nothing was substituted. Check the providers (or add one to FAULTLINE_LLM_PROVIDERS), then retry.',
    );
    expect(r.error.details).toMatchObject({ allProvidersFailed: true, recoverable: true, agentErrorCode: "PROVIDER_ERROR" });
    expect((r.error.details?.attempts as unknown[]).length).toBe(3);
    expect(r.data).toBeNull();
  });

  it("all rate limited: RATE_LIMITED with the shortest wait", async () => {
    const r = await completeWithFallback([srv.provider("ratebody"), srv.provider("rate429")], req);
    expect(!r.ok && r.error).toMatchObject({ code: "RATE_LIMITED", retryAfterMs: 7000, details: { allProvidersFailed: true, agentErrorCode: "RATE_LIMIT_EXCEEDED" } });
    expect(!r.ok && r.error.message).toMatch(/^All 2 LLM providers failed: ratebody: 429 rate limited, retry after 63 s; rate429: 429 rate limited, retry after 7 s\. .*Wait at least 7 s/);
  });

  it("a rejected or garbled answer among the failures: HTTP_ERROR, not recoverable", async () => {
    const r = await completeWithFallback([srv.provider("auth401"), srv.provider("malformed")], req);
    expect(!r.ok && r.error).toMatchObject({ code: "HTTP_ERROR", status: 401, details: { allProvidersFailed: true, recoverable: false } });
    expect(!r.ok && r.error.message).toContain("auth401: 401 credentials rejected; malformed: 200 with an invalid body (INVALID_OUTPUT)");
    const only = await completeWithFallback([srv.provider("notjson")], req);
    expect(!only.ok && only.error).toMatchObject({ status: 200, details: { agentErrorCode: "INVALID_OUTPUT" } });
    expect(!only.ok && only.error.message).toMatch(/^All 1 LLM provider failed: /);
  });

  it("cancellation stops at once: no further provider, not 'all failed'", async () => {
    const before = srv.count("ok");
    const c = new AbortController();
    setTimeout(() => c.abort(new Error("operator paused")), 80);
    const r = await completeWithFallback([srv.provider("slow"), srv.provider("ok")], req, c.signal);
    expect(!r.ok && r.error).toMatchObject({ code: "TIMEOUT", details: { kind: "cancelled", allProvidersFailed: false } });
    expect(srv.count("ok")).toBe(before);
  });

  it("a text answer carries no tool calls", async () => {
    const r = await completeWithFallback([srv.provider("ok")], req);
    expect(r.ok && r.data.toolCalls).toEqual([]);
  });

  it("falling back keeps the request (tools, tool messages) and the tool calls of the provider that answered", async () => {
    const tools = [{ name: "file", description: "Read or write a file.", parameters: { type: "object", properties: { path: { type: "string" } } } }];
    const messages: ChatRequest["messages"] = [
      { role: "user", content: "Goal: read a.txt" },
      { role: "assistant", content: null, toolCalls: [{ id: "call_1", name: "file", arguments: '{"path":"a.txt"}' }] },
      { role: "tool", toolCallId: "call_1", content: "not found" },
    ];
    srv.replyWith("backup-tools", () => ({ toolCalls: [{ id: "call_2", name: "file", arguments: { path: "b.txt" } }] }));
    const before = srv.requests.length;
    const r = await completeWithFallback([srv.provider("fail500"), srv.provider("notext"), srv.provider("backup-tools")], { messages, tools, toolChoice: "auto" });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.data).toMatchObject({ content: "", toolCalls: [{ id: "call_2", name: "file", arguments: '{"path":"b.txt"}' }], provider: "backup-tools", finishReason: "tool_calls" });
    expect(r.data.attempts.map((a) => [a.provider, a.ok, a.kind])).toEqual([
      ["fail500", false, "unavailable"],
      ["notext", false, "invalid_output"],
      ["backup-tools", true, null],
    ]);
    // Every provider got the same request body apart from the model.
    const bodies = srv.requests.slice(before).map((x) => ({ ...(x.body as Record<string, unknown>), model: undefined }));
    expect(bodies).toHaveLength(3);
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
    expect(bodies[0]).toMatchObject({
      tools: [{ type: "function", function: tools[0] }],
      tool_choice: "auto",
      messages: [{ role: "user" }, { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "file" } }] }, { role: "tool", tool_call_id: "call_1", content: "not found" }],
    });
  });

  it("malformed tool calls from every provider: INVALID_OUTPUT, all providers failed", async () => {
    const r = await completeWithFallback([srv.provider("badtools"), srv.provider("noname")], req);
    expect(!r.ok && r.error).toMatchObject({ code: "HTTP_ERROR", status: 200, details: { allProvidersFailed: true, agentErrorCode: "INVALID_OUTPUT", recoverable: false } });
    const attempts = (!r.ok && (r.error.details?.attempts as Array<{ message: string }>)) || [];
    expect(attempts[0].message).toContain("choices[0].message.tool_calls: must be an array");
    expect(attempts[1].message).toContain("choices[0].message.tool_calls[0].function.name");
  });

  it("no provider configured: NOT_FOUND saying how to configure one", async () => {
    const r = await completeWithFallback([], req);
    expect(!r.ok && r.error).toMatchObject({ code: "NOT_FOUND", details: { noProvidersConfigured: true, allProvidersFailed: false } });
    expect(!r.ok && r.error.message).toContain("FAULTLINE_LLM_PROVIDERS");
  });
});
