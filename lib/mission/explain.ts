import type { Counterfactual, FailureExplanation, FailureReason } from "../authority/types";
import type { ToolErrorCode } from "../tools/result";
import { missionLevel } from "./definition";
import { stepAt } from "./steps";
import type { AgentState, FinalStatus, GateState, MissionState, ProposalState } from "./types";

/**
 * Failure as structure (FDR-N005, N015): every mission that does not end SUCCESS gets a FailureReason
 * (one of the seven) and an explanation built from the record (rejected proposals, exhausted budgets,
 * unanswered asks, timeouts, gate aborts, tool failures with their diagnosis). Pure: the same state gives
 * the same explanation, in the console, the CLI and the API.
 *
 * FE-R3: an explanation describes structure (rules, budgets, evidence, decisions, the world's errors),
 * never the fault of the model or the agent. A test scans every explanation this module can produce.
 */

export interface MissionExplanation {
  finalStatus: FinalStatus | null;
  failureReason: FailureReason | null;
  explanation: FailureExplanation | null;
  level: { effective: number; declared: number | null; why: string[]; warning: string | null };
}

export function explainMission(s: MissionState): MissionExplanation {
  const lv = missionLevel(s.definition);
  const level = { effective: lv.effective, declared: lv.declared, why: lv.why, warning: lv.warning };
  if (s.finalStatus === "SUCCESS") return { finalStatus: s.finalStatus, failureReason: null, explanation: null, level };
  const found = cause(s);
  if (!found) return { finalStatus: s.finalStatus, failureReason: null, explanation: null, level };
  return { finalStatus: s.finalStatus, failureReason: found.reason, explanation: found.explanation, level };
}

type Found = { reason: FailureReason; explanation: FailureExplanation };

