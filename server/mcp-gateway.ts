import { randomUUID } from "node:crypto";
import http from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CallToolRequestSchema, isInitializeRequest, ListToolsRequestSchema, type CallToolRequest, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Db } from "../db/client";
import { createRun, finishRun, loadRun, proposeRunCall, proposalAnswer, reportRunResult, type ProposalAnswer } from "../db/queries/runs";
import { decideProposal } from "../db/queries/authority";
import { argsDigest } from "../lib/authority/digest";
import type { AuditActor } from "../lib/audit";
import { isAppError } from "../lib/errors";

/**
 * The MCP gateway (issue 15): an MCP server towards the client that offers the upstream server's tools and
 * turns every `tools/call` into a proposal on a run (db/queries/runs.ts, the same path as the runs API).
 * Approved → forwarded upstream and its result reported; rejected → an MCP tool error with the
 * FailureReason, the reason and the counterfactual; pending → asks the client's user through MCP elicitation
 * when the client supports it, and waits for the decision (theirs or one in the console), up to a limit.
 */

export type Upstream = { command: string; args: string[]; cwd?: string; env?: Record<string, string> } | { url: string };

export interface GatewayOptions {
  db: Db;
  actor: AuditActor;
  upstream: Upstream;
  /** An existing run to propose on; absent = a new run is created. */
  runId?: string;
  /** The new run's name (default "MCP gateway: <command>"). */
  name?: string;
  /** The agent's project: absolute paths under it are inside the workspace (default: the current directory). */
  workspace?: string;
  approvalTtlMs: number;
  /** How long a pending proposal is waited for before the call answers that it waits in Faultline. */
  waitMs?: number;
  pollMs?: number;
  log?: (line: string) => void;
}

export interface Gateway {
  runId: string;
  upstream: Client;
  /**
   * A new MCP server offering the upstream's tools, every call a proposal on the run. A server serves one
   * client connection: stdio has one; Streamable HTTP (listenHttp) makes one per session.
   */
  createServer(): Server;
  /** Serves one client over a transport (stdio, in-memory); the run finishes when that transport closes. */
  connect(transport: Transport): Promise<void>;
  /** Finishes the run (once) and closes the upstream. */
  close(summary?: string): Promise<void>;
  /** Settles once the gateway has closed (the run is finished, the upstream closed), however that came about. */
  closed: Promise<void>;
}

export function describeUpstream(u: Upstream): string {
  return "url" in u ? u.url : [u.command, ...u.args].join(" ");
}

