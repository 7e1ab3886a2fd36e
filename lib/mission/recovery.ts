import type { PlannedAlternative } from "../diagnosis/diagnose";
import type { RecoveryStep } from "../diagnosis/types";
import type { ToolError } from "../tools/result";
import type { StepDefinition } from "./definition";
import type { ActiveRecovery, AgentState, MissionState, PatternRef, RecoveryPlan, RecoveryRecord, RepeatedFailure } from "./types";

export { RECOVERY_POLICIES, type RecoveryPolicy } from "./definition";
export type { ActiveRecovery, PatternRef, RecoveryPlan, RecoveryRecord, RepeatedFailure } from "./types";

/**
 * ADR-0003 recovery planner, the mission side: which recovery (if any) the orchestrator applies to a
 * failed step, which it only proposes at the gate, and when it must stop (attempts used up, a stuck
 * loop). Pure: the engine gives it the diagnosis's ranked candidates and the learned pattern it found.
 *
 * A recovery is verified by the failed step itself: its helper steps (wait, install, raise a limit)
 * run as real tool calls, then the step is re-run and its own evidence decides. Strategies that change
 * the approach instead (another binary, a manual download) are shown in the diagnosis, not applied.
 */


/** Tools a recovery helper step may use (the `retry` pseudo-tool re-runs the failed step). */
const HELPER_TOOLS = new Set(["shell", "http", "file"]);
/** An action that failed this many times in a row the same way is a stuck loop. */
export const STUCK_LOOP_REPEATS = 3;





export function helperSteps(plan: Pick<RecoveryPlan, "steps">): RecoveryStep[] {
  return plan.steps.filter((s) => s.tool !== "retry");
}

/** The argument changes of the plan's re-run, and its time-limit factor (not a tool argument). */
export function rerunOverrides(plan: Pick<RecoveryPlan, "steps">): { args: Record<string, unknown>; timeoutFactor: number } {
  const retry = plan.steps.find((s) => s.tool === "retry");
  const { timeoutFactor, ...args } = (retry?.args ?? {}) as Record<string, unknown>;
  return { args, timeoutFactor: typeof timeoutFactor === "number" && timeoutFactor > 0 ? Math.min(timeoutFactor, 10) : 1 };
}

/** Why a candidate cannot run without a person, or null when it can. */
export function notRunnable(c: Pick<PlannedAlternative, "auto" | "steps" | "strategy">, allowedBinaries: readonly string[]): string | null {
  if (!c.auto) return `${c.strategy} changes the approach and needs a person or a planner to carry it out`;
  if (c.steps.at(-1)?.tool !== "retry") return `${c.strategy} does not end by re-running the failed step`;
  for (const s of helperSteps(c)) {
    if (!HELPER_TOOLS.has(s.tool)) return `${c.strategy} has a "${s.tool}" step`;
    const bin = s.tool === "shell" ? String((s.args as { command?: unknown }).command ?? "") : null;
    if (bin !== null && !allowedBinaries.includes(bin)) return `${c.strategy} needs "${bin}", which is not on this mission's allowlist`;
    if (/example\.invalid/.test(JSON.stringify(s.args))) return `${c.strategy} has no concrete target for "${s.action}"`;
  }
  return null;
}

/** What identifies "the same action failing the same way": agent, step, tool, arguments, error code and exit/status. */
export function failureSignature(agent: string, step: number, def: Pick<StepDefinition, "tool" | "args">, error: ToolError): string {
  return [agent, step, def.tool, stableJson(def.args), error.code, error.exitCode ?? error.status ?? ""].join("|");
}

function stableJson(v: unknown): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v) ?? "";
  if (Array.isArray(v)) return `[${v.map(stableJson).join(",")}]`;
  return `{${Object.keys(v)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
    .join(",")}}`;
}

/**
 * The agent's latest failing action and how many times in a row it failed the same way (across the
 * agent's retries: only a success of that step, or a different failure, starts the count again).
 */

/** The next RepeatedFailure after a failure with this signature. */
export function countRepeat(prev: RepeatedFailure | null, step: number, signature: string): RepeatedFailure {
  return prev && prev.signature === signature ? { ...prev, count: prev.count + 1 } : { step, signature, count: 1 };
}

/** The ADR's stuck loop: the agent's latest action failed the same way STUCK_LOOP_REPEATS times in a row. */
export function stuckLoop(a: Pick<AgentState, "repeatedFailure">): RepeatedFailure | null {
  return a.repeatedFailure && a.repeatedFailure.count >= STUCK_LOOP_REPEATS ? a.repeatedFailure : null;
}

export interface RecoveryChoice {
  /** The plan to apply (auto) or to propose at the gate; null when none may run. */
  plan: RecoveryPlan | null;
  /** Apply now without a person. */
  auto: boolean;
  /** Why, in a sentence: recorded on the gate or the recovery event. */
  reason: string;
}

