import { stepDefinitionOf } from "./steps";
import type { MissionEvent } from "./events";
import { allProvidersFailed, stepLabel } from "./failure";
import type { MissionState } from "./types";

/**
 * FAILURE_MODEL "Failure Audit Trail": every failure is permanently logged as a FailureAuditEntry,
 * derived here from the event that records it, and resolved by the event that decides it.
 */
export type FailureLevel = "agent" | "phase" | "infrastructure" | "client";
export type FailureSeverity = "warning" | "error" | "critical";

export interface FailureResolution {
  action: string;
  /** null for automatic recovery. */
  resolvedBy: string | null;
  resolvedAt: string;
}

export interface FailureAuditEntry {
  id: string;
  missionId: string;
  /** The event that recorded the failure. */
  seq: number;
  timestamp: string;
  level: FailureLevel;
  severity: FailureSeverity;
  what: string;
  why: string | null;
  context: Record<string, unknown>;
  resolution: FailureResolution | null;
}

/** Who, where and what kind (issue 6 failure history): columns of failure_audit beside the entry. */
export interface FailureAttribution {
  /** The mission's name. */
  definition: string;
  phase: string | null;
  step: number | null;
  attempt: number | null;
  /** The tool's error code in lower case (rate_limited, timeout, exit_nonzero…), or the level's kind. */
  errorType: string;
  /** Who recorded the failure: the event's actor (worker, CLI, web). */
  actorId: string;
}

/** A failure of one step attempt: the latest entry of (agent, step, attempt) recorded before `beforeSeq`. */
export interface StepFailureRef {
  agent: string;
  step: number;
  attempt: number;
  beforeSeq: number;
}

/** What an event does to the audit trail. */
export type AuditChange =
  | { kind: "add"; entry: Omit<FailureAuditEntry, "id"> & { agent: string | null } & FailureAttribution }
  /** The diagnosis's root cause, or the library's matched entry (confirmed wins over the top-ranked hypothesis). */
  | { kind: "attribute"; failure: StepFailureRef; set: { rootCause: string } | { failureMode: string; confirmed: boolean } }
  /** Open entries of this mission (optionally of one agent, or not yet linked to a gate) get linked to a gate. */
  | { kind: "link"; gateId: string; agent: string | null; levels: FailureLevel[] }
  | { kind: "resolve"; by: { gateId: string } | { agent: string } | { levels: FailureLevel[] } | { all: true }; resolution: FailureResolution };