/** Connects to the upstream MCP server, creates (or checks) the run, and returns the gateway's MCP server. */
export async function startGateway(opts: GatewayOptions): Promise<Gateway> {
  const log = opts.log ?? (() => {});
  const upstream = new Client({ name: "faultline-gateway", version: "0.1.0" });
  const transport =
    "url" in opts.upstream
      ? new StreamableHTTPClientTransport(new URL(opts.upstream.url))
      : new StdioClientTransport({ command: opts.upstream.command, args: opts.upstream.args, cwd: opts.upstream.cwd, env: opts.upstream.env, stderr: "inherit" });
  /** Closes the upstream; an HTTP upstream is first told that the gateway's session ends (DELETE). */
  const closeUpstream = async () => {
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) await transport.terminateSession().catch(() => {});
    await upstream.close().catch(() => {});
  };
  await upstream.connect(transport);
  let tools: Tool[];
  try {
    tools = await allTools(upstream);
  } catch (e) {
    await closeUpstream();
    throw e;
  }
  let runId: string;
  try {
    if (opts.runId) {
      runId = (await loadRun(opts.db, opts.runId)).id;
    } else {
      const what = describeUpstream(opts.upstream);
      const names = [...new Set(tools.map((t) => t.name))];
      const state = await createRun(opts.db, opts.actor, {
        name: opts.name ?? defaultRunName(opts.upstream),
        objective: `Tool calls of an MCP client through the Faultline gateway to ${what}`.slice(0, 2000),
        agents: [{ name: "agent", priority: "critical", tools: names.length && names.length <= 200 ? names : undefined }],
        workspace: opts.workspace ?? process.cwd(),
        via: "mcp",
      });
      runId = state.id;
    }
  } catch (e) {
    await closeUpstream();
    throw e;
  }
  log(`[mcp] run ${runId}: ${tools.length} upstream tool(s) from ${describeUpstream(opts.upstream)}`);

  /** Pending calls by tool + args digest: the same call again waits on the same proposal (from any session). */
  const pendingCalls = new Map<string, string>();
  const callTool = async (req: CallToolRequest, server: Server): Promise<CallToolResult> => {
    const tool = req.params.name;
    const args = (req.params.arguments ?? {}) as Record<string, unknown>;
    const key = `${tool}\u0000${argsDigest(args)}`;
    const callId = pendingCalls.get(key) ?? `mcp-${randomUUID()}`;
    let answer: ProposalAnswer;
    try {
      answer = (await proposeRunCall(opts.db, runId, { callId, tool, args }, { approvalTtlMs: opts.approvalTtlMs })).answer;
      if (answer.status === "pending") {
        const waitMs = opts.waitMs ?? 60_000;
        // A client that supports elicitation asks its user now; a decision in the console may come first.
        const stop = new AbortController();
        const asked = server.getClientCapabilities()?.elicitation ? askThroughClient(server, answer, waitMs, stop.signal) : null;
        answer = await Promise.race([waitForDecision(opts.db, runId, answer, waitMs, opts.pollMs ?? 500, stop.signal), ...(asked ? [asked.then((reply) => (reply ? decideAsked(answer, reply) : waitForDecision(opts.db, runId, answer, waitMs, opts.pollMs ?? 500, stop.signal)))] : [])]);
        stop.abort();
      }
    } catch (e) {
      return toolError(isAppError(e) ? `Faultline refused the call: ${e.userMessage}` : `Faultline could not propose the call: ${(e as Error).message}`);
    }
    if (answer.status === "pending") {
      pendingCalls.set(key, callId);
      return toolError(
        `The call waits for a decision in Faultline (proposal ${answer.id}, run ${runId}): ${answer.decision?.reason ?? "a person decides it"}. Decide it with \`faultline proposals approve|reject ${answer.id}\` or on the run's page, then make the same call again.`,
      );
    }
    pendingCalls.delete(key);
    if (answer.status !== "approved") return toolError(rejectionText(tool, answer));
    return forward(opts.db, upstream, runId, callId, tool, answer.args);
  };
  /** The client's user answered: their decision goes through the authority like any person's (gate policy, deny wins). */
  const decideAsked = async (pending: ProposalAnswer, reply: { decision: "approve" | "reject"; note: string | null }): Promise<ProposalAnswer> => {
    try {
      await decideProposal(opts.db, { proposalId: pending.id, answer: reply.decision, note: reply.note, actor: { ...opts.actor, kind: "human" }, approvalTtlMs: opts.approvalTtlMs });
    } catch (e) {
      log(`[mcp] the client's answer to proposal ${pending.id} was not taken: ${isAppError(e) ? e.userMessage : (e as Error).message}`);
    }
    const s = await loadRun(opts.db, runId);
    const p = s.proposals.find((x) => x.id === pending.id);
    return p ? proposalAnswer(s, p) : pending;
  };
  const createServer = () => {
    const server = new Server({ name: "faultline-gateway", version: "0.1.0" }, { capabilities: { tools: {} }, instructions: `Every tool call is proposed to Faultline (run ${runId}) and runs only once approved.` });
    server.setRequestHandler(ListToolsRequestSchema, async (req) => upstream.listTools(req.params));
    server.setRequestHandler(CallToolRequestSchema, (req) => callTool(req, server));
    return server;
  };

  let finished: Promise<void> | null = null;
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const close = (summary?: string) =>
    (finished ??= (async () => {
      try {
        const f = await finishRun(opts.db, runId, { summary: summary ?? "The MCP client disconnected from the gateway." });
        log(`[mcp] run ${runId} finished: ${f.run.runState}${f.run.finalStatus ? ` (${f.run.finalStatus})` : ""}`);
      } catch (e) {
        log(`[mcp] could not finish run ${runId}: ${isAppError(e) ? e.userMessage : (e as Error).message}`);
      } finally {
        await closeUpstream();
        markClosed();
      }
    })());
  return {
    runId,
    upstream,
    createServer,
    async connect(t) {
      const server = createServer();
      server.onclose = () => void close();
      await server.connect(t);
    },
    close,
    closed,
  };
}

