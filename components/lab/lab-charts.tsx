"use client";

import { Bar, BarChart, CartesianGrid, ComposedChart, ErrorBar, Legend, Line, Scatter, Tooltip, XAxis, YAxis } from "recharts";
import type { LabKeyMetrics, LabSuiteRunSummary } from "@/db/queries/lab";
import type { Rate } from "@/lib/lab/metrics";
import type { LabReport } from "@/lib/lab/report";
import { Figure } from "../charts/figure";
import { AXIS, GRID, seriesColour, TOOLTIP } from "../charts/theme";
import { pct, rateText } from "./format";

/** The rates a suite run reports, in the order docs/lab.md gives them; `worse`: which way is a regression. */
const RATES: Array<{ key: keyof LabReport["metrics"]; label: string; short: string }> = [
  { key: "recoverySuccessRate", label: "recovery success rate", short: "recovery" },
  { key: "rootCauseAccuracy", label: "root-cause accuracy", short: "root cause" },
  { key: "stuckLoopRate", label: "stuck-loop rate", short: "stuck loops" },
  { key: "patternReuseRate", label: "pattern reuse rate", short: "pattern reuse" },
  { key: "userInterventionRate", label: "user intervention required", short: "intervention" },
  { key: "approvalRate", label: "approval rate", short: "approval" },
  { key: "hitlRate", label: "HITL rate", short: "HITL" },
];

/** A point and its 95% interval as Recharts' error bar wants it: the distances below and above. */
function withInterval(r: Rate | null | undefined) {
  if (!r || r.value === null) return { value: null, err: [0, 0] as [number, number] };
  return { value: r.value, err: (r.ci ? [r.value - r.ci[0], r.ci[1] - r.value] : [0, 0]) as [number, number] };
}

/** The point an interval hangs on: a short mark at the value. */
function IntervalPoint(props: { cx?: number; cy?: number; payload?: { value: number | null } }) {
  // A rate without trials has no point (Recharts would still place one).
  if (props.cx === undefined || props.cy === undefined || props.payload?.value == null) return <g />;
  return <rect x={props.cx - 5} y={props.cy - 1} width={10} height={2} fill="var(--text)" />;
}

/** A suite run's rates, each with its 95% Wilson interval (error bars). */
export function MetricsChart({ metrics }: { metrics: LabReport["metrics"] }) {
  const data = RATES.map((m) => ({ name: m.short, label: m.label, rate: metrics[m.key] as Rate, ...withInterval(metrics[m.key] as Rate) }));
  return (
    <Figure
      id="chart-lab-metrics"
      title="Metrics with 95% confidence intervals"
      summary={data.map((d) => `${d.label} ${rateText(d.rate)}`).join("; ")}
      numbers={{ columns: ["metric", { label: "value", numeric: true }, { label: "95% interval", numeric: true }, { label: "counts", numeric: true }], rows: data.map((d) => ({ key: d.name, cells: [d.label, pct(d.rate.value), d.rate.ci ? `${pct(d.rate.ci[0])} – ${pct(d.rate.ci[1])}` : "—", `${d.rate.successes}/${d.rate.trials}`] })) }}
    >
      <div aria-hidden="true">
        <ComposedChart responsive accessibilityLayer={false} style={{ width: "100%", height: 240 }} data={data} margin={{ top: 8, right: 8, bottom: 0, left: -12 }}>
          <CartesianGrid {...GRID} />
          <XAxis dataKey="name" {...AXIS} interval={0} />
          <YAxis domain={[0, 1]} tickFormatter={(v: number) => pct(v, 0)} {...AXIS} />
          <Tooltip {...TOOLTIP} formatter={(_v, _n, item) => rateText((item.payload as { rate: Rate }).rate)} />
          <Bar dataKey="value" name="value" fill={seriesColour(0)} maxBarSize={36} isAnimationActive={false} />
          {/* The interval on a point of its own: a bar of height 0 (a rate of 0%) still shows its interval. */}
          <Scatter dataKey="value" name="95% interval" fill="var(--text)" shape={IntervalPoint} isAnimationActive={false}>
            <ErrorBar dataKey="err" width={6} strokeWidth={1.5} stroke="var(--text)" direction="y" isAnimationActive={false} />
          </Scatter>
        </ComposedChart>
      </div>
    </Figure>
  );
}

