import type { Executor } from "@/db/client";
import { lastPhaseStarted, listAllEvents, listEventPage } from "@/db/queries/event-pages";
import { listOpenGates } from "@/db/queries/gates";
import { getMissionById, listMissions, type MissionSummary } from "@/db/queries/missions";
import { getActorNames } from "@/db/queries/views";
import { gateViewFromRow, type GateView } from "@/lib/views/gate-view";
import type { MissionEvent } from "@/lib/mission/events";
import type { HITLPrompt } from "@/lib/authority/types";
import { gatePrompt } from "@/lib/views/state-render";
import { toMissionDetail, type MissionDetail } from "@/lib/views/mission-detail";
import { stateView } from "@/lib/views/state-view";
import { listCounterfactualChecksByMission } from "@/db/queries/counterfactual-checks";

/** Read models shared by pages (initial data) and GET route handlers (react-query refetches). */

export type MissionListItem = Omit<MissionSummary, "createdAt" | "startedAt" | "endedAt"> & { createdAt: string; startedAt: string | null; endedAt: string | null };

const iso = (v: string | null): string | null => (v ? new Date(v).toISOString() : null);

export async function loadMissionList(db: Executor): Promise<MissionListItem[]> {
  const rows = await listMissions(db);
  return rows.map((r) => ({ ...r, createdAt: iso(r.createdAt)!, startedAt: iso(r.startedAt), endedAt: iso(r.endedAt) }));
}


/**
 * The mission with its events: all of them and the whole state, or (`window`, the mission page's shape)
 * only a window of events — the newest `limit`, or those around `around` — with `eventsWindow` saying
 * whether more lie before or after it, and the state's view (stateView: each agent's older succeeded
 * steps left out), so what the page receives does not grow with the mission.
 */
export async function loadMissionDetail(db: Executor, id: string, opts: { window?: { limit: number; around?: number } } = {}): Promise<MissionDetail | null> {
  const row = await getMissionById(db, id);
  if (!row) return null;
  // Events and state from one snapshot: events up to the state's seq only.
  const upTo = row.state.seq;
  let events: MissionEvent[];
  let extra: Pick<MissionDetail, "eventsWindow" | "lastPhaseStarted"> = {};
  if (opts.window) {
    const around = opts.window.around !== undefined && opts.window.around <= upTo ? opts.window.around : undefined;
    const page = await listEventPage(db, { missionId: id, limit: opts.window.limit, around, upTo });
    events = page.events;
    extra = { eventsWindow: { hasOlder: page.hasOlder, hasNewer: page.hasNewer }, lastPhaseStarted: page.hasOlder ? await lastPhaseStarted(db, id, events[0]?.seq) : null };
  } else events = await listAllEvents(db, id, upTo);
  const actors = await getActorNames(db, events.map((e) => e.actorId).concat(row.state.gates.flatMap((g) => (g.decidedBy ? [g.decidedBy] : []))));
  const counterfactualChecks = await listCounterfactualChecksByMission(db, id);
  return { ...toMissionDetail(opts.window ? stateView(row.state) : row.state, events, actors), ...extra, ...(counterfactualChecks.length ? { counterfactualChecks } : {}) };
}

export async function loadOpenGates(db: Executor): Promise<GateView[]> {
  const rows = await listOpenGates(db);
  // Approvers' names for the gate policies' words.
  const names = await getActorNames(db, rows.flatMap((r) => (r.gate.approvals ?? []).map((a) => a.actorId)));
  // Every open gate's HITL prompt (FDR-N017), from the mission's state: a proposal's as recorded, a failure gate's rendered.
  const prompts = new Map<string, HITLPrompt | null>();
  for (const r of rows) {
    const m = await getMissionById(db, r.gate.missionId);
    const g = m?.state.gates.find((x) => x.id === r.gate.id);
    prompts.set(r.gate.id, m && g ? gatePrompt(m.state, g) : null);
  }
  return rows.map((r) => gateViewFromRow({ ...r, prompt: prompts.get(r.gate.id) ?? null }, names));
}
