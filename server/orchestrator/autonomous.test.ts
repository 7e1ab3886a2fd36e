import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createMission, listEventsAfter } from "../../db/queries/events";
import { decideProposal } from "../../db/queries/authority";
import { decideGate } from "../../db/queries/gates";
import { ensureActor } from "../../db/queries/users";
import { auditLog, gatePolicies, proposals } from "../../db/schema";
import { missionDefinitionSchema, parseMissionDefinition, type MissionState } from "../../lib/mission";
import { startReplayServer, type Recordings, type ReplayServer } from "../model-replay";
import { useWorkerHarness } from "./test-harness";
import { agentProviders } from "./agent-providers";
import { demoAutonomousMissions } from "../../db/seed/demo";

/**
 * Autonomous agents end to end (issue 14, seed 002): a real Worker on PostgreSQL, the real
 * OpenAI-compatible client against a loopback model server that replays scripted turns, real tools in
 * the mission's workspace. Every model action is a proposal the one authority decides.
 */

const harness = useWorkerHarness("fl-auto-");
const { state, settle } = harness;
const servers: ReplayServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
beforeAll(async () => {
  await ensureActor(harness.tdb.db, { id: "system:authority", kind: "system", displayName: "authority" });
});

type Turn = Recordings["recordings"][number]["turns"][number];
const call = (name: string, args: unknown): Turn => ({ toolCalls: [{ name, arguments: args }] });

async function model(goal: string, turns: Turn[]): Promise<ReplayServer> {
  const s = await startReplayServer({ recordings: { recordings: [{ id: goal.slice(0, 12), goal, turns }] } });
  servers.push(s);
  return s;
}

function autonomousMission(goal: string, opts: { rules?: unknown[]; evidence?: unknown[]; maxActions?: number; allowedBinaries?: string[]; tools?: string[] } = {}) {
  return missionDefinitionSchema.parse({
    name: `auto ${goal.slice(0, 30)}`,
    objective: "an autonomous agent under governance",
    library: false,
    allowedBinaries: opts.allowedBinaries ?? ["ls", "rm"],
    rules: opts.rules ?? [],
    phases: [{ name: "EXECUTION", agents: [{ name: "writer", priority: "critical", autonomous: { goal, tools: opts.tools ?? ["file", "shell"], maxActions: opts.maxActions ?? 6, evidence: opts.evidence ?? [{ file_exists: "notes.txt" }] } }] }],
  });
}

async function start(def: ReturnType<typeof autonomousMission>): Promise<string> {
  return (await createMission(harness.tdb.db, { definition: def, actorId: "user:op" })).id;
}

const provider = (s: ReplayServer) => [{ ...s.provider, timeoutMs: 5000 }];