/** "MCP gateway - <command>" in the characters a mission name allows (letters, digits, spaces, _ . -), at most 80. */
export function defaultRunName(u: Upstream): string {
  const what = "url" in u ? u.url.replace(/^https?:\/\//, "") : [u.command.split("/").pop() ?? u.command, ...u.args.map((a) => a.split("/").pop() ?? a)].join(" ");
  const clean = what.replace(/[^A-Za-z0-9 _.-]+/g, " ").replace(/\s+/g, " ").trim();
  return `MCP gateway - ${clean}`.slice(0, 80).trim();
}

async function allTools(c: Client): Promise<Tool[]> {
  const out: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await c.listTools(cursor ? { cursor } : undefined);
    out.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

/** Polls the proposal until it is decided or the limit passes. */
async function waitForDecision(db: Db, runId: string, first: ProposalAnswer, waitMs: number, pollMs: number, signal?: AbortSignal): Promise<ProposalAnswer> {
  const until = Date.now() + waitMs;
  let answer = first;
  while (answer.status === "pending" && Date.now() < until && !signal?.aborted) {
    await new Promise((r) => setTimeout(r, Math.min(pollMs, Math.max(0, until - Date.now()))));
    const s = await loadRun(db, runId);
    const p = s.proposals.find((x) => x.id === first.id);
    if (!p) break;
    answer = proposalAnswer(s, p);
  }
  return answer;
}

/**
 * MCP elicitation (a client that declares it): the client's user is asked to approve or reject a held
 * call, with why it is held. Approve/reject → their decision (a reject without a note says it was declined
 * in the client); decline → a rejection; cancel, no answer or an error → null (the call keeps waiting for
 * the console, then is denied: it never fails open).
 */
async function askThroughClient(server: Server, pending: ProposalAnswer, waitMs: number, signal: AbortSignal): Promise<{ decision: "approve" | "reject"; note: string | null } | null> {
  try {
    const r = await server.elicitInput(
      {
        message: `Faultline holds this call for a person: ${pending.tool} ${JSON.stringify(pending.args).slice(0, 500)}. Why: ${pending.decision?.reason ?? "a rule holds it"}. Approve it?`,
        requestedSchema: {
          type: "object",
          properties: {
            decision: { type: "string", title: "Decision", enum: ["approve", "reject"], description: "approve runs exactly this call; reject tells the agent why" },
            note: { type: "string", title: "Note", description: "Why (the agent receives it)" },
          },
          required: ["decision"],
        },
      },
      { timeout: waitMs, signal },
    );
    if (r.action === "decline") return { decision: "reject", note: "Declined in the MCP client." };
    if (r.action !== "accept" || !r.content) return null;
    const decision = r.content.decision === "approve" ? "approve" : r.content.decision === "reject" ? "reject" : null;
    if (!decision) return null;
    const note = typeof r.content.note === "string" && r.content.note.trim() ? r.content.note.trim() : decision === "reject" ? "Rejected in the MCP client." : null;
    return { decision, note };
  } catch {
    return null;
  }
}

/** Runs an approved call upstream (with the args the approval binds to) and reports its result. */
async function forward(db: Db, upstream: Client, runId: string, callId: string, tool: string, args: Record<string, unknown>): Promise<CallToolResult> {
  let result: CallToolResult;
  try {
    result = (await upstream.callTool({ name: tool, arguments: args })) as CallToolResult;
  } catch (e) {
    const message = `The upstream MCP server failed the call: ${(e as Error).message}`;
    await report(db, runId, callId, { ok: false, error: { message } });
    return toolError(message);
  }
  if (result.isError) {
    await report(db, runId, callId, { ok: false, error: { message: textOf(result) || `${tool} returned an error without text.` }, data: { content: result.content } });
  } else {
    await report(db, runId, callId, { ok: true, data: { content: result.content ?? [], ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}) } });
  }
  return result;
}

async function report(db: Db, runId: string, callId: string, result: { ok: boolean; data?: unknown; error?: unknown }): Promise<void> {
  try {
    await reportRunResult(db, runId, { callId, result });
  } catch {
    // The client still gets the upstream's answer; the run shows the call without its result.
  }
}

function textOf(r: CallToolResult): string {
  return (r.content ?? [])
    .filter((c): c is { type: "text"; text: string } => c.type === "text")
    .map((c) => c.text)
    .join("\n")
    .trim();
}

function toolError(text: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text }] };
}

