"use client";

import { Area, AreaChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { Figure } from "../charts/figure";
import { AXIS, GRID, seriesColour, TOOLTIP } from "../charts/theme";
import type { GrowthPoint } from "@/lib/library/growth";

export function LibraryGrowthChart({ points }: { points: GrowthPoint[] }) {
  return (
    <Figure
      id="chart-library-growth"
      title="Library growth: entries in force after each version"
      summary={points.map((p) => `version ${p.version} (${p.date}): ${p.active} entries, +${p.added} −${p.deprecated}`).join("; ")}
      numbers={{
        columns: ["Version", "Date (UTC)", { label: "Added or restored", numeric: true }, { label: "Deprecated", numeric: true }, { label: "In force", numeric: true }],
        rows: points.map((p) => ({ key: String(p.version), cells: [p.version, p.date, p.added, p.deprecated, p.active] })),
      }}
    >
      <div aria-hidden="true">
        <AreaChart responsive accessibilityLayer={false} style={{ width: "100%", height: 160 }} data={points} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid {...GRID} />
          <XAxis dataKey="version" {...AXIS} tickFormatter={(v: number) => `v${v}`} />
          <YAxis allowDecimals={false} {...AXIS} />
          <Tooltip {...TOOLTIP} labelFormatter={(v) => `Version ${v}`} />
          <Area type="stepAfter" dataKey="active" name="entries in force" stroke={seriesColour(0)} fill={seriesColour(0)} fillOpacity={0.2} isAnimationActive={false} />
        </AreaChart>
      </div>
    </Figure>
  );
}
