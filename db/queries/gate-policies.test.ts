import { randomBytes } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useWorkerHarness } from "../../server/orchestrator/test-harness";
import { definition, nodeStep } from "../../lib/mission/test-fixtures";
import type { AuditActor } from "../../lib/audit";
import type { Role } from "../../lib/auth/roles";
import { gatePolicyInput, type GatePolicyInput } from "../../lib/mission/gate-policy";
import { auditLog, gatePolicies, gates, users } from "../schema";
import { createMission, listEventsAfter } from "./events";
import { createGatePolicy, deleteGatePolicy, updateGatePolicy } from "./gate-policies";
import { decideGate, resolveTimedOutGates } from "./gates";
import { upsertUser } from "./users";

const harness = useWorkerHarness("fl-policy-");
const uniq = () => randomBytes(3).toString("hex");

async function person(name: string, roles: Role[], groups: string[]): Promise<AuditActor> {
  const u = await upsertUser(harness.tdb.db, { email: `${name.toLowerCase().replace(/ /g, ".")}.${uniq()}@policy.test`, name, passwordHash: "x", roles });
  await harness.tdb.db.update(users).set({ groups }).where(eq(users.id, u.id));
  return { id: `user:${u.id}`, name, via: "web" };
}

const admin: AuditActor = { id: "user:policy-admin", name: "Policy Admin", via: "web" };
const input = (p: Partial<GatePolicyInput> & { definition: string }): GatePolicyInput => gatePolicyInput.parse({ gateKind: "agent", ...p });
/** A mission whose only (critical) agent fails: it stops at an agent gate (retry, skip, abort). */
const failing = (name: string) => definition({ name, agents: [{ name: "deploy", priority: "critical", steps: [nodeStep("process.exit(3)")] }] });

