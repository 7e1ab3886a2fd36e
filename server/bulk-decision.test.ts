import { randomBytes } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { errorOf, jsonRequest, params, signedInAs } from "./route-test-helpers";
import { useWorkerHarness } from "./orchestrator/test-harness";
import { startReplayServer, type Recordings, type ReplayServer } from "./model-replay";
import { POST as bulkRoute } from "../app/api/v1/gates/bulk-decision/route";
import { decideGatesBulkAction } from "../app/(console)/gates/actions";
import { auditLog } from "../db/schema";
import { createMission } from "../db/queries/events";
import { createGatePolicy } from "../db/queries/gate-policies";
import { decideGate } from "../db/queries/gates";
import { ensureActor, upsertUser } from "../db/queries/users";
import { definition, nodeStep } from "../lib/mission/test-fixtures";
import { gatePolicyInput } from "../lib/mission/gate-policy";
import { missionDefinitionSchema, type MissionState } from "../lib/mission";
import type { Principal } from "../lib/auth/roles";
import type { BulkItemResult } from "./gate-decision";

/**
 * Bulk decisions (issue 15) on a real worker and PostgreSQL, through the REST route and the server
 * action as the console calls them: one decision and one note for many gates or proposals, each item
 * decided on its own path with its own audit row; refused items are reported and the others go through.
 */

const harness = useWorkerHarness("fl-bulk-");
const uniq = () => randomBytes(3).toString("hex");
const servers: ReplayServer[] = [];
let operator: Principal;
let auditor: Principal;

