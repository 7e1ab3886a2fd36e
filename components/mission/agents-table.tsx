"use client";

import type { AgentState, MissionState } from "@/lib/mission/types";
import { DataTable, type DataColumn } from "../ui/data-table";
import * as ui from "@/components/ui/styles";

const STATUS: Record<string, { icon: string; tone: ui.Tone }> = {
  pending: { icon: "○", tone: "queued" },
  running: { icon: "▶", tone: "running" },
  completed: { icon: "✓", tone: "success" },
  failed: { icon: "✕", tone: "failed" },
  skipped: { icon: "↷", tone: "partial" },
};

/** An agent's priority in words and colour (critical stands out, optional recedes). */
const PRIORITY: Record<string, string> = { critical: "text-failed", important: "text-partial", optional: "text-muted" };

const ERROR_CODE = "font-semibold text-failed";

type Row = AgentState & { name: string };

const COLUMNS: DataColumn<Row>[] = [
  { id: "agent", header: "Agent", rowHeader: true, alwaysVisible: true, cell: (a) => a.name },
  { id: "phase", header: "Phase", className: "capitalize whitespace-nowrap", cell: (a) => a.phase.replaceAll("_", " ").toLowerCase() },
  { id: "priority", header: "Priority", cell: (a) => <span className={`text-[12px] font-semibold ${PRIORITY[a.priority] ?? ""}`}>{a.priority}</span> },
  {
    id: "status",
    header: "Status",
    cell: (a) => {
      const st = STATUS[a.status] ?? { icon: "?", tone: "neutral" };
      return (
        <span className={ui.badge(st.tone)}>
          <span className="text-[11px]" aria-hidden="true">
            {st.icon}
          </span>
          {a.status}
          {a.tolerated ? " (tolerated)" : ""}
        </span>
      );
    },
  },
  { id: "attempt", header: "Attempt", numeric: true, cell: (a) => a.attempt },
  {
    id: "error",
    header: "Last error",
    className: "max-w-[420px]",
    cell: (a) => {
      const lastStepError = [...a.steps].reverse().find((s) => s.error)?.error;
      return a.error ? (
        <>
          <code className={ERROR_CODE}>{a.error.context.toolError.code}</code> {a.error.message}
        </>
      ) : lastStepError ? (
        <>
          <code className={ERROR_CODE}>{lastStepError.code}</code> {lastStepError.message}
        </>
      ) : (
        <span className="text-muted">—</span>
      );
    },
  },
];

/** The mission's agents in execution order: phase, priority, status, attempt and the last error. */
export function AgentsTable({ mission }: { mission: MissionState }) {
  const rows = mission.agentOrder.map((name) => ({ ...mission.agents[name], name }));
  return <DataTable data={rows} columns={COLUMNS} rowKey={(a) => a.name} label="Agents in execution order" testId="agents-table" rowAttrs={(a) => ({ "data-testid": `agent-row-${a.name}` })} urlKey={null} columnMenu={false} />;
}