async function untilTerminal(id: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const s = await harness.state(id);
    if (s.runState === "completed" || s.runState === "failed") return s;
    if (Date.now() > deadline) throw new Error(`mission still ${s.runState}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const auditRows = (gateId: string) => harness.tdb.db.select().from(auditLog).where(and(eq(auditLog.targetType, "gate"), eq(auditLog.targetId, gateId))).orderBy(asc(auditLog.id));

describe("gate policies on a real mission, a real worker and PostgreSQL", () => {
  it("snapshots the policy on the gate; 2 of N approvals resolve only at the second distinct person; the starter and people outside the group are refused; a later policy change does not move the goalposts", async () => {
    const db = harness.tdb.db;
    const [ana, bob, carl, dana] = await Promise.all([person("Ana Operator", ["operator"], ["night-shift"]), person("Bob Operator", ["operator"], ["night-shift"]), person("Carl Operator", ["operator"], []), person("Dana Admin", ["admin"], ["night-shift", "db"])]);
    const name = `Nightly deploy ${uniq()}`;
    const policy = await createGatePolicy(db, { input: input({ definition: name, groups: ["night-shift"], approvalsRequired: 2, starterMayDecide: false }), actor: admin });
    const m = await createMission(db, { definition: failing(name), actorId: ana.id });
    await harness.startWorker();
    const atGate = await harness.settle(m.id);
    const gate = atGate.gates[0];
    expect(gate.status).toBe("open");
    expect(gate.policy).toMatchObject({ id: policy.id, definition: name, gateKind: "agent", groups: ["night-shift"], approvalsRequired: 2, starterMayDecide: false });
    const opened = (await listEventsAfter(db, { missionId: m.id })).find((e) => e.type === "gate.opened")!;
    expect(opened.payload).toMatchObject({ policy: { id: policy.id, approvalsRequired: 2 }, deadlineAt: null });
    const [row] = await db.select().from(gates).where(eq(gates.id, gate.id));
    expect(row.policy?.id).toBe(policy.id);

    // The policy is relaxed after the gate opened: this gate keeps the rules it opened under.
    await updateGatePolicy(db, { id: policy.id, input: input({ definition: name, approvalsRequired: 1 }), actor: admin });

    await expect(decideGate(db, { gateId: gate.id, decision: "skip", note: null, actor: ana })).rejects.toMatchObject({ code: "forbidden", userMessage: expect.stringMatching(/does not let the person who started the mission decide.*you started it/) });
    await expect(decideGate(db, { gateId: gate.id, decision: "skip", note: null, actor: carl })).rejects.toMatchObject({
      code: "forbidden",
      userMessage: `This gate's policy (definition '${name}', agent gates) needs someone in group night-shift; you are in: none. An admin can add you to a group.`,
    });

    const first = await decideGate(db, { gateId: gate.id, decision: "skip", note: "not tonight", actor: bob });
    expect(first.gates[0]).toMatchObject({ status: "open", approvals: [{ actorId: bob.id, decision: "skip", note: "not tonight" }] });
    expect(first.runState).toBe("paused");
    await expect(decideGate(db, { gateId: gate.id, decision: "skip", note: null, actor: bob })).rejects.toMatchObject({ code: "conflict", userMessage: expect.stringMatching(/You already chose skip on this gate; it needs 2 different people/) });

    const second = await decideGate(db, { gateId: gate.id, decision: "skip", note: null, actor: dana });
    expect(second.gates[0]).toMatchObject({ status: "resolved", decision: "skip", decidedBy: dana.id });
    expect(second.gates[0].note).toBe("Approved by Bob Operator, Dana Admin (2 of 2)");
    const done = await untilTerminal(m.id);
    expect(done.finalStatus).toBe("FAILED");

    const types = (await listEventsAfter(db, { missionId: m.id })).map((e) => e.type);
    expect(types.filter((t) => t === "gate.approval")).toHaveLength(2);
    expect(types.filter((t) => t === "gate.resolved")).toHaveLength(1);
    const audit = await auditRows(gate.id);
    expect(audit.map((a) => [a.action, a.outcome, a.actorName])).toEqual([
      ["gate.decide", "refused", "Ana Operator"],
      ["gate.decide", "refused", "Carl Operator"],
      ["gate.approve", "ok", "Bob Operator"],
      ["gate.decide", "refused", "Bob Operator"],
      ["gate.approve", "ok", "Dana Admin"],
    ]);
    expect(audit[4].after).toMatchObject({ status: "resolved", decision: "skip" });
  });

  it("concurrent approvals by different people are serialised: both recorded, the gate resolved once", async () => {
    const db = harness.tdb.db;
    const [a, b] = await Promise.all([person("Eve Operator", ["operator"], []), person("Finn Admin", ["admin"], [])]);
    const name = `Concurrent ${uniq()}`;
    await createGatePolicy(db, { input: input({ definition: name, gateKind: "*", approvalsRequired: 2 }), actor: admin });
    const m = await createMission(db, { definition: failing(name), actorId: "user:op" });
    await harness.startWorker();
    const gate = (await harness.settle(m.id)).gates[0];
    await Promise.all([decideGate(db, { gateId: gate.id, decision: "abort", note: null, actor: a }), decideGate(db, { gateId: gate.id, decision: "abort", note: null, actor: b })]);
    const done = await untilTerminal(m.id);
    expect(done.gates[0]).toMatchObject({ status: "resolved", decision: "abort" });
    expect(done.gates[0].approvals).toHaveLength(2);
    const types = (await listEventsAfter(db, { missionId: m.id })).map((e) => e.type);
    expect(types.filter((t) => t === "gate.resolved")).toHaveLength(1);
  });

  it("a gate under no policy keeps today's one-step decision, audited with before and after", async () => {
    const db = harness.tdb.db;
    const op = await person("Gil Operator", ["operator"], []);
    const m = await createMission(db, { definition: failing(`No policy ${uniq()}`), actorId: op.id });
    await harness.startWorker();
    const gate = (await harness.settle(m.id)).gates[0];
    expect(gate.policy).toBeNull();
    const s = await decideGate(db, { gateId: gate.id, decision: "abort", note: "starter decides", actor: op });
    expect(s.gates[0]).toMatchObject({ status: "resolved", decision: "abort", decidedBy: op.id });
    const [row] = await auditRows(gate.id);
    expect(row).toMatchObject({ action: "gate.decide", outcome: "ok", before: { status: "open" }, after: { status: "resolved", decision: "abort", note: "starter decides" } });
  });

  it("the running worker applies a 1-second timeout as a system decision with the policy as its reason, and an audit row", async () => {
    const db = harness.tdb.db;
    const name = `Timeout ${uniq()}`;
    // Below the form's 1-minute minimum on purpose: the table allows any positive timeout.
    await db.insert(gatePolicies).values({ definition: name, gateKind: "*", timeoutMs: 1000, timeoutOutcome: "abort", createdBy: admin.id, updatedBy: admin.id });
    const m = await createMission(db, { definition: failing(name), actorId: "user:op" });
    await harness.startWorker({ gateSweepMs: 100 });
    const done = await untilTerminal(m.id);
    const gate = done.gates[0];
    expect(done.finalStatus).toBe("FAILED");
    expect(gate).toMatchObject({ status: "resolved", decision: "abort", decidedBy: "system" });
    expect(gate.note).toBe(`Policy '${name} / any gate': no decision within 1 s → abort`);
    expect(Date.parse(gate.decidedAt!)).toBeGreaterThanOrEqual(Date.parse(gate.deadlineAt!));
    const resolved = (await listEventsAfter(db, { missionId: m.id })).find((e) => e.type === "gate.resolved")!;
    expect(resolved.actorId).toBe("system");
    expect(resolved.reason).toContain(`Policy '${name} / any gate'`);
    const [row] = await auditRows(gate.id);
    expect(row).toMatchObject({ action: "gate.timeout", actorId: "system", via: "system", outcome: "ok", after: { status: "resolved", decision: "abort" } });
  });

  it("two sweeps at once decide a timed-out gate only once (SKIP LOCKED)", async () => {
    const db = harness.tdb.db;
    const name = `Sweep ${uniq()}`;
    await db.insert(gatePolicies).values({ definition: name, gateKind: "agent", timeoutMs: 1000, timeoutOutcome: "skip", createdBy: admin.id, updatedBy: admin.id });
    const m = await createMission(db, { definition: failing(name), actorId: "user:op" });
    // This worker runs the mission to its gate and sweeps only when woken; the test sweeps itself.
    await harness.startWorker({ gateSweepMs: 3_600_000 });
    const gate = (await harness.settle(m.id)).gates[0];
    expect(gate.deadlineAt).not.toBeNull();
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(gate.deadlineAt!) - Date.now() + 50)));
    const [x, y] = await Promise.all([resolveTimedOutGates(db), resolveTimedOutGates(db)]);
    const decided = [...x, ...y].filter((d) => d.gateId === gate.id);
    expect(decided.length).toBeLessThanOrEqual(1);
    const done = await untilTerminal(m.id);
    expect(done.gates[0]).toMatchObject({ decision: "skip", decidedBy: "system" });
    expect((await listEventsAfter(db, { missionId: m.id })).filter((e) => e.type === "gate.resolved")).toHaveLength(1);
  });

  it("policy changes are audited with before and after; a duplicate scope is a conflict; deleting names the policy", async () => {
    const db = harness.tdb.db;
    const name = `Audited ${uniq()}`;
    const p = await createGatePolicy(db, { input: input({ definition: name, roles: ["admin"], timeoutMs: 4 * 3600_000, timeoutOutcome: "abort" }), actor: admin });
    await expect(createGatePolicy(db, { input: input({ definition: name }), actor: admin })).rejects.toMatchObject({ code: "conflict", userMessage: expect.stringMatching(`A policy for definition '${name}', agent gates already exists`) });
    await updateGatePolicy(db, { id: p.id, input: input({ definition: name, roles: ["admin", "operator"], approvalsRequired: 3 }), actor: admin });
    await deleteGatePolicy(db, { id: p.id, actor: admin });
    await expect(deleteGatePolicy(db, { id: p.id, actor: admin })).rejects.toMatchObject({ code: "not_found" });
    const rows = await db.select().from(auditLog).where(and(eq(auditLog.targetType, "gate_policy"), eq(auditLog.targetId, p.id))).orderBy(asc(auditLog.id));
    expect(rows.map((r) => r.action)).toEqual(["policy.create", "policy.update", "policy.delete"]);
    expect(rows[0].summary).toBe(`Policy Admin created gate policy '${name} / agent': Admins, 1 approval, after 4 h → abort`);
    expect(rows[1].before).toMatchObject({ roles: ["admin"], approvalsRequired: 1 });
    expect(rows[1].after).toMatchObject({ roles: ["admin", "operator"], approvalsRequired: 3, timeoutMs: null });
    expect(rows[2].after).toBeNull();
  });
});