beforeAll(async () => {
  // The route and the action use the process-wide database: make it the harness's.
  (globalThis as unknown as { __faultlineDb?: unknown }).__faultlineDb = harness.tdb;
  await ensureActor(harness.tdb.db, { id: "system:authority", kind: "system", displayName: "authority" });
  const op = await upsertUser(harness.tdb.db, { email: `bulk.operator.${uniq()}@bulk.test`, name: "Bea Bulk", passwordHash: "x", roles: ["operator"] });
  const au = await upsertUser(harness.tdb.db, { email: `bulk.auditor.${uniq()}@bulk.test`, name: "Abe Auditor", passwordHash: "x", roles: ["auditor"] });
  operator = { id: op.id, name: op.name, email: op.email, roles: ["operator"] };
  auditor = { id: au.id, name: au.name, email: au.email, roles: ["auditor"] };
});
afterEach(async () => {
  signedInAs(null);
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A mission whose only (critical) agent fails: it stops at an agent gate (retry / skip / abort). */
const failing = (name: string) => definition({ name, agents: [{ name: "deploy", priority: "critical", steps: [nodeStep("process.exit(3)")] }] });

/** Autonomous agents whose file write a rule holds for a person: each stops at a proposal gate (approve / reject / abort). One model server replays them all. */
async function heldProposals(n: number): Promise<{ defs: Array<ReturnType<typeof missionDefinitionSchema.parse>>; provider: ReplayServer["provider"] & { timeoutMs: number } }> {
  type Turn = Recordings["recordings"][number]["turns"][number];
  const turns: Turn[] = [{ toolCalls: [{ name: "file", arguments: { op: "write", path: "draft.txt", content: "draft\n" } }] }];
  const goals = Array.from({ length: n }, () => `Write the report ${uniq()}.`);
  const server = await startReplayServer({ recordings: { recordings: goals.map((goal) => ({ id: goal.slice(-8), goal, turns })) } });
  servers.push(server);
  const defs = goals.map((goal) =>
    missionDefinitionSchema.parse({
      name: `bulk proposal ${uniq()}`,
      objective: "a proposal that waits for a person",
      library: false,
      allowedBinaries: ["ls"],
      rules: [{ id: "writes-need-a-person", effect: "hold", tool: "file", reason: "file writes need a person" }],
      phases: [{ name: "EXECUTION", agents: [{ name: "writer", priority: "critical", autonomous: { goal, tools: ["file"], maxActions: 3, evidence: [{ file_exists: "draft.txt" }] } }] }],
    }),
  );
  return { defs, provider: { ...server.provider, timeoutMs: 5000 } };
}

async function atGate(def: Parameters<typeof createMission>[1]["definition"]): Promise<MissionState> {
  const m = await createMission(harness.tdb.db, { definition: def, actorId: "user:op" });
  const s = await harness.settle(m.id);
  expect(s.runState, `${def.name} should wait at a gate`).toBe("paused");
  return s;
}

const openGate = (s: MissionState) => s.gates.find((g) => g.status === "open")!;

async function postBulk(body: unknown): Promise<Response> {
  return bulkRoute(jsonRequest("POST", "/api/v1/gates/bulk-decision", body), params({}));
}

const auditRows = (targetIds: string[]) => harness.tdb.db.select().from(auditLog).where(inArray(auditLog.targetId, targetIds)).orderBy(asc(auditLog.id));

describe("bulk decisions on real gates", () => {
  it("one skip with one note over five items: the open gate is decided and audited, the decided one (409), the proposal that does not offer skip (422), the gate whose policy refuses the person (403) and an unknown id (404) are reported; the others still went through", async () => {
    const db = harness.tdb.db;
    const { defs: [proposalDef], provider } = await heldProposals(1);
    const policyName = `Night shift ${uniq()}`;
    await createGatePolicy(db, { input: gatePolicyInput.parse({ definition: policyName, gateKind: "agent", groups: ["night-shift"] }), actor: { id: "user:admin", name: "Policy Admin", via: "web" } });
    await harness.startWorker({ llmProviders: [provider] });
    const [open, decided, proposal, guarded] = await Promise.all([atGate(failing(`bulk open ${uniq()}`)), atGate(failing(`bulk decided ${uniq()}`)), atGate(proposalDef), atGate(failing(policyName))]);
    expect(openGate(proposal).kind).toBe("proposal");
    // Someone else decided this one a moment ago.
    await decideGate(db, { gateId: openGate(decided).id, decision: "abort", note: null, actorId: "user:op", actorName: "Olivia Operator" });
    const unknown = "00000000-0000-4000-8000-00000000b01c";

    signedInAs(operator);
    const note = `flaky runner, skipping ${uniq()}`;
    const ids = [openGate(open).id, openGate(decided).id, openGate(proposal).id, openGate(guarded).id, unknown];
    const res = await postBulk({ items: ids.map((gateId) => ({ gateId })), decision: "skip", note });
    expect(res.status).toBe(200);
    const { results } = (await res.json()) as { results: BulkItemResult[] };
    expect(results.map((r) => [r.id, r.ok, r.ok ? r.status : r.error.status])).toEqual([
      [ids[0], true, "resolved"],
      [ids[1], false, 409],
      [ids[2], false, 422],
      [ids[3], false, 403],
      [ids[4], false, 404],
    ]);
    const refused = results.filter((r): r is Extract<BulkItemResult, { ok: false }> => !r.ok);
    expect(refused[0].error.message).toMatch(/^This gate was already resolved: abort by Olivia Operator at .*Nothing was changed\.$/);
    expect(refused[1].error.message).toBe("This gate does not offer skip; it offers approve, reject, abort. Nothing was changed: decide it on its own, or select gates that all offer skip.");
    expect(refused[2].error.message).toMatch(/needs someone in group night-shift; you are in: none/);
    expect(refused[3].error.message).toMatch(/does not exist/);

    // The single-gate path refuses it too (a decision a proposal gate does not offer is never read as abort).
    await expect(decideGate(db, { gateId: ids[2], decision: "skip", note: null, actorId: "user:op", actorName: "Olivia Operator" })).rejects.toMatchObject({ code: "unprocessable", userMessage: '"skip" is not an option of this gate. Choose one of: approve, reject, abort.' });
    // The decided gate: its own event and its own audit row, with the one note.
    expect(openGate(await harness.state(proposal.id)).id).toBe(ids[2]);
    expect(openGate(await harness.state(guarded.id)).id).toBe(ids[3]);
    const after = await harness.state(open.id);
    expect(after.gates[0]).toMatchObject({ status: "resolved", decision: "skip", decidedBy: `user:${operator.id}`, note });
    const rows = await auditRows(ids);
    const mine = rows.filter((r) => r.actorId === `user:${operator.id}`);
    expect(mine.map((r) => [r.targetId, r.action, r.outcome])).toEqual([
      [ids[0], "gate.decide", "ok"],
      // The policy's refusal is audited by decideGate, as for a single decision.
      [ids[3], "gate.decide", "refused"],
    ]);
    expect(mine[0].summary).toContain(`Note: ${note}`);
    expect(mine[0]).toMatchObject({ via: "api", after: { status: "resolved", decision: "skip", note } });
  });

  it("the console's action aborts a proposal (through the authority, by its proposal id) and an agent gate with one note: two decisions, two audit rows; rejecting a proposal without a note is refused for that item only", async () => {
    const db = harness.tdb.db;
    const { defs: [proposalDef, secondDef], provider } = await heldProposals(2);
    await harness.startWorker({ llmProviders: [provider] });
    const [proposal, gate, other] = await Promise.all([atGate(proposalDef), atGate(failing(`bulk action ${uniq()}`)), atGate(secondDef)]);
    const proposalId = openGate(proposal).proposalId!;

    signedInAs(operator);
    const note = `stopping both ${uniq()}`;
    const r = await decideGatesBulkAction({ items: [{ proposalId }, { gateId: openGate(gate).id }], decision: "abort", note });
    expect(r.status).toBe("ok");
    if (r.status !== "ok") return;
    expect(r.data.results.map((x) => [x.ok, x.ok && x.status])).toEqual([
      [true, "resolved"],
      [true, "resolved"],
    ]);
    const p = (await harness.settle(proposal.id)).proposals[0];
    expect(p.status).toBe("rejected");
    const rows = await auditRows([proposalId, openGate(gate).id]);
    expect(rows.map((x) => [x.targetType, x.action, x.outcome, x.via])).toEqual([
      ["proposal", "proposal.decide", "ok", "web"],
      ["gate", "gate.decide", "ok", "web"],
    ]);
    expect(rows[0].summary).toBe(`Bea Bulk aborted the mission at "writer"'s file proposal in mission "${proposalDef.name}". Note: ${note}`);
    expect(rows[1].summary).toContain(`Note: ${note}`);

    const noNote = await decideGatesBulkAction({ items: [{ gateId: openGate(other).id }], decision: "reject" });
    expect(noNote.status === "ok" && noNote.data.results[0]).toMatchObject({ ok: false, error: { code: "bad_request", message: expect.stringMatching(/^Rejecting a proposal needs a note/) } });
    expect(openGate(await harness.state(other.id)).status).toBe("open");
    expect(await db.select().from(auditLog).where(and(eq(auditLog.targetId, openGate(other).proposalId!), eq(auditLog.outcome, "ok")))).toEqual([]);
  });

  it("refuses a malformed request naming the field (400), signed out (401) and without gate.decide (403), before deciding anything", async () => {
    signedInAs(operator);
    const bad = async (body: unknown) => {
      const res = await postBulk(body);
      expect(res.status).toBe(400);
      return (await errorOf(res)).details!.fieldErrors!.map((f) => `${f.path}: ${f.message}`);
    };
    const g = "00000000-0000-4000-8000-000000000001";
    expect(await bad({ items: [{ gateId: "nope" }], decision: "abort" })).toEqual(["items.0.gateId: must be a gate id (a UUID)"]);
    expect(await bad({ items: [{ gateId: g }], decision: "maybe" })).toEqual([expect.stringMatching(/^decision: must be one of retry, skip, abort/)]);
    expect(await bad({ items: [], decision: "abort" })).toEqual(["items: must name at least one gate or proposal"]);
    expect(await bad({ items: Array.from({ length: 201 }, (_, i) => ({ gateId: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}` })), decision: "abort" })).toEqual(["items: must name at most 200 gates or proposals; split the decision"]);
    expect(await bad({ items: [{ gateId: g }, { gateId: g }], decision: "abort" })).toEqual([`items.1: names ${g} a second time: each gate or proposal once`]);
    expect(await bad({ items: [{ missionId: g }], decision: "abort" })).toEqual(["items.0: must be { gateId } or { proposalId }"]);
    expect(await bad({ items: [{ gateId: g }], decision: "abort", note: "x".repeat(2001) })).toEqual(["note: must be at most 2000 characters"]);
    const notJson = await postBulk("{items:");
    expect(notJson.status).toBe(400);
    expect((await errorOf(notJson)).message).toMatch(/^The request body is not valid JSON/);

    signedInAs(null);
    expect((await postBulk({ items: [{ gateId: g }], decision: "abort" })).status).toBe(401);
    signedInAs(auditor);
    const forbidden = await postBulk({ items: [{ gateId: g }], decision: "abort" });
    expect(forbidden.status).toBe(403);
    expect((await errorOf(forbidden)).message).toMatch(/needs admin or operator/);
    // Nothing was recorded for the refused requests.
    expect(await harness.tdb.db.select().from(auditLog).where(eq(auditLog.targetId, g))).toEqual([]);
  });
});
