"use client";

import { useMemo } from "react";
import type { ScenarioReport } from "@/lib/lab/report";
import { DataTable, rowHeaderColumn, type DataColumn } from "../ui/data-table";
import * as ui from "@/components/ui/styles";
import { pct } from "./format";

/**
 * One scenario of a suite run as the detail page shows it: the report's own fields of the scenario (the
 * same for a run still recording, listed from its traces), pass^1 and pass^k, and each run with its trace
 * download (`trace` null: not recorded).
 */
export interface ScenarioRowView extends Pick<ScenarioReport, "name" | "description" | "faults" | "expect" | "runs" | "passed"> {
  pass1: number;
  passK: number;
  results: Array<{ repeat: number; passed: boolean; finalStatus: string | null; why: string | null; trace: { href: string; sha256: string; bytes: number } | null }>;
}

const STATUS_TONE: Record<string, string> = { SUCCESS: "success", PARTIAL_SUCCESS: "partial", FAILED: "failed" };

/** The suite run's scenarios: what was injected, what was expected, how many runs passed, pass^k, and each run's trace. */
export function ScenariosTable({ scenarios, repeat }: { scenarios: ScenarioRowView[]; repeat: number }) {
  const columns = useMemo<DataColumn<ScenarioRowView>[]>(
    () => [
      rowHeaderColumn({ id: "scenario", header: "Scenario", sortValue: (s) => s.name, name: (s) => s.name, detail: (s) => s.description }),
      { id: "faults", header: "Injected", sortValue: (s) => s.faults.join(", "), cell: (s) => (s.faults.length ? s.faults.join(", ") : <span className="text-muted">nothing</span>) },
      { id: "expect", header: "Expected", sortValue: (s) => s.expect, cell: (s) => s.expect },
      { id: "passed", header: "Passed", numeric: true, sortValue: (s) => s.passed / Math.max(1, s.runs), cell: (s) => `${s.passed}/${s.runs}` },
      { id: "pass1", header: "pass^1", numeric: true, sortValue: (s) => s.pass1, cell: (s) => pct(s.pass1) },
      { id: "passK", header: `pass^${repeat}`, numeric: true, sortValue: (s) => s.passK, cell: (s) => pct(s.passK) },
      {
        id: "traces",
        header: "Runs and traces",
        alwaysVisible: true,
        cell: (s) => (
          <ul className="m-0 flex list-none flex-wrap gap-1.5 p-0">
            {s.results.map((r) => (
              <li key={r.repeat} title={r.why ?? `ended ${r.finalStatus ?? "without a final status"} as expected`}>
                <span className={ui.badge(STATUS_TONE[r.finalStatus ?? ""] ?? "neutral")}>
                  #{r.repeat} {r.passed ? "✓" : "✕"} {r.finalStatus ? r.finalStatus.replace("_", " ").toLowerCase() : "no status"}
                </span>{" "}
                {r.trace ? (
                  <a href={r.trace.href} download data-testid="lab-trace-link" data-sha256={r.trace.sha256} aria-label={`Download the trace of ${s.name}, repeat ${r.repeat} (${Math.ceil(r.trace.bytes / 1024)} KB)`}>
                    trace
                  </a>
                ) : (
                  <span className="text-muted text-sm">no trace</span>
                )}
              </li>
            ))}
          </ul>
        ),
      },
    ],
    [repeat],
  );
  return (
    <DataTable
      data={scenarios}
      columns={columns}
      rowKey={(s) => s.name}
      rowAttrs={(s) => ({ "data-testid": "lab-scenario-row", "data-scenario": s.name, "data-passed": String(s.passed) })}
      label="Scenarios"
      testId="lab-scenarios-table"
      urlKey="scenarios"
      empty="This suite run has no scenarios recorded yet."
    />
  );
}