/** A rejection as the agent reads it: FailureReason, reason, what would change the decision. */
export function rejectionText(tool: string, a: ProposalAnswer): string {
  const d = a.decision;
  const lines = [`Faultline rejected ${tool} (proposal ${a.id}): ${d?.failureReason ?? "REJECTED"}: ${d?.reason ?? "no reason was recorded"}`];
  const cf = d?.counterfactual;
  if (cf) {
    const { type, ...rest } = cf.change as { type: string } & Record<string, unknown>;
    lines.push(`Counterfactual: ${type.replace(/_/g, " ")} ${JSON.stringify(rest)} → expected ${cf.expectedOutcome.replace(/_/g, " ")} (confidence ${cf.confidence}).`);
  }
  if (d?.note) lines.push(`Note: ${d.note}`);
  return lines.join("\n");
}

/** Host names a local listener answers to: anything else is a DNS rebinding attempt (as the SDK's localhostHostValidation). */
const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);
/** The largest request body read to find an initialize request (the SDK transport's own default bound). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const MAX_SESSIONS = 100;

export interface HttpListener {
  /** http://127.0.0.1:PORT/mcp, with the port actually bound (the one the OS chose for port 0). */
  url: string;
  /** How many MCP sessions are open. */
  sessions(): number;
  /** Closes every session and the HTTP server; the gateway itself (the run, the upstream) stays open. */
  close(): Promise<void>;
}

/**
 * Serves the gateway over Streamable HTTP on 127.0.0.1:port (POST/GET/DELETE /mcp). As in the SDK's
 * examples, every session has its own transport and MCP server, keyed by Mcp-Session-Id and made on the
 * session's initialize request; a session ends when its client DELETEs it. All sessions propose on the
 * one run, which stays open between sessions: the caller finishes it (gw.close) when it stops serving.
 */
export async function listenHttp(gw: Gateway, port: number): Promise<HttpListener> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const jsonError = (res: http.ServerResponse, status: number, code: number, message: string) =>
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (new URL(req.url ?? "/", "http://127.0.0.1").pathname !== "/mcp") {
      res.writeHead(404, { "content-type": "text/plain" }).end("The MCP endpoint is /mcp.");
      return;
    }
    let hostname: string | null = null;
    try {
      hostname = req.headers.host ? new URL(`http://${req.headers.host}`).hostname : null;
    } catch {
      // an unparsable Host is refused below
    }
    if (!hostname || !LOCAL_HOSTS.has(hostname)) return jsonError(res, 403, -32000, `Invalid Host header: ${req.headers.host ?? "(none)"}`);

    const sid = req.headers["mcp-session-id"];
    if (typeof sid === "string") {
      const transport = sessions.get(sid);
      if (!transport) return jsonError(res, 404, -32001, "Session not found");
      return transport.handleRequest(req, res);
    }
    if (req.method !== "POST") return jsonError(res, 400, -32000, "Bad Request: No valid session ID provided");
    const body = await readBody(req);
    if (body === TOO_LARGE) return jsonError(res, 413, -32000, `Request body exceeds ${MAX_BODY_BYTES} bytes`);
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      return jsonError(res, 400, -32700, "Parse error: the body is not JSON");
    }
    if (!isInitializeRequest(message)) return jsonError(res, 400, -32000, "Bad Request: No valid session ID provided");
    if (sessions.size >= MAX_SESSIONS) return jsonError(res, 503, -32000, "Too many open sessions");
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await gw.createServer().connect(transport);
    await transport.handleRequest(req, res, message);
  };

  const srv = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) jsonError(res, 500, -32603, `Internal error: ${(e as Error).message}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => srv.once("error", reject).listen(port, "127.0.0.1", () => resolve()));
  const addr = srv.address() as { port: number };
  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${addr.port}/mcp`,
    sessions: () => sessions.size,
    close: () =>
      (closing ??= (async () => {
        await Promise.all([...sessions.values()].map((t) => t.close().catch(() => {})));
        const done = new Promise<void>((resolve) => srv.close(() => resolve()));
        srv.closeAllConnections();
        await done;
      })()),
  };
}

const TOO_LARGE = Symbol("too large");

async function readBody(req: http.IncomingMessage): Promise<string | typeof TOO_LARGE> {
  if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) return TOO_LARGE;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return TOO_LARGE;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
