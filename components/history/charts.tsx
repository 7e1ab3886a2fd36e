import type { HistoryStats } from "@/db/queries/failure-history";
import { OUTCOME_LABELS } from "@/lib/history/filters";
import { formatDuration } from "@/lib/mission/gate-policy";

/**
 * The failure history's charts, plain SVG (no chart library): each is a figure with a title, an
 * aria-label stating the numbers, and the numbers as a table under "Numbers". Colours come from CSS
 * variables (`.hc-s0`… in globals.css), readable in light and dark.
 */

const SERIES = 7;
export const durationText = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : formatDuration(ms));
const n = (x: number) => x.toLocaleString("en");

function bucketLabel(iso: string, bucket: "hour" | "day"): string {
  return bucket === "hour" ? `${iso.slice(5, 10)} ${iso.slice(11, 13)}:00` : iso.slice(0, 10);
}

function Figure({ id, title, summary, children, table }: { id: string; title: string; summary: string; children: React.ReactNode; table: React.ReactNode }) {
  return (
    <figure className="card hc-figure" aria-labelledby={`${id}-title`} data-testid={id}>
      <figcaption id={`${id}-title`} className="hc-title">
        {title}
      </figcaption>
      <div role="img" aria-label={`${title}: ${summary}`}>
        {children}
      </div>
      <details className="hc-numbers">
        <summary>Numbers</summary>
        <div className="table-wrap">{table}</div>
      </details>
    </figure>
  );
}

/** Failures per hour or day, stacked by error type. */
export function FailuresOverTime({ stats, title, id = "chart-over-time", noun = "failures" }: { stats: Pick<HistoryStats, "overTime" | "bucket">; title?: string; id?: string; noun?: string }) {
  const { buckets, types, counts } = stats.overTime;
  const totals = counts.map((row) => row.reduce((a, b) => a + b, 0));
  const max = Math.max(1, ...totals);
  const W = 720;
  const H = 180;
  const pad = { l: 0, b: 1, t: 4 };
  const bw = buckets.length ? (W - pad.l) / buckets.length : 0;
  const y = (v: number) => ((H - pad.b - pad.t) * v) / max;
  const summary = buckets.length
    ? `${n(totals.reduce((a, b) => a + b, 0))} ${noun} in ${buckets.length} ${stats.bucket === "hour" ? "hours" : "days"}; by type ${types.map((t, i) => `${t} ${n(counts.reduce((a, row) => a + row[i], 0))}`).join(", ")}`
    : `no ${noun}`;
  return (
    <Figure
      id={id}
      title={title ?? `Failures over time by error type (per ${stats.bucket})`}
      summary={summary}
      table={
        <table className="table hc-table">
          <thead>
            <tr>
              <th scope="col">{stats.bucket === "hour" ? "Hour (UTC)" : "Day (UTC)"}</th>
              {types.map((t) => (
                <th key={t} scope="col" className="num">
                  {t}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {buckets.map((b, i) => (
              <tr key={b}>
                <th scope="row">{bucketLabel(b, stats.bucket)}</th>
                {counts[i].map((c, j) => (
                  <td key={types[j]} className="num">
                    {n(c)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      }
    >
      {buckets.length === 0 ? (
        <p className="muted">No {noun} in this view.</p>
      ) : (
        <>
          <div className="hc-plot" aria-hidden="true">
            <span className="hc-tick hc-ymax">{n(max)}</span>
            <span className="hc-tick hc-y0">0</span>
            <svg viewBox={`0 0 ${W} ${H}`} className="hc-svg" preserveAspectRatio="none">
              <line x1={pad.l} x2={W} y1={H - pad.b} y2={H - pad.b} className="hc-axis" vectorEffect="non-scaling-stroke" />
              {buckets.map((b, i) => {
                let acc = 0;
                return (
                  <g key={b}>
                    {counts[i].map((c, j) => {
                      if (!c) return null;
                      const h = y(c);
                      acc += h;
                      const w = Math.max(1, Math.min(bw * 0.8, 28));
                      return <rect key={j} x={pad.l + i * bw + (bw - w) / 2} width={w} y={H - pad.b - acc} height={h} className={`hc-s${j % SERIES}`} />;
                    })}
                  </g>
                );
              })}
            </svg>
          </div>
          <div className="hc-xaxis hc-tick" aria-hidden="true">
            <span>{bucketLabel(buckets[0], stats.bucket)}</span>
            {buckets.length > 1 ? <span>{bucketLabel(buckets[buckets.length - 1], stats.bucket)}</span> : null}
          </div>
          <ul className="hc-legend">
            {types.map((t, j) => (
              <li key={t}>
                <span className={`hc-swatch hc-s${j % SERIES}`} aria-hidden="true" /> {t}
              </li>
            ))}
          </ul>
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

function HBars({ id, title, bars, empty, columns }: { id: string; title: string; bars: Bar[]; empty: string; columns: [string, string, string?] }) {
  const max = Math.max(1, ...bars.map((b) => Math.max(b.value, b.behind?.value ?? 0)));
  const summary = bars.length ? bars.map((b) => `${b.label} ${b.text}${b.behind ? ` (${columns[2]} ${b.behind.text})` : ""}`).join("; ") : empty;
  return (
    <Figure
      id={id}
      title={title}
      summary={summary}
      table={
        <table className="table hc-table">
          <thead>
            <tr>
              {columns.filter(Boolean).map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {bars.map((b) => (
              <tr key={b.label}>
                <th scope="row">{b.label}</th>
                <td className="num">{b.text}</td>
                {columns[2] ? <td className="num">{b.behind?.text ?? ""}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      }
    >
      {bars.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="hc-bars">
          {bars.map((b, i) => (
            <li key={b.label} className="hc-bar-row">
              <span className="hc-bar-label" title={b.label}>
                {b.label}
              </span>
              <svg viewBox="0 0 100 10" preserveAspectRatio="none" className="hc-bar-svg" aria-hidden="true">
                {b.behind ? <rect x={0} y={1} height={8} width={(100 * b.behind.value) / max} className="hc-behind" /> : null}
                <rect x={0} y={1} height={8} width={Math.max(0.5, (100 * b.value) / max)} className={`hc-s${i % SERIES}`} />
              </svg>
              <span className="hc-bar-value">
                {b.text}
                {b.behind ? <span className="muted"> · {b.behind.text}</span> : null}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Figure>
  );
}

export function ResolutionByLevel({ stats }: { stats: HistoryStats }) {
  return (
    <HBars
      id="chart-resolution"
      title="Time to resolution by level (median · p90)"
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
    <section aria-label="Charts" className="hc-grid" data-testid="history-charts">
      <FailuresOverTime stats={stats} />
      <ResolutionByLevel stats={stats} />
      <RecoveryOutcomes stats={stats} />
      <TopFailureModes stats={stats} />
    </section>
  );
}
