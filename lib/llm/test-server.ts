import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Provider } from "./providers";

/**
 * A real OpenAI-compatible HTTP server on 127.0.0.1 (port 0) for tests. The first path segment picks
 * the behaviour, so one server stands in for many providers: baseUrl `${url}/<mode>`.
 *
 *   ok         chat: 200 "echo: <last user message>"; models: 200 list (x-ratelimit-remaining-requests: 99)
 *   json       chat: 200 with a ```json fenced object {"answer":42,"status":"ready"}
 *   fail500    500 {"error":{"message":"upstream exploded"}} (chat and models)
 *   rate429    429 with Retry-After: 7 (chat and models)
 *   ratebody   429 without Retry-After; the body says "Please try again in 1m2.5s."
 *   slow       waits `slowMs` (default 1500) before a valid answer (chat and models)
 *   malformed  200 {"choices":"nope"}
 *   notjson    200 text/html
 *   auth401    401 {"error":{"message":"Incorrect API key provided"}}
 *   bad400     400 {"error":{"message":"maximum context length exceeded"}}
 *   reset      destroys the socket without answering
 *   notext     200 whose message has content null and no tool_calls
 *   badtools   200 whose tool_calls is an object, not an array
 *   noname     200 with a tool call whose function has no name
 *   chat500    chat: 500 as fail500; models: 200 (the model is broken, the endpoint is up)
 *   chatreset  chat: the socket is destroyed; models: 200 (the health check passes, the call finds out)
 *   down       503 {"error":{"message":"<segment> is down"}} (chat and models: the health check fails too)
 *
 * Switchable names: `set(name, mode)` makes `${url}/<name>` behave like a built-in mode until the next
 * `set`, so a test (a chaos scenario with a worker process) breaks a provider and brings it back at run
 * time. `providersEnv(names)` is FAULTLINE_LLM_PROVIDERS for such names, in fallback order.
 *
 * Scripted modes: `reply(mode, content)` makes `${url}/<mode>` answer chat with 200 and that content
 * (a string, or a function of the recorded request); models answers 200. Built-in names cannot be scripted.
 * `replyWith(mode, fn)` answers with text and/or tool calls (finish_reason "tool_calls" when there are
 * calls); `script(mode, turns)` answers the i-th chat request of the mode with turns[i] (the last
 * turn repeats), so a test drives an agent loop deterministically.
 */

/** One scripted model turn: text, tool calls, or both. `arguments` is JSON-stringified unless already a string. */
export interface ScriptedTurn {
  /** Default: null when there are tool calls, "" otherwise. */
  content?: string | null;
  /** Default id: `call_<mode>_<request number>_<index>`. */
  toolCalls?: Array<{ id?: string; name: string; arguments: unknown }>;
}