describe("an autonomous agent under governance", () => {
  it("runs the approved write, rejects rm -rf / as AUTHORITY_REJECTION with a counterfactual, approves finish by the evidence: SUCCESS", async () => {
    const goal = "Write hello into notes.txt in the workspace, then finish.";
    const m = await model(goal, [call("shell", { command: "rm", args: ["-rf", "/"] }), call("file", { op: "write", path: "notes.txt", content: "hello\n" }), call("finish", { summary: "done" })]);
    const id = await start(autonomousMission(goal));
    await harness.startWorker({ llmProviders: provider(m) });
    const s = await settle(id);
    expect(s.finalStatus).toBe("SUCCESS");
    expect(fs.readFileSync(path.join(harness.workspaces, id, "notes.txt"), "utf8")).toBe("hello\n");
    const [rm, write, finish] = s.proposals;
    expect(rm.status).toBe("rejected");
    expect(rm.decision?.failureReason).toBe("AUTHORITY_REJECTION");
    expect(rm.decision?.counterfactual).toBeTruthy();
    expect(rm.step).toBeNull(); // it never ran
    expect(write.status).toBe("approved");
    expect(write.step).toBe(0);
    expect(finish.action.tool).toBe("finish");
    expect(finish.status).toBe("approved");
    expect(finish.decision?.authority).toBe("evidence");
    // The model was told each outcome: its second turn saw the rejection, its third the write's result.
    expect(m.requests).toBe(3);
    // Every proposal names its agent actor, every decision the authority.
    const rows = await harness.tdb.db.select().from(proposals).where(eq(proposals.missionId, id));
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.actorId.startsWith("agent:writer@"))).toBe(true);
    expect(rows.every((r) => r.decidedBy === "system:authority")).toBe(true);
    const events = await listEventsAfter(harness.tdb.db, { missionId: id });
    const started = events.find((e) => e.type === "step.started")!;
    expect(started.payload).toMatchObject({ proposalId: write.id, argsDigest: write.decision?.argsDigest });
  });

  it("a finish the evidence does not support is rejected and the model is told why (FP-5: the claim is never evidence)", async () => {
    const goal = "Claim success without writing anything.";
    const m = await model(goal, [call("finish", { summary: "I wrote notes.txt" }), call("file", { op: "write", path: "notes.txt", content: "now really\n" }), call("finish", { summary: "done" })]);
    const id = await start(autonomousMission(goal));
    await harness.startWorker({ llmProviders: provider(m) });
    const s = await settle(id);
    expect(s.proposals[0].status).toBe("rejected");
    expect(s.proposals[0].decision?.counterfactual?.change.type).toBe("add_observation");
    expect(s.finalStatus).toBe("SUCCESS");
  });

  it("a model that only proposes forbidden commands ends not SUCCESS: no executable action is left, a gate decides, nobody is blamed", async () => {
    const goal = "Free disk space by any means.";
    const m = await model(goal, [call("shell", { command: "rm", args: ["-rf", "/"] })]);
    const id = await start(autonomousMission(goal));
    await harness.startWorker({ llmProviders: provider(m) });
    const s = await settle(id);
    expect(s.runState).toBe("paused");
    expect(s.proposals.every((p) => p.status === "rejected")).toBe(true);
    expect(s.agents.writer.error?.failureReason).toBe("NO_EXECUTABLE_ACTION");
    const gate = s.gates.find((g) => g.status === "open")!;
    const ended = await decideGate(harness.tdb.db, { gateId: gate.id, decision: "abort", note: "nothing safe to do", actorId: "user:op", actorName: "Olivia Operator" });
    const final = await settle(id);
    expect(final.finalStatus).toBe("FAILED");
    expect(ended.aborted).toBe(true);
  });

  it("a hold waits at a HITL prompt; the operator modifies the args and approves; the worker runs the modified args (digest checked); audited", async () => {
    const goal = "Write the report.";
    const m = await model(goal, [call("file", { op: "write", path: "draft.txt", content: "draft\n" }), call("finish", { summary: "done" })]);
    const id = await start(autonomousMission(goal, { rules: [{ id: "writes-need-a-person", effect: "hold", tool: "file", reason: "file writes need a person" }], evidence: [{ file_exists: "final.txt" }] }));
    await harness.startWorker({ llmProviders: provider(m) });
    const held = await settle(id);
    expect(held.runState).toBe("paused");
    const p = held.proposals[0];
    expect(p.status).toBe("pending");
    expect(p.decision?.pendingReason).toBe("POLICY_HOLD");
    const gate = held.gates.find((g) => g.proposalId === p.id)!;
    expect(gate.prompt?.whyPending.reason).toBe("POLICY_HOLD");
    expect(gate.prompt?.currentState).toContain("writer");
    expect(gate.prompt?.options.map((o) => o.type)).toEqual(["retry", "modify", "request_info", "abort"]);
    const actor = { id: "user:op", name: "Olivia Operator", via: "api" as const, kind: "human" as const };
    // Nobody decides their own proposal: the agent actor is refused.
    await expect(decideProposal(harness.tdb.db, { proposalId: p.id, answer: "approve", note: null, actor: { id: p.actorId, name: "agent", via: "api", kind: "agent" }, approvalTtlMs: 60_000 })).rejects.toThrow();
    await decideProposal(harness.tdb.db, { proposalId: p.id, answer: "modify", args: { op: "write", path: "final.txt", content: "final\n" }, note: "use the final name", actor, approvalTtlMs: 60_000 });
    await expect(decideProposal(harness.tdb.db, { proposalId: p.id, answer: "approve", note: null, actor, approvalTtlMs: 60_000 })).rejects.toMatchObject({ status: 409 });
    const s = await settle(id);
    expect(s.finalStatus).toBe("SUCCESS");
    expect(fs.existsSync(path.join(harness.workspaces, id, "final.txt"))).toBe(true);
    expect(fs.existsSync(path.join(harness.workspaces, id, "draft.txt"))).toBe(false);
    const decided = s.proposals[0];
    expect(decided.decision?.authority).toBe("hitl");
    expect(decided.decision?.decidedBy).toBe("user:op");
    expect(decided.decision?.modified?.args).toMatchObject({ path: "final.txt" });
    const audit = await harness.tdb.db.select().from(auditLog).where(and(eq(auditLog.action, "proposal.modify"), eq(auditLog.missionId, id)));
    expect(audit).toHaveLength(1);
    expect(audit[0].before).toMatchObject({ args: { path: "draft.txt" } });
    expect(audit[0].after).toMatchObject({ args: { path: "final.txt" } });
  });

  it("an approval that expired before it ran is refused, never applied; the agent proposes again", async () => {
    const goal = "Write notes slowly.";
    const m = await model(goal, [call("file", { op: "write", path: "notes.txt", content: "one\n" }), call("file", { op: "write", path: "notes.txt", content: "two\n" }), call("finish", { summary: "done" })]);
    const id = await start(autonomousMission(goal, { rules: [{ id: "hold-writes", effect: "hold", tool: "file", reason: "a person decides writes" }] }));
    const actor = { id: "user:op", name: "Olivia Operator", via: "api" as const, kind: "human" as const };
    await harness.startWorker({ llmProviders: provider(m) });
    const held = await settle(id);
    // Approved with a lifetime of 1 ms: it expires before the worker picks it up.
    await decideProposal(harness.tdb.db, { proposalId: held.proposals[0].id, answer: "approve", note: null, actor, approvalTtlMs: 1 });
    const again = await waitFor(id, (s) => s.proposals.length >= 2 && s.runState === "paused");
    expect(again.proposals[0].status).toBe("expired");
    expect(again.proposals[0].step).toBeNull();
    await decideProposal(harness.tdb.db, { proposalId: again.proposals[1].id, answer: "approve", note: null, actor, approvalTtlMs: 60_000 });
    const s = await waitFor(id, (x) => x.runState === "completed" || x.runState === "failed");
    expect(s.finalStatus).toBe("SUCCESS");
    expect(fs.readFileSync(path.join(harness.workspaces, id, "notes.txt"), "utf8")).toBe("two\n");
  });

  it("uses up its maxActions without an approved finish: RESOURCE_EXHAUSTED, and the response matrix opens a gate", async () => {
    const goal = "List files forever.";
    const m = await model(goal, [call("shell", { command: "ls", args: ["-la"] })]);
    const id = await start(autonomousMission(goal, { maxActions: 2 }));
    await harness.startWorker({ llmProviders: provider(m) });
    const s = await settle(id);
    expect(s.runState).toBe("paused");
    expect(s.agents.writer.error?.failureReason).toBe("RESOURCE_EXHAUSTED");
    expect(s.proposals).toHaveLength(2);
    expect(s.gates.find((g) => g.status === "open")?.kind).toBe("agent");
  });

  it("with no LLM provider an autonomous agent stops and says what to configure", async () => {
    const id = await start(autonomousMission("Anything."));
    await harness.startWorker({ llmProviders: [] });
    const s = await settle(id);
    expect(s.agents.writer.error?.message).toMatch(/FAULTLINE_LLM_PROVIDERS/);
  });

  it("a level-0 mission (examples/hello.yaml) never calls a model, even with one configured", async () => {
    const m = await model("never", [call("finish", { summary: "x" })]);
    const parsed = parseMissionDefinition(fs.readFileSync(path.join(import.meta.dirname, "..", "..", "examples", "hello.yaml"), "utf8"));
    if (!parsed.ok) throw new Error("examples/hello.yaml does not parse");
    const id = await start(parsed.definition as ReturnType<typeof autonomousMission>);
    await harness.startWorker({ llmProviders: provider(m), allowedBinaries: ["node"] });
    const s = await settle(id);
    expect(s.finalStatus).toBe("SUCCESS");
    expect(m.requests).toBe(0);
  });
});