export function auditChanges(e: MissionEvent, after: MissionState): AuditChange[] {
  const base = { missionId: e.missionId, seq: e.seq, timestamp: e.at, resolution: null, definition: after.name, actorId: e.actorId, phase: null, step: null, attempt: null };
  const actor = (id: string) => (id.startsWith("user:") || id.startsWith("cli:") ? id : null);
  switch (e.type) {
    case "tool.failed": {
      const a = after.agents[e.payload.agent];
      const step = stepDefinitionOf(after, a.name, e.payload.step, e.payload.attempt);
      const infra = allProvidersFailed(e.payload.error);
      return [
        {
          kind: "add",
          entry: {
            ...base,
            agent: a.name,
            phase: a.phase,
            step: e.payload.step,
            attempt: e.payload.attempt,
            errorType: e.payload.error.code.toLowerCase(),
            level: infra ? "infrastructure" : "agent",
            severity: infra || a.priority === "critical" ? "critical" : a.priority === "important" ? "error" : "warning",
            what: `Step ${e.payload.step + 1} (${stepLabel(step, e.payload.step)}) of agent "${a.name}" failed with ${e.payload.error.code} on attempt ${e.payload.attempt}.`,
            why: e.payload.error.message,
            context: {
              agent: a.name,
              priority: a.priority,
              phase: a.phase,
              step: e.payload.step,
              attempt: e.payload.attempt,
              tool: step.tool,
              code: e.payload.error.code,
              ...(e.payload.error.exitCode != null ? { exitCode: e.payload.error.exitCode } : {}),
              ...(e.payload.error.status !== undefined ? { httpStatus: e.payload.error.status } : {}),
              ...(e.payload.error.retryAfterMs !== undefined ? { retryAfterMs: e.payload.error.retryAfterMs } : {}),
            },
          },
        },
      ];
    }
    case "phase.failed":
      return [
        {
          kind: "add",
          entry: { ...base, agent: null, phase: e.payload.phase, errorType: `phase_${e.payload.reason}`, level: "phase", severity: "error", what: `Phase ${e.payload.phase} failed (${e.payload.reason === "timeout" ? "timeout" : "too many agents failed"}).`, why: e.payload.message, context: { phase: e.payload.phase, reason: e.payload.reason } },
        },
      ];
    case "step.interrupted":
    case "step.rerun": {
      if (e.type === "step.rerun" && e.payload.reason !== "idempotent") return [];
      const p = e.payload;
      const entry = {
        ...base,
        agent: p.agent,
        phase: after.agents[p.agent]?.phase ?? null,
        step: p.step,
        attempt: p.attempt,
        errorType: "interrupted",
        level: "infrastructure" as const,
        severity: (e.type === "step.rerun" ? "warning" : "error") as FailureSeverity,
        what: `The worker running step ${p.step + 1} of agent "${p.agent}" stopped before recording its result.`,
        why: e.type === "step.rerun" ? "Worker crash or lost lease; the step is idempotent and was re-run with the same key." : "Worker crash or lost lease; the step is not idempotent, so an operator decides.",
        context: { agent: p.agent, step: p.step, attempt: p.attempt, idempotencyKey: p.idempotencyKey },
        resolution: e.type === "step.rerun" ? { action: "rerun_idempotent", resolvedBy: null, resolvedAt: e.at } : null,
      };
      return [{ kind: "add", entry }];
    }
    case "mission.paused":
      if (e.payload.kind === "operator") return [];
      return [
        {
          kind: "add",
          entry: { ...base, agent: null, phase: after.phase, errorType: e.payload.kind === "client" ? "operator_disconnected" : "infrastructure_outage", level: e.payload.kind, severity: e.payload.kind === "infrastructure" ? "critical" : "warning", what: e.payload.kind === "client" ? "Operator disconnected, mission paused." : "Infrastructure failure, mission paused.", why: e.payload.message, context: { kind: e.payload.kind } },
        },
      ];
    case "mission.aborted":
      // Aborting the mission is the decision on every failure still open.
      return [{ kind: "resolve", by: { all: true }, resolution: { action: "abort", resolvedBy: e.actorId, resolvedAt: e.at } }];
    case "mission.resumed":
      return [{ kind: "resolve", by: { levels: ["infrastructure", "client"] }, resolution: { action: "resume", resolvedBy: actor(e.actorId), resolvedAt: e.at } }];
    case "compensation.failed":
      return [
        {
          kind: "add",
          entry: {
            ...base,
            agent: e.payload.agent,
            phase: after.agents[e.payload.agent]?.phase ?? null,
            step: e.payload.step,
            attempt: e.payload.attempt,
            errorType: e.payload.error.code.toLowerCase(),
            level: "agent",
            severity: "error",
            what: `The compensation of step ${e.payload.step + 1} of agent "${e.payload.agent}" failed: its effect was not undone.`,
            why: e.payload.error.message,
            context: { agent: e.payload.agent, step: e.payload.step, attempt: e.payload.attempt, code: e.payload.error.code },
          },
        },
      ];
    case "gate.opened": {
      const p = e.payload;
      // Approval gates are not failures; a library gate asks about one hypothesis: the failure stays open until the walk ends.
      if (p.kind === "approval" || p.kind === "library") return [];
      return [{ kind: "link", gateId: p.gateId, agent: p.kind === "phase" ? null : p.agent, levels: p.kind === "phase" ? ["phase"] : p.kind === "recovery" ? ["infrastructure"] : ["agent", "infrastructure"] }];
    }
    case "gate.resolved":
      // Abort ends the mission: it decides every failure still open (a library gate's failure is not linked to the gate).
      return [{ kind: "resolve", by: e.payload.decision === "abort" ? { all: true } : { gateId: e.payload.gateId }, resolution: { action: e.payload.decision, resolvedBy: e.actorId, resolvedAt: e.at } }];
    case "mission.warning":
      return [{ kind: "resolve", by: { agent: e.payload.agent }, resolution: { action: "continue", resolvedBy: null, resolvedAt: e.at } }];
    case "diagnostic_reflection":
      return [{ kind: "attribute", failure: stepFailure(e), set: { rootCause: e.payload.diagnosis.rootCause.description } }];
    case "library.hypotheses": {
      const top = [...e.payload.hypotheses].sort((x, y) => x.rank - y.rank)[0];
      return top ? [{ kind: "attribute", failure: stepFailure(e), set: { failureMode: top.failure_id, confirmed: false } }] : [];
    }
    case "library.probe":
      return e.payload.verdict === "confirmed" ? [{ kind: "attribute", failure: { ...stepFailure(e), beforeSeq: e.payload.hypothesesSeq }, set: { failureMode: e.payload.failure_id, confirmed: true } }] : [];
    case "recovery.finished":
      // The recovery's own evidence passed: the failure is resolved automatically.
      return e.payload.outcome === "succeeded" ? [{ kind: "resolve", by: { agent: e.payload.agent }, resolution: { action: "recovered", resolvedBy: null, resolvedAt: e.at } }] : [];
    case "library.resolved":
      // A library entry's resolution fixed the step (its own evidence): the failure is resolved, by no person.
      return e.payload.outcome === "resolved" ? [{ kind: "resolve", by: { agent: e.payload.agent }, resolution: { action: `library_resolution:${e.payload.failure_id}`, resolvedBy: null, resolvedAt: e.at } }] : [];
    default:
      return [];
  }
}

function stepFailure(e: { seq: number; payload: { agent: string; step: number; attempt: number } }): StepFailureRef {
  return { agent: e.payload.agent, step: e.payload.step, attempt: e.payload.attempt, beforeSeq: e.seq };
}
