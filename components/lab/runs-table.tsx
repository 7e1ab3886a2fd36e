"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { LabSuiteRunSummary } from "@/db/queries/lab";
import { fetchLabRuns } from "../api-client";
import { queryKeys } from "../query-keys";
import { DataTable, rowHeaderColumn, type DataColumn } from "../ui/data-table";
import { RelativeTime } from "../ui/relative-time";
import * as ui from "@/components/ui/styles";
import { pct, rateText } from "./format";
import { RunsTrendChart } from "./lab-charts";

/** While a suite run is recording, the list asks again this often (its progress is in the database). */
const LIVE_MS = 2000;

export function LabStatusBadge({ run }: { run: Pick<LabSuiteRunSummary, "status" | "done" | "total"> }) {
  if (run.status === "running")
    return (
      <span className={ui.badge("running")} data-testid="lab-run-status" data-status="running">
        Running {run.done}/{run.total}
      </span>
    );
  return (
    <span className={ui.badge(run.status === "finished" ? "success" : "failed")} data-testid="lab-run-status" data-status={run.status}>
      {run.status === "finished" ? "Finished" : "Stopped"}
    </span>
  );
}

/** Recorded suite runs, newest first, with their key metrics; live while one is still recording. */
export function LabRunsView({ initial }: { initial: LabSuiteRunSummary[] }) {
  const { data: runs = initial } = useQuery({
    queryKey: queryKeys.lab.runs(),
    queryFn: fetchLabRuns,
    initialData: initial,
    refetchInterval: (q) => ((q.state.data ?? initial).some((r) => r.status === "running") ? LIVE_MS : false),
  });
  const columns = useMemo<DataColumn<LabSuiteRunSummary>[]>(
    () => [
      rowHeaderColumn({ id: "suite", header: "Suite", sortValue: (r) => r.suiteName, name: (r) => <span data-testid="lab-run-suite">{r.suiteName}</span>, detail: (r) => r.suiteFile }),
      { id: "seed", header: "Seed", numeric: true, sortValue: (r) => r.seed, cell: (r) => r.seed },
      { id: "repeat", header: "Repeats", numeric: true, sortValue: (r) => r.repeat, cell: (r) => r.repeat },
      { id: "status", header: "Status", sortValue: (r) => r.status, cell: (r) => <LabStatusBadge run={r} /> },
      { id: "when", header: "When", sortValue: (r) => Date.parse(r.startedAt), sortDescFirst: true, cell: (r) => <RelativeTime iso={new Date(r.startedAt).toISOString()} /> },
      { id: "passed", header: "Passed", numeric: true, sortValue: (r) => (r.done ? r.passed / r.done : null), cell: (r) => `${r.passed}/${r.done}` },
      { id: "recovery", header: "Recovery", numeric: true, sortValue: (r) => r.metrics?.recoverySuccessRate.value, cell: (r) => <span title={rateText(r.metrics?.recoverySuccessRate)}>{pct(r.metrics?.recoverySuccessRate.value)}</span> },
      { id: "rootCause", header: "Root cause", numeric: true, sortValue: (r) => r.metrics?.rootCauseAccuracy.value, cell: (r) => <span title={rateText(r.metrics?.rootCauseAccuracy)}>{pct(r.metrics?.rootCauseAccuracy.value)}</span> },
      { id: "stuck", header: "Stuck loops", numeric: true, sortValue: (r) => r.metrics?.stuckLoopRate.value, cell: (r) => <span title={rateText(r.metrics?.stuckLoopRate)}>{pct(r.metrics?.stuckLoopRate.value)}</span> },
      { id: "hitl", header: "HITL", numeric: true, sortValue: (r) => r.metrics?.hitlRate.value, cell: (r) => <span title={rateText(r.metrics?.hitlRate)}>{pct(r.metrics?.hitlRate.value)}</span> },
    ],
    [],
  );
  return (
    <>
      <RunsTrendChart runs={runs} />
      <DataTable
        data={runs}
        columns={columns}
        rowKey={(r) => r.id}
        rowHref={(r) => `/lab/${r.id}`}
        rowAttrs={(r) => ({ "data-testid": "lab-run-row", "data-id": r.id, "data-status": r.status })}
        label="Lab suite runs"
        testId="lab-runs-table"
        urlKey="runs"
        emptyTestId="lab-runs-empty"
        empty={
          <>
            No suite run recorded yet. Run one from a terminal: <code>npx faultline lab run lab/default.yaml --seed 1 --repeat 3</code>; it is recorded here as it goes.
          </>
        }
      />
    </>
  );
}
