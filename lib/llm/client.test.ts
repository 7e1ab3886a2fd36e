import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatCompletion, classifyStatus, parseChatCompletion, parseDurationText, parseToolArguments, probeProvider, retryAfterFrom, type ChatMessage, type ToolSpec } from "./client";
import { startFakeLlmServer, type FakeLlmServer } from "./test-server";
import { freeLoopbackPort } from "../net";

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
    const port = await freeLoopbackPort();
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

describe("tool calls: parsing", () => {
  const body = (message: unknown, finish = "tool_calls") => JSON.stringify({ model: "m", choices: [{ message, finish_reason: finish }] });

  it("content null or absent is valid when tool calls came; ids, arguments and finish reason are kept", () => {
    const r = parseChatCompletion(body({ role: "assistant", content: null, tool_calls: [{ id: "call_a", type: "function", function: { name: "file", arguments: '{"op":"read"}' } }] }));
    expect(r).toEqual({ ok: true, value: { model: "m", content: "", toolCalls: [{ id: "call_a", name: "file", arguments: '{"op":"read"}' }], finishReason: "tool_calls", usage: null } });
    const absent = parseChatCompletion(body({ tool_calls: [{ id: "x", function: { name: "ask", arguments: "{}" } }] }));
    expect(absent.ok && absent.value.toolCalls).toEqual([{ id: "x", name: "ask", arguments: "{}" }]);
    const both = parseChatCompletion(body({ content: "Let me look.", tool_calls: [{ id: "y", type: "function", function: { name: "shell", arguments: "{}" } }] }));
    expect(both.ok && both.value).toMatchObject({ content: "Let me look.", toolCalls: [{ id: "y", name: "shell" }] });
  });

  it("a call without an id gets call_<index>; arguments sent as a JSON value are re-serialized, absent ones are empty", () => {
    const r = parseChatCompletion(body({ content: null, tool_calls: [{ function: { name: "a", arguments: { x: 1 } } }, { id: "", function: { name: "b" } }] }));
    expect(r.ok && r.value.toolCalls).toEqual([
      { id: "call_0", name: "a", arguments: '{"x":1}' },
      { id: "call_1", name: "b", arguments: "" },
    ]);
  });

  it("neither text nor tool calls stays INVALID_OUTPUT, with the reason in words", () => {
    for (const message of [{ content: null }, { content: null, tool_calls: [] }, { content: null, tool_calls: null }, {}]) {
      expect(parseChatCompletion(body(message, "stop"))).toMatchObject({ ok: false, reason: expect.stringMatching(/^choices\[0\]\.message\.content is (null|absent) and there are no tool_calls: the provider sent neither text nor a tool call$/) });
    }
    expect(parseChatCompletion(body({ content: " ", tool_calls: [] }, "stop"))).toMatchObject({ ok: false, reason: expect.stringContaining("empty") });
  });

  it("malformed tool_calls name the field", () => {
    expect(parseChatCompletion(body({ content: null, tool_calls: { name: "file" } }))).toEqual({ ok: false, reason: "choices[0].message.tool_calls: must be an array of tool calls" });
    expect(parseChatCompletion(body({ content: null, tool_calls: [{ id: "c", function: { arguments: "{}" } }] }))).toEqual({ ok: false, reason: "choices[0].message.tool_calls[0].function.name: must be a string (the name of the function to call)" });
    expect(parseChatCompletion(body({ content: null, tool_calls: [{ id: "c", function: { name: " " } }] }))).toMatchObject({ ok: false, reason: expect.stringContaining("tool_calls[0].function.name: must not be empty") });
    expect(parseChatCompletion(body({ content: null, tool_calls: [{ id: "c" }] }))).toMatchObject({ ok: false, reason: expect.stringContaining("tool_calls[0].function: must be an object") });
    expect(parseChatCompletion(body({ content: null, tool_calls: ["file"] }))).toMatchObject({ ok: false, reason: expect.stringContaining("tool_calls[0]: must be an object") });
    expect(parseChatCompletion(body({ content: null, tool_calls: [{ id: "c", type: "custom", function: { name: "f" } }] }))).toMatchObject({ ok: false, reason: expect.stringContaining('tool_calls[0].type: must be "function"') });
  });
});