function cause(s: MissionState): Found | null {
  const open = s.gates.find((g) => g.status === "open");
  const agents = s.agentOrder.map((n) => s.agents[n]);
  // The decisive agent: a failed critical one first, then any failed one not tolerated, then any failed one.
  // A failed agent a person skipped (skip, skip_phase) still failed: its error is the cause.
  const down = (a: AgentState) => a.status === "failed" || (a.status === "skipped" && a.error !== null);
  const failed = agents.find((a) => down(a) && a.priority === "critical") ?? agents.find((a) => down(a) && !a.tolerated) ?? agents.find(down);
  const aborted = [...s.gates].reverse().find((g) => g.status === "resolved" && g.decision === "abort");
  if (open) return waiting(s, open, failed ?? null);
  if (aborted?.kind === "proposal") return proposalAbort(s, aborted);
  if (failed) return agentCause(s, failed, aborted ?? null);
  if (s.phaseFailure?.reason === "timeout") return timeoutOf(s.phaseFailure.message, [{ type: "phase", phase: s.phaseFailure.phase }], `the ${s.phaseFailure.phase} phase's time limit`);
  if (s.objective.checked && s.objective.passed === false) {
    const failedChecks = s.objective.evidence.filter((e) => !e.passed);
    return {
      reason: "GOAL_UNREACHABLE",
      explanation: {
        kind: "informational",
        title: "The mission's objective checks did not hold",
        description: `Every agent finished, but ${failedChecks.length} objective check(s) failed: ${failedChecks.map((e) => `${e.check}${e.detail ? ` ${e.detail}` : ""}`).join("; ")}. Success is what the evidence shows, so the mission did not succeed.`,
        evidence: failedChecks.map((e) => ({ type: "objective_check", check: e.check, expected: e.expected, actual: e.actual })),
        counterfactual: { change: { type: "add_observation", observation: failedChecks.map((e) => ({ check: e.check, expected: e.expected })) }, expectedOutcome: "success", confidence: "high" },
      },
    };
  }
  if (aborted) return abortOf(s, aborted);
  if (s.aborted) {
    return {
      reason: "HUMAN_REQUIRED",
      explanation: { kind: "procedural", title: "The mission was aborted", description: "The mission was aborted by a decision before it could complete; nothing after the abort ran.", evidence: [{ type: "abort" }], counterfactual: null },
    };
  }
  // Work a decider skipped at a gate (an approval declined, a phase skipped) without a failure of its own.
  const skippedCritical = agents.find((a) => a.status === "skipped" && a.priority === "critical");
  if (skippedCritical && s.finalStatus !== null) {
    const g = [...s.gates].reverse().find((x) => x.status === "resolved" && x.agent === skippedCritical.name && (x.decision === "skip" || x.decision === "skip_phase"));
    const approval = g?.kind === "approval";
    return {
      reason: approval ? "AUTHORITY_REJECTION" : "GOAL_UNREACHABLE",
      explanation: {
        kind: approval ? "governance" : "procedural",
        title: approval ? `A high-risk step of "${skippedCritical.name}" was not approved` : `The critical work of "${skippedCritical.name}" was skipped`,
        description: `${approval ? "The step needed an approval; the decider chose skip" : `"${skippedCritical.name}" is critical and did not run to the end (skipped${g ? ` at a ${g.kind} gate` : " with its phase"})`}${g?.note ? ` ("${g.note}")` : ""}, so its evidence is missing and the mission cannot succeed.`,
        evidence: [{ type: "agent", agent: skippedCritical.name, status: "skipped" }, ...(g ? [{ type: "gate", id: g.id, kind: g.kind, decision: g.decision, decidedBy: g.decidedBy, note: g.note }] : [])],
        counterfactual: approval ? { change: { type: "obtain_confirmation", from: "a decider of this mission's approval gates" }, expectedOutcome: "success", confidence: "medium" } : null,
      },
    };
  }
  const tolerated = agents.filter((a) => a.status === "failed" || a.status === "skipped");
  if (s.finalStatus === "PARTIAL_SUCCESS" && tolerated.length) {
    return {
      reason: "GOAL_UNREACHABLE",
      explanation: {
        kind: "informational",
        title: "Part of the mission's work did not complete",
        description: `The critical work completed, but ${tolerated.map((a) => `"${a.name}" (${a.status})`).join(", ")} did not, so the result is partial.`,
        evidence: tolerated.map((a) => ({ type: "agent", agent: a.name, status: a.status, error: a.error?.message ?? null })),
        counterfactual: null,
      },
    };
  }
  if (s.finalStatus !== null) {
    // Total on ended missions: whatever else, the evidence did not prove the work.
    const unproven = agents.filter((a) => a.status !== "completed");
    return {
      reason: "GOAL_UNREACHABLE",
      explanation: {
        kind: "informational",
        title: "The evidence does not prove the mission's work",
        description: `The mission ended ${s.finalStatus}: ${unproven.length ? `${unproven.map((a) => `"${a.name}" is ${a.status}`).join(", ")}` : "no agent's work counts as proven (a compensation undid it, or no critical agent completed)"}.`,
        evidence: agents.map((a) => ({ type: "agent", agent: a.name, status: a.status, priority: a.priority })),
        counterfactual: null,
      },
    };
  }
  return null;
}

