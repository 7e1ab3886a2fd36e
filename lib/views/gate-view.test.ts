import { describe, expect, it } from "vitest";
import type { LibraryGateInfo } from "../mission/library";
import { gateDecisionFor, gateTitle, gateViewFromRow, gateViewFromState } from "./gate-view";

const base = { agent: "grip", phase: "EXECUTION", step: 0 };
const error = { title: "t", message: "m", action: "a" } as unknown as import("../mission/types").GateError;
const library = (stage: LibraryGateInfo["stage"]): LibraryGateInfo =>
  ({ stage, failure_id: "FM-PHY-0001", title: "Internal latch", risk_level: "Medium", risk_notes: null, match_score: 0.8, rank: 1, total: 2, diagnostic_probe: "p", resolution_path: "r", note: null, flagged: stage === "exhausted", tried: [] }) as LibraryGateInfo;

describe("gateTitle", () => {
  it("says what each kind of gate asks", () => {
    expect(gateTitle({ ...base, kind: "agent" })).toBe("Agent “grip” needs a decision");
    expect(gateTitle({ ...base, kind: "phase" })).toBe("Phase EXECUTION failed");
    expect(gateTitle({ ...base, kind: "approval" })).toBe("High-risk step 1 of agent “grip” needs approval");
  });

  it("names the library hypothesis the operator is asked about, and the escalation", () => {
    const t = (stage: LibraryGateInfo["stage"]) => gateTitle({ ...base, kind: "library", error: { ...error, library: library(stage) } });
    expect(t("oversight")).toBe("Allow the probe of “Internal latch” (requires oversight)");
    expect(t("probe")).toBe("Perform the probe of “Internal latch” and confirm or reject it");
    expect(t("resolution")).toBe("Carry out the resolution of “Internal latch”");
    expect(t("exhausted")).toBe("Agent “grip”: the library's hypotheses are exhausted");
  });
});

describe("a gate under a policy, as the console shows it", () => {
  const policy = { id: "p1", definition: "Nightly deploy", gateKind: "agent" as const, roles: ["operator" as const], groups: ["night-shift"], approvalsRequired: 2, starterMayDecide: false, timeoutMs: 4 * 3600_000, timeoutOutcome: "abort" as const, note: "" };
  const gate = {
    id: "g1", kind: "agent" as const, agent: "deploy", phase: "EXECUTION" as const, step: null, status: "open" as const, options: [], error, diagnosis: null, recoveryPlan: null, recoveryNote: null,
    openedAt: "2026-01-01T00:00:00.000Z", openedSeq: 9, decision: null, decidedBy: null, note: null, decidedAt: null, openMs: null,
    policy, deadlineAt: "2026-01-01T04:00:00.000Z", approvals: [{ actorId: "user:ana", decision: "abort" as const, note: null, at: "2026-01-01T01:00:00.000Z" }],
  };
  const view = gateViewFromState(gate, { id: "m1", name: "Nightly deploy", startedBy: "user:starter" }, { "user:ana": "Ana Operator" });

  it("says who can decide, the approvals so far by whom, the starter rule and the deadline", () => {
    expect(view.policy?.summary).toBe("Operators in group night-shift · 2 approvals needed (1 so far: Ana Operator (abort)) · the mission's starter may not decide");
    expect(view.deadlineAt).toBe("2026-01-01T04:00:00.000Z");
  });

  it("tells each person whether they can decide, and why not", () => {
    expect(gateDecisionFor(view, { actorId: "user:bob", roles: ["operator"], groups: ["night-shift"] })).toEqual({ canDecide: true, reason: null });
    expect(gateDecisionFor(view, { actorId: "user:ana", roles: ["operator"], groups: ["night-shift"] }).reason).toMatch(/You already chose abort/);
    expect(gateDecisionFor(view, { actorId: "user:starter", roles: ["operator"], groups: ["night-shift"] }).reason).toMatch(/you started it/);
    expect(gateDecisionFor(view, { actorId: "user:dana", roles: ["admin"], groups: ["night-shift"] }).reason).toMatch(/needs the role operator; your roles: admin/);
  });

  it("reads the same from a gates row as from the mission's state", () => {
    const row = { ...gate, missionId: "m1", openedAt: "2026-01-01 00:00:00+00", deadlineAt: "2026-01-01 04:00:00+00" };
    const fromRow = gateViewFromRow({ gate: row, missionName: "Nightly deploy", startedBy: "user:starter" }, { "user:ana": "Ana Operator" });
    expect(fromRow).toEqual({ ...view, prompt: null });
  });
});
