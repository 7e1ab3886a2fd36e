"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { EVENT_WINDOW, mergeRefetchedDetail, type MissionDetail } from "@/lib/views/mission-detail";
import { fetchMission } from "../api-client";
import { GatePanel } from "../gates/gate-panel";
import type { Decider } from "@/lib/mission/gate-policy";
import { queryKeys } from "../query-keys";
import { useMissionEvents } from "../realtime/use-mission-events";
import { Breadcrumb } from "../ui/breadcrumb";
import { Facts } from "../ui/facts";
import { RelativeTime } from "../ui/relative-time";
import { FinalStatusBadge, ProgressBar, RunStateBadge } from "../ui/status";
import { AgentsTable } from "./agents-table";
import { MissionControls } from "./mission-controls";
import { PhaseBar } from "./phase-bar";
import { actorLabel, Timeline } from "./timeline";
import { progress } from "@/lib/mission/reducer";
import { FailureExplanation } from "../proposals/failure-explanation";
import { ProposalsPanel } from "../proposals/proposals-panel";
import * as ui from "@/components/ui/styles";
import { domainFor } from "@/lib/lab/domains";
import { DebugPanel, ModeSwitch, ModelCalls, SnapshotView, useProjectionMode } from "./projection";

/**
 * The mission page: header, phases, agents, the open gate and the full event log, all live — shown as the
 * projection mode in the address says (seed 002 FDR-N012, ./projection.tsx): silent hides the live run,
 * watch shows gates view only, interactive (the default) decides, debug adds the state at a seq.
 */
