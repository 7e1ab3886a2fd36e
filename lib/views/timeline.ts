import type { MissionEvent } from "../mission/events";

/**
 * The compact timeline's model (issue 16): one row an event, consecutive events of one step (same agent,
 * attempt and step: started, failed, diagnosed, walked, recovered) grouped under that step's label.
 */

export type TimelineTone = "success" | "failed" | "partial" | "paused" | "running" | "neutral";

const TONE: Partial<Record<MissionEvent["type"], TimelineTone>> = {
  "tool.failed": "failed",
  "agent.failed": "failed",
  "phase.failed": "failed",
  "gate.opened": "paused",
  "gate.resolved": "running",
  "mission.warning": "partial",
  "mission.paused": "paused",
  "recovery.loop_detected": "failed",
  "recovery.started": "running",
  "recovery.fast_path": "running",
  "tool.succeeded": "success",
  "agent.completed": "success",
  "phase.completed": "success",
  "compensation.succeeded": "success",
  "compensation.failed": "failed",
  "library.hypotheses": "running",
  "library.novel": "partial",
  "library.exhausted": "failed",
  "mission.aborted": "failed",
};

export function toneOf(e: Pick<MissionEvent, "type" | "payload">): TimelineTone {
  if (e.type === "mission.finished") {
    const s = (e.payload as { finalStatus: string }).finalStatus;
    return s === "SUCCESS" ? "success" : s === "PARTIAL_SUCCESS" ? "partial" : "failed";
  }
  if (e.type === "proposal.decided") {
    const d = (e.payload as { decision: string }).decision;
    return d === "approved" ? "success" : d === "rejected" ? "failed" : "paused";
  }
  return TONE[e.type] ?? "neutral";
}

/** The step an event belongs to, or null for mission, phase and gate events. */
export function stepOf(e: Pick<MissionEvent, "payload">): { agent: string; attempt: number; step: number } | null {
  const p = e.payload as { agent?: unknown; attempt?: unknown; step?: unknown };
  return typeof p.agent === "string" && typeof p.attempt === "number" && typeof p.step === "number" ? { agent: p.agent, attempt: p.attempt, step: p.step } : null;
}

/** One line that says what the event means: a failure leads with its code, everything else with its reason. */
export function summaryOf(e: Pick<MissionEvent, "type" | "payload" | "reason">): string {
  const firstLine = (s: string) => s.split("\n", 1)[0];
  if (e.type === "tool.failed" || e.type === "compensation.failed") {
    const err = (e.payload as { error: { code: string; message: string; exitCode?: number | null; status?: number } }).error;
    const extra = err.exitCode != null ? ` (exit code ${err.exitCode})` : err.status !== undefined ? ` (HTTP ${err.status})` : "";
    return `${err.code}: ${firstLine(err.message)}${extra}`;
  }
  return firstLine(e.reason);
}

export interface TimelineGroup<E> {
  /** Stable key: the first event's seq. */
  key: number;
  /** "deployer · step 1 · attempt 2" for a step's events, null for a lone event. */
  label: string | null;
  events: E[];
}

export function groupTimeline<E extends Pick<MissionEvent, "seq" | "payload">>(events: readonly E[]): Array<TimelineGroup<E>> {
  const groups: Array<TimelineGroup<E> & { id: string | null }> = [];
  for (const e of events) {
    const s = stepOf(e);
    const id = s ? `${s.agent}\u0000${s.attempt}\u0000${s.step}` : null;
    const last = groups.at(-1);
    if (id !== null && last && last.id === id) last.events.push(e);
    else groups.push({ id, key: e.seq, label: s ? `${s.agent} · step ${s.step + 1} · attempt ${s.attempt}` : null, events: [e] });
  }
  // A "group" of one event needs no label of its own: the row says it.
  return groups.map(({ id: _id, ...g }) => (g.events.length > 1 ? g : { ...g, label: null }));
}
