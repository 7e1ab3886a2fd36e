import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createTestDatabase, type TestDatabase } from "../db/test-helpers";
import { ensureActor } from "../db/queries/users";
import { decideProposal, listMissionProposals } from "../db/queries/authority";
import { createRun, loadRun } from "../db/queries/runs";
import type { AuditActor } from "../lib/audit";
import { startGateway, type Gateway } from "./mcp-gateway";

/**
 * The MCP gateway (issue 15) with a real upstream MCP server (@modelcontextprotocol/server-filesystem over
 * stdio) and the SDK's own Client talking to the gateway: every tools/call is a proposal on a run.
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

    await client.close();
    for (let i = 0; i < 100 && !s.proposals.some((p) => p.action.tool === "finish"); i++) {
      await new Promise((r) => setTimeout(r, 50));
      s = await loadRun(tdb.db, gw.runId);
    }
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
