import { describe, expect, it } from "vitest";
import { diagnosticReflectionEvent, diagnosticReflectionEventSchema } from "./context-log";
import { diagnose } from "./diagnose";
import { inputContextFromToolError } from "./from-tool-error";
import { inputContextSchema } from "./types";

describe("from a Faultline ToolError to a ContextLog event", () => {
  it("builds the Input Context (HTTP body as stdout, extras kept) and the diagnostic_reflection event", () => {
    const input = inputContextFromToolError(
      {
        tool: "http",
        args: { url: "https://api.x.dev/v1/chat", method: "POST" },
        error: { code: "RATE_LIMITED", status: 429, retryAfterMs: 7000, message: "POST https://api.x.dev/v1/chat was rate limited (429); the server asks to retry after 7 s." },
        data: { status: 429, headers: {}, body: '{"type":"error","error":{"type":"rate_limit_error","message":"Rate limited"}}' },
      },
      { iteration: 4, taskGoal: "Summarise", availableTools: ["shell", "http", "file"] },
    );
    expect(inputContextSchema.parse(input)).toEqual(input);
    expect(input.failure.error).toMatchObject({ status: 429, retryAfterMs: 7000, toolCode: "RATE_LIMITED", stdout: expect.stringContaining("rate_limit_error") });

    const d = diagnose(input, { now: Date.parse("2025-10-29T10:35:12.345Z") });
    const event = diagnosticReflectionEvent(input, d, { convId: "m_123", traceId: "t_1", elapsedMs: 12.4 });
    expect(diagnosticReflectionEventSchema.parse(event)).toEqual(event);
    expect(Object.keys(event)).toEqual(["id", "ts", "actor", "act", "conv_id", "trace_id", "iter", "name", "status", "elapsed_ms", "metadata", "result_preview"]);
    expect(event).toMatchObject({ actor: "system", act: "diagnostic_reflection", conv_id: "m_123", iter: 4, name: "5_whys_analysis", status: "ok", elapsed_ms: 12, ts: d.timestamp });
    expect(event.metadata).toMatchObject({ failed_tool: "http", error_type: "rate_limited", recovery_strategy: d.recoveryPlan.strategy, alternatives_count: d.alternatives.length });
    expect(event.result_preview).toMatch(/^Root: .+; Recovery: wait_and_retry_after; Confidence: 0\.\d+$/);
  });

  it("shell errors carry exit code, streams and signal", () => {
    const input = inputContextFromToolError({ tool: "shell", args: { command: "timeout", args: ["1", "sleep", "5"] }, error: { code: "EXIT_NONZERO", exitCode: 124, signal: null, stdout: "", stderr: "", message: '"timeout" exited with code 124' } });
    expect(input.failure.error).toMatchObject({ code: 124, signal: null, toolCode: "EXIT_NONZERO" });
    expect(input.context.iteration).toBe(0);
  });
});
