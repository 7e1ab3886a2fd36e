import type { MissionEvent } from "@/lib/mission/events";
import type { MissionState } from "@/lib/mission/types";
import * as ui from "@/components/ui/styles";

export type StepMark = "done" | "current" | "blocked" | "failed" | "pending" | "not-reached";
export interface PhaseStep {
  name: string;
  mark: StepMark;
}

/** RFC 001 phases of this definition, from MISSION_STARTED to MISSION_COMPLETED or FAILED, each marked. */
export function phaseSteps(s: MissionState, events: readonly MissionEvent[], lastStartedBefore: string | null = null): PhaseStep[] {
  const phases = s.definition.phases.map((p) => p.name);
  const terminal = s.runState === "completed" || s.runState === "failed";
  // `events` may be a window of the log: the last phase started before it comes with it.
  let lastStarted: string | null = lastStartedBefore;
  for (const e of events) if (e.type === "phase.started") lastStarted = e.payload.phase;
  const steps: PhaseStep[] = [{ name: "MISSION_STARTED", mark: s.runState === "queued" ? "current" : "done" }];
  let failedMarked = false;
  for (const p of phases) {
    let mark: StepMark = "pending";
    if (s.completedPhases.includes(p)) mark = "done";
    else if (!terminal && s.phase === p) mark = s.runState === "paused" ? "blocked" : "current";
    else if (terminal && s.runState === "failed" && !failedMarked && lastStarted !== null && phases.indexOf(p) <= phases.indexOf(lastStarted as (typeof phases)[number])) {
      mark = "failed";
      failedMarked = true;
    } else if (terminal) mark = "not-reached";
    steps.push({ name: p, mark });
  }
  if (s.runState === "failed") steps.push({ name: "FAILED", mark: "failed" });
  else steps.push({ name: "MISSION_COMPLETED", mark: s.runState === "completed" ? "done" : "pending" });
  return steps;
}

const ICON: Record<StepMark, string> = { done: "✓", current: "▶", blocked: "‖", failed: "✕", pending: "○", "not-reached": "–" };
const WORD: Record<StepMark, string> = { done: "done", current: "current", blocked: "waiting at a gate", failed: "failed", pending: "pending", "not-reached": "not reached" };

const STEP = "relative inline-flex items-center gap-1.5 rounded-full border px-2.5 py-1 text-[12px] font-semibold";
/** Each mark's colours (pending and not reached are quiet; not reached is struck through). */
const MARK: Record<StepMark, string> = {
  done: "border-success bg-success-bg text-success",
  current: "border-running bg-running-bg text-running",
  blocked: "border-paused bg-paused-bg text-paused",
  failed: "border-failed bg-failed-bg text-failed",
  pending: "border-border bg-surface-2 text-muted",
  "not-reached": "border-border bg-surface-2 text-muted line-through opacity-80",
};
/** The arrow from the step before. */
const ARROW = "before:absolute before:-left-[17px] before:font-normal before:text-muted before:content-['→']";

export function PhaseBar({ mission, events, lastStarted = null }: { mission: MissionState; events: readonly MissionEvent[]; lastStarted?: string | null }) {
  const steps = phaseSteps(mission, events, lastStarted);
  return (
    <ol className="mx-0 mt-1 mb-0 flex list-none flex-wrap gap-x-[22px] gap-y-1 p-0" aria-label="Phases" data-testid="phase-bar">
      {steps.map((st, i) => (
        <li key={st.name} className={ui.cx(STEP, MARK[st.mark], i > 0 && ARROW)} aria-current={st.mark === "current" || st.mark === "blocked" ? "step" : undefined} data-mark={st.mark}>
          <span aria-hidden="true">
            {ICON[st.mark]}
          </span>
          <span>{st.name.replaceAll("_", " ")}</span>
          <span className="sr-only">: {WORD[st.mark]}</span>
        </li>
      ))}
    </ol>
  );
}
