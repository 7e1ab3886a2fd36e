import type { UserFacingError } from "../errors";
import type { ToolError } from "../tools/result";
import type { Priority, StepDefinition } from "./definition";
import { hasValidEvidence } from "./status";
import type { AgentError, AgentErrorCode, AgentState, GateOption, MissionState } from "./types";

/** How a specific tool failure maps onto FAILURE_MODEL's agent error codes, and whether a retry can help. */
const TOOL_TO_AGENT: Record<ToolError["code"], { code: AgentErrorCode; recoverable: boolean }> = {
  TIMEOUT: { code: "TIMEOUT", recoverable: true },
  RATE_LIMITED: { code: "RATE_LIMIT_EXCEEDED", recoverable: true },
  CONNECTION_REFUSED: { code: "PROVIDER_ERROR", recoverable: true },
  NETWORK_ERROR: { code: "PROVIDER_ERROR", recoverable: true },
  HTTP_ERROR: { code: "PROVIDER_ERROR", recoverable: true }, // refined by status below
  EXIT_NONZERO: { code: "INTERNAL_ERROR", recoverable: true },
  KILLED: { code: "INTERNAL_ERROR", recoverable: true },
  INTERRUPTED: { code: "INTERNAL_ERROR", recoverable: true },
  OUTPUT_TOO_LARGE: { code: "INVALID_OUTPUT", recoverable: false },
  VALIDATION_FAILED: { code: "VALIDATION_FAILED", recoverable: false },
  COMMAND_NOT_FOUND: { code: "INTERNAL_ERROR", recoverable: false },
  NOT_ALLOWED: { code: "INTERNAL_ERROR", recoverable: false },
  PERMISSION_DENIED: { code: "INTERNAL_ERROR", recoverable: false },
  NOT_FOUND: { code: "INTERNAL_ERROR", recoverable: false },
  INVALID_ARGS: { code: "INTERNAL_ERROR", recoverable: false },
  UNKNOWN_TOOL: { code: "INTERNAL_ERROR", recoverable: false },
  INTERNAL_ERROR: { code: "INTERNAL_ERROR", recoverable: false },
};

export function stepLabel(step: StepDefinition, index: number): string {
  if (step.name) return step.name;
  const a = step.args as Record<string, unknown>;
  if (step.tool === "shell") return `shell ${[a.command, ...(Array.isArray(a.args) ? a.args : [])].join(" ")}`.trim();
  if (step.tool === "http") return `http ${String(a.method ?? "GET")} ${String(a.url ?? "")}`;
  if (step.tool === "file") return `file ${String(a.op ?? "")} ${String(a.path ?? "")}`.trim();
  return `step ${index + 1}`;
}

export function toAgentError(toolError: ToolError, step: StepDefinition, index: number): AgentError {
  let { code, recoverable } = TOOL_TO_AGENT[toolError.code];
  if (toolError.code === "HTTP_ERROR" && toolError.status !== undefined) {
    // 408 and 5xx are worth another try; other 4xx mean the request itself is wrong.
    recoverable = toolError.status === 408 || toolError.status >= 500;
  }
  return {
    code,
    message: toolError.message,
    recoverable,
    ...(toolError.retryAfterMs !== undefined ? { retryAfter: toolError.retryAfterMs } : {}),
    context: { step: index, stepName: stepLabel(step, index), tool: step.tool, toolError },
  };
}

/** FAILURE_MODEL priority response matrix. */
export type FailureResponse = { kind: "continue"; warning: string } | { kind: "gate"; options: GateOption[] };

export function respondToFailure(state: MissionState, agent: AgentState): FailureResponse {
  const err = agent.error;
  if (!err) throw new Error(`respondToFailure: agent "${agent.name}" has no error`);
  if (agent.priority === "optional") {
    return { kind: "continue", warning: `Optional agent "${agent.name}" failed (${err.code}: ${err.message}); the mission continues without it and can at best end PARTIAL_SUCCESS.` };
  }
  const opts = gateOptions(state, agent, err);
  return { kind: "gate", options: opts };
}

function gateOptions(state: MissionState, agent: AgentState, err: AgentError): GateOption[] {
  const kept = state.agentOrder.filter((n) => hasValidEvidence(state.agents[n])).length;
  const wait = err.retryAfter ? `Wait ${Math.ceil(err.retryAfter / 1000)} s, then run` : "Run";
  const retry: GateOption = {
    action: "retry",
    label: "Retry",
    description: `${wait} "${agent.name}" again from its first step (attempt ${agent.attempt + 1}).`,
    recommended: false,
  };
  const skip: GateOption = {
    action: "skip",
    label: "Skip",
    description:
      agent.priority === "critical"
        ? `Continue without "${agent.name}". It is critical: the mission can no longer end SUCCESS or PARTIAL_SUCCESS and will end FAILED.`
        : `Continue without "${agent.name}". The mission can at best end PARTIAL_SUCCESS.`,
    recommended: false,
  };
  const abort: GateOption = {
    action: "abort",
    label: "Abort",
    description: `End the mission now as FAILED, keeping the results of ${kept} completed agent${kept === 1 ? "" : "s"}.`,
    recommended: false,
  };
  const options: GateOption[] =
    agent.priority === "critical" ? [retry, skip, abort] : err.recoverable ? [retry, skip, abort] : [skip, abort];
  const recommended: GateOption["action"] = err.recoverable ? "retry" : agent.priority === "critical" ? "abort" : "skip";
  return options.map((o) => ({ ...o, recommended: o.action === recommended }));
}

/** FAILURE_MODEL "Failure Communication": what, why, options, technical. */
export function gateUserError(state: MissionState, agent: AgentState, options: GateOption[], at: string): UserFacingError {
  const err = agent.error!;
  const te = err.context.toolError;
  return {
    what: `Agent "${agent.name}" (${agent.priority}) failed at step ${err.context.step + 1}, ${err.context.stepName}, in ${agent.phase} on attempt ${agent.attempt}.`,
    why: te.message,
    options,
    technical: {
      code: te.code,
      agentErrorCode: err.code,
      recoverable: err.recoverable,
      timestamp: at,
      missionId: state.id,
      agentId: agent.name,
      step: `${err.context.step + 1}: ${err.context.stepName}`,
      ...(te.exitCode !== undefined && te.exitCode !== null ? { exitCode: te.exitCode } : {}),
      ...(te.signal ? { signal: te.signal } : {}),
      ...(te.status !== undefined ? { httpStatus: te.status } : {}),
      ...(te.errno ? { errno: te.errno } : {}),
      ...(te.stderr ? { stderr: te.stderr.slice(-2000) } : {}),
      ...(te.stdout ? { stdout: te.stdout.slice(-2000) } : {}),
    },
  };
}

export function priorityRank(p: Priority): number {
  return p === "critical" ? 0 : p === "important" ? 1 : 2;
}