/** Per scenario: pass^1 and pass^k (k = the repeat count), the chance that one and that all k repeats succeed. */
export function PassChart({ scenarios, repeat }: { scenarios: LabReport["scenarios"]; repeat: number }) {
  const data = scenarios.map((s) => ({ name: s.name, pass1: s.passHatK[0] ?? 0, passK: s.passHatK[s.passHatK.length - 1] ?? 0, passed: s.passed, runs: s.runs }));
  return (
    <Figure
      id="chart-lab-pass"
      title={`Scenarios: pass^1 and pass^${repeat}`}
      summary={data.map((d) => `${d.name}: ${d.passed} of ${d.runs} passed, pass^1 ${pct(d.pass1)}, pass^${repeat} ${pct(d.passK)}`).join("; ")}
      numbers={{ columns: ["scenario", { label: "passed", numeric: true }, { label: "pass^1", numeric: true }, { label: `pass^${repeat}`, numeric: true }], rows: data.map((d) => ({ key: d.name, cells: [d.name, `${d.passed}/${d.runs}`, pct(d.pass1), pct(d.passK)] })) }}
    >
      <div aria-hidden="true">
        <BarChart responsive accessibilityLayer={false} layout="vertical" style={{ width: "100%", height: Math.max(140, 22 * data.length + 60) }} data={data} margin={{ top: 4, right: 12, bottom: 0, left: 8 }}>
          <CartesianGrid {...GRID} horizontal={false} vertical />
          <XAxis type="number" domain={[0, 1]} tickFormatter={(v: number) => pct(v, 0)} {...AXIS} />
          <YAxis type="category" dataKey="name" width={200} {...AXIS} interval={0} />
          <Tooltip {...TOOLTIP} formatter={(v) => pct(Number(v))} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="pass1" name="pass^1" fill={seriesColour(0)} maxBarSize={10} isAnimationActive={false} />
          <Bar dataKey="passK" name={`pass^${repeat}`} fill={seriesColour(2)} maxBarSize={10} isAnimationActive={false} />
        </BarChart>
      </div>
    </Figure>
  );
}

const TREND: Array<{ key: keyof LabKeyMetrics; label: string }> = [
  { key: "recoverySuccessRate", label: "recovery success rate" },
  { key: "rootCauseAccuracy", label: "root-cause accuracy" },
  { key: "hitlRate", label: "HITL rate" },
];

/** Finished suite runs, oldest first: the key rates of each with their 95% intervals. */
export function RunsTrendChart({ runs }: { runs: LabSuiteRunSummary[] }) {
  const finished = runs.filter((r) => r.metrics).slice(0, 20).reverse();
  const data = finished.map((r, i) => {
    const point: Record<string, unknown> = { name: `#${i + 1} ${r.suiteName} (seed ${r.seed})`, run: r };
    for (const t of TREND) {
      const w = withInterval(r.metrics![t.key]);
      point[t.key] = w.value;
      point[`${t.key}Err`] = w.err;
    }
    return point;
  });
  if (!data.length) return null;
  return (
    <Figure
      id="chart-lab-trend"
      title="Key metrics per suite run, with 95% confidence intervals"
      summary={finished.map((r, i) => `#${i + 1} ${r.suiteName} seed ${r.seed}: ${TREND.map((t) => `${t.label} ${rateText(r.metrics![t.key])}`).join(", ")}`).join("; ")}
      numbers={{
        columns: ["run", ...TREND.map((t) => ({ label: t.label, numeric: true as const }))],
        rows: finished.map((r, i) => ({ key: r.id, cells: [`#${i + 1} ${r.suiteName} (seed ${r.seed}, ${r.repeat}×)`, ...TREND.map((t) => rateText(r.metrics![t.key]))] })),
      }}
    >
      <div aria-hidden="true">
        <ComposedChart responsive accessibilityLayer={false} style={{ width: "100%", height: 220 }} data={data} margin={{ top: 8, right: 8, bottom: 0, left: -12 }}>
          <CartesianGrid {...GRID} />
          <XAxis dataKey="name" {...AXIS} tickFormatter={(v: string) => v.split(" ")[0]} />
          <YAxis domain={[0, 1]} tickFormatter={(v: number) => pct(v, 0)} {...AXIS} />
          <Tooltip {...TOOLTIP} formatter={(v) => pct(Number(v))} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {TREND.map((t, i) => (
            <Line key={t.key} dataKey={t.key} name={t.label} stroke={seriesColour(i)} strokeWidth={2} dot={{ r: 3 }} connectNulls isAnimationActive={false}>
              <ErrorBar dataKey={`${t.key}Err`} width={4} strokeWidth={1.5} stroke={seriesColour(i)} direction="y" isAnimationActive={false} />
            </Line>
          ))}
        </ComposedChart>
      </div>
    </Figure>
  );
}