function agentCause(s: MissionState, a: AgentState, aborted: GateState | null): Found {
  const e = a.error;
  const skipped = [...s.gates].reverse().find((g) => g.status === "resolved" && g.agent === a.name && (g.decision === "skip" || g.decision === "skip_phase"));
  const abortNote = aborted
    ? ` A decider then aborted the mission at the gate${aborted.note ? ` ("${aborted.note}")` : ""}.`
    : a.status === "skipped" && skipped
      ? ` A decider chose ${skipped.decision} at the gate${skipped.note ? ` ("${skipped.note}")` : ""}, so its work is missing.`
      : "";
  const proposals = s.proposals.filter((p) => p.agent === a.name && p.attempt === a.attempt);
  const rejected = proposals.filter((p) => p.status === "rejected");
  if (e?.failureReason === "NO_EXECUTABLE_ACTION") {
    const last = rejected[rejected.length - 1];
    return {
      reason: "NO_EXECUTABLE_ACTION",
      explanation: {
        kind: "governance",
        title: "No permitted action was left",
        description: `Every action proposed for "${a.name}" in attempt ${a.attempt} was rejected under the mission's rules (${rejected.length} rejection(s); the last: ${last ? last.decision?.reason : "none"}). Within the rules as written, the goal has no executable path.${abortNote}`,
        evidence: rejected.map(proposalEvidence),
        counterfactual: last?.decision?.counterfactual ?? null,
      },
    };
  }
  if (e?.failureReason === "RESOURCE_EXHAUSTED") {
    const max = s.definition.phases.flatMap((p) => p.agents).find((x) => x.name === a.name)?.autonomous?.maxActions ?? proposals.length;
    return {
      reason: "RESOURCE_EXHAUSTED",
      explanation: {
        kind: "resource",
        title: "The action budget ran out",
        description: `"${a.name}" has a budget of ${max} proposals per attempt (maxActions); all ${proposals.length} were used (${proposals.filter((p) => p.status === "approved").length} approved, ${rejected.length} rejected) and the evidence for finishing did not hold yet.${abortNote}`,
        evidence: [{ type: "budget", agent: a.name, maxActions: max, used: proposals.length }, ...rejected.map(proposalEvidence)],
        counterfactual: { change: { type: "relax_constraint", constraint: `autonomous.maxActions of "${a.name}" above ${max}` }, expectedOutcome: "success", confidence: "low" },
      },
    };
  }
  if (e?.failureReason === "TIMEOUT" || e?.context.toolError.code === "TIMEOUT") return timeoutOf(`${e.message}${abortNote}`, [{ type: "agent", agent: a.name, step: e.context.step, tool: e.context.tool }], `the time limit of "${a.name}"`);
  if (e && e.context.tool === "model") {
    return {
      reason: "HUMAN_REQUIRED",
      explanation: {
        kind: "procedural",
        title: "No model was available to choose the next action",
        description: `"${a.name}" chooses its actions with a model, and the model provider could not be used: ${e.message}${abortNote}`,
        evidence: [{ type: "provider", agent: a.name, code: e.context.toolError.code, message: e.context.toolError.message }],
        counterfactual: { change: { type: "relax_constraint", constraint: "a reachable LLM provider in FAULTLINE_LLM_PROVIDERS" }, expectedOutcome: "success", confidence: "medium" },
      },
    };
  }
  if (!e) {
    return { reason: "GOAL_UNREACHABLE", explanation: { kind: "procedural", title: `"${a.name}" did not complete`, description: `"${a.name}" ended ${a.status} without a recorded error.${abortNote}`, evidence: [{ type: "agent", agent: a.name }], counterfactual: null } };
  }
  const step = stepAt(a, e.context.step);
  const d = step?.diagnosis;
  const reason = reasonOfToolError(e.context.toolError.code);
  const cf: Counterfactual | null = d
    ? { change: { type: "relax_constraint", constraint: d.rootCause.description }, expectedOutcome: "success", confidence: d.rootCause.confidence >= 0.8 ? "high" : d.rootCause.confidence >= 0.5 ? "medium" : "low" }
    : e.context.toolError.code === "VALIDATION_FAILED"
      ? { change: { type: "add_observation", observation: step?.evidence.filter((r) => !r.passed).map((r) => ({ check: r.check, expected: r.expected })) ?? [] }, expectedOutcome: "success", confidence: "medium" }
      : null;
  return {
    reason,
    explanation: {
      kind: reason === "AUTHORITY_REJECTION" ? "governance" : reason === "RESOURCE_EXHAUSTED" ? "resource" : "structural",
      title: `Step ${e.context.step + 1} of "${a.name}" (${e.context.tool}) failed: ${e.context.toolError.code}`,
      description: `${e.context.stepName} failed with ${e.context.toolError.code}: ${e.context.toolError.message}${d ? ` Diagnosis: ${d.rootCause.description} (${d.rootCause.category}, confidence ${d.rootCause.confidence.toFixed(2)}).` : ""}${abortNote}`,
      evidence: [
        { type: "tool_error", agent: a.name, step: e.context.step, tool: e.context.tool, code: e.context.toolError.code, message: e.context.toolError.message },
        ...(d ? [{ type: "diagnosis", id: d.id, whyChain: d.whyChain, rootCause: d.rootCause }] : []),
        ...(aborted ? [{ type: "gate", id: aborted.id, decision: aborted.decision, decidedBy: aborted.decidedBy, note: aborted.note }] : []),
      ],
      counterfactual: cf,
    },
  };
}

/** The world's errors, mapped onto the seven reasons. */
function reasonOfToolError(code: ToolErrorCode): FailureReason {
  switch (code) {
    case "TIMEOUT":
      return "TIMEOUT";
    case "NOT_ALLOWED":
    case "PERMISSION_DENIED":
      return "AUTHORITY_REJECTION";
    case "RATE_LIMITED":
    case "OUTPUT_TOO_LARGE":
      return "RESOURCE_EXHAUSTED";
    case "INVALID_ARGS":
      return "UNRESOLVED_AMBIGUITY";
    default:
      return "GOAL_UNREACHABLE";
  }
}