describe("parseToolArguments", () => {
  const call = (args: string) => ({ id: "c1", name: "file", arguments: args });

  it("reads a JSON object; empty arguments are no arguments; fenced and double-encoded objects are tolerated", () => {
    expect(parseToolArguments(call('{"op":"write","path":"a.txt"}'))).toEqual({ ok: true, args: { op: "write", path: "a.txt" } });
    expect(parseToolArguments(call(""))).toEqual({ ok: true, args: {} });
    expect(parseToolArguments(call("  \n"))).toEqual({ ok: true, args: {} });
    expect(parseToolArguments(call('```json\n{"a":1}\n```'))).toEqual({ ok: true, args: { a: 1 } });
    expect(parseToolArguments(call(JSON.stringify(JSON.stringify({ a: 2 }))))).toEqual({ ok: true, args: { a: 2 } });
  });

  it("anything but a JSON object is a reason in words naming the tool", () => {
    const notJson = parseToolArguments(call("{op: write"));
    expect(notJson).toMatchObject({ ok: false, reason: expect.stringMatching(/^the arguments of "file" are not JSON \(.+\): "\{op: write"$/) });
    expect(parseToolArguments(call("[1,2]"))).toEqual({ ok: false, reason: 'the arguments of "file" are an array, not a JSON object of named arguments: "[1,2]"' });
    expect(parseToolArguments(call("null"))).toMatchObject({ ok: false, reason: expect.stringContaining("are null, not a JSON object") });
    expect(parseToolArguments(call('"write"'))).toMatchObject({ ok: false, reason: expect.stringContaining("are a string, not a JSON object") });
    expect(parseToolArguments(call("42"))).toMatchObject({ ok: false, reason: expect.stringContaining("are a number") });
  });
});

