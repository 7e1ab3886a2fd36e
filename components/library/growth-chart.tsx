"use client";

import { Area, AreaChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { Figure } from "../charts/figure";
import { AXIS, GRID, seriesColour, TOOLTIP } from "../charts/theme";
import type { GrowthPoint } from "@/lib/library/growth";
import * as ui from "@/components/ui/styles";

export function LibraryGrowthChart({ points }: { points: GrowthPoint[] }) {
  return (
    <Figure
      id="chart-library-growth"
      title="Library growth: entries in force after each version"
      summary={points.map((p) => `version ${p.version} (${p.date}): ${p.active} entries, +${p.added} −${p.deprecated}`).join("; ")}
      table={
        <table className={ui.table("sm")}>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Date (UTC)</th>
              <th scope="col" className="text-right tabular-nums">Added or restored</th>
              <th scope="col" className="text-right tabular-nums">Deprecated</th>
              <th scope="col" className="text-right tabular-nums">In force</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.version}>
                <th scope="row">{p.version}</th>
                <td>{p.date}</td>
                <td className="text-right tabular-nums">{p.added}</td>
                <td className="text-right tabular-nums">{p.deprecated}</td>
                <td className="text-right tabular-nums">{p.active}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
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