describe("a proposal nobody decides before its gate policy's deadline", () => {
  it("is rejected by the system as HUMAN_REQUIRED, never approved on silence, even when the policy's outcome says approve", async () => {
    const goal = "Write the report before the deadline.";
    const m = await model(goal, [call("file", { op: "write", path: "notes.txt", content: "late\n" }), call("finish", { summary: "done" })]);
    const def = autonomousMission(goal, { rules: [{ id: "hold-writes", effect: "hold", tool: "file", reason: "a person decides writes" }], maxActions: 2 });
    await harness.tdb.db.insert(gatePolicies).values({ definition: def.name, gateKind: "proposal", timeoutMs: 1000, timeoutOutcome: "approve", createdBy: "user:op", updatedBy: "user:op" });
    const id = await start(def);
    await harness.startWorker({ llmProviders: provider(m), gateSweepMs: 200 });
    const s = await waitFor(id, (x) => x.proposals[0]?.status === "rejected");
    const p = s.proposals[0];
    expect(p.decision).toMatchObject({ decision: "rejected", authority: "timeout", failureReason: "HUMAN_REQUIRED", decidedBy: "system" });
    expect(p.step).toBeNull();
    expect(s.gates.find((g) => g.proposalId === p.id)).toMatchObject({ status: "resolved", decision: "reject", decidedBy: "system" });
    expect(fs.existsSync(path.join(harness.workspaces, id, "notes.txt"))).toBe(false);
  });
});

