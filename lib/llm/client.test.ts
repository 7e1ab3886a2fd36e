import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatCompletion, classifyStatus, parseChatCompletion, parseDurationText, probeProvider, retryAfterFrom } from "./client";
import { closedPort, startFakeLlmServer, type FakeLlmServer } from "./test-server";

let srv: FakeLlmServer;
beforeAll(async () => {
  srv = await startFakeLlmServer({ slowMs: 1500 });
});
afterAll(async () => {
  await srv.close();
});

const req = { messages: [{ role: "user" as const, content: "ping" }] };

describe("retry-after and durations", () => {
  it("reads retry-after-ms, Retry-After (seconds or date), body fields and 'try again in' text", () => {
    const now = Date.parse("2026-01-20T10:00:00Z");
    expect(retryAfterFrom(new Headers({ "retry-after-ms": "1500" }), "")).toBe(1500);
    expect(retryAfterFrom(new Headers({ "retry-after": "7" }), "")).toBe(7000);
    expect(retryAfterFrom(new Headers({ "retry-after": "Tue, 20 Jan 2026 10:00:30 GMT" }), "", now)).toBe(30_000);
    expect(retryAfterFrom(new Headers(), JSON.stringify({ error: { retry_after: 3 } }))).toBe(3000);
    expect(retryAfterFrom(new Headers(), JSON.stringify({ retry_after_ms: 250 }))).toBe(250);
    expect(retryAfterFrom(new Headers(), JSON.stringify({ error: { message: "Please try again in 1m2.5s." } }))).toBe(62_500);
    expect(retryAfterFrom(new Headers(), "slow down")).toBeUndefined();
    expect(parseDurationText("350ms")).toBe(350);
    expect(parseDurationText("6m0s")).toBe(360_000);
    expect(parseDurationText("soon")).toBeUndefined();
  });

  it("classifies statuses", () => {
    expect([429, 401, 403, 500, 503, 408, 400, 404].map(classifyStatus)).toEqual(["rate_limited", "auth", "auth", "unavailable", "unavailable", "unavailable", "invalid_request", "invalid_request"]);
  });

  it("validates completion bodies", () => {
    expect(parseChatCompletion('{"choices":[{"message":{"content":"hi"}}]}').ok).toBe(true);
    expect(parseChatCompletion('{"choices":[]}')).toMatchObject({ ok: false, reason: expect.stringContaining("choices") });
    expect(parseChatCompletion('{"choices":[{"message":{"content":null}}]}')).toMatchObject({ ok: false, reason: expect.stringContaining("choices[0].message.content") });
    expect(parseChatCompletion('{"choices":[{"message":{"content":"  "}}]}')).toMatchObject({ ok: false, reason: expect.stringContaining("empty") });
    expect(parseChatCompletion("")).toMatchObject({ ok: false, reason: "the body is empty" });
  });
});

