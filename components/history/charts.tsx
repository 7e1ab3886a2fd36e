"use client";

import { Bar as BarShape, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import type { HistoryStats } from "@/db/queries/failure-history";
import { OUTCOME_LABELS } from "@/lib/history/filters";
import { formatDuration } from "@/lib/mission/gate-policy";
import { Figure } from "../charts/figure";
import { AXIS, GRID, seriesColour, TOOLTIP } from "../charts/theme";
import * as ui from "@/components/ui/styles";

/**
 * The failure history's charts on Recharts: each is a figure with a title, an aria-label stating the
 * numbers, and the numbers as a table under "Numbers". Colours come from CSS variables (`--hc-0`… in
 * globals.css), readable in light and dark.
 */

export const durationText = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : formatDuration(ms));
const n = (x: number) => x.toLocaleString("en");

function bucketLabel(iso: string, bucket: "hour" | "day"): string {
  return bucket === "hour" ? `${iso.slice(5, 10)} ${iso.slice(11, 13)}:00` : iso.slice(0, 10);
}


/** Failures per hour or day, stacked by error type. */
export function FailuresOverTime({ stats, title, id = "chart-over-time", noun = "failures" }: { stats: Pick<HistoryStats, "overTime" | "bucket">; title?: string; id?: string; noun?: string }) {
  const { buckets, types, counts } = stats.overTime;
  const totals = counts.map((row) => row.reduce((a, b) => a + b, 0));
  const summary = buckets.length
    ? `${n(totals.reduce((a, b) => a + b, 0))} ${noun} in ${buckets.length} ${stats.bucket === "hour" ? "hours" : "days"}; by type ${types.map((t, i) => `${t} ${n(counts.reduce((a, row) => a + row[i], 0))}`).join(", ")}`
    : `no ${noun}`;
  return (
    <Figure
      id={id}
      title={title ?? `Failures over time by error type (per ${stats.bucket})`}
      summary={summary}
      numbers={{
        columns: [stats.bucket === "hour" ? "Hour (UTC)" : "Day (UTC)", ...types.map((t) => ({ label: t, numeric: true as const }))],
        rows: buckets.map((b, i) => ({ key: b, cells: [bucketLabel(b, stats.bucket), ...counts[i].map((c) => n(c))] })),
      }}
    >
      {buckets.length === 0 ? (
        <p className="text-muted">No {noun} in this view.</p>
      ) : (
        <>
          <div aria-hidden="true">
            <BarChart responsive accessibilityLayer={false} style={{ width: "100%", height: 200 }} data={buckets.map((b, i) => ({ bucket: bucketLabel(b, stats.bucket), ...Object.fromEntries(types.map((t, j) => [t, counts[i][j]])) }))} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
              <CartesianGrid {...GRID} />
              <XAxis dataKey="bucket" {...AXIS} minTickGap={24} />
              <YAxis allowDecimals={false} {...AXIS} />
              <Tooltip {...TOOLTIP} />
              <Legend wrapperStyle={{ fontSize: 12 }} />
              {types.map((t, j) => (
                <BarShape key={t} dataKey={t} stackId="types" fill={seriesColour(j)} maxBarSize={28} isAnimationActive={false} />
              ))}
            </BarChart>
          </div>
        </>
      )}
    </Figure>
  );
}

interface Bar {
  label: string;
  value: number;
  text: string;
  /** A second, lighter value drawn behind (e.g. p90 behind the median). */
  behind?: { value: number; text: string };
}