function timeoutOf(message: string, evidence: FailureExplanation["evidence"], limit: string): Found {
  return {
    reason: "TIMEOUT",
    explanation: {
      kind: "resource",
      title: "Time ran out",
      description: message,
      evidence,
      counterfactual: { change: { type: "relax_constraint", constraint: limit }, expectedOutcome: "success", confidence: "low" },
    },
  };
}

function waiting(s: MissionState, g: GateState, failed: AgentState | null): Found {
  const p = g.proposalId ? s.proposals.find((x) => x.id === g.proposalId) : null;
  const ask = p?.action.tool === "ask";
  return {
    reason: ask ? "UNRESOLVED_AMBIGUITY" : "HUMAN_REQUIRED",
    explanation: {
      kind: "procedural",
      title: ask ? "A question waits for an answer" : "A decision waits for a person",
      description: ask
        ? `"${g.agent}" asked: ${String(p!.action.args.question ?? "")} The mission continues when a person answers in the decision inbox.`
        : p
          ? `A proposal of "${g.agent}" (${p.action.tool}) is pending: ${p.decision?.reason ?? g.error.what} A decider approves, modifies or rejects it in the decision inbox.`
          : `${/^[aeiou]/.test(g.kind) ? "An" : "A"} ${g.kind} gate is open for "${g.agent}": ${g.error.what.trim().replace(/[.!?]$/, "")}${failed?.error ? ` (${failed.error.context.toolError.code})` : ""}. A decider answers it in the decision inbox.`,
      evidence: [{ type: "gate", id: g.id, kind: g.kind, openedAt: g.openedAt, ...(p ? { proposalId: p.id, pendingReason: p.decision?.pendingReason ?? null } : {}) }],
      counterfactual: { change: { type: "obtain_confirmation", from: "a decider of this mission's gates" }, expectedOutcome: "success", confidence: "medium" },
    },
  };
}

function proposalAbort(s: MissionState, g: GateState): Found {
  const p = s.proposals.find((x) => x.id === g.proposalId);
  const ask = p?.action.tool === "ask";
  return {
    reason: ask ? "UNRESOLVED_AMBIGUITY" : "AUTHORITY_REJECTION",
    explanation: {
      kind: "governance",
      title: ask ? "A question was not answered: the mission was aborted" : "A pending proposal was not approved: the mission was aborted",
      description: ask
        ? `"${g.agent}" asked: ${String(p?.action.args.question ?? "")} A person aborted the mission instead of answering${g.note ? ` ("${g.note}")` : ""}.`
        : `A proposal of "${g.agent}" (${p?.action.tool ?? "?"}) waited for a decision (${p?.decision?.reason ?? "held"}); a person aborted the mission${g.note ? ` ("${g.note}")` : ""}.`,
      evidence: [...(p ? [proposalEvidence(p)] : []), { type: "gate", id: g.id, decision: g.decision, decidedBy: g.decidedBy, note: g.note }],
      counterfactual: ask ? { change: { type: "resolve_ambiguity", resolution: "an answer to the question" }, expectedOutcome: "success", confidence: "medium" } : { change: { type: "obtain_confirmation", from: "a decider of this mission's gates" }, expectedOutcome: "success", confidence: "low" },
    },
  };
}

function abortOf(_s: MissionState, g: GateState): Found {
  return {
    reason: "HUMAN_REQUIRED",
    explanation: {
      kind: "procedural",
      title: `The mission was aborted at a ${g.kind} gate`,
      description: `${g.decidedBy ?? "A decider"} aborted the mission at the ${g.kind} gate of "${g.agent}": ${g.error.what}${g.note ? ` Note: "${g.note}".` : ""}`,
      evidence: [{ type: "gate", id: g.id, kind: g.kind, decision: g.decision, decidedBy: g.decidedBy, note: g.note }],
      counterfactual: null,
    },
  };
}

function proposalEvidence(p: ProposalState): { type: string; [key: string]: unknown } {
  return { type: "proposal", id: p.id, actorId: p.actorId, action: p.action, status: p.status, authority: p.decision?.authority ?? null, reason: p.decision?.reason ?? null, failureReason: p.decision?.failureReason ?? null };
}
