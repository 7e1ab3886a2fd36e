import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { CellsTable, type CellColumn } from "@/components/ui/data-table";
import { diagnosticsReport } from "@/db/queries/diagnostics";
import { RecoveryPerDayChart } from "@/components/diagnosis/recovery-chart";
import { successMetrics } from "@/lib/diagnosis/metrics";
import { can } from "@/lib/auth/roles";
import { feedbackReport } from "@/db/queries/diagnosis-feedback";
import { labelledCalibration } from "@/lib/diagnosis/corpus-calibration";
import { labelledScoreReliability, walkScoreReliability } from "@/db/queries/library-calibration";
import { AccuracyOverTime, ReliabilityChart } from "@/components/diagnosis/calibration-charts";
import * as ui from "@/components/ui/styles";
import { pageUser } from "@/server/page-access";
import { PageHeader, Refused } from "@/components/layout/page";

export const metadata: Metadata = { title: "Diagnostics" };
export const dynamic = "force-dynamic";

const PERIODS = [1, 7, 14, 30, 90];

/** ADR-0003 "Success Metrics": target, and what the log says for the period. */
const METRICS = [
  { key: "recoverySuccessRate", label: "Recovery success rate", target: "> 60%", good: (v: number) => v > 0.6, fmt: "pct", help: "Recoveries whose step then passed its evidence, of all recoveries that ended." },
  { key: "stuckLoopRate", label: "Stuck loop rate", target: "< 15%", good: (v: number) => v < 0.15, fmt: "pct", help: "Diagnosed failures where the same action had failed the same way three times in a row." },
  { key: "avgIterationsToSuccess", label: "Avg iterations to success", target: "< 8", good: (v: number) => v < 8, fmt: "num", help: "Tool calls per successful recovery (helper steps plus the re-run)." },
  { key: "patternReuse", label: "Pattern reuse (fast path)", target: "> 40%", good: (v: number) => v > 0.4, fmt: "pct", help: "Recoveries chosen by a trusted learned pattern without full reflection." },
  { key: "userInterventionRequired", label: "User intervention required", target: "< 30%", good: (v: number) => v < 0.3, fmt: "pct", help: "Diagnosed failures that ended at a gate for a person." },
  { key: "llmAgreement", label: "LLM proposals accepted", target: "—", good: () => true, fmt: "pct", help: "LLM diagnoses the evidence confirmed (only with an LLM configured). Root-cause accuracy on labelled failures: npm run bench:diagnosis." },
] as const;

const BY_DAY_COLUMNS: CellColumn[] = [
  { id: "day", header: "Day (UTC)", sortable: true },
  { id: "diagnosed", header: "Diagnosed", sortable: true },
  { id: "recovered", header: "Recovered", sortable: true },
  { id: "failed", header: "Recovery failed", sortable: true },
  { id: "gates", header: "Needed a person", sortable: true },
];
const BY_DEFINITION_COLUMNS: CellColumn[] = [
  { id: "definition", header: "Definition", sortable: true },
  { id: "diagnosed", header: "Diagnosed", sortable: true },
  { id: "success", header: "Recovery success", sortable: true },
  { id: "person", header: "Needed a person", sortable: true },
];
const BY_TYPE_COLUMNS: CellColumn[] = [
  { id: "type", header: "Type", sortable: true },
  { id: "count", header: "Failures", sortable: true },
];
const CORRECTION_COLUMNS: CellColumn[] = [
  { id: "from", header: "The diagnosis said", sortable: true },
  { id: "to", header: "Operators said", sortable: true },
  { id: "count", header: "Times", numeric: true, sortable: true },
];

function format(v: number | null, fmt: "pct" | "num"): string {
  if (v === null) return "—";
  return fmt === "pct" ? `${Math.round(v * 100)}%` : v.toFixed(1);
}