export function MissionView({ initial, canDecide, canControl, viewer = null, highlightSeq, canViewHistory, canExportTrace }: { initial: MissionDetail; canDecide: boolean; canControl: boolean; viewer?: Decider | null; highlightSeq?: number; canViewHistory?: boolean; canExportTrace?: boolean }) {
  const id = initial.mission.id;
  const queryClient = useQueryClient();
  const { data = initial, error } = useQuery({
    queryKey: queryKeys.missions.detail(id),
    // The newest window of the log, laid over what the page holds (never back in the log, never fewer events).
    queryFn: async () => {
      const fresh = await fetchMission(id, EVENT_WINDOW);
      // What is held once the answer is in: live events may have moved the page on while it was asked.
      return mergeRefetchedDetail(queryClient.getQueryData<MissionDetail>(queryKeys.missions.detail(id)), fresh);
    },
    initialData: initial,
  });
  useMissionEvents(id);
  const m = data.mission;
  // Debug shows what a trace holds: the same permission as the trace's download (the server checks again).
  const canDebug = Boolean(canExportTrace);
  const projection = useProjectionMode(canDebug);
  const { mode, capabilities: cap } = projection;
  const domain = domainFor(m.definition);
  // The table's snapshots: always in debug, in interactive when the mission's domain draws one ("optional").
  const showSnapshot = cap.snapshots === "full" || (cap.snapshots === "optional" && Boolean(domain?.components.renderSnapshot));
  const lastResolved = [...m.gates].reverse().find((g) => g.status === "resolved");

  return (
    <div className="grid gap-4">
      <Breadcrumb trail={[{ href: "/missions", label: "Missions" }]}>{m.name}</Breadcrumb>

      <header className={ui.cx(ui.card, "grid gap-2.5 px-[18px] py-4")}>
        <div className="flex flex-wrap items-center gap-2.5">
          <h1 className="text-xl font-[650]">{m.name}</h1>
          <RunStateBadge runState={m.runState} />
          {data.finalStatus ? <FinalStatusBadge status={data.finalStatus} large /> : null}
        </div>
        <ModeSwitch mode={mode} onChange={projection.setMode} canDebug={canDebug} />
        {projection.notice ? (
          <p className={ui.banner.warning} role="status" data-testid="mode-notice">
            {projection.notice}
          </p>
        ) : null}
        <p className="m-0">
          <strong>Objective: </strong>
          {m.definition.objective}
        </p>
        {data.explanation ? (
          <p className={ui.explanation} data-testid="final-status-explanation">
            {data.explanation}
          </p>
        ) : null}
        <FailureExplanation mission={m} checks={data.counterfactualChecks} />
        <Facts
          facts={[
            ...(cap.progress ? [{ label: "Progress", value: <ProgressBar value={progress(m)} label={`Progress of ${m.name}`} /> }] : []),
            { label: "Created", value: <RelativeTime iso={m.createdAt} /> },
            { label: "Started", value: <RelativeTime iso={m.startedAt} empty="not started" /> },
            { label: "Ended", value: <RelativeTime iso={m.endedAt} /> },
            ...(cap.progress ? [{ label: "Warnings", value: m.warnings }, { label: "Events", value: m.seq }] : []),
          ]}
        />
        {cap.progress ? <PhaseBar mission={m} events={data.events} lastStarted={data.lastPhaseStarted} /> : null}
        <MissionControls mission={m} canControl={canControl} />
      </header>

      {error ? (
        <p className={ui.result.error} role="alert">
          Could not refresh this mission: {error.message}
        </p>
      ) : null}

      {!cap.progress ? (
        <p className={ui.notice} data-testid="silent-notice">
          Silent: the run is not shown while it goes on — no progress, proposals, gates, snapshots or model calls. {data.finalStatus ? "It has ended; its final state is above." : "Its final state appears here when it ends."} Choose Watch to follow it.
        </p>
      ) : null}

      {cap.hitl === "none" ? null : data.openGates.length > 0 ? (
        <section id="gate" aria-label="Open gate" className="grid gap-2">
          <h2 className="text-[15px] font-[650]">Decision needed</h2>
          {data.openGates.map((g) => (
            <GatePanel key={g.id} gate={g} canDecide={canDecide} viewer={viewer} viewOnly={cap.hitl === "view" ? "Watch shows gates view only: choose Interactive (or Debug) to decide." : undefined} />
          ))}
        </section>
      ) : lastResolved ? (
        <p className={ui.result.ok} data-testid="last-decision">
          <span aria-hidden="true">✓ </span>
          Last gate (“{lastResolved.agent}”) was resolved: <strong>{lastResolved.decision}</strong> by {actorLabel(lastResolved.decidedBy ?? "", data.actors)} <RelativeTime iso={lastResolved.decidedAt} />
          {lastResolved.note ? <> — “{lastResolved.note}”</> : null}.
        </p>
      ) : null}

      {mode === "debug" && m.seq > 0 ? <DebugPanel missionId={id} lastSeq={m.seq} at={projection.at} onAt={projection.setAt} domain={domain} /> : null}

      {showSnapshot ? (
        <section aria-labelledby="snapshot-title" className="grid gap-2" data-testid="snapshot-section">
          <h2 id="snapshot-title" className="text-[15px] font-[650]">
            {domain ? `Board (${domain.name})` : "State snapshot"} <span className="text-muted">(seq {m.seq})</span>
          </h2>
          <div className={ui.cx(ui.card, "px-4 py-3")}>
            <SnapshotView state={m} domain={domain} seq={m.seq} />
          </div>
        </section>
      ) : null}

      {cap.progress ? (
        <section aria-labelledby="agents-title" className="grid gap-2">
          <h2 id="agents-title" className="text-[15px] font-[650]">
            Agents
          </h2>
          <AgentsTable mission={m} />
        </section>
      ) : null}

      {cap.proposals ? <ProposalsPanel proposals={m.proposals ?? []} actors={data.actors} checks={data.counterfactualChecks} /> : null}

      {cap.llmCalls !== "none" ? <ModelCalls missionId={id} mode={mode} lastSeq={m.seq} onShowSeq={mode === "debug" ? projection.setAt : undefined} /> : null}

      {!cap.progress ? null : (
        <section aria-labelledby="timeline-title" className="grid gap-2">
          <h2 id="timeline-title" className="text-[15px] font-[650]">
            Timeline <span className="text-muted">({m.seq.toLocaleString("en-US")} events)</span>
          </h2>
          {canViewHistory || canExportTrace ? (
            <p className="flex flex-wrap gap-4 text-sm">
              {canViewHistory ? (
                <Link className="text-link underline underline-offset-2" href={`/history?mission=${id}&sort=time&dir=asc`} data-testid="mission-failures-link">
                  All failures for this mission
                </Link>
              ) : null}
              {canExportTrace ? (
                // FDR-N004: the whole log with the worker's readings, for `faultline trace verify` and `faultline lab replay`.
                <a className="text-link underline underline-offset-2" href={`/api/v1/missions/${id}/trace`} download={`mission-${id}.trace.jsonl`} data-testid="mission-trace-link">
                  Download trace
                </a>
              ) : null}
            </p>
          ) : null}
          {/* Keyed by where the window starts: a refetched window that does not join what was held opens a new timeline. */}
          <Timeline key={`${id}:${data.events[0]?.seq ?? 0}`} missionId={id} total={m.seq} events={data.events} eventsWindow={data.eventsWindow} actors={data.actors} highlightSeq={highlightSeq} agents={m.definition.phases.flatMap((p) => p.agents.map((a) => a.name))} />
        </section>
      )}
    </div>
  );
}
