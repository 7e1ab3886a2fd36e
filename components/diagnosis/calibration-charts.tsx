"use client";

import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import type { ReliabilityBin } from "@/lib/diagnosis/calibration";
import { Figure } from "../charts/figure";
import { AXIS, GRID, seriesColour, TOOLTIP } from "../charts/theme";

const pct = (v: number | null) => (v === null ? "—" : `${Math.round(v * 100)}%`);

export interface ReliabilitySeries {
  name: string;
  bins: ReliabilityBin[];
  cases: number;
  ece: number | null;
}

const DIAGNOSIS_TITLE = "Is the diagnosis as sure as it says? Stated confidence (across) against observed accuracy (up); the dashed diagonal is a perfect match";

/**
 * Reliability diagram: for each band of stated confidence, how often the statement was right. On the
 * diagonal, a confidence means what it says; below it the statement is overconfident. By default it is
 * the diagnosis' chart; the library's match scores use it with their own id and title.
 */
export function ReliabilityChart({ series, id = "chart-reliability", title = DIAGNOSIS_TITLE, empty = "No labelled cases and no operator verdicts yet." }: { series: ReliabilitySeries[]; id?: string; title?: string; empty?: string }) {
  const points = (s: ReliabilitySeries) => s.bins.filter((b) => b.count > 0).map((b) => ({ confidence: b.meanConfidence, [s.name]: b.accuracy }));
  const data = series.flatMap(points).sort((a, b) => (a.confidence ?? 0) - (b.confidence ?? 0));
  const summary = series.map((s) => `${s.name}: ${s.cases} cases, expected calibration error ${s.ece === null ? "—" : s.ece.toFixed(3)}; ${s.bins.filter((b) => b.count).map((b) => `stated ${pct(b.meanConfidence)} right ${pct(b.accuracy)} (${b.count})`).join(", ")}`).join(". ");
  return (
    <Figure
      id={id}
      title={title}
      summary={summary || "no cases yet"}
      numbers={{
        columns: ["Cases", "Confidence band", { label: "Count", numeric: true }, { label: "Mean stated", numeric: true }, { label: "Observed accuracy", numeric: true }],
        rows: series.flatMap((s) => s.bins.filter((b) => b.count > 0).map((b) => ({ key: `${s.name}-${b.from}`, cells: [s.name, `${pct(b.from)}–${pct(b.to)}`, b.count, pct(b.meanConfidence), pct(b.accuracy)] }))),
      }}
    >
      {data.length === 0 ? (
        <p className="text-muted">{empty}</p>
      ) : (
        <div aria-hidden="true">
          <LineChart responsive accessibilityLayer={false} style={{ width: "100%", height: 260 }} data={data} margin={{ top: 8, right: 16, bottom: 8, left: -8 }}>
            <CartesianGrid {...GRID} vertical />
            <XAxis type="number" dataKey="confidence" domain={[0, 1]} ticks={[0, 0.2, 0.4, 0.6, 0.8, 1]} tickFormatter={(v: number) => pct(v)} {...AXIS} />
            <YAxis type="number" domain={[0, 1]} ticks={[0, 0.2, 0.4, 0.6, 0.8, 1]} tickFormatter={(v: number) => pct(v)} {...AXIS} />
            <Tooltip {...TOOLTIP} formatter={(v) => pct(Number(v))} labelFormatter={(v) => `stated ${pct(Number(v))}`} />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            <ReferenceLine segment={[{ x: 0, y: 0 }, { x: 1, y: 1 }]} stroke="var(--border-strong)" strokeDasharray="4 4" ifOverflow="extendDomain" />
            {series.map((s, i) => (
              <Line key={s.name} type="monotone" dataKey={s.name} stroke={seriesColour(i)} strokeWidth={2} dot={{ r: 3 }} connectNulls isAnimationActive={false} />
            ))}
          </LineChart>
        </div>
      )}
    </Figure>
  );
}

/** Share of diagnoses operators confirmed, per day of their verdict. */
export function AccuracyOverTime({ byDay }: { byDay: Array<{ day: string; confirmed: number; corrected: number; accuracy: number | null }> }) {
  const judged = byDay.filter((d) => d.confirmed + d.corrected > 0);
  return (
    <Figure
      id="chart-accuracy"
      title="Diagnosis accuracy over time (operators' verdicts, per day)"
      summary={judged.length ? judged.map((d) => `${d.day}: ${pct(d.accuracy)} of ${d.confirmed + d.corrected}`).join("; ") : "no verdicts in this period"}
      numbers={{
        columns: ["Day (UTC)", { label: "Confirmed", numeric: true }, { label: "Corrected", numeric: true }, { label: "Accuracy", numeric: true }],
        rows: judged.map((d) => ({ key: d.day, cells: [d.day, d.confirmed, d.corrected, pct(d.accuracy)] })),
      }}
    >
      {judged.length === 0 ? (
        <p className="text-muted">No operator has confirmed or corrected a diagnosis in this period. Gates ask “Is this diagnosis right?”.</p>
      ) : (
        <div aria-hidden="true">
          <LineChart responsive accessibilityLayer={false} style={{ width: "100%", height: 200 }} data={byDay} margin={{ top: 8, right: 16, bottom: 0, left: -8 }}>
            <CartesianGrid {...GRID} />
            <XAxis dataKey="day" {...AXIS} minTickGap={24} />
            <YAxis domain={[0, 1]} tickFormatter={(v: number) => pct(v)} {...AXIS} />
            <Tooltip {...TOOLTIP} formatter={(v) => pct(Number(v))} />
            <Line type="monotone" dataKey="accuracy" name="accuracy" stroke={seriesColour(2)} strokeWidth={2} dot={{ r: 3 }} connectNulls isAnimationActive={false} />
          </LineChart>
        </div>
      )}
    </Figure>
  );
}
