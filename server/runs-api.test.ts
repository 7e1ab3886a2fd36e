import { describe, expect, it } from "vitest";
import { decideGate } from "../db/queries/gates";
import { personActor } from "../lib/audit";
import type { Principal } from "../lib/auth/roles";
import { useWorkerDatabase } from "./fixtures/runs-server";
import { api, type Endpoint } from "./api-contract";
import { errorOf, jsonRequest, params, signedInAs, url } from "./route-test-helpers";

/**
 * The runs API (issue 15) as an external agent uses it, route handlers on a real PostgreSQL with a real
 * worker: ask before each call, run only what is approved, report results, finish; Faultline decides,
 * records, diagnoses and derives the status.
 */

const runs = await import("../app/api/v1/runs/route");
const run = await import("../app/api/v1/runs/[id]/route");
const proposals = await import("../app/api/v1/runs/[id]/proposals/route");
const results = await import("../app/api/v1/runs/[id]/results/route");
const finish = await import("../app/api/v1/runs/[id]/finish/route");
const heartbeat = await import("../app/api/v1/runs/[id]/heartbeat/route");
const stream = await import("../app/api/v1/runs/[id]/stream/route");
const proposal = await import("../app/api/v1/proposals/[id]/route");
const missionEvents = await import("../app/api/v1/missions/[id]/events/route");

const operator: Principal = { id: "0b5a1d8e-0000-4000-8000-000000000001", name: "Olivia Operator", email: "olivia@x", roles: ["operator"] };
const auditor: Principal = { id: "0b5a1d8e-0000-4000-8000-000000000002", name: "Aude Auditor", email: "aude@x", roles: ["auditor"] };

const env = useWorkerDatabase({ people: [operator, auditor], workspacesDir: "/tmp/fl-runs-api" });

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const body = async (res: Response): Promise<Json> => (await res.json()) as Json;
/** Every success answers exactly what the OpenAPI document (and so the TypeScript client) says it does. */
const inSchema = (e: Endpoint) => async (res: Response) => {
  if (res.ok) {
    const r = e.ok.schema!.safeParse(await res.clone().json());
    if (!r.success) throw new Error(`${e.name} answered outside its response schema: ${r.error.message}`);
  }
  return res;
};
const create = (b: unknown) => runs.POST(jsonRequest("POST", "/api/v1/runs", b), params({})).then(inSchema(api.createRun));
const propose = (id: string, b: unknown) => proposals.POST(jsonRequest("POST", `/api/v1/runs/${id}/proposals`, b), params({ id })).then(inSchema(api.proposeRunCall));
const report = (id: string, b: unknown) => results.POST(jsonRequest("POST", `/api/v1/runs/${id}/results`, b), params({ id })).then(inSchema(api.reportRunResult));
const done = (id: string, b: unknown = {}) => finish.POST(jsonRequest("POST", `/api/v1/runs/${id}/finish`, b), params({ id })).then(inSchema(api.finishRun));
const getRun = (id: string, wait = 0) => run.GET(new Request(url(`/api/v1/runs/${id}?wait=${wait}`)), params({ id })).then(inSchema(api.getRun));
const events = async (id: string) => (await body(await missionEvents.GET(new Request(url(`/api/v1/missions/${id}/events`)), params({ id })))).events as Array<{ type: string; payload: Json; seq: number }>;

/** Waits (on the state, never on time) until the run's log has an event of this type. */
async function eventOf(id: string, type: string): Promise<{ type: string; payload: Json; seq: number }> {
  for (let i = 0; i < 400; i++) {
    const found = (await events(id)).find((e) => e.type === type);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`run ${id} has no ${type} event`);
}

