"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { FinalStatus, RunState } from "@/lib/mission/types";
import type { MissionListItem } from "@/server/read-models";
import { fetchMissions } from "../api-client";
import { queryKeys } from "../query-keys";
import { RelativeTime } from "../ui/relative-time";
import { MissionStatus, ProgressBar } from "../ui/status";

const phaseLabel = (p: string) => p.replaceAll("_", " ").toLowerCase();

/** All missions, newest first, refreshed live through missions:changed. */
export function MissionsTable({ initialMissions }: { initialMissions: MissionListItem[] }) {
  const { data: missions = initialMissions, error } = useQuery({ queryKey: queryKeys.missions.list(), queryFn: fetchMissions, initialData: initialMissions });

  if (missions.length === 0) {
    return (
      <div className="empty">
        <p>
          <strong>No missions yet.</strong> Create one with “New mission”, or run <code>npx faultline mission run &lt;file&gt;</code>.
        </p>
      </div>
    );
  }
  return (
    <>
      {error ? (
        <p className="result result-error" role="alert">
          Could not refresh the list: {error.message}
        </p>
      ) : null}
      <div className="table-wrap">
        <table className="table" data-testid="missions-table">
          <caption className="sr-only">Missions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Mission</th>
              <th scope="col">Phase</th>
              <th scope="col">Status</th>
              <th scope="col" className="col-progress">
                Progress
              </th>
              <th scope="col" className="num">
                Open gates
              </th>
              <th scope="col">Started</th>
              <th scope="col">Ended</th>
            </tr>
          </thead>
          <tbody>
            {missions.map((m) => (
              <tr key={m.id} data-testid={`mission-row-${m.name}`} data-mission-id={m.id}>
                <th scope="row">
                  <Link href={`/missions/${m.id}`} className="link strong">
                    {m.name}
                  </Link>
                </th>
                <td className="phase-cell">{phaseLabel(m.phase)}</td>
                <td>
                  <MissionStatus runState={m.runState as RunState} finalStatus={m.finalStatus as FinalStatus | null} />
                </td>
                <td>
                  <ProgressBar value={m.progress} label={`Progress of ${m.name}`} />
                </td>
                <td className="num">
                  {m.openGates > 0 ? (
                    <Link href={`/missions/${m.id}#gate`} className="count-pill tone-paused" aria-label={`${m.openGates} open gate${m.openGates === 1 ? "" : "s"}`}>
                      {m.openGates}
                    </Link>
                  ) : (
                    <span className="muted">0</span>
                  )}
                </td>
                <td>
                  <RelativeTime iso={m.startedAt} empty="not started" />
                </td>
                <td>
                  <RelativeTime iso={m.endedAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
