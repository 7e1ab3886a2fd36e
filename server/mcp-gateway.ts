import { randomUUID } from "node:crypto";
import http from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Db } from "../db/client";
import { createRun, finishRun, loadRun, proposeRunCall, proposalAnswer, reportRunResult, type ProposalAnswer } from "../db/queries/runs";
import { argsDigest } from "../lib/authority/digest";
import type { AuditActor } from "../lib/audit";
import { isAppError } from "../lib/errors";

/**
 * The MCP gateway (issue 15): an MCP server towards the client that offers the upstream server's tools and
 * turns every `tools/call` into a proposal on a run (db/queries/runs.ts, the same path as the runs API).
 * Approved → forwarded upstream and its result reported; rejected → an MCP tool error with the
 * FailureReason, the reason and the counterfactual; pending → waits for the decision, up to a limit.
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
  server: Server;
  upstream: Client;
  /** Connects the MCP server side to a transport (stdio, in-memory, HTTP); the run finishes when it closes. */
  connect(transport: Transport): Promise<void>;
  /** Finishes the run (once) and closes the upstream. */
  close(summary?: string): Promise<void>;
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
  await upstream.connect(transport);
  const tools = await allTools(upstream);
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
    await upstream.close().catch(() => {});
    throw e;
  }
  log(`[mcp] run ${runId}: ${tools.length} upstream tool(s) from ${describeUpstream(opts.upstream)}`);

  const server = new Server({ name: "faultline-gateway", version: "0.1.0" }, { capabilities: { tools: {} }, instructions: `Every tool call is proposed to Faultline (run ${runId}) and runs only once approved.` });
  server.setRequestHandler(ListToolsRequestSchema, async (req) => upstream.listTools(req.params));
  /** Pending calls by tool + args digest: the same call again waits on the same proposal. */
  const pendingCalls = new Map<string, string>();
  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
    const tool = req.params.name;
    const args = (req.params.arguments ?? {}) as Record<string, unknown>;
    const key = `${tool}\u0000${argsDigest(args)}`;
    const callId = pendingCalls.get(key) ?? `mcp-${randomUUID()}`;
    let answer: ProposalAnswer;
    try {
      answer = (await proposeRunCall(opts.db, runId, { callId, tool, args }, { approvalTtlMs: opts.approvalTtlMs })).answer;
      if (answer.status === "pending") answer = await waitForDecision(opts.db, runId, answer, opts.waitMs ?? 60_000, opts.pollMs ?? 500);
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
  });

  let finished: Promise<void> | null = null;
  const close = (summary?: string) =>
    (finished ??= (async () => {
      try {
        const f = await finishRun(opts.db, runId, { summary: summary ?? "The MCP client disconnected from the gateway." });
        log(`[mcp] run ${runId} finished: ${f.run.runState}${f.run.finalStatus ? ` (${f.run.finalStatus})` : ""}`);
      } catch (e) {
        log(`[mcp] could not finish run ${runId}: ${isAppError(e) ? e.userMessage : (e as Error).message}`);
      } finally {
        await upstream.close().catch(() => {});
      }
    })());
  return {
    runId,
    server,
    upstream,
    async connect(t) {
      server.onclose = () => void close();
      await server.connect(t);
    },
    close,
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
async function waitForDecision(db: Db, runId: string, first: ProposalAnswer, waitMs: number, pollMs: number): Promise<ProposalAnswer> {
  const until = Date.now() + waitMs;
  let answer = first;
  while (answer.status === "pending" && Date.now() < until) {
    await new Promise((r) => setTimeout(r, Math.min(pollMs, Math.max(0, until - Date.now()))));
    const s = await loadRun(db, runId);
    const p = s.proposals.find((x) => x.id === first.id);
    if (!p) break;
    answer = proposalAnswer(s, p);
  }
  return answer;
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

/**
 * Serves the gateway over Streamable HTTP on 127.0.0.1:port (POST/GET/DELETE /mcp, one session). The run
 * finishes when the session is deleted or the process stops.
 */
export async function listenHttp(gw: Gateway, port: number): Promise<{ url: string; close(): Promise<void> }> {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await gw.connect(transport);
  const srv = http.createServer((req, res) => {
    if (!req.url?.startsWith("/mcp")) {
      res.writeHead(404, { "content-type": "text/plain" }).end("The MCP endpoint is /mcp.");
      return;
    }
    transport.handleRequest(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" }).end(String((e as Error).message));
    });
  });
  await new Promise<void>((resolve, reject) => srv.once("error", reject).listen(port, "127.0.0.1", () => resolve()));
  const addr = srv.address() as { port: number };
  return {
    url: `http://127.0.0.1:${addr.port}/mcp`,
    close: () => new Promise<void>((resolve) => srv.close(() => resolve())),
  };
}
