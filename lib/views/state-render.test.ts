import { describe, expect, it } from "vitest";
import { simulate } from "../mission/simulate";
import { definition, nodeStep } from "../mission/test-fixtures";
import type { GateState, MissionState } from "../mission/types";
import { gatePrompt, renderMissionState } from "./state-render";

describe("the HITL prompt of a failure gate (FDR-N017: ask, holds and failure gates get the same prompt)", () => {
  it("is GATE_OPEN, rendered by the console's renderer, with the gate's own options and decision keys", async () => {
    let seen: { gate: GateState; state: MissionState } | null = null;
    await simulate(definition({ agents: [{ name: "deploy", priority: "critical", steps: [nodeStep("process.exit(3)")] }] }), {
      outcome: () => ({ kind: "fail", error: { code: "EXIT_NONZERO", message: "exit 3", exitCode: 3 } }),
      decide: (gate, state) => {
        seen ??= { gate, state };
        return "abort";
      },
    });
    const { gate, state } = seen!;
    const p = gatePrompt(state, gate);
    expect(p.whyPending.reason).toBe("GATE_OPEN");
    expect(p.currentState).toBe(renderMissionState(state));
    expect(p.situation).toContain(gate.error.what);
    const byDecision = Object.fromEntries(p.options.map((o) => [(o as unknown as { decision: string }).decision, o.type]));
    expect(byDecision).toMatchObject({ retry: "retry", skip: "abort", abort: "abort" });
    expect((p.responseFormat as { properties: { decision: { enum: string[] } } }).properties.decision.enum).toEqual(gate.options.map((o) => o.action));
  });
});
