import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent, OpenAIProvider, run as runAgent, setTracingDisabled } from "@openai/agents";
import { generateText, stepCountIs, tool as aiTool } from "ai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { ChatOpenAI } from "@langchain/openai";
import { tool as lcTool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import type { Principal } from "../../lib/auth/roles";
import { startFakeLlmServer, type FakeLlmServer } from "../../lib/llm/test-server";
import { useRunsTestServer } from "../../server/fixtures/runs-server";
import { ActionNotApproved, createFaultline, type Faultline } from "./src/index";
import { governedTool as agentsTool, settleInterruptions } from "./src/openai-agents";
import { governTools } from "./src/ai-sdk";
import { governedTool as langgraphTool, resumeWhenDecided } from "./src/langgraph";
import { clientTypes, TYPES_FILE } from "./generate";

/**
 * The TypeScript client and its adapters (issue 15), each driving its real SDK: the OpenAI Agents SDK,
 * the Vercel AI SDK and LangGraph JS talk to a scripted OpenAI-compatible model server on 127.0.0.1, and
 * the client talks real HTTP to the runs API (route handlers on a real PostgreSQL with a real worker).
 * The shell tool runs real processes.
 */

const operator: Principal = { id: "0b5a1d8e-0000-4000-8000-0000000000c1", name: "Tess TypeScript", email: "tess@x", roles: ["operator"] };
const api = useRunsTestServer({ operator, token: "flt_ts_client_test", workspacesDir: "/tmp/fl-ts-client" });
let fl: Faultline;
let llm: FakeLlmServer;

beforeAll(async () => {
  fl = createFaultline({ baseUrl: api.baseUrl, token: api.token });
  llm = await startFakeLlmServer();
  setTracingDisabled(true);
});
afterAll(async () => llm?.close());

const run$ = promisify(execFile);
/** The real tool every agent here calls: a process. */
let processes = 0;
async function shell({ command, args }: { command: string; args: string[] }): Promise<{ stdout: string }> {
  processes++;
  return { stdout: (await run$(command, args)).stdout };
}
const shellArgs = z.object({ command: z.string(), args: z.array(z.string()) });

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
async function http(method: string, path: string, body?: unknown): Promise<Json> {
  const res = await fetch(`${api.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${api.token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  return (await res.json()) as Json;
}
/** A person decides in the console once the run has a pending proposal (waits on that state). */
async function decideWhenPending(runId: string, decision: Json): Promise<Json> {
  for (let i = 0; i < 600; i++) {
    const pending = ((await http("GET", `/api/v1/missions/${runId}/proposals`)).proposals as Json[]).find((p) => p.status === "pending");
    if (pending) return http("POST", `/api/v1/proposals/${pending.id}/decision`, decision);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`run ${runId} never had a pending proposal`);
}
async function eventTypes(runId: string, until: string): Promise<string[]> {
  for (let i = 0; i < 600; i++) {
    const types = ((await http("GET", `/api/v1/missions/${runId}/events`)).events as Json[]).map((e) => e.type as string);
    if (types.includes(until)) return types;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`run ${runId} has no ${until} event`);
}
const holdEcho = [{ id: "hold-echo", effect: "hold" as const, tool: "shell", binary: "echo", reason: "a person reads every echo first" }];

describe("the TypeScript client", () => {
  it("is typed from the OpenAPI document (the generated types match it)", async () => {
    expect(readFileSync(TYPES_FILE, "utf8")).toBe(await clientTypes());
  });

  it("governed(): an allowed call runs and is reported, rm -rf / never runs, a person's modification is what runs, and the evidence decides the status", async () => {
    const created = await fl.runs.create({ name: "TS client", objective: "Say hello", allowedBinaries: ["echo", "rm"] });
    const run = fl.run(created.id);
    const sh = run.governed("shell", shell);
    expect(await sh({ command: "echo", args: ["hello from ts"] })).toEqual({ stdout: "hello from ts\n" });

    const before = processes;
    const denied = await sh({ command: "rm", args: ["-rf", "/"] }).catch((e) => e);
    expect(denied).toBeInstanceOf(ActionNotApproved);
    expect((denied as ActionNotApproved).decision).toMatchObject({ decision: "rejected", failureReason: "AUTHORITY_REJECTION" });
    expect(processes).toBe(before);

    const held = await fl.runs.create({ name: "TS client held", objective: "Say hello after a look", allowedBinaries: ["echo"], rules: holdEcho });
    const heldRun = fl.run(held.id);
    const [out, decided] = await Promise.all([heldRun.governed("shell", shell)({ command: "echo", args: ["as asked"] }), decideWhenPending(held.id, { decision: "modify", args: { command: "echo", args: ["as approved"] }, note: "say it this way" })]);
    expect(decided.decision.decision).toBe("approved");
    expect(out).toEqual({ stdout: "as approved\n" });

    expect((await run.finish("said hello")).finishes[0]).toMatchObject({ status: "approved", decision: { authority: "evidence" } });
    expect((await run.ended(20_000)).finalStatus).toBe("SUCCESS");
  });

  it("a call that throws is reported failed, diagnosed, rethrown; the run is not SUCCESS", async () => {
    const created = await fl.runs.create({ name: "TS client failing", objective: "List a directory that is not there", allowedBinaries: ["ls"] });
    const run = fl.run(created.id);
    const err = await run.governed("shell", shell)({ command: "ls", args: ["/definitely/not/here"] }).catch((e) => e);
    expect(String(err)).toMatch(/No such file or directory/);
    const types = await eventTypes(created.id, "diagnostic_reflection");
    expect(types).toContain("tool.failed");
    const unauth = await createFaultline({ baseUrl: api.baseUrl, token: "flt_wrong" }).runs.get(created.id).catch((e) => e);
    expect(unauth).toMatchObject({ name: "FaultlineError", status: 401 });
  });
});

describe("adapters, each driving its real SDK against a scripted model", () => {
  it("OpenAI Agents SDK: needsApproval interrupts only while a person must decide; governed calls run, a rejected one reaches the model with its reason", async () => {
    llm.script("agents", [
      { toolCalls: [{ id: "call_a1", name: "shell", arguments: { command: "echo", args: ["from agents"] } }] },
      { toolCalls: [{ id: "call_a2", name: "shell", arguments: { command: "rm", args: ["-rf", "/"] } }] },
      { toolCalls: [{ id: "call_a3", name: "shell", arguments: { command: "echo", args: ["held"] } }] },
      "done",
    ]);
    const created = await fl.runs.create({ name: "Agents SDK", objective: "Echo twice", allowedBinaries: ["echo", "rm"], rules: [{ ...holdEcho[0], args: "held" }] });
    const run = fl.run(created.id);
    const model = await new OpenAIProvider({ baseURL: `${llm.url}/agents`, apiKey: "test", useResponses: false }).getModel("agents-model");
    const agent = new Agent({ name: "echoer", instructions: "Use the shell tool.", model, tools: [agentsTool(run, { name: "shell", description: "Run a command", parameters: shellArgs, execute: shell })] });

    const first = await runAgent(agent, "echo twice");
    expect(first.interruptions.map((i) => i.name)).toEqual(["shell"]);
    const [state] = await Promise.all([settleInterruptions(first, run), decideWhenPending(created.id, { decision: "approve" })]);
    const result = await runAgent(agent, state);
    expect(result.finalOutput).toBe("done");

    const toolOutputs = llm.requests.filter((r) => r.mode === "agents").flatMap((r) => ((r.body as Json).messages as Json[]).filter((m) => m.role === "tool").map((m) => String(m.content)));
    expect(toolOutputs.some((c) => c.includes("from agents"))).toBe(true);
    expect(toolOutputs.some((c) => /did not approve shell \(rejected, AUTHORITY_REJECTION\)/.test(c))).toBe(true);
    expect(toolOutputs.some((c) => c.includes("held"))).toBe(true);
    const p = (await http("GET", `/api/v1/missions/${created.id}/proposals`)).proposals as Json[];
    expect(p.map((x) => x.status).sort()).toEqual(["approved", "approved", "rejected"]);
  });

  it("Vercel AI SDK: governTools wraps execute; the approved call runs, the rejected one returns why to the model", async () => {
    llm.script("aisdk", [
      { toolCalls: [{ id: "call_v1", name: "shell", arguments: { command: "echo", args: ["from ai sdk"] } }] },
      { toolCalls: [{ id: "call_v2", name: "shell", arguments: { command: "rm", args: ["-rf", "/"] } }] },
      "done",
    ]);
    const created = await fl.runs.create({ name: "AI SDK", objective: "Echo", allowedBinaries: ["echo", "rm"] });
    const run = fl.run(created.id);
    const provider = createOpenAICompatible({ name: "fake", baseURL: `${llm.url}/aisdk`, apiKey: "test" });
    const result = await generateText({
      model: provider.chatModel("aisdk-model"),
      prompt: "echo something",
      tools: governTools(run, { shell: aiTool({ description: "Run a command", inputSchema: shellArgs, execute: shell }) }),
      stopWhen: stepCountIs(5),
    });
    expect(result.text).toBe("done");
    const outputs = result.steps.flatMap((s) => s.toolResults.map((r) => r.output as Json));
    expect(outputs[0]).toEqual({ stdout: "from ai sdk\n" });
    expect(outputs[1].notApproved).toMatch(/AUTHORITY_REJECTION/);
    expect(outputs[1].decision).toMatchObject({ decision: "rejected" });
    await run.finish();
    expect((await run.ended(30_000)).finalStatus).toBe("SUCCESS");
  });

  it("LangGraph JS: a held call pauses the graph with interrupt(); resumed after the decision, it runs", async () => {
    llm.script("langgraph", [{ toolCalls: [{ id: "call_l1", name: "shell", arguments: { command: "echo", args: ["from langgraph"] } }] }, "done"]);
    const created = await fl.runs.create({ name: "LangGraph", objective: "Echo after approval", allowedBinaries: ["echo"], rules: holdEcho });
    const run = fl.run(created.id);
    const graph = createReactAgent({
      llm: new ChatOpenAI({ model: "langgraph-model", apiKey: "test", configuration: { baseURL: `${llm.url}/langgraph` } }),
      tools: [langgraphTool(run, lcTool(shell, { name: "shell", description: "Run a command", schema: shellArgs }))],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: created.id } };
    await graph.invoke({ messages: [{ role: "user", content: "echo" }] }, config);
    const interrupts = (await graph.getState(config)).tasks.flatMap((t) => t.interrupts);
    expect(interrupts).toHaveLength(1);
    expect(interrupts[0].value).toMatchObject({ faultline: { runId: created.id, tool: "shell", callId: "call_l1" } });

    const [resume] = await Promise.all([resumeWhenDecided(fl, interrupts), decideWhenPending(created.id, { decision: "approve" })]);
    const out = await graph.invoke(resume, config);
    const messages = out.messages as Array<{ content: unknown; getType(): string }>;
    expect(messages.at(-1)?.content).toBe("done");
    expect(messages.filter((m) => m.getType() === "tool").map((m) => String(m.content)).join("\n")).toContain("from langgraph");
    await run.finish();
    expect((await run.ended(30_000)).finalStatus).toBe("SUCCESS");
  });
});