export default async function DiagnosticsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await pageUser("/diagnostics");
  if (!can(user, "mission.view")) return <Refused user={user} permission="mission.view" />;
  const sp = await searchParams;
  const daysRaw = Number(Array.isArray(sp.days) ? sp.days[0] : sp.days);
  const days = PERIODS.includes(daysRaw) ? daysRaw : 14;
  const definition = typeof sp.definition === "string" && sp.definition.trim() ? sp.definition.trim().slice(0, 200) : undefined;
  const report = await diagnosticsReport(getDb(), { days, definition });
  const metrics = successMetrics(report.total);
  const [verdicts, labelled, walks, labelledScores] = await Promise.all([feedbackReport(getDb(), { days }), labelledCalibration(), walkScoreReliability(getDb(), { days }), labelledScoreReliability(getDb())]);
  const scoreSeries = [...(walks.cases ? [walks] : []), ...(labelledScores && labelledScores.cases ? [labelledScores] : [])];
  const query = (p: { days?: number; definition?: string | null }) => {
    const q = new URLSearchParams();
    q.set("days", String(p.days ?? days));
    const def = p.definition === undefined ? definition : p.definition;
    if (def) q.set("definition", def);
    return `/diagnostics?${q}`;
  };

  return (
    <div className="grid gap-4">
      <PageHeader
        title="Diagnostics"
        actions={
          <nav aria-label="Period" className={ui.segmented}>
            {PERIODS.map((p) => (
              <Link key={p} href={query({ days: p })} aria-current={p === days ? "page" : undefined} className={ui.segment(p === days)}>
                {p}d
              </Link>
            ))}
          </nav>
        }
      >
        Every tool failure is diagnosed (&ldquo;5 whys&rdquo;) and, where policy allows, recovered. These are the ADR-0003 success metrics over the last {days} day{days === 1 ? "" : "s"}
        {definition ? (
          <>
            {" "}for <strong>{definition}</strong> (<Link href={query({ definition: null })}>all definitions</Link>)
          </>
        ) : null}
        .
      </PageHeader>

      <section aria-label="Success metrics" className={ui.metricGrid} data-testid="success-metrics">
        {METRICS.map((m) => {
          const v = metrics[m.key];
          const tone = v === null || m.target === "—" ? "neutral" : m.good(v) ? "success" : "failed";
          return (
            <div key={m.key} className={ui.metricCard} data-testid={`metric-${m.key}`}>
              <div className={ui.metricLabel}>{m.label}</div>
              <div className={ui.cx(ui.metricValue, ui.TONE_TEXT[tone])}>{format(v, m.fmt)}</div>
              <div className="text-muted text-sm">Target {m.target}</div>
              <p className="text-muted text-sm">{m.help}</p>
            </div>
          );
        })}
      </section>

      <p className="text-muted text-sm" data-testid="diagnostics-totals">
        {report.total.diagnosed} failure{report.total.diagnosed === 1 ? "" : "s"} diagnosed · {report.total.recoveriesStarted} recover{report.total.recoveriesStarted === 1 ? "y" : "ies"} started ({report.total.fastPath} by the fast path) · {report.total.recovered} recovered · {report.total.recoveryFailed} failed · {report.total.loops} stuck loop{report.total.loops === 1 ? "" : "s"} stopped · {report.total.gates} gate{report.total.gates === 1 ? "" : "s"} for a person
      </p>

      {report.total.diagnosed === 0 ? (
        <p className={ui.notice}>No tool failed in this period, so there is nothing to measure yet. Failures appear here as missions run.</p>
      ) : (
        <>
          <section aria-labelledby="by-day">
            <h2 id="by-day" className="text-[15px] font-[650]">Failures and recoveries per day</h2>
            <RecoveryPerDayChart byDay={report.byDay} />
            <CellsTable
              label="Failures and recoveries per day"
              testId="diagnostics-by-day"
              urlKey="day"
              columns={BY_DAY_COLUMNS}
              rows={report.byDay.map((d) => ({ key: d.key, cells: { day: d.key, diagnosed: d.diagnosed, recovered: d.recovered, failed: d.recoveryFailed, gates: d.gates } }))}
            />
          </section>

          <div className={ui.twoCol}>
            <section aria-labelledby="by-definition">
              <h2 id="by-definition" className="text-[15px] font-[650]">Per mission definition</h2>
              <CellsTable
                label="Per mission definition"
                testId="diagnostics-by-definition"
                urlKey="def"
                columns={BY_DEFINITION_COLUMNS}
                rows={report.byDefinition.map((d) => {
                  const m = successMetrics(d);
                  return {
                    key: d.key,
                    sort: { definition: d.key, success: m.recoverySuccessRate, person: m.userInterventionRequired },
                    cells: { definition: <Link href={query({ definition: d.key })}>{d.key}</Link>, diagnosed: d.diagnosed, success: format(m.recoverySuccessRate, "pct"), person: format(m.userInterventionRequired, "pct") },
                  };
                })}
              />
            </section>
            <section aria-labelledby="by-type">
              <h2 id="by-type" className="text-[15px] font-[650]">Error types</h2>
              <CellsTable
                label="Error types"
                testId="diagnostics-by-type"
                urlKey="type"
                columns={BY_TYPE_COLUMNS}
                rows={report.byType.map((t) => ({ key: t.type, cells: { type: t.type.replaceAll("_", " "), count: t.count } }))}
              />
            </section>
          </div>
        </>
      )}
      <section aria-labelledby="judgement" className="grid gap-2" data-testid="diagnosis-judgement">
        <h2 id="judgement" className="text-[15px] font-[650]">Is the diagnosis right?</h2>
        <p className="text-muted text-sm" data-testid="diagnosis-verdicts">
          Operators&rsquo; verdicts in this period: {verdicts.total} diagnos{verdicts.total === 1 ? "is" : "es"} judged, {verdicts.confirmed} confirmed, {verdicts.corrected} corrected
          {verdicts.ece !== null ? `; expected calibration error ${verdicts.ece.toFixed(3)}` : ""}
          {labelled.map((l) => `. ${l.name}: ${l.cases} cases, accuracy ${format(l.accuracy, "pct")}, expected calibration error ${l.ece === null ? "—" : l.ece.toFixed(3)}`).join("")}. Gates ask operators to confirm or correct each diagnosis.
        </p>
        <div className="grid gap-4 lg:grid-cols-2 [&>*]:min-w-0">
          <ReliabilityChart series={[...(verdicts.total ? [{ name: "Operators' verdicts", bins: verdicts.reliability, cases: verdicts.total, ece: verdicts.ece }] : []), ...labelled.map((l) => ({ name: l.name, bins: l.bins, cases: l.cases, ece: l.ece }))]} />
          <AccuracyOverTime byDay={verdicts.byDay} />
        </div>
        {verdicts.corrections.length ? (
          <CellsTable
            label="What operators corrected"
            testId="diagnosis-corrections"
            urlKey="fix"
            columns={CORRECTION_COLUMNS}
            rows={verdicts.corrections.map((c) => ({ key: `${c.from}-${c.to}`, cells: { from: c.from.replaceAll("_", " "), to: c.to.replaceAll("_", " "), count: c.count } }))}
          />
        ) : null}
      </section>

      <section aria-labelledby="library-scores" className="grid gap-2" data-testid="library-score-judgement">
        <h2 id="library-scores" className="text-[15px] font-[650]">Are the library&rsquo;s match scores as likely as they say?</h2>
        <p className="text-muted text-sm" data-testid="library-score-summary">
          A match score is the probability that a hypothesis names the failure the report describes. Walks in this period: {walks.cases} hypothes{walks.cases === 1 ? "is" : "es"} probed to a verdict
          {walks.cases ? `, ${format(walks.accuracy, "pct")} confirmed, expected calibration error ${walks.ece === null ? "—" : walks.ece.toFixed(3)}` : ""}.
          {labelledScores
            ? ` Labelled reports nobody fitted on, asked of library version ${labelledScores.libraryVersion ?? "—"}: ${labelledScores.asked} asked, ${labelledScores.abstained} abstained on, ${labelledScores.cases} answered, the best hypothesis right in ${format(labelledScores.accuracy, "pct")}, expected calibration error ${labelledScores.ece === null ? "—" : labelledScores.ece.toFixed(3)}.`
            : " No labelled reports apply to this library."}
        </p>
        <ReliabilityChart
          id="chart-library-reliability"
          title="Library match score (across) against how often the hypothesis was right (up); the dashed diagonal is a perfect match"
          empty="No walk has reached a verdict and no labelled report applies yet."
          series={scoreSeries}
        />
      </section>

      <p className="text-muted text-sm">
        Learned patterns behind the fast path: <Link href="/patterns">Patterns</Link>.
        {can(user, "memory.export") ? (
          <>
            {" "}Memory exports (JSON Lines): <a href="/api/v1/memory/session">session memory</a>, <a href="/api/v1/memory/episodic">episodic memory</a>.
          </>
        ) : null}
      </p>
    </div>
  );
}