describe("tool calls over HTTP", () => {
  const tools: ToolSpec[] = [
    { name: "file", description: "Read or write a file.", parameters: { type: "object", properties: { op: { type: "string" }, path: { type: "string" } }, required: ["op", "path"] } },
    { name: "finish", description: "Say the goal is achieved.", parameters: { type: "object", properties: { summary: { type: "string" } }, required: ["summary"] } },
  ];
  const conversation: ChatMessage[] = [
    { role: "system", content: "You are an agent." },
    { role: "user", content: "Goal: write notes.txt" },
    { role: "assistant", content: null, toolCalls: [{ id: "call_1", name: "file", arguments: '{"op":"write","path":"notes.txt"}' }] },
    { role: "tool", toolCallId: "call_1", content: '{"ok":true}' },
    { role: "assistant", content: "Written; checking.", toolCalls: [{ id: "call_2", name: "file", arguments: '{"op":"read","path":"notes.txt"}' }] },
    { role: "tool", toolCallId: "call_2", content: "hello" },
  ];

  it("sends tools, tool_choice and the conversation in the OpenAI format; parses the tool calls of the answer", async () => {
    srv.replyWith("agent", () => ({ toolCalls: [{ id: "call_3", name: "finish", arguments: { summary: "done" } }] }));
    const r = await chatCompletion(srv.provider("agent"), { messages: conversation, tools, toolChoice: "required", temperature: 0 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.data).toMatchObject({ content: "", toolCalls: [{ id: "call_3", name: "finish", arguments: '{"summary":"done"}' }], finishReason: "tool_calls", model: "agent-model" });
    expect(parseToolArguments(r.data.toolCalls[0])).toEqual({ ok: true, args: { summary: "done" } });
    const sent = srv.requests.filter((x) => x.mode === "agent").at(-1)!.body as Record<string, unknown>;
    expect(sent.tools).toEqual(tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } })));
    expect(sent.tool_choice).toBe("required");
    expect(sent.messages).toEqual([
      { role: "system", content: "You are an agent." },
      { role: "user", content: "Goal: write notes.txt" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "file", arguments: '{"op":"write","path":"notes.txt"}' } }] },
      { role: "tool", tool_call_id: "call_1", content: '{"ok":true}' },
      { role: "assistant", content: "Written; checking.", tool_calls: [{ id: "call_2", type: "function", function: { name: "file", arguments: '{"op":"read","path":"notes.txt"}' } }] },
      { role: "tool", tool_call_id: "call_2", content: "hello" },
    ]);
  });

  it("text and tool calls together; a text answer has no tool calls; requests without tools send no tools", async () => {
    srv.replyWith("chatty", (rec) => ((rec.body as { tools?: unknown }).tools ? { content: "On it.", toolCalls: [{ name: "file", arguments: '{"op":"list","path":"."}' }] } : { content: "plain" }));
    const both = await chatCompletion(srv.provider("chatty"), { messages: conversation.slice(0, 2), tools, toolChoice: "auto" });
    expect(both.ok && both.data).toMatchObject({ content: "On it.", toolCalls: [{ id: expect.stringMatching(/^call_chatty_/), name: "file", arguments: '{"op":"list","path":"."}' }], finishReason: "tool_calls" });
    const text = await chatCompletion(srv.provider("chatty"), { messages: conversation.slice(0, 2), tools: [], toolChoice: "auto" });
    expect(text.ok && text.data).toMatchObject({ content: "plain", toolCalls: [], finishReason: "stop" });
    const sent = srv.requests.filter((x) => x.mode === "chatty").at(-1)!.body as Record<string, unknown>;
    expect(sent).not.toHaveProperty("tools");
    expect(sent).not.toHaveProperty("tool_choice");
    const plain = await chatCompletion(srv.provider("ok"), req);
    expect(plain.ok && plain.data.toolCalls).toEqual([]);
    expect(srv.requests.filter((x) => x.mode === "ok").at(-1)!.body).not.toHaveProperty("tools");
  });

  it("content null without tool calls, tool_calls not an array, a call without a name: INVALID_OUTPUT naming the field", async () => {
    const expectations: Record<string, RegExp> = {
      notext: /choices\[0\]\.message\.content is null and there are no tool_calls: the provider sent neither text nor a tool call/,
      badtools: /choices\[0\]\.message\.tool_calls: must be an array of tool calls/,
      noname: /choices\[0\]\.message\.tool_calls\[0\]\.function\.name: must be a string/,
    };
    for (const [mode, reason] of Object.entries(expectations)) {
      const r = await chatCompletion(srv.provider(mode), { ...req, tools });
      expect(!r.ok && r.error).toMatchObject({ code: "HTTP_ERROR", status: 200, details: { kind: "invalid_output", agentErrorCode: "INVALID_OUTPUT", recoverable: false, provider: mode } });
      expect(!r.ok && r.error.message).toMatch(/not a valid chat completion \(INVALID_OUTPUT\)/);
      expect(!r.ok && r.error.message).toMatch(reason);
    }
  });

  it('toolChoice "required" without tools is refused before any request (INVALID_ARGS, invalid_request)', async () => {
    const before = srv.count("ok");
    const r = await chatCompletion(srv.provider("ok"), { ...req, toolChoice: "required" });
    expect(!r.ok && r.error).toMatchObject({ code: "INVALID_ARGS", details: { kind: "invalid_request", recoverable: false } });
    expect(!r.ok && r.error.message).toMatch(/toolChoice is "required" but the request offers no tools/);
    expect(srv.count("ok")).toBe(before);
  });

  it("script answers the i-th request with the i-th turn and repeats the last: an agent loop, deterministically", async () => {
    srv.script("loop", [
      { toolCalls: [{ name: "file", arguments: { op: "write", path: "notes.txt" } }] },
      { content: "Checking.", toolCalls: [{ id: "fin", name: "finish", arguments: '{"summary":"done"}' }] },
      "All done.",
    ]);
    const messages: ChatMessage[] = [{ role: "user", content: "Goal: write notes.txt" }];
    const seen: string[] = [];
    for (let turn = 0; turn < 4; turn++) {
      const r = await chatCompletion(srv.provider("loop"), { messages, tools, toolChoice: "auto" });
      if (!r.ok) throw new Error(r.error.message);
      seen.push(r.data.toolCalls.map((c) => c.name).join(",") || `text:${r.data.content}`);
      messages.push({ role: "assistant", content: r.data.content || null, toolCalls: r.data.toolCalls });
      for (const c of r.data.toolCalls) messages.push({ role: "tool", toolCallId: c.id, content: JSON.stringify({ ran: c.name }) });
    }
    expect(seen).toEqual(["file", "finish", "text:All done.", "text:All done."]);
    expect(srv.count("loop")).toBe(4);
    const last = srv.requests.filter((x) => x.mode === "loop").at(-1)!.body as { messages: Array<Record<string, unknown>> };
    expect(last.messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id)).toEqual(["call_loop_1_0", "fin"]);
    // A text-only assistant turn goes out as plain text, without tool_calls.
    expect(last.messages.at(-1)).toEqual({ role: "assistant", content: "All done." });
    expect(() => srv.script("ok", ["x"])).toThrow(/built in/);
    expect(() => srv.script("empty", [])).toThrow(/no turns/);
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
    const port = await freeLoopbackPort();
    const refused = await probeProvider({ name: "gone", baseUrl: `http://127.0.0.1:${port}`, model: "m", timeoutMs: 1000 });
    expect(refused.health.status).toBe("unavailable");
    expect(refused.problem).toMatch(/refused/);
    const slow = await probeProvider(srv.provider("slow"), { timeoutMs: 150 });
    expect(slow.health.status).toBe("unavailable");
    expect(slow.problem).toMatch(/within 150 ms/);
  });
});
