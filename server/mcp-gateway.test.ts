import { execFile, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ElicitRequestSchema, isInitializeRequest, type CallToolResult, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { createTestDatabase, type TestDatabase } from "../db/test-helpers";
import { ensureActor } from "../db/queries/users";
import { decideProposal, listMissionProposals } from "../db/queries/authority";
import { createRun, loadRun } from "../db/queries/runs";
import type { AuditActor } from "../lib/audit";
import { listenHttp, startGateway, type Gateway } from "./mcp-gateway";

/**
 * The MCP gateway (issue 15) with real upstream MCP servers (@modelcontextprotocol/server-filesystem over
 * stdio; an SDK McpServer over Streamable HTTP) and the SDK's own Client talking to the gateway, in memory,
 * over Streamable HTTP (listenHttp) and through the CLI: every tools/call is a proposal on a run.
 */

let tdb: TestDatabase;
let dir: string;
const actor: AuditActor = { id: "cli:mcp-test", name: "CLI (mcp-test)", via: "cli", ip: null, userAgent: "test" };
const person: AuditActor & { kind: "human" } = { id: "cli:reviewer", name: "Reviewer", via: "cli", ip: null, userAgent: "test", kind: "human" };
const FS_SERVER = path.resolve("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

beforeAll(async () => {
  tdb = await createTestDatabase();
  for (const a of [actor, person]) await ensureActor(tdb.db, { id: a.id, kind: "cli", displayName: a.name });
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "fl-mcp-")));
  fs.writeFileSync(path.join(dir, "hello.txt"), "hello from the workspace\n");
});
afterAll(async () => {
  await tdb?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function connect(opts: { runId?: string; waitMs?: number } = {}): Promise<{ gw: Gateway; client: Client }> {
  const gw = await startGateway({ db: tdb.db, actor, upstream: { command: process.execPath, args: [FS_SERVER, dir] }, workspace: dir, approvalTtlMs: 600_000, pollMs: 50, ...opts });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gw.connect(serverSide);
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  await client.connect(clientSide);
  return { gw, client };
}

const text = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

describe("the MCP gateway", () => {
  it("lists the upstream's tools, forwards an allowed call, refuses a denied one with its reason, and finishes the run when the client goes", async () => {
    const { gw, client } = await connect();
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(["read_text_file", "write_file", "list_directory"]));
    const created = await loadRun(tdb.db, gw.runId);
    expect(created.name).toBe(`MCP gateway - node index.js ${path.basename(dir)}`);
    expect(created.definition.phases[0].agents[0].external).toMatchObject({ via: "mcp", tools: expect.arrayContaining(["write_file"]) });

    // Allowed: approved, run upstream, its result comes back and is reported.
    const read = (await client.callTool({ name: "read_text_file", arguments: { path: path.join(dir, "hello.txt") } })) as CallToolResult;
    expect(read.isError).toBeFalsy();
    expect(text(read)).toContain("hello from the workspace");

    // Denied by the default policy: a write outside the workspace never reaches the upstream.
    const outside = path.join(os.tmpdir(), `fl-mcp-outside-${process.pid}.txt`);
    const write = (await client.callTool({ name: "write_file", arguments: { path: outside, content: "no" } })) as CallToolResult;
    expect(write.isError).toBe(true);
    expect(text(write)).toMatch(/Faultline rejected write_file .*AUTHORITY_REJECTION: .*Agents write only inside the mission's workspace/);
    expect(fs.existsSync(outside)).toBe(false);

    // An upstream error result is a failed result (the call was approved, the tool failed).
    const missing = (await client.callTool({ name: "read_text_file", arguments: { path: path.join(dir, "missing.txt") } })) as CallToolResult;
    expect(missing.isError).toBe(true);

    const rows = await listMissionProposals(tdb.db, gw.runId);
    const byTool = (tool: string) => rows.filter((r) => (r.action as { tool: string }).tool === tool).map((r) => r.status);
    expect(byTool("read_text_file")).toEqual(["approved", "approved"]);
    expect(byTool("write_file")).toEqual(["rejected"]);
    let s = await loadRun(tdb.db, gw.runId);
    expect(s.agents.agent.steps.map((st) => st.status)).toEqual(["succeeded", "failed"]);

    // The client going closes the gateway by itself (nobody calls gw.close): the run is finished.
    await client.close();
    await gw.closed;
    s = await loadRun(tdb.db, gw.runId);
    expect(s.proposals.some((p) => p.action.tool === "finish")).toBe(true);
  });

  it("on an existing run (--run), a held call waits, says it waits in Faultline, and runs once a person approves it", async () => {
    const run = await createRun(tdb.db, actor, { name: "Held files", objective: "Reads that a person approves", rules: [{ id: "hold-info", effect: "hold", tool: "get_file_info", reason: "A person looks first." }], workspace: dir, via: "mcp" });
    const { gw, client } = await connect({ runId: run.id, waitMs: 300 });
    expect(gw.runId).toBe(run.id);
    const args = { path: path.join(dir, "hello.txt") };
    const first = (await client.callTool({ name: "get_file_info", arguments: args })) as CallToolResult;
    expect(first.isError).toBe(true);
    expect(text(first)).toMatch(/waits for a decision in Faultline \(proposal [0-9a-f-]{36}/);
    const [pending] = (await listMissionProposals(tdb.db, run.id)).filter((r) => r.status === "pending");
    expect(pending).toBeDefined();
    await decideProposal(tdb.db, { proposalId: pending.id, answer: "approve", note: null, actor: person, approvalTtlMs: 600_000 });
    const again = (await client.callTool({ name: "get_file_info", arguments: args })) as CallToolResult;
    expect(again.isError, text(again)).toBeFalsy();
    expect(text(again)).toMatch(/size/i);
    expect((await listMissionProposals(tdb.db, run.id)).filter((r) => (r.action as { tool: string }).tool === "get_file_info")).toHaveLength(1);
    await client.close();
    await gw.close();
  });

  it("a client that supports elicitation is asked about a held call: approve runs it, decline rejects it; each answer is a person's decision on the run", async () => {
    const run = await createRun(tdb.db, actor, { name: "Asked files", objective: "Reads the client's user approves", rules: [{ id: "hold-info", effect: "hold", tool: "get_file_info", reason: "A person looks first." }], workspace: dir, via: "mcp" });
    const gw = await startGateway({ db: tdb.db, actor, upstream: { command: process.execPath, args: [FS_SERVER, dir] }, runId: run.id, workspace: dir, approvalTtlMs: 600_000, pollMs: 50, waitMs: 20_000 });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await gw.connect(serverSide);
    const client = new Client({ name: "asking-agent", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    let reply: ElicitResult = { action: "accept", content: { decision: "approve", note: "fine to read" } };
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params.message);
      return reply;
    });
    await client.connect(clientSide);

    const approved = (await client.callTool({ name: "get_file_info", arguments: { path: path.join(dir, "hello.txt") } })) as CallToolResult;
    expect(approved.isError, text(approved)).toBeFalsy();
    expect(text(approved)).toMatch(/size/i);
    expect(asked[0]).toMatch(/holds this call for a person: get_file_info .*A person looks first/);

    reply = { action: "decline" };
    const declined = (await client.callTool({ name: "get_file_info", arguments: { path: dir } })) as CallToolResult;
    expect(declined.isError).toBe(true);
    expect(text(declined)).toMatch(/Declined in the MCP client/);

    const decided = (await listMissionProposals(tdb.db, run.id)).map((r) => ({ status: r.status, by: r.decidedBy, note: (r.decision as { note: string | null }).note }));
    expect(decided).toEqual([
      { status: "approved", by: actor.id, note: "fine to read" },
      { status: "rejected", by: actor.id, note: "Declined in the MCP client." },
    ]);
    await client.close();
    await gw.close();
  });

  it("the CLI explains a missing or doubled upstream", async () => {
    const cli = (args: string[]) =>
      new Promise<{ code: number; stderr: string }>((resolve) =>
        execFile(process.execPath, [path.resolve("bin/faultline.mjs"), ...args], { env: { ...process.env, DATABASE_URL: tdb.url }, timeout: 60_000 }, (err, _o, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr })),
      );
    const none = await cli(["mcp"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/faultline mcp needs the upstream MCP server: --upstream "COMMAND ARGS"/);
    const both = await cli(["mcp", "--upstream", "node x.js", "--upstream-url", "http://127.0.0.1:1/mcp"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/either --upstream or --upstream-url, not both/);
  });
});

/** A client of the gateway over Streamable HTTP: the SDK's own Client and transport. */
async function httpClient(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

/** A POST with its own headers (Host included), answered as status and text. */
function rawPost(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };

/**
 * A real MCP server over Streamable HTTP on 127.0.0.1 (an ephemeral port): the SDK's McpServer with `echo`
 * and `delete_everything`, one transport and server per session as in the SDK's examples. It records the
 * calls that reach it and the sessions opened and ended (DELETE).
 */
async function startHttpUpstream(): Promise<{ url: string; calls: string[]; opened: string[]; ended: string[]; close(): Promise<void> }> {
  const calls: string[] = [];
  const opened: string[] = [];
  const ended: string[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const mcpServer = () => {
    const s = new McpServer({ name: "test-upstream", version: "1.0.0" });
    s.registerTool("echo", { description: "Echoes the text.", inputSchema: { text: z.string() } }, async ({ text }) => {
      calls.push("echo");
      return { content: [{ type: "text", text: `echo: ${text}` }] };
    });
    s.registerTool("delete_everything", { description: "Deletes everything." }, async () => {
      calls.push("delete_everything");
      return { content: [{ type: "text", text: "everything is gone" }] };
    });
    return s;
  };
  const srv = http.createServer(async (req, res) => {
    const sid = req.headers["mcp-session-id"];
    if (typeof sid === "string") {
      const t = sessions.get(sid);
      if (!t) return void res.writeHead(404).end();
      return void (await t.handleRequest(req, res));
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body: unknown = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
    if (req.method !== "POST" || !isInitializeRequest(body)) return void res.writeHead(400).end();
    const t: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void (sessions.set(id, t), opened.push(id)),
      onsessionclosed: (id) => void ended.push(id),
    });
    t.onclose = () => void (t.sessionId && sessions.delete(t.sessionId));
    await mcpServer().connect(t);
    await t.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(srv.address() as { port: number }).port}/mcp`,
    calls,
    opened,
    ended,
    async close() {
      await Promise.all([...sessions.values()].map((t) => t.close()));
      const done = new Promise<void>((resolve) => srv.close(() => resolve()));
      srv.closeAllConnections();
      await done;
    },
  };
}

const byTool = async (runId: string) => {
  const rows = await listMissionProposals(tdb.db, runId);
  return (tool: string) => rows.filter((r) => (r.action as { tool: string }).tool === tool).map((r) => r.status);
};

/** A run whose rules deny delete_everything (what --run ID proposes on). */
const denyingRun = () =>
  createRun(tdb.db, actor, {
    name: "HTTP upstream",
    objective: "Calls to an MCP server over Streamable HTTP",
    rules: [{ id: "no-delete-everything", effect: "deny", tool: "delete_everything", reason: "Nothing here may delete everything." }],
    workspace: dir,
    via: "mcp",
  });

describe("the MCP gateway over Streamable HTTP (--listen)", () => {
  it("serves each client its own session on 127.0.0.1: tools listed, an allowed call forwarded, a denied one refused with its reason, all on one run", async () => {
    const gw = await startGateway({ db: tdb.db, actor, upstream: { command: process.execPath, args: [FS_SERVER, dir] }, workspace: dir, approvalTtlMs: 600_000, pollMs: 50 });
    const listener = await listenHttp(gw, 0);
    try {
      expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(listener.url).not.toContain(":0/");

      // Two clients, two sessions (each its own transport and MCP server in the gateway).
      const a = await httpClient(listener.url);
      const b = await httpClient(listener.url);
      expect(a.transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(b.transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
      expect(listener.sessions()).toBe(2);

      for (const c of [a, b]) expect((await c.client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(["read_text_file", "write_file"]));

      // Allowed: the upstream's result comes back, to either session.
      const read = (await a.client.callTool({ name: "read_text_file", arguments: { path: path.join(dir, "hello.txt") } })) as CallToolResult;
      expect(read.isError, text(read)).toBeFalsy();
      expect(text(read)).toContain("hello from the workspace");

      // Denied by the default policy: an MCP error result naming the reason; the upstream never writes.
      const outside = path.join(os.tmpdir(), `fl-mcp-http-outside-${process.pid}.txt`);
      const write = (await b.client.callTool({ name: "write_file", arguments: { path: outside, content: "no" } })) as CallToolResult;
      expect(write.isError).toBe(true);
      expect(text(write)).toMatch(/Faultline rejected write_file .*AUTHORITY_REJECTION: .*Agents write only inside the mission's workspace/);
      expect(fs.existsSync(outside)).toBe(false);

      const info = (await b.client.callTool({ name: "get_file_info", arguments: { path: path.join(dir, "hello.txt") } })) as CallToolResult;
      expect(info.isError, text(info)).toBeFalsy();

      const status = await byTool(gw.runId);
      expect(status("read_text_file")).toEqual(["approved"]);
      expect(status("get_file_info")).toEqual(["approved"]);
      expect(status("write_file")).toEqual(["rejected"]);

      // One client ends its session (DELETE): its id is unknown from then on, the other session goes on,
      // and the run stays open for the next client.
      const endedId = a.transport.sessionId!;
      await a.transport.terminateSession();
      await a.client.close();
      expect(listener.sessions()).toBe(1);
      const stale = await rawPost(listener.url, { "mcp-session-id": endedId, "mcp-protocol-version": "2025-06-18" }, { jsonrpc: "2.0", id: 2, method: "tools/list" });
      expect(stale.status).toBe(404);
      expect(stale.text).toContain("Session not found");
      expect((await b.client.listTools()).tools.length).toBeGreaterThan(0);
      expect((await loadRun(tdb.db, gw.runId)).proposals.some((p) => p.action.tool === "finish")).toBe(false);

      // A request that is neither an initialize nor in a session, and one with a foreign Host (DNS rebinding), are refused.
      expect((await rawPost(listener.url, {}, { jsonrpc: "2.0", id: 3, method: "tools/list" })).status).toBe(400);
      expect((await rawPost(listener.url, { host: `evil.example:${new URL(listener.url).port}` }, INITIALIZE)).status).toBe(403);
      expect(listener.sessions()).toBe(1);

      await b.client.close();
    } finally {
      await listener.close();
      await gw.close();
    }
    expect(listener.sessions()).toBe(0);
    const s = await loadRun(tdb.db, gw.runId);
    expect(s.proposals.some((p) => p.action.tool === "finish")).toBe(true);
  });
});

describe("the MCP gateway to an upstream over Streamable HTTP (--upstream-url)", () => {
  it("lists the HTTP server's tools, forwards an allowed call and returns its result, refuses a denied one with its reason, and ends its upstream session on close", async () => {
    const up = await startHttpUpstream();
    try {
      const run = await denyingRun();
      const gw = await startGateway({ db: tdb.db, actor, upstream: { url: up.url }, runId: run.id, approvalTtlMs: 600_000, pollMs: 50 });
      expect(up.opened).toHaveLength(1);
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await gw.connect(serverSide);
      const client = new Client({ name: "test-agent", version: "1.0.0" });
      await client.connect(clientSide);

      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(["delete_everything", "echo"]);
      const echo = (await client.callTool({ name: "echo", arguments: { text: "over http" } })) as CallToolResult;
      expect(echo.isError, text(echo)).toBeFalsy();
      expect(text(echo)).toBe("echo: over http");

      const del = (await client.callTool({ name: "delete_everything", arguments: {} })) as CallToolResult;
      expect(del.isError).toBe(true);
      expect(text(del)).toMatch(/Faultline rejected delete_everything \(proposal [0-9a-f-]{36}\): AUTHORITY_REJECTION: .*Nothing here may delete everything\./);
      expect(up.calls).toEqual(["echo"]);

      const status = await byTool(run.id);
      expect(status("echo")).toEqual(["approved"]);
      expect(status("delete_everything")).toEqual(["rejected"]);
      const s = await loadRun(tdb.db, run.id);
      expect(s.agents.agent.steps.map((st) => st.status)).toEqual(["succeeded"]);

      await client.close();
      await gw.closed;
      expect(up.ended).toEqual(up.opened);
      expect((await loadRun(tdb.db, run.id)).proposals.some((p) => p.action.tool === "finish")).toBe(true);
    } finally {
      await up.close();
    }
  });

  it("a new run on an HTTP upstream is named after its URL and lets the agent call the upstream's tools only", async () => {
    const up = await startHttpUpstream();
    try {
      const gw = await startGateway({ db: tdb.db, actor, upstream: { url: up.url }, workspace: dir, approvalTtlMs: 600_000, pollMs: 50 });
      const run = await loadRun(tdb.db, gw.runId);
      expect(run.name).toBe(`MCP gateway - 127.0.0.1 ${new URL(up.url).port} mcp`);
      expect(run.definition.phases[0].agents[0].external).toMatchObject({ via: "mcp", tools: ["echo", "delete_everything"] });
      await gw.close();
      expect(up.ended).toEqual(up.opened);
    } finally {
      await up.close();
    }
  });
});

describe("faultline mcp, the CLI end to end, with an upstream over Streamable HTTP", () => {
  it("prints the URL it listens on, serves the SDK Client there, proposes every call on the run, and finishes it on SIGTERM", async () => {
    const up = await startHttpUpstream();
    const run = await denyingRun();
    const child = spawn(process.execPath, [path.resolve("bin/faultline.mjs"), "mcp", "--listen", "0", "--upstream-url", up.url, "--run", run.id], {
      env: { ...process.env, DATABASE_URL: tdb.url },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.setEncoding("utf8").on("data", (d: string) => {
          stderr += d;
          const m = /\[mcp\] listening on (http:\/\/\S+)/.exec(stderr);
          if (m) resolve(m[1]);
        });
        void exited.then(([code]) => reject(new Error(`faultline mcp exited (${code}) before it listened:\n${stderr}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*\/mcp$/);
      expect(stderr).toContain(`[mcp] proposals go to run ${run.id}`);

      const { client } = await httpClient(url);
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(["delete_everything", "echo"]);
      const echo = (await client.callTool({ name: "echo", arguments: { text: "from the CLI" } })) as CallToolResult;
      expect(echo.isError, text(echo)).toBeFalsy();
      expect(text(echo)).toBe("echo: from the CLI");
      const del = (await client.callTool({ name: "delete_everything", arguments: {} })) as CallToolResult;
      expect(del.isError).toBe(true);
      expect(text(del)).toMatch(/Faultline rejected delete_everything .*AUTHORITY_REJECTION: .*Nothing here may delete everything\./);
      expect(up.calls).toEqual(["echo"]);
      await client.close();

      const status = await byTool(run.id);
      expect(status("echo")).toEqual(["approved"]);
      expect(status("delete_everything")).toEqual(["rejected"]);

      child.kill("SIGTERM");
      const [code] = await exited;
      expect(code, stderr).toBe(0);
      expect(stderr).toMatch(/\[mcp\] SIGTERM: closing 1 session\(s\) and finishing run/);
      expect((await loadRun(tdb.db, run.id)).proposals.some((p) => p.action.tool === "finish")).toBe(true);
      expect(up.ended).toEqual(up.opened);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await exited;
      }
      await up.close();
    }
  });

  it("on stdio (no --listen), serves one client and finishes the run when that client closes its stdin", async () => {
    const up = await startHttpUpstream();
    const run = await denyingRun();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.resolve("bin/faultline.mjs"), "mcp", "--upstream-url", up.url, "--run", run.id],
      env: { ...(process.env as Record<string, string>), DATABASE_URL: tdb.url },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    const client = new Client({ name: "test-agent", version: "1.0.0" });
    try {
      await client.connect(transport);
      const echo = (await client.callTool({ name: "echo", arguments: { text: "over stdio" } })) as CallToolResult;
      expect(text(echo), stderr).toBe("echo: over stdio");
      const del = (await client.callTool({ name: "delete_everything", arguments: {} })) as CallToolResult;
      expect(text(del)).toMatch(/AUTHORITY_REJECTION: .*Nothing here may delete everything\./);
    } finally {
      // Ends the CLI's stdin and resolves once the process has closed.
      await client.close();
      await up.close();
    }
    expect(stderr).not.toMatch(/SIGTERM|SIGKILL/);
    expect(stderr).toContain(`[mcp] run ${run.id} finished`);
    expect((await loadRun(tdb.db, run.id)).proposals.some((p) => p.action.tool === "finish")).toBe(true);
    expect(up.ended).toEqual(up.opened);
  });
});
