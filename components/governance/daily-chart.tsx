"use client";

import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import type { Measures } from "@/db/queries/governance";
import { formatDuration } from "@/lib/mission/gate-policy";
import { Figure } from "../charts/figure";
import { AXIS, GRID, TOOLTIP } from "../charts/theme";

const ms = (v: number) => (v < 1000 ? `${Math.round(v)} ms` : formatDuration(v));

/** Governance's per-day picture: missions started, failures recorded, missions ended FAILED. */
export function GovernanceDailyChart({ daily }: { daily: Measures["daily"] }) {
  return (
    <Figure
      id="chart-gov-daily"
      title={`Per day, last ${daily.length} days: missions started, failures recorded, missions ended FAILED`}
      summary={daily.map((d) => `${d.day} ${d.missions} missions, ${d.failures} failures, ${d.failed} failed`).join("; ")}
      numbers={{
        columns: ["Day (UTC)", { label: "Missions", numeric: true }, { label: "Failures", numeric: true }, { label: "Ended FAILED", numeric: true }],
        rows: daily.map((d) => ({ key: d.day, cells: [d.day, d.missions, d.failures, d.failed] })),
      }}
    >
      <div aria-hidden="true">
        <BarChart responsive accessibilityLayer={false} style={{ width: "100%", height: 180 }} data={daily} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid {...GRID} />
          <XAxis dataKey="day" {...AXIS} minTickGap={24} />
          <YAxis allowDecimals={false} {...AXIS} />
          <Tooltip {...TOOLTIP} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="missions" name="missions started" fill="var(--running)" maxBarSize={10} isAnimationActive={false} />
          <Bar dataKey="failures" name="failures recorded" fill="var(--partial)" maxBarSize={10} isAnimationActive={false} />
          <Bar dataKey="failed" name="ended FAILED" fill="var(--failed)" maxBarSize={10} isAnimationActive={false} />
        </BarChart>
      </div>
    </Figure>
  );
}

/** How long gates waited for a person: the median per day. */
export function DecisionTimeChart({ daily }: { daily: Measures["daily"] }) {
  const decided = daily.filter((d) => d.decisionP50Ms !== null);
  return (
    <Figure
      id="chart-decision-time"
      title="Gate decision time (median per day)"
      summary={decided.length ? decided.map((d) => `${d.day} ${ms(d.decisionP50Ms!)}`).join("; ") : "no gate was decided in this period"}
      numbers={{ columns: ["Day (UTC)", { label: "Median time to decide", numeric: true }], rows: decided.map((d) => ({ key: d.day, cells: [d.day, ms(d.decisionP50Ms!)] })) }}
    >
      {decided.length === 0 ? (
        <p className="text-muted">No gate was decided in this period.</p>
      ) : (
        <div aria-hidden="true">
          <LineChart responsive accessibilityLayer={false} style={{ width: "100%", height: 180 }} data={daily} margin={{ top: 4, right: 8, bottom: 0, left: 8 }}>
            <CartesianGrid {...GRID} />
            <XAxis dataKey="day" {...AXIS} minTickGap={24} />
            <YAxis tickFormatter={(v: number) => ms(v)} {...AXIS} width={64} />
            <Tooltip {...TOOLTIP} formatter={(v) => ms(Number(v))} />
            <Line type="monotone" dataKey="decisionP50Ms" name="median time to decide" stroke="var(--hc-3)" strokeWidth={2} dot={{ r: 3 }} connectNulls isAnimationActive={false} />
          </LineChart>
        </div>
      )}
    </Figure>
  );
}