describe("the runs API: an agent that runs elsewhere asks first, reports, finishes; the evidence decides", () => {
  it("an allowed call is approved, its callId is idempotent, rm -rf / is not approved, results keep the contract, a failure is diagnosed, and finish is not SUCCESS", async () => {
    signedInAs(operator);
    const created = await create({ name: "Deploy notes", objective: "Publish the release notes", allowedBinaries: ["ls", "cat", "echo", "rm"] });
    expect(created.status).toBe(201);
    const r = (await body(created)).run;
    expect(r).toMatchObject({ runState: "running", agents: [{ name: "agent", status: "running" }] });

    // An allowed call: approved now, bound to its args' digest.
    const ls = await propose(r.id, { callId: "call-1", tool: "shell", args: { command: "ls", args: ["-la"] } });
    expect(ls.status).toBe(201);
    const lsP = (await body(ls)).proposal;
    expect(lsP).toMatchObject({ status: "approved", decision: { decision: "approved", argsDigest: lsP.argsDigest } });
    // The same callId again is the same proposal; other args under it are a 409.
    const again = await propose(r.id, { callId: "call-1", tool: "shell", args: { command: "ls", args: ["-la"] } });
    expect(again.status).toBe(200);
    expect((await body(again)).proposal.id).toBe(lsP.id);
    const reused = await propose(r.id, { callId: "call-1", tool: "shell", args: { command: "ls", args: ["/"] } });
    expect(reused.status).toBe(409);
    expect((await errorOf(reused)).message).toMatch(/callId "call-1" was already used for another call/);

    // rm -rf / as a Claude Code Bash command line: rejected by the default policy, with a counterfactual, blaming nobody.
    const rm = (await body(await propose(r.id, { callId: "call-2", tool: "Bash", args: { command: "cd /tmp && rm -rf /" } }))).proposal;
    expect(rm.status).toBe("rejected");
    expect(rm.decision).toMatchObject({ failureReason: "AUTHORITY_REJECTION", authority: "default-policy:no-recursive-delete-outside-workspace" });
    expect(rm.decision.counterfactual.change).toMatchObject({ type: "relax_constraint" });
    // Hidden in a command substitution, too.
    expect((await body(await propose(r.id, { callId: "call-3", tool: "Bash", args: { command: "echo $(rm -rf ~)" } }))).proposal.status).toBe("rejected");

    // Results: the contract is checked (400 naming the rule); a call never proposed or not approved is a 409.
    const broken = await report(r.id, { callId: "call-1", result: { ok: true, data: null } });
    expect(broken.status).toBe(400);
    expect((await errorOf(broken)).message).toMatch(/ok = true requires data ≠ null/);
    const noError = await report(r.id, { callId: "call-1", result: { ok: false } });
    expect((await errorOf(noError)).message).toMatch(/ok = false requires error ≠ null/);
    expect((await report(r.id, { callId: "never", result: { ok: true, data: {} } })).status).toBe(409);
    const rejectedRun = await report(r.id, { callId: "call-2", result: { ok: true, data: {} } });
    expect(rejectedRun.status).toBe(409);
    expect((await errorOf(rejectedRun)).message).toMatch(/is rejected, not approved: it must not run/);

    // The approved call fails where the agent runs it: recorded, diagnosed, a gate opens (critical agent).
    const failed = await report(r.id, { callId: "call-1", result: { ok: false, error: { message: "ls: cannot open directory '/root': Permission denied", exitCode: 2 } } });
    expect(failed.status).toBe(200);
    expect((await body(failed)).result).toMatchObject({ status: "failed", step: 0 });
    const toolFailed = await eventOf(r.id, "tool.failed");
    expect(toolFailed.payload.error).toMatchObject({ code: "PERMISSION_DENIED", exitCode: 2 });
    const reflection = await eventOf(r.id, "diagnostic_reflection");
    expect(reflection.seq).toBeGreaterThan(toolFailed.seq);
    const gate = await eventOf(r.id, "gate.opened");
    expect(gate.payload).toMatchObject({ kind: "agent", agent: "agent" });

    // Its next proposal waits for the gate (GATE_OPEN). Its claim to be done is refused: a call failed.
    const waiting = (await body(await propose(r.id, { callId: "call-4", tool: "shell", args: { command: "echo", args: ["retry"] } }))).proposal;
    expect(waiting).toMatchObject({ status: "pending", decision: { pendingReason: "GATE_OPEN" } });
    const fin = await body(await done(r.id, { summary: "Listed the directory; all good." }));
    expect(fin.finishes[0]).toMatchObject({ status: "rejected", decision: { authority: "evidence", failureReason: "AUTHORITY_REJECTION" } });
    expect(fin.finishes[0].decision.reason).toMatch(/no_failed_calls expected no failed call but 1 failed/);

    // The operator skips the failed agent: what waited is refused, the run ends, and not SUCCESS.
    await decideGate(env.tdb.db, { gateId: gate.payload.gateId, decision: "skip", note: "not needed", actor: personActor(operator, "api", null) });
    const ended = (await body(await getRun(r.id, 30))).run;
    expect(ended.runState).toBe("failed");
    expect(ended.finalStatus).toBe("FAILED");
    expect(ended.explanation.failureReason).toBeTruthy();
    const after = await body(await proposal.GET(new Request(url(`/api/v1/proposals/${waiting.id}`)), params({ id: waiting.id })).then(inSchema(api.getProposal)));
    expect(after.proposal.status).toBe("rejected");
  });

  it("a run whose evidence holds ends SUCCESS; a person's approval reaches a long-polling agent; the stream carries the same decisions", async () => {
    signedInAs(operator);
    const r = (await body(await create({ name: "Say hello", objective: "Print hello", evidence: [{ output_matches: "^hello" }], rules: [{ id: "hold-curl", effect: "hold", tool: "Bash", binary: "curl", reason: "network calls are read first" }] }))).run;
    // No binary allowlist: the rules decide. A held call waits for a person.
    const held = (await body(await propose(r.id, { callId: "t1", tool: "Bash", args: { command: "curl -s https://example.com" } }))).proposal;
    expect(held).toMatchObject({ status: "pending", decision: { pendingReason: "POLICY_HOLD", authority: "rule:hold-curl" } });
    expect(held.prompt.options.map((o: { type: string }) => o.type)).toEqual(["retry", "modify", "request_info", "abort"]);
    // The agent long-polls; the operator approves in the meantime.
    const poll = proposal.GET(new Request(url(`/api/v1/proposals/${held.id}?wait=20`)), params({ id: held.id })).then(inSchema(api.getProposal));
    const gate = await eventOf(r.id, "gate.opened");
    await decideGate(env.tdb.db, { gateId: gate.payload.gateId, decision: "approve", note: "fine", actor: personActor(operator, "api", null) });
    const polled = await body(await poll);
    expect(polled.proposal.status).toBe("approved");
    expect(polled.decision.decidedBy).toBe(personActor(operator, "api", null).id);

    await report(r.id, { callId: "t1", result: { ok: true, data: { stdout: "<html>" } } });
    const echo = (await body(await propose(r.id, { callId: "t2", tool: "Bash", args: { command: "echo hello" } }))).proposal;
    expect(echo.status).toBe("approved");
    await report(r.id, { callId: "t2", result: { ok: true, data: { stdout: "hello\n", exitCode: 0 } } });
    const fin = await body(await done(r.id, { summary: "done" }));
    expect(fin.finishes[0]).toMatchObject({ status: "approved", decision: { authority: "evidence" } });
    const ended = (await body(await getRun(r.id, 30))).run;
    expect(ended.finalStatus).toBe("SUCCESS");

    // The server-sent events: the same decision records, in seq order, ending with mission.finished.
    const res = await stream.GET(new Request(url(`/api/v1/runs/${r.id}/stream?after=0`)), params({ id: r.id }));
    expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
    const text = await res.text();
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids.length).toBe(new Set(ids).size);
    expect(text).toMatch(/event: proposal.decided\ndata: .*"pendingReason":"POLICY_HOLD"/);
    expect(text.trim().split("\n\n").at(-1)).toMatch(/^id: \d+\nevent: mission.finished/);
  });

  it("a silent agent pauses its run with an explicit event; its next call resumes it", async () => {
    signedInAs(operator);
    const r = (await body(await create({ name: "Quiet one", objective: "Go silent", heartbeatTimeoutMs: 1000 }))).run;
    const paused = await eventOf(r.id, "mission.paused");
    expect(paused.payload).toMatchObject({ kind: "agent" });
    expect(paused.payload.message).toMatch(/No call or heartbeat from "agent"/);
    expect((await body(await getRun(r.id))).run.runState).toBe("paused");
    expect((await heartbeat.POST(new Request(url(`/api/v1/runs/${r.id}/heartbeat`), { method: "POST" }), params({ id: r.id })).then(inSchema(api.heartbeatRun))).status).toBe(200);
    await eventOf(r.id, "mission.resumed");
    expect((await body(await getRun(r.id))).run.runState).toBe("running");
  });

  it("refuses bad input with specific errors, and people without the permission", async () => {
    signedInAs(operator);
    const bad = await create({ name: "x", objective: "y", evidence: [{ file_exists: "a.txt" }] });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/evidence: file_exists cannot be checked/);
    const noName = await create({ objective: "y" });
    expect((await errorOf(noName)).details?.fieldErrors?.[0]).toMatchObject({ path: "name" });
    expect((await create("{not json")).status).toBe(400);
    const two = (await body(await create({ name: "Two", objective: "two agents", agents: [{ name: "a" }, { name: "b", tools: ["Read"] }] }))).run;
    const which = await propose(two.id, { callId: "x", tool: "Read", args: {} });
    expect((await errorOf(which)).message).toMatch(/agent is required: this run has 2 agents \(a, b\)/);
    const notTool = (await body(await propose(two.id, { callId: "x", agent: "b", tool: "Write", args: { file_path: "a" } }))).proposal;
    expect(notTool).toMatchObject({ status: "rejected", decision: { authority: "allowlist" } });
    expect((await propose("00000000-0000-4000-8000-000000000000", { callId: "x", tool: "Read" })).status).toBe(404);
    signedInAs(auditor);
    expect((await create({ name: "n", objective: "o" })).status).toBe(403);
    expect((await propose(two.id, { callId: "y", agent: "a", tool: "Read" })).status).toBe(403);
    signedInAs(null);
    expect((await create({ name: "n", objective: "o" })).status).toBe(401);
  });
});
