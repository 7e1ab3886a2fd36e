import { describe, expect, it } from "vitest";
import { groupTimeline, summaryOf, toneOf } from "./timeline";

const ev = (seq: number, type: string, payload: Record<string, unknown>, reason = `${type} happened`) => ({ seq, type, payload, reason }) as never;

describe("the compact timeline's model", () => {
  it("groups consecutive events of one step (agent, attempt, step) and leaves the others alone", () => {
    const events = [
      ev(1, "phase.started", { phase: "EXECUTION" }),
      ev(2, "step.started", { agent: "deploy", attempt: 1, step: 0 }),
      ev(3, "tool.failed", { agent: "deploy", attempt: 1, step: 0, error: { code: "NOT_ALLOWED", message: "no" } }),
      ev(4, "diagnostic_reflection", { agent: "deploy", attempt: 1, step: 0 }),
      ev(5, "agent.failed", { agent: "deploy", attempt: 1, error: {} }),
      ev(6, "step.started", { agent: "deploy", attempt: 2, step: 0 }),
      ev(7, "tool.succeeded", { agent: "deploy", attempt: 2, step: 0 }),
      ev(8, "step.started", { agent: "deploy", attempt: 2, step: 1 }),
    ];
    const groups = groupTimeline(events);
    expect(groups.map((g) => [g.label, g.events.map((e: { seq: number }) => e.seq)])).toEqual([
      [null, [1]],
      ["deploy · step 1 · attempt 1", [2, 3, 4]],
      [null, [5]],
      ["deploy · step 1 · attempt 2", [6, 7]],
      [null, [8]],
    ]);
  });

  it("says a failure in one line with its code, exit code or HTTP status; other events by their reason's first line", () => {
    expect(summaryOf(ev(3, "tool.failed", { error: { code: "EXIT_NONZERO", message: '"git" exited with code 128\nfatal: not a git repository', exitCode: 128 } }))).toBe('EXIT_NONZERO: "git" exited with code 128 (exit code 128)');
    expect(summaryOf(ev(3, "tool.failed", { error: { code: "HTTP_ERROR", message: "GET x answered 503", status: 503 } }))).toBe("HTTP_ERROR: GET x answered 503 (HTTP 503)");
    expect(summaryOf(ev(9, "gate.resolved", {}, "Olivia chose skip: flaky.\nmore"))).toBe("Olivia chose skip: flaky.");
  });

  it("colours outcomes by what they mean", () => {
    expect(toneOf(ev(1, "mission.finished", { finalStatus: "PARTIAL_SUCCESS" }))).toBe("partial");
    expect(toneOf(ev(1, "proposal.decided", { decision: "rejected" }))).toBe("failed");
    expect(toneOf(ev(1, "tool.failed", {}))).toBe("failed");
    expect(toneOf(ev(1, "phase.started", {}))).toBe("neutral");
  });
});
