"use client";

import * as ui from "@/components/ui/styles";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { FinalStatus, RunState } from "@/lib/mission/types";
import type { MissionListItem } from "@/server/read-models";
import { fetchMissions } from "../api-client";
import { queryKeys } from "../query-keys";
import { DataTable, type DataColumn } from "../ui/data-table";
import { RelativeTime } from "../ui/relative-time";
import { MissionStatus, ProgressBar } from "../ui/status";

const phaseLabel = (p: string) => p.replaceAll("_", " ").toLowerCase();
const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) : null);

const COLUMNS: DataColumn<MissionListItem>[] = [
  { id: "name", header: "Mission", rowHeader: true, alwaysVisible: true, sortValue: (m) => m.name, cell: (m) => m.name },
  { id: "phase", header: "Phase", className: "capitalize whitespace-nowrap", sortValue: (m) => phaseLabel(m.phase), cell: (m) => phaseLabel(m.phase) },
  { id: "status", header: "Status", sortValue: (m) => m.finalStatus ?? m.runState, cell: (m) => <MissionStatus runState={m.runState as RunState} finalStatus={m.finalStatus as FinalStatus | null} /> },
  { id: "progress", header: "Progress", headerClassName: "w-[18%]", sortValue: (m) => m.progress, cell: (m) => <ProgressBar value={m.progress} label={`Progress of ${m.name}`} /> },
  {
    id: "gates",
    header: "Open gates",
    numeric: true,
    sortValue: (m) => m.openGates,
    cell: (m) =>
      m.openGates > 0 ? (
        <Link href={`/missions/${m.id}#gate`} className={ui.countPill(true)} aria-label={`${m.openGates} open gate${m.openGates === 1 ? "" : "s"}`}>
          {m.openGates}
        </Link>
      ) : (
        <span className="text-muted">0</span>
      ),
  },
  { id: "started", header: "Started", sortValue: (m) => time(m.startedAt), cell: (m) => <RelativeTime iso={m.startedAt} empty="not started" /> },
  { id: "ended", header: "Ended", sortValue: (m) => time(m.endedAt), cell: (m) => <RelativeTime iso={m.endedAt} /> },
];

/** All missions, newest first (or as sorted: the order and hidden columns are in the URL), refreshed live through missions:changed. */
export function MissionsTable({ initialMissions }: { initialMissions: MissionListItem[] }) {
  const { data: missions = initialMissions, error } = useQuery({ queryKey: queryKeys.missions.list(), queryFn: fetchMissions, initialData: initialMissions });
  return (
    <DataTable
      data={missions}
      columns={COLUMNS}
      rowHref={(m) => `/missions/${m.id}`}
      rowAttrs={(m) => ({ "data-testid": `mission-row-${m.name}`, "data-mission-id": m.id })}
      label="Missions, newest first"
      testId="missions-table"
      emptyTestId="missions-empty"
      empty={
        <>
          <strong>No missions yet.</strong> Create one with “New mission”, or run <code>npx faultline mission run &lt;file&gt;</code>.
        </>
      }
      error={error ? `Could not refresh the list: ${error.message}` : undefined}
    />
  );
}
