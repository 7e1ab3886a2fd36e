import { describe, expect, it } from "vitest";
import { approvedDecision, checkDecider, describePolicy, effectivePolicy, formatDuration, gatePolicyInput, timeoutReason, whoMayDecide, type GatePolicySnapshot } from "./gate-policy";

const policy = (p: Partial<GatePolicySnapshot> = {}): GatePolicySnapshot => ({
  id: "p1",
  definition: "Nightly deploy",
  gateKind: "agent",
  roles: [],
  groups: [],
  approvalsRequired: 1,
  starterMayDecide: true,
  timeoutMs: null,
  timeoutOutcome: null,
  note: "",
  ...p,
});

const fieldErrors = (v: unknown) => {
  const r = gatePolicyInput.safeParse(v);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("which policy is in force", () => {
  const all = [policy({ id: "any-any", definition: "*", gateKind: "*" }), policy({ id: "any-agent", definition: "*", gateKind: "agent" }), policy({ id: "def-any", gateKind: "*" }), policy({ id: "def-agent" })];
  it("the most specific scope wins: definition + kind > definition + * > * + kind > * + *", () => {
    expect(effectivePolicy(all, "Nightly deploy", "agent")?.id).toBe("def-agent");
    expect(effectivePolicy(all, "Nightly deploy", "phase")?.id).toBe("def-any");
    expect(effectivePolicy(all, "Other", "agent")?.id).toBe("any-agent");
    expect(effectivePolicy(all, "Other", "approval")?.id).toBe("any-any");
  });
  it("no policy at all means today's behaviour", () => {
    expect(effectivePolicy([policy()], "Other", "agent")).toBeNull();
    expect(checkDecider(null, { actorId: "user:x", roles: ["operator"], groups: [] }, { starterActorId: "user:x", approvals: [] })).toEqual({ ok: true });
  });
});

describe("who may decide a gate", () => {
  const ctx = { starterActorId: "user:starter", approvals: [] };
  it("a person outside the policy's group is refused, and told which group and their own", () => {
    const r = checkDecider(policy({ groups: ["night-shift"] }), { actorId: "user:a", roles: ["operator"], groups: [] }, ctx);
    expect(r).toEqual({ ok: false, code: "forbidden", reason: "This gate's policy (definition 'Nightly deploy', agent gates) needs someone in group night-shift; you are in: none. An admin can add you to a group." });
    expect(checkDecider(policy({ groups: ["night-shift"] }), { actorId: "user:a", roles: ["operator"], groups: ["day", "night-shift"] }, ctx)).toEqual({ ok: true });
  });
  it("roles narrow who decides; with none named, everyone whose role decides gates", () => {
    expect(checkDecider(policy({ roles: ["admin"] }), { actorId: "user:a", roles: ["operator"], groups: [] }, ctx)).toMatchObject({ ok: false, reason: expect.stringContaining("needs the role admin; your roles: operator") });
    expect(checkDecider(policy(), { actorId: "user:a", roles: ["auditor"], groups: [] }, ctx)).toMatchObject({ ok: false, reason: expect.stringContaining("needs the role admin or operator") });
    expect(checkDecider(policy(), { actorId: "user:a", roles: ["operator"], groups: [] }, ctx)).toEqual({ ok: true });
  });
  it("the starter is refused only when the policy says so", () => {
    const starter = { actorId: "user:starter", roles: ["operator"], groups: [] };
    expect(checkDecider(policy({ starterMayDecide: false }), starter, ctx)).toMatchObject({ ok: false, code: "forbidden", reason: expect.stringContaining("you started it") });
    expect(checkDecider(policy(), starter, ctx)).toEqual({ ok: true });
  });
  it("the same person cannot approve twice (409)", () => {
    const r = checkDecider(policy({ approvalsRequired: 2 }), { actorId: "user:a", roles: ["operator"], groups: [] }, { starterActorId: null, approvals: [{ actorId: "user:a", decision: "skip", note: null, at: "" }] });
    expect(r).toMatchObject({ ok: false, code: "conflict", reason: expect.stringContaining("You already chose skip") });
  });
  it("the command line has no roles or groups: it qualifies only under a policy that names none", () => {
    const cli = { actorId: "cli:root", roles: null, groups: [] };
    expect(checkDecider(policy({ approvalsRequired: 2 }), cli, ctx)).toEqual({ ok: true });
    expect(checkDecider(policy({ groups: ["ops"] }), cli, ctx)).toMatchObject({ ok: false, reason: expect.stringContaining("the command line acts as cli:root") });
  });
  it("N of M: a decision is taken when N distinct people chose the same option", () => {
    const p = policy({ approvalsRequired: 2 });
    const a = (actorId: string, decision: "skip" | "abort") => ({ actorId, decision, note: null, at: "" });
    expect(approvedDecision(p, [a("u1", "skip"), a("u2", "abort")])).toBeNull();
    expect(approvedDecision(p, [a("u1", "skip"), a("u2", "abort"), a("u3", "skip")])).toBe("skip");
  });
});

describe("the policy in words", () => {
  it("says who, how many approvals so far by whom, and the starter rule", () => {
    const p = policy({ roles: ["operator", "admin"], groups: ["night-shift"], approvalsRequired: 2, starterMayDecide: false });
    expect(describePolicy(p, [{ actorId: "user:ana", decision: "abort", note: null, at: "" }], { "user:ana": "Ana Operator" }, 3)).toBe(
      "Operators and admins in group night-shift · 2 of 3 approvals needed (1 so far: Ana Operator (abort)) · the mission's starter may not decide",
    );
    expect(whoMayDecide(null)).toBe("Admins and operators");
  });
  it("durations and the system's reason name the policy", () => {
    expect(formatDuration(4 * 3600_000)).toBe("4 h");
    expect(formatDuration(3 * 3600_000 + 12 * 60_000)).toBe("3 h 12 min");
    expect(timeoutReason(policy({ timeoutMs: 4 * 3600_000, timeoutOutcome: "abort" }))).toBe("Policy 'Nightly deploy / agent': no decision within 4 h → abort");
  });
});

describe("policy input validation", () => {
  it("accepts a complete policy and fills defaults", () => {
    expect(gatePolicyInput.parse({ definition: " Nightly deploy ", gateKind: "agent", timeoutMs: 4 * 3600_000, timeoutOutcome: "abort" })).toEqual({
      definition: "Nightly deploy",
      gateKind: "agent",
      roles: [],
      groups: [],
      approvalsRequired: 1,
      starterMayDecide: true,
      timeoutMs: 4 * 3600_000,
      timeoutOutcome: "abort",
      note: "",
    });
  });
  it("refuses roles that cannot decide gates, saying why", () => {
    expect(fieldErrors({ definition: "x", gateKind: "agent", roles: ["auditor", "boss"] })).toEqual([
      "roles: auditor cannot decide gates at all (gate.decide is held by admin and operator): a policy can only narrow who decides",
      'roles: "boss" is not a role (roles: admin, operator, reviewer, contributor, auditor)',
    ]);
  });
  it("a timeout outcome must be one every gate of the kind offers; for all kinds only abort", () => {
    expect(fieldErrors({ definition: "x", gateKind: "agent", timeoutMs: 3600_000, timeoutOutcome: "retry" })).toEqual(["timeoutOutcome: retry is not offered by every agent gate; a timeout must apply an outcome the gate always offers: skip or abort"]);
    expect(fieldErrors({ definition: "x", gateKind: "*", timeoutMs: 3600_000, timeoutOutcome: "skip" })).toEqual(["timeoutOutcome: skip is not offered by every gate; a timeout must apply an outcome the gate always offers: abort"]);
    expect(fieldErrors({ definition: "x", gateKind: "approval", timeoutMs: 3600_000, timeoutOutcome: "approve" })).toEqual([]);
  });
  it("timeout and outcome come together, between 1 minute and 30 days; approvals 1..10", () => {
    expect(fieldErrors({ definition: "x", gateKind: "agent", timeoutMs: 3600_000 })).toEqual(["timeoutOutcome: a timeout needs the outcome the system applies when it passes"]);
    expect(fieldErrors({ definition: "x", gateKind: "agent", timeoutOutcome: "abort" })).toEqual(["timeoutMs: an outcome needs the timeout after which it is applied"]);
    expect(fieldErrors({ definition: "x", gateKind: "agent", timeoutMs: 30_000, timeoutOutcome: "abort" })).toEqual(["timeoutMs: must be at least 1 minute"]);
    expect(fieldErrors({ definition: "x", gateKind: "agent", timeoutMs: 31 * 24 * 3600_000, timeoutOutcome: "abort" })).toEqual(["timeoutMs: must be at most 30 days"]);
    expect(fieldErrors({ definition: "x", gateKind: "agent", approvalsRequired: 11 })).toEqual(["approvalsRequired: must be at most 10"]);
    expect(fieldErrors({ definition: "", gateKind: "x" })).toHaveLength(2);
  });
});