describe("chatCompletion against a real OpenAI-compatible server", () => {
  it("returns the content, model, usage and latency; sends model, messages, auth and options", async () => {
    const r = await chatCompletion(srv.provider("ok", { apiKey: "sk-test" }), { ...req, maxTokens: 50, temperature: 0.2, json: true }, { idempotencyKey: "m/a/0/1" });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.data).toMatchObject({ content: "echo: ping", model: "ok-model", finishReason: "stop", usage: { promptTokens: 5, completionTokens: 3, totalTokens: 8 } });
    expect(r.data.latencyMs).toBeGreaterThanOrEqual(0);
    const sent = srv.requests.filter((x) => x.mode === "ok").at(-1)!;
    expect(sent.headers.authorization).toBe("Bearer sk-test");
    expect(sent.headers["idempotency-key"]).toBe("m/a/0/1");
    expect(sent.body).toMatchObject({ model: "ok-model", messages: req.messages, max_tokens: 50, temperature: 0.2, response_format: { type: "json_object" }, stream: false });
  });

  it("500 → unavailable (HTTP_ERROR, recoverable) quoting the provider's message", async () => {
    const r = await chatCompletion(srv.provider("fail500"), req);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({ code: "HTTP_ERROR", status: 500, details: { kind: "unavailable", agentErrorCode: "PROVIDER_ERROR", recoverable: true, provider: "fail500" } });
    expect(r.error.message).toContain('"upstream exploded"');
  });

  it("429 → rate_limited with retryAfterMs from Retry-After, or from the body", async () => {
    const a = await chatCompletion(srv.provider("rate429"), req);
    expect(!a.ok && a.error).toMatchObject({ code: "RATE_LIMITED", status: 429, retryAfterMs: 7000, details: { kind: "rate_limited", agentErrorCode: "RATE_LIMIT_EXCEEDED", recoverable: true } });
    expect(!a.ok && a.error.message).toMatch(/retry after 7 s/);
    const b = await chatCompletion(srv.provider("ratebody"), req);
    expect(!b.ok && b.error).toMatchObject({ code: "RATE_LIMITED", retryAfterMs: 62_500 });
  });

  it("401 → auth, not recoverable; 400 → invalid_request, not recoverable", async () => {
    const a = await chatCompletion(srv.provider("auth401", { apiKey: "sk-wrong" }), req);
    expect(!a.ok && a.error).toMatchObject({ code: "HTTP_ERROR", status: 401, details: { kind: "auth", recoverable: false } });
    expect(!a.ok && a.error.message).toMatch(/apiKey/);
    expect(!a.ok && a.error.message).not.toContain("sk-wrong");
    const b = await chatCompletion(srv.provider("bad400"), req);
    expect(!b.ok && b.error).toMatchObject({ code: "HTTP_ERROR", status: 400, details: { kind: "invalid_request", recoverable: false } });
    expect(!b.ok && b.error.message).toContain("maximum context length exceeded");
  });

  it("a 200 with a malformed or non-JSON body is INVALID_OUTPUT", async () => {
    for (const mode of ["malformed", "notjson"]) {
      const r = await chatCompletion(srv.provider(mode), req);
      expect(!r.ok && r.error).toMatchObject({ status: 200, details: { kind: "invalid_output", agentErrorCode: "INVALID_OUTPUT", recoverable: false } });
      expect(!r.ok && r.error.message).toMatch(/not a valid chat completion \(INVALID_OUTPUT\)/);
    }
  });

  it("refused connection and reset socket → unavailable", async () => {
    const port = await closedPort();
    const a = await chatCompletion({ name: "gone", baseUrl: `http://127.0.0.1:${port}/v1`, model: "m", timeoutMs: 2000 }, req);
    expect(!a.ok && a.error).toMatchObject({ code: "CONNECTION_REFUSED", errno: "ECONNREFUSED", details: { kind: "unavailable", reason: "refused" } });
    const b = await chatCompletion(srv.provider("reset"), req);
    expect(!b.ok && b.error).toMatchObject({ code: "NETWORK_ERROR", details: { kind: "unavailable" } });
  });

  it("a slow provider times out at its timeoutMs → unavailable (TIMEOUT)", async () => {
    const started = Date.now();
    const r = await chatCompletion(srv.provider("slow", { timeoutMs: 200 }), req);
    expect(Date.now() - started).toBeLessThan(1200);
    expect(!r.ok && r.error).toMatchObject({ code: "TIMEOUT", details: { kind: "unavailable", reason: "timeout", agentErrorCode: "TIMEOUT", recoverable: true } });
    expect(!r.ok && r.error.message).toMatch(/within 200 ms/);
  });

  it("the caller's signal cancels the call → cancelled", async () => {
    const c = new AbortController();
    setTimeout(() => c.abort(new Error("lease lost")), 100);
    const r = await chatCompletion(srv.provider("slow"), req, { signal: c.signal });
    expect(!r.ok && r.error).toMatchObject({ code: "TIMEOUT", details: { kind: "cancelled" } });
    expect(!r.ok && r.error.message).toContain("lease lost");
  });
});

describe("probeProvider (GET /models)", () => {
  it("healthy with latency and remaining quota; rate_limited with resetAt; unavailable on 500, refused, timeout", async () => {
    const now = () => Date.parse("2026-01-20T10:00:00Z");
    const ok = await probeProvider(srv.provider("ok"), { now });
    expect(ok).toEqual({ health: { status: "healthy", remainingQuota: 99, latencyMs: expect.any(Number) }, problem: null });
    const rl = await probeProvider(srv.provider("rate429"), { now });
    expect(rl.health).toEqual({ status: "rate_limited", resetAt: "2026-01-20T10:00:07.000Z", latencyMs: expect.any(Number) });
    const down = await probeProvider(srv.provider("fail500"));
    expect(down.health.status).toBe("unavailable");
    expect(down.problem).toContain("500");
    const port = await closedPort();
    const refused = await probeProvider({ name: "gone", baseUrl: `http://127.0.0.1:${port}`, model: "m", timeoutMs: 1000 });
    expect(refused.health.status).toBe("unavailable");
    expect(refused.problem).toMatch(/refused/);
    const slow = await probeProvider(srv.provider("slow"), { timeoutMs: 150 });
    expect(slow.health.status).toBe("unavailable");
    expect(slow.problem).toMatch(/within 150 ms/);
  });
});