describe("the demo's autonomous missions, played by the recorded provider", () => {
  it("one succeeds after its rm -rf / proposal is rejected; one waits at a HITL prompt for the operator", async () => {
    const recorded = await startReplayServer();
    servers.push(recorded);
    const [build, rotate] = demoAutonomousMissions();
    const buildId = await start(build as ReturnType<typeof autonomousMission>);
    const rotateId = await start(rotate as ReturnType<typeof autonomousMission>);
    await harness.startWorker({ agentProviders: agentProviders({ FAULTLINE_LLM_PROVIDERS: [], FAULTLINE_RECORDED_PROVIDER: `${recorded.url}/v1` }) });
    const b = await settle(buildId);
    expect(b.finalStatus).toBe("SUCCESS");
    expect(b.proposals.map((p) => [p.action.tool, p.status])).toEqual([
      ["shell", "rejected"],
      ["file", "approved"],
      ["finish", "approved"],
    ]);
    expect(b.proposals[0].actorId).toMatch(/^agent:summarizer@recorded\//);
    const r = await settle(rotateId);
    expect(r.runState).toBe("paused");
    const gate = r.gates.find((g) => g.status === "open")!;
    expect(gate.kind).toBe("proposal");
    expect(gate.prompt?.whyPending.reason).toBe("POLICY_HOLD");
    expect(gate.prompt?.currentState).toContain("Key rotation waiting for an operator");
  });
});

async function waitFor(id: string, done: (s: MissionState) => boolean, timeoutMs = 20_000): Promise<MissionState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await state(id);
    if (done(s)) return s;
    if (Date.now() > deadline) throw new Error(`mission ${id}: condition not reached (${s.runState}, ${s.proposals.length} proposals)`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
