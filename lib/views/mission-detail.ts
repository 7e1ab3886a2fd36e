import { applyEvent } from "../mission/reducer";
import { deriveFinalStatus, explainFinalStatus } from "../mission/status";
import type { MissionEvent } from "../mission/events";
import type { FinalStatus, MissionState } from "../mission/types";
import { gateViewFromState, type GateView } from "./gate-view";

/** Everything the mission page shows; the body of GET /api/v1/missions/:id. */
export interface MissionDetail {
  mission: MissionState;
  /** Derived from evidence once the mission is terminal (RFC 001 §3.3); null while it runs. */
  finalStatus: FinalStatus | null;
  explanation: string | null;
  openGates: GateView[];
  /**
   * Every event, seq ascending; the last one's seq equals mission.seq. With `eventsWindow` only a window of
   * them (the newest, or those around a highlighted seq) followed by the live events received since; the
   * timeline pages in the rest.
   */
  events: MissionEvent[];
  /** Present when `events` is a window: whether more events lie before or after it (as read). */
  eventsWindow?: { hasOlder: boolean; hasNewer: boolean };
  /** With a window: the last phase.started before it (the phase bar marks the phase that failed). */
  lastPhaseStarted?: string | null;
  /** Display names of the actors appearing in the log (`user:<id>`, `worker:…`). */
  actors: Record<string, string>;
  /** The newest verdict of each counterfactual verified by replay (`faultline mission explain ID --verify`). */
  counterfactualChecks?: CounterfactualCheckView[];
}

/** A counterfactual of the mission's record, replayed and judged (docs/traces.md "Counterfactual replay"). */
export interface CounterfactualCheckView {
  /** `mission` (the explanation's counterfactual) or `proposal:<id>` (a rejected proposal's). */
  subject: string;
  verdict: "held" | "did_not_hold" | "undetermined";
  summary: string;
  /** The mission's seq when it was verified. */
  missionSeq: number;
  verifiedBy: string;
  verifiedAt: string;
}

export function isTerminal(s: Pick<MissionState, "runState">): boolean {
  return s.runState === "completed" || s.runState === "failed";
}

export function toMissionDetail(mission: MissionState, events: MissionEvent[], actors: Record<string, string>): MissionDetail {
  const terminal = isTerminal(mission);
  return {
    mission,
    finalStatus: terminal ? deriveFinalStatus(mission) : null,
    explanation: terminal ? explainFinalStatus(mission) : null,
    openGates: mission.gates.filter((g) => g.status === "open").map((g) => gateViewFromState(g, mission, actors)),
    events,
    actors,
  };
}

export interface ContiguousEvents {
  /** Events with seq lastSeq+1, lastSeq+2, … in order, without duplicates. */
  fresh: MissionEvent[];
  lastSeq: number;
  /** True when some incoming event lies beyond a missing seq: the caller must re-subscribe. */
  gap: boolean;
}

/**
 * The seq rule of the realtime protocol: keep only what directly follows lastSeq; ignore seq <= lastSeq
 * (duplicates); stop at the first hole and report it as a gap (the events after it are dropped and come
 * again with the catch-up).
 */
export function takeContiguous(lastSeq: number, incoming: readonly MissionEvent[]): ContiguousEvents {
  const sorted = [...incoming].sort((a, b) => a.seq - b.seq);
  const fresh: MissionEvent[] = [];
  let seq = lastSeq;
  for (const e of sorted) {
    if (e.seq <= seq) continue;
    if (e.seq !== seq + 1) return { fresh, lastSeq: seq, gap: true };
    fresh.push(e);
    seq = e.seq;
  }
  return { fresh, lastSeq: seq, gap: false };
}

export type ApplyResult =
  | { kind: "unchanged"; gap: boolean }
  | { kind: "applied"; detail: MissionDetail; gap: boolean }
  /** The reducer rejected an event: the local copy cannot be trusted; refetch it. */
  | { kind: "refetch"; reason: string };

/** Folds live events into a mission page's data with the same reducer the server uses. */
export function applyEventsToDetail(detail: MissionDetail, incoming: readonly MissionEvent[]): ApplyResult {
  const { fresh, gap } = takeContiguous(detail.mission.seq, incoming);
  if (fresh.length === 0) return { kind: "unchanged", gap };
  let state = detail.mission;
  try {
    for (const e of fresh) state = applyEvent(state, e);
  } catch (e) {
    return { kind: "refetch", reason: e instanceof Error ? e.message : String(e) };
  }
  const window = detail.eventsWindow ? { eventsWindow: detail.eventsWindow, lastPhaseStarted: detail.lastPhaseStarted } : {};
  const checks = detail.counterfactualChecks ? { counterfactualChecks: detail.counterfactualChecks } : {};
  return { kind: "applied", detail: { ...toMissionDetail(state, [...detail.events, ...fresh], detail.actors), ...window, ...checks }, gap };
}

/** How many events the mission page opens with (the newest, or those around ?seq=); the rest come in pages. */
export const EVENT_WINDOW = 400;

/**
 * A refetched window of the mission (`fresh`: its newest events) laid over what the page holds: never
 * back in the log (a refetch that started before live events arrived answers with an older seq), and never
 * fewer events than held — the held events before the fresh window stay when they join it, so a log the
 * page held whole stays whole (not paged) after a refetch. Only when they do not join (more events came
 * than the window holds) is the fresh window taken as it is, with `hasOlder`.
 */
export function mergeRefetchedDetail(held: MissionDetail | undefined, fresh: MissionDetail): MissionDetail {
  if (!held) return fresh;
  if (held.mission.seq > fresh.mission.seq) return { ...held, actors: { ...held.actors, ...fresh.actors } };
  if (!fresh.eventsWindow || fresh.eventsWindow.hasNewer) return fresh;
  // The page opened around one event (?seq=): it keeps that window; the timeline pages towards the newest.
  if (held.eventsWindow?.hasNewer) return { ...fresh, events: held.events, eventsWindow: held.eventsWindow, lastPhaseStarted: held.lastPhaseStarted, actors: { ...held.actors, ...fresh.actors } };
  const first = fresh.events[0]?.seq ?? fresh.mission.seq + 1;
  const before = held.events.filter((e) => e.seq < first);
  const joins = before.length > 0 && before.at(-1)!.seq === first - 1;
  if (!joins) return fresh;
  return {
    ...fresh,
    events: [...before, ...fresh.events],
    eventsWindow: { hasOlder: held.eventsWindow?.hasOlder ?? false, hasNewer: false },
    lastPhaseStarted: held.eventsWindow?.hasOlder ? held.lastPhaseStarted : null,
    actors: { ...held.actors, ...fresh.actors },
  };
}
