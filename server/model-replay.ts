import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { recordingsSchema, type Recordings } from "../lib/llm/recordings";

/**
 * The recorded provider: a loopback OpenAI-compatible server that replays recorded model outputs (seed 002:
 * a model at temperature 0 is still not deterministic, so demos and tests play recorded outputs back).
 * `npm start` runs it in demo mode for the demo's autonomous agents, the e2e setup for its own; it is
 * labelled as recorded everywhere (model name `recorded:<id>`), and answers nothing it has no recording for.
 *
 * Matching: the recording whose `goal` appears in the conversation's "Goal: …" message; its n-th turn
 * answers the conversation's n-th model turn (n = assistant messages so far), the last one repeating.
 */

export type { Recordings };

export const RECORDINGS_FILE = path.join(import.meta.dirname, "..", "db", "seed", "recordings", "agents.json");
export const RECORDED_PROVIDER_NAME = "recorded";
export const RECORDED_MODEL = "faultline-recorded";

export function loadRecordings(file = RECORDINGS_FILE): Recordings {
  return recordingsSchema.parse(JSON.parse(fs.readFileSync(file, "utf8")));
}

interface ChatBody {
  messages?: Array<{ role?: string; content?: string | null }>;
}

/** The answer to one chat request, or null when no recording matches. */
export function replay(recordings: Recordings, body: ChatBody): { id: string; turn: number; completion: Record<string, unknown> } | null {
  const messages = body.messages ?? [];
  const goal = messages.find((m) => m.role === "user" && typeof m.content === "string" && m.content.startsWith("Goal:"))?.content ?? "";
  const rec = recordings.recordings.find((r) => goal.includes(r.goal));
  if (!rec) return null;
  const n = messages.filter((m) => m.role === "assistant").length;
  const turn = rec.turns[Math.min(n, rec.turns.length - 1)];
  const toolCalls = (turn.toolCalls ?? []).map((c, i) => ({ id: `call_${rec.id}_${n}_${i}`, type: "function", function: { name: c.name, arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}) } }));
  return {
    id: rec.id,
    turn: n,
    completion: {
      id: `chatcmpl-${rec.id}-${n}`,
      object: "chat.completion",
      model: `recorded:${rec.id}`,
      choices: [{ index: 0, message: { role: "assistant", content: turn.content ?? null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) }, finish_reason: toolCalls.length ? "tool_calls" : "stop" }],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    },
  };
}

export interface ReplayServer {
  url: string;
  /** Chat requests answered or refused so far (a test proves a level-0 mission makes none). */
  readonly requests: number;
  /** The chat request bodies received, in order (a test compares them with what the console's debug view derives). */
  readonly bodies: readonly unknown[];
  /** The provider entry for FAULTLINE_LLM_PROVIDERS. */
  provider: { name: string; baseUrl: string; model: string };
  close(): Promise<void>;
}

export async function startReplayServer(opts: { recordings?: Recordings; port?: number } = {}): Promise<ReplayServer> {
  const recordings = opts.recordings ?? loadRecordings();
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  let requests = 0;
  const bodies: unknown[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method === "GET" && req.url?.endsWith("/models")) return json(res, 200, { object: "list", data: [{ id: RECORDED_MODEL, object: "model" }] });
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) return json(res, 404, { error: { message: `The recorded provider answers POST …/chat/completions and GET …/models, not ${req.method} ${req.url}.` } });
      requests++;
      let body: ChatBody;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatBody;
      } catch {
        return json(res, 400, { error: { message: "The request body is not JSON." } });
      }
      bodies.push(body);
      const r = replay(recordings, body);
      if (!r) return json(res, 400, { error: { message: "The recorded provider has no recording for this conversation: it only replays the recorded outputs of the demo's and the tests' autonomous agents (db/seed/recordings/agents.json). Configure a real provider in FAULTLINE_LLM_PROVIDERS for other agents." } });
      json(res, 200, r.completion);
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    get requests() {
      return requests;
    },
    get bodies() {
      return bodies;
    },
    provider: { name: RECORDED_PROVIDER_NAME, baseUrl: `${url}/v1`, model: RECORDED_MODEL },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