export interface RecordedRequest {
  mode: string;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export interface FakeLlmServer {
  url: string;
  requests: RecordedRequest[];
  count(mode: string): number;
  /** The chat completion requests (of one path segment), in order: what a call asked, not the health checks. */
  completions(mode?: string): RecordedRequest[];
  provider(mode: string, extra?: Partial<Provider>): Provider;
  /** FAULTLINE_LLM_PROVIDERS (JSON) for these path segments, in fallback order. */
  providersEnv(modes: string[], extra?: Partial<Provider>): string;
  /** `${url}/<name>` behaves like the built-in `mode` from now on (until the next `set` of the name). */
  set(name: string, mode: BuiltInMode): void;
  /** Script a mode: its chat completions answer 200 with `content` (model `<mode>-model`). */
  reply(mode: string, content: string | ((req: RecordedRequest) => string)): void;
  /** Script a mode: each chat completion answers what `fn` returns for the recorded request. */
  replyWith(mode: string, fn: (req: RecordedRequest) => ScriptedTurn): void;
  /** Script a mode: its i-th chat completion (counted from this call) answers turns[i]; the last turn repeats. A string turn is text. */
  script(mode: string, turns: Array<ScriptedTurn | string>): void;
  close(): Promise<void>;
}

const BUILT_IN_MODES = ["ok", "json", "fail500", "rate429", "ratebody", "slow", "malformed", "notjson", "auth401", "bad400", "reset", "notext", "badtools", "noname", "chat500", "chatreset", "down"] as const;
export type BuiltInMode = (typeof BUILT_IN_MODES)[number];
const isBuiltIn = (mode: string): mode is BuiltInMode => (BUILT_IN_MODES as readonly string[]).includes(mode);

export async function startFakeLlmServer(opts: { slowMs?: number } = {}): Promise<FakeLlmServer> {
  const slowMs = opts.slowMs ?? 1500;
  const requests: RecordedRequest[] = [];
  const scripted = new Map<string, (req: RecordedRequest) => ScriptedTurn>();
  const switched = new Map<string, BuiltInMode>();
  const timers = new Set<NodeJS.Timeout>();
  let answered = 0;
  const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };
  const completion = (content: string, model = "fake-model") => rawCompletion({ role: "assistant", content }, "stop", model);
  const rawCompletion = (message: Record<string, unknown>, finishReason: string, model = "fake-model") => ({
    // Unique per answer, as real providers do (LangGraph merges messages that share an id).
    id: `chatcmpl-test-${++answered}`,
    object: "chat.completion",
    model,
    choices: [{ index: 0, message, finish_reason: finishReason }],
    usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
  });
  const turnCompletion = (turn: ScriptedTurn, mode: string, n: number) => {
    const calls = (turn.toolCalls ?? []).map((c, i) => ({
      id: c.id ?? `call_${mode}_${n}_${i}`,
      type: "function",
      function: { name: c.name, arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}) },
    }));
    const content = turn.content !== undefined ? turn.content : calls.length ? null : "";
    return rawCompletion({ role: "assistant", content, ...(calls.length ? { tool_calls: calls } : {}) }, calls.length ? "tool_calls" : "stop", `${mode}-model`);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      const [, mode = "", ...rest] = url.pathname.split("/");
      const endpoint = `/${rest.join("/")}`;
      let body: unknown = null;
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : null;
      } catch {
        body = Buffer.concat(chunks).toString("utf8");
      }
      const recorded: RecordedRequest = { mode, method: req.method ?? "", path: endpoint, headers: req.headers, body };
      requests.push(recorded);
      const isChat = req.method === "POST" && endpoint === "/chat/completions";
      const isModels = req.method === "GET" && endpoint === "/models";
      if (!isChat && !isModels) return json(res, 404, { error: { message: `no route ${req.method} ${endpoint}` } });
      const messages = (body as { messages?: { role: string; content: string | null }[] } | null)?.messages ?? [];
      const lastUser = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
      const okAnswer = () => (isModels ? json(res, 200, { object: "list", data: [{ id: "fake-model", object: "model" }] }, { "x-ratelimit-remaining-requests": "99" }) : json(res, 200, completion(`echo: ${lastUser}`, `${mode}-model`)));
      const script = scripted.get(mode);
      if (script !== undefined) return isModels ? okAnswer() : json(res, 200, turnCompletion(script(recorded), mode, completions(mode).length));
      switch (switched.get(mode) ?? mode) {
        case "ok":
          return okAnswer();
        case "json":
          return isModels ? okAnswer() : json(res, 200, completion('```json\n{"answer":42,"status":"ready"}\n```'));
        case "fail500":
          return json(res, 500, { error: { message: "upstream exploded" } });
        case "rate429":
          return json(res, 429, { error: { message: "Rate limit reached for requests" } }, { "retry-after": "7" });
        case "ratebody":
          return json(res, 429, { error: { message: "Rate limit reached. Please try again in 1m2.5s." } });
        case "slow": {
          const t = setTimeout(() => {
            timers.delete(t);
            if (!res.destroyed) okAnswer();
          }, slowMs);
          timers.add(t);
          return;
        }
        case "malformed":
          return json(res, 200, { choices: "nope" });
        case "notjson":
          res.writeHead(200, { "content-type": "text/html" });
          return res.end("<html>gateway login</html>");
        case "auth401":
          return json(res, 401, { error: { message: "Incorrect API key provided" } });
        case "bad400":
          return json(res, 400, { error: { message: "maximum context length exceeded" } });
        case "reset":
          return req.socket.destroy();
        case "notext":
          return isModels ? okAnswer() : json(res, 200, rawCompletion({ role: "assistant", content: null }, "stop"));
        case "badtools":
          return isModels ? okAnswer() : json(res, 200, rawCompletion({ role: "assistant", content: null, tool_calls: { name: "file", arguments: "{}" } }, "tool_calls"));
        case "noname":
          return isModels ? okAnswer() : json(res, 200, rawCompletion({ role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { arguments: "{}" } }] }, "tool_calls"));
        case "chat500":
          return isModels ? okAnswer() : json(res, 500, { error: { message: "upstream exploded" } });
        case "chatreset":
          return isModels ? okAnswer() : req.socket.destroy();
        case "down":
          return json(res, 503, { error: { message: `${mode} is down` } });
        default:
          return json(res, 404, { error: { message: `unknown mode ${mode}` } });
      }
    });
  });
  const completions = (mode?: string) => requests.filter((r) => (mode === undefined || r.mode === mode) && r.path === "/chat/completions");
  const ownName = (mode: string, what: string) => {
    if (isBuiltIn(mode) || !/^[\w.-]+$/.test(mode)) throw new Error(`cannot ${what} mode "${mode}": it is built in or not a single path segment`);
  };
  const scriptMode = (mode: string, fn: (req: RecordedRequest) => ScriptedTurn) => {
    ownName(mode, "script");
    scripted.set(mode, fn);
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const provider = (mode: string, extra: Partial<Provider> = {}): Provider => ({ name: mode, baseUrl: `${url}/${mode}`, model: `${mode}-model`, timeoutMs: 5_000, ...extra });
  return {
    url,
    requests,
    count: (mode) => requests.filter((r) => r.mode === mode).length,
    completions,
    provider,
    providersEnv: (modes, extra) => JSON.stringify(modes.map((m) => provider(m, extra))),
    set: (name, mode) => {
      ownName(name, "switch");
      switched.set(name, mode);
    },
    reply: (mode, content) => scriptMode(mode, (req) => ({ content: typeof content === "function" ? content(req) : content })),
    replyWith: (mode, fn) => scriptMode(mode, fn),
    script: (mode, turns) => {
      if (turns.length === 0) throw new Error(`cannot script mode "${mode}" with no turns: give at least one (the last one repeats)`);
      let i = 0;
      scriptMode(mode, () => {
        const turn = turns[Math.min(i++, turns.length - 1)];
        return typeof turn === "string" ? { content: turn } : turn;
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
