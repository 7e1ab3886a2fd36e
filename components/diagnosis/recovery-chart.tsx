"use client";

import { Bar, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from "recharts";
import type { DiagnosticsRow } from "@/db/queries/diagnostics";
import { Figure } from "../charts/figure";
import { AXIS, GRID, TOOLTIP } from "../charts/theme";

const pct = (v: number | null) => (v === null ? "—" : `${Math.round(v * 100)}%`);

/** Per day: how diagnosed failures ended (recovered, recovery failed, needed a person), and the recovery rate. */
export function RecoveryPerDayChart({ byDay }: { byDay: DiagnosticsRow[] }) {
  const data = byDay.map((d) => {
    const ended = d.recovered + d.recoveryFailed;
    return { day: d.key, recovered: d.recovered, recoveryFailed: d.recoveryFailed, gates: d.gates, other: Math.max(0, d.diagnosed - d.recovered - d.recoveryFailed - d.gates), rate: ended ? d.recovered / ended : null };
  });
  return (
    <Figure
      id="chart-recovery-per-day"
      title="Diagnosed failures per day by how they went on, and the recovery success rate"
      summary={data.map((d) => `${d.day}: ${d.recovered} recovered, ${d.recoveryFailed} recovery failed, ${d.gates} needed a person, recovery rate ${pct(d.rate)}`).join("; ")}
      table={<p className="text-muted text-sm">The table below has the numbers per day.</p>}
    >
      <div aria-hidden="true">
        <ComposedChart responsive accessibilityLayer={false} style={{ width: "100%", height: 220 }} data={data} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid {...GRID} />
          <XAxis dataKey="day" {...AXIS} minTickGap={24} />
          <YAxis yAxisId="n" allowDecimals={false} {...AXIS} />
          <YAxis yAxisId="rate" orientation="right" domain={[0, 1]} tickFormatter={(v: number) => pct(v)} {...AXIS} width={44} />
          <Tooltip {...TOOLTIP} formatter={(v, name) => (name === "recovery success rate" ? pct(Number(v)) : v)} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar yAxisId="n" dataKey="recovered" name="recovered" stackId="d" fill="var(--success)" maxBarSize={24} isAnimationActive={false} />
          <Bar yAxisId="n" dataKey="recoveryFailed" name="recovery failed" stackId="d" fill="var(--partial)" maxBarSize={24} isAnimationActive={false} />
          <Bar yAxisId="n" dataKey="gates" name="needed a person" stackId="d" fill="var(--failed)" maxBarSize={24} isAnimationActive={false} />
          <Bar yAxisId="n" dataKey="other" name="other" stackId="d" fill="var(--neutral)" maxBarSize={24} isAnimationActive={false} />
          <Line yAxisId="rate" type="monotone" dataKey="rate" name="recovery success rate" stroke="var(--running)" strokeWidth={2} dot={{ r: 3 }} connectNulls isAnimationActive={false} />
        </ComposedChart>
      </div>
    </Figure>
  );
}
