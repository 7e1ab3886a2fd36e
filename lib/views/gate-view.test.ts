import { describe, expect, it } from "vitest";
import type { LibraryGateInfo } from "../mission/library";
import { gateTitle } from "./gate-view";

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