/**
 * Chooses the recovery for a failed step. Rules, in order: never beyond `maxAttempts` per failure,
 * never inside a stuck loop, never for a fatal failure; then the learned pattern's strategy when it is
 * trusted (fast path) and runnable, else the best runnable candidate not tried yet. It runs without a
 * person only under `recovery: auto`, for a recoverable failure of a step that is not high-risk.
 */
export function chooseRecovery(p: {
  state: Pick<MissionState, "definition">;
  agent: Pick<AgentState, "recoveries" | "repeatedFailure">;
  step: number;
  stepDef: Pick<StepDefinition, "highRisk">;
  candidates: PlannedAlternative[];
  diagnosis: { id: string; type: string; severity: string; canRecover: boolean; rootCause: string };
  when: string;
  /** Learned patterns for this failure's trigger (any strategy). */
  patterns: readonly PatternRef[];
  maxAttempts: number;
  fastPath: boolean;
  allowedBinaries: readonly string[];
}): RecoveryChoice {
  const tried = p.agent.recoveries.filter((r) => r.step === p.step);
  const triedNote = tried.length ? ` Tried already: ${tried.map((r) => `${r.strategy} (${r.outcome})`).join(", ")}, ${tried.length} of AUTONOMOUS_MAX_RECOVERY_ATTEMPTS=${p.maxAttempts}.` : "";
  if (p.maxAttempts === 0) return { plan: null, auto: false, reason: "AUTONOMOUS_MAX_RECOVERY_ATTEMPTS is 0: recovery plans are shown, never run." };
  if (tried.length >= p.maxAttempts) return { plan: null, auto: false, reason: `${tried.length} recovery attempt${tried.length === 1 ? "" : "s"} already failed for this step (${tried.map((r) => r.strategy).join(", ")}); AUTONOMOUS_MAX_RECOVERY_ATTEMPTS is ${p.maxAttempts}, so an operator decides.` };
  const loop = stuckLoop(p.agent);
  if (loop) return { plan: null, auto: false, reason: `Stuck loop: this exact action failed the same way ${loop.count} times; it is not retried blindly.` };
  if (!p.diagnosis.canRecover) return { plan: null, auto: false, reason: `The diagnosis is ${p.diagnosis.type} (${p.diagnosis.severity}): no recovery can help.` };
  const triedNames = new Set(tried.map((r) => r.strategy));
  const fresh = p.candidates.filter((c) => !triedNames.has(c.strategy));
  const runnable = fresh.filter((c) => notRunnable(c, p.allowedBinaries) === null);
  // The fast path: the most trusted enabled pattern above its threshold whose strategy can run here.
  const trusted = p.fastPath
    ? ([...p.patterns]
        .filter((x) => x.enabled && x.confidence >= x.threshold && runnable.some((c) => c.strategy === x.then))
        .sort((a, b) => b.confidence - a.confidence || b.successes - a.successes)[0] ?? null)
    : null;
  const pick = (trusted && runnable.find((c) => c.strategy === trusted.then)) || runnable[0];
  if (!pick) {
    const best = fresh[0];
    return { plan: null, auto: false, reason: `${best ? `No other strategy can run without a person: ${notRunnable(best, p.allowedBinaries)}.` : "Every strategy was already tried."}${triedNote}` };
  }
  const fromPattern = Boolean(trusted && pick.strategy === trusted.then);
  const plan: RecoveryPlan = {
    strategy: pick.strategy,
    description: pick.description,
    steps: pick.steps,
    tools: pick.tools,
    source: fromPattern ? "pattern" : "diagnosis",
    pattern: p.patterns.find((x) => x.then === pick.strategy) ?? null,
    when: p.when,
    diagnosisId: p.diagnosis.id,
    errorType: p.diagnosis.type,
    rootCause: p.diagnosis.rootCause,
  };
  const policy = p.state.definition.recovery;
  if (policy !== "auto") return { plan, auto: false, reason: `The mission's recovery policy is "propose": the plan is offered at the gate.${triedNote}` };
  if (p.stepDef.highRisk) return { plan, auto: false, reason: "The step is high-risk: its recovery is offered at the gate, not applied." };
  if (p.diagnosis.severity !== "recoverable") return { plan, auto: false, reason: `The failure needs a person (${p.diagnosis.severity}): the plan is offered at the gate.${triedNote}` };
  const attempt = tried.length + 1;
  return {
    plan,
    auto: true,
    reason: fromPattern
      ? `Learned pattern "${trusted!.when} → ${trusted!.then}" (${trusted!.successes} successes, ${trusted!.failures} failures, confidence ${trusted!.confidence}) applied without full reflection; attempt ${attempt} of ${p.maxAttempts}.`
      : `Recovery policy "auto": ${pick.strategy} applied; attempt ${attempt} of ${p.maxAttempts}.`,
  };
}