function HBars({ id, title, bars, empty, columns, format = "count" }: { id: string; title: string; bars: Bar[]; empty: string; columns: [string, string, string?]; format?: "count" | "duration" }) {
  const max = Math.max(1, ...bars.map((b) => Math.max(b.value, b.behind?.value ?? 0)));
  const summary = bars.length ? bars.map((b) => `${b.label} ${b.text}${b.behind ? ` (${columns[2]} ${b.behind.text})` : ""}`).join("; ") : empty;
  return (
    <Figure
      id={id}
      title={title}
      summary={summary}
      numbers={{
        columns: [columns[0], { label: columns[1], numeric: true }, ...(columns[2] ? [{ label: columns[2], numeric: true as const }] : [])],
        rows: bars.map((b) => ({ key: b.label, cells: [b.label, b.text, ...(columns[2] ? [b.behind?.text ?? ""] : [])] })),
      }}
    >
      {bars.length === 0 ? (
        <p className="text-muted">{empty}</p>
      ) : (
        <div aria-hidden="true">
          <BarChart responsive accessibilityLayer={false} layout="vertical" style={{ width: "100%", height: 28 * bars.length + 40 }} data={bars.map((b) => ({ label: b.label, value: b.value, behind: b.behind?.value ?? null, text: b.text }))} margin={{ top: 0, right: 8, bottom: 0, left: 0 }} barGap={-12}>
            <CartesianGrid {...GRID} horizontal={false} vertical />
            <XAxis type="number" allowDecimals={format === "duration"} {...AXIS} tickFormatter={(v: number) => (format === "duration" ? durationText(v) : n(v))} />
            <YAxis type="category" dataKey="label" width={180} {...AXIS} />
            <Tooltip {...TOOLTIP} formatter={(v) => (format === "duration" ? durationText(Number(v)) : n(Number(v)))} />
            {bars.some((b) => b.behind) ? <BarShape dataKey="behind" name={columns[2]} fill="var(--hc-behind)" barSize={12} isAnimationActive={false} /> : null}
            <BarShape dataKey="value" name={columns[1]} fill={seriesColour(0)} barSize={12} isAnimationActive={false} />
          </BarChart>
        </div>
      )}
    </Figure>
  );
}

export function ResolutionByLevel({ stats }: { stats: HistoryStats }) {
  return (
    <HBars
      id="chart-resolution"
      title="Time to resolution by level (median · p90)"
      format="duration"
      empty="No resolved failures in this view."
      columns={["Level", "Median", "p90"]}
      bars={stats.resolutionByLevel.map((r) => ({ label: `${r.level} (${n(r.count)})`, value: r.medianMs, text: durationText(r.medianMs), behind: { value: r.p90Ms, text: durationText(r.p90Ms) } }))}
    />
  );
}

export function TopFailureModes({ stats }: { stats: HistoryStats }) {
  return (
    <HBars
      id="chart-modes"
      title="Top failure modes (matched library entries)"
      empty="No failure in this view matched a library entry."
      columns={["Failure mode", "Failures"]}
      bars={stats.topFailureModes.map((m) => ({ label: m.title ? `${m.failureMode} — ${m.title}` : m.failureMode, value: m.count, text: n(m.count) }))}
    />
  );
}

export function RecoveryOutcomes({ stats }: { stats: HistoryStats }) {
  return (
    <HBars
      id="chart-outcomes"
      title="How failures ended"
      empty="No failures in this view."
      columns={["Outcome", "Failures"]}
      bars={stats.outcomes.map((o) => ({ label: OUTCOME_LABELS[o.outcome], value: o.count, text: n(o.count) }))}
    />
  );
}

export function HistoryCharts({ stats }: { stats: HistoryStats }) {
  return (
    <section aria-label="Charts" className={ui.chartGrid} data-testid="history-charts">
      {stats.sample && (
        <p className="text-sm text-muted" data-testid="history-charts-sample">
          Estimated from a sample: {n(stats.sample.rows)} failures of this view on {stats.sample.percent < 1 ? stats.sample.percent.toFixed(2) : stats.sample.percent.toFixed(1)}% of the history&apos;s pages, counts scaled up. Narrow the
          filters or the time span for exact charts.
        </p>
      )}
      <FailuresOverTime stats={stats} />
      <ResolutionByLevel stats={stats} />
      <RecoveryOutcomes stats={stats} />
      <TopFailureModes stats={stats} />
    </section>
  );
}
