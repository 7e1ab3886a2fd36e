import Link from "next/link";
import type { ReactNode } from "react";
import type { ManageView, Measures, Metric, RiskMap } from "@/db/queries/governance";
import { formatDuration } from "@/lib/mission/gate-policy";
import { CellsTable, type CellColumn } from "../ui/data-table";
import { RelativeTime } from "../ui/relative-time";
import { DecisionTimeChart, GovernanceDailyChart } from "./daily-chart";
import * as ui from "@/components/ui/styles";

const RISK_TONE: Record<string, string> = { Low: "success", Medium: "partial", High: "failed", "Requires-Oversight": "paused" };

function formatMetric(m: Metric, v: number | null): string {
  if (v === null) return "—";
  if (m.unit === "percent") return `${Math.round(v)} %`;
  if (m.unit === "ms") return formatDuration(v);
  return v.toLocaleString("en");
}

/** The trend of a metric against the previous period, in words and colour (better / worse / same). */
function Trend({ m }: { m: Metric }) {
  if (m.value === null || m.previous === null) return <span className="text-muted text-sm">no earlier data</span>;
  const diff = m.value - m.previous;
  if (Math.abs(diff) < 1e-9) return <span className="text-muted text-sm">same as the period before</span>;
  const better = diff > 0 === m.higherIsBetter;
  const pct = m.previous !== 0 ? ` (${diff > 0 ? "+" : ""}${Math.round((100 * diff) / Math.abs(m.previous))} %)` : "";
  return (
    <span className={ui.cx("text-sm", better ? "text-success" : "text-failed")}>
      <span aria-hidden="true">{diff > 0 ? "▲" : "▼"} </span>
      {diff > 0 ? "up" : "down"} from {formatMetric(m, m.previous)}
      {pct}
    </span>
  );
}

const DEFINITION_COLUMNS: CellColumn[] = [
  { id: "definition", header: "Definition", rowHeader: true, alwaysVisible: true, sortable: true },
  { id: "steps", header: "High-risk steps", sortable: true },
  { id: "matched", header: "Requires-Oversight matched", sortable: true },
  { id: "possible", header: "Could meet", sortable: true },
  { id: "policies", header: "Gate policies" },
  { id: "missions", header: "Missions", numeric: true, sortable: true },
];

const GATE_COLUMNS: CellColumn[] = [
  { id: "mission", header: "Mission", rowHeader: true, alwaysVisible: true, sortable: true },
  { id: "gate", header: "Gate", sortable: true },
  { id: "age", header: "Open for", sortable: true, sortDescFirst: true },
  { id: "deadline", header: "Times out", sortable: true },
  { id: "status", header: "Status", sortable: true },
];

/** MAP: the risks the system knows of. */
/** One of the three functions (Map, Measure, Manage): a section the page's summary links to by its id. */
function GovSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="grid gap-4" aria-labelledby={`gov-${id}`} id={id}>
      <h2 className="text-[15px] font-[650]" id={`gov-${id}`}>
        {title}
      </h2>
      {children}
    </section>
  );
}

export function RiskMapView({ map }: { map: RiskMap }) {
  const count = (c: string, r: string) => map.library.find((x) => x.category === c && x.risk === r)?.entries ?? 0;
  const total = map.library.reduce((n, x) => n + x.entries, 0);
  return (
    <GovSection id="map" title="Map: the risks the system knows">
      <CellsTable
        label="Failure modes in the library by category and risk level"
        caption={`Failure modes in the library (${total} published entries) by category and risk level. A cell opens those entries.`}
        testId="gov-risk-matrix"
        urlKey={null}
        columnMenu={false}
        columns={[{ id: "category", header: "Category", rowHeader: true, alwaysVisible: true }, ...map.risks.map((r) => ({ id: r, label: r, numeric: true, header: <span className={ui.badge(RISK_TONE[r] ?? "neutral")}>{r}</span> }))]}
        rows={map.categories.map((c) => ({
          key: c,
          cells: {
            category: c,
            ...Object.fromEntries(
              map.risks.map((r) => {
                const n = count(c, r);
                return [
                  r,
                  n ? (
                    <Link className="text-link underline underline-offset-2" href={`/library?category=${encodeURIComponent(c)}&risk=${encodeURIComponent(r)}`} aria-label={`${n} ${c} entries at risk ${r}`}>
                      {n}
                    </Link>
                  ) : (
                    <span className="text-muted">0</span>
                  ),
                ];
              }),
            ),
          },
        }))}
      />
      <CellsTable
        label="Mission definitions and where they meet risk"
        caption={
          <>
            Mission definitions and where they meet risk: high-risk steps (an approval gate before each), Requires-Oversight failure modes their failures matched, those their tools could meet (an entry&apos;s context tags name a tool, binary or host the definition uses), and the gate policies that apply.
          </>
        }
        testId="gov-definitions"
        urlKey="definitions"
        empty="No mission has run yet."
        columns={DEFINITION_COLUMNS}
        rows={map.definitions.map((d) => ({
          key: d.definition,
          attrs: { "data-testid": "gov-definition-row", "data-definition": d.definition },
          sort: { definition: d.definition, steps: d.highRiskSteps.length, matched: d.oversightMatched.length, possible: d.oversightPossible.length },
          cells: {
            definition: (
              <>
                <Link className="text-link underline underline-offset-2" href={`/history?definition=${encodeURIComponent(d.definition)}`}>
                  {d.definition}
                </Link>
                {d.libraryConsulted ? null : <div className="text-muted text-sm">library not consulted</div>}
              </>
            ),
            steps: d.highRiskSteps.length ? d.highRiskSteps.join("; ") : <span className="text-muted">none</span>,
            matched: d.oversightMatched.length ? (
              d.oversightMatched.map((id) => (
                <Link key={id} className="text-link underline underline-offset-2 mr-1.5 inline-block" href={`/library/${id}`}>
                  <code>{id}</code>
                </Link>
              ))
            ) : (
              <span className="text-muted">none</span>
            ),
            possible: d.oversightPossible.length ? (
              <details>
                <summary>
                  {d.oversightPossible.length} entr{d.oversightPossible.length === 1 ? "y" : "ies"}
                </summary>
                {d.oversightPossible.map((id) => (
                  <Link key={id} className="text-link underline underline-offset-2 mr-1.5 inline-block" href={`/library/${id}`}>
                    <code>{id}</code>
                  </Link>
                ))}
              </details>
            ) : (
              <span className="text-muted">none</span>
            ),
            policies: d.policies.length ? d.policies.join("; ") : <span className="text-muted" title="No gate policy applies: operators and admins decide, one decision, no timeout">default</span>,
            missions: d.missions,
          },
        }))}
      />
    </GovSection>
  );
}

/** MEASURE: failure and recovery metrics with their trend, and a per-day chart. */
export function MeasuresView({ measures }: { measures: Measures }) {
  return (
    <GovSection id="measure" title="Measure: how failure and recovery are going">
      <p className="text-muted">
        The last {measures.periodDays} days against the {measures.periodDays} days before. Details and filters: <Link href="/history">Failure history</Link>.
      </p>
      <ul className="m-0 grid list-none grid-cols-[repeat(auto-fill,minmax(210px,1fr))] gap-2.5 p-0" data-testid="gov-metrics">
        {measures.metrics.map((m) => (
          <li key={m.key} className={ui.cx(ui.card, "grid gap-0.5 px-3 py-2.5")} data-metric={m.key}>
            <span className="text-muted text-sm">{m.label}</span>
            <strong className="text-[20px] font-[650] tabular-nums">{formatMetric(m, m.value)}</strong>
            <Trend m={m} />
          </li>
        ))}
      </ul>
      <div className={ui.chartGrid}>
        <GovernanceDailyChart daily={measures.daily} />
        <DecisionTimeChart daily={measures.daily} />
      </div>
    </GovSection>
  );
}

/** MANAGE: what needs a decision now, and who can take it. */
export function ManageViewSection({ manage }: { manage: ManageView }) {
  const onDuty = manage.deciders.filter((d) => d.onDuty);
  return (
    <GovSection id="manage" title="Manage: what needs a decision now">
      <CellsTable
        label="Open gates, oldest first"
        caption={`Open gates, oldest first. Overdue: past its policy's deadline, or open longer than ${formatDuration(manage.slaMs)} without one (FAULTLINE_DECISION_SLA_MS).`}
        testId="gov-open-gates"
        urlKey="gates"
        empty="No gate is open: nothing waits for a person."
        columns={GATE_COLUMNS}
        rows={manage.openGates.map((g) => ({
          key: g.id,
          href: `/missions/${g.missionId}`,
          attrs: { "data-testid": "gov-gate-row", "data-overdue": g.overdue ? "true" : "false" },
          sort: { age: g.ageMs, deadline: g.deadlineAt ? Date.parse(g.deadlineAt) : null, status: g.overdue ? 1 : 0, gate: g.kind },
          cells: {
            mission: g.missionName,
            gate: (
              <>
                <span className={ui.badge("neutral")}>{g.kind}</span> {g.agent}: {g.what}
              </>
            ),
            age: formatDuration(g.ageMs),
            deadline: g.deadlineAt ? <RelativeTime iso={g.deadlineAt} /> : <span className="text-muted">no timeout</span>,
            status: g.overdue ? <span className={ui.badge("failed")}>Overdue</span> : <span className={ui.badge("paused")}>Waiting</span>,
          },
        }))}
      />
      <div className="grid grid-cols-[repeat(auto-fit,minmax(320px,1fr))] gap-3">
        <div className={ui.cx(ui.card, "grid content-start gap-2 px-3.5 py-3")} data-testid="gov-unresolved">
          <h3 className="text-[15px] font-[650]">Unresolved failures</h3>
          <p>
            <strong className="text-[20px] font-[650] tabular-nums">{manage.unresolved.total}</strong> unresolved
            {manage.unresolved.critical ? <span className="text-failed">, {manage.unresolved.critical} critical</span> : null}
            {manage.unresolved.oldestAt ? (
              <>
                ; the oldest since <RelativeTime iso={manage.unresolved.oldestAt} />
              </>
            ) : null}
            .
          </p>
          {manage.unresolved.byLevel.length ? <p className="text-muted text-sm">{manage.unresolved.byLevel.map((l) => `${l.n} ${l.level}`).join(" · ")}</p> : null}
          <Link className={ui.button("secondary", "sm")} href="/history?resolved=unresolved">
            See them in the failure history
          </Link>
        </div>
        <div className={ui.cx(ui.card, "grid content-start gap-2 px-3.5 py-3")} data-testid="gov-on-duty">
          <h3 className="text-[15px] font-[650]">Who is on duty</h3>
          <p className="text-muted text-sm">People who may decide gates, active in the console in the last {formatDuration(manage.onDutyMs)} (FAULTLINE_ON_DUTY_MS). A gate policy may narrow who decides a given gate.</p>
          {onDuty.length === 0 ? (
            <p className="text-failed" data-testid="gov-nobody-on-duty">
              Nobody who can decide gates is active right now{manage.openGates.length ? `, and ${manage.openGates.length} gate${manage.openGates.length === 1 ? " waits" : "s wait"}` : ""}.
            </p>
          ) : null}
          <ul className="m-0 grid list-none gap-1.5 p-0">
            {manage.deciders.map((d) => (
              <li key={d.id} data-on-duty={d.onDuty ? "true" : "false"}>
                <span className={ui.badge(d.onDuty ? "success" : "neutral")}>{d.onDuty ? "On duty" : "Away"}</span> <strong>{d.name}</strong>{" "}
                <span className="text-muted text-sm">
                  {d.roles.join(", ")}
                  {d.groups.length ? ` · ${d.groups.join(", ")}` : ""} · {d.lastActiveAt ? <RelativeTime iso={d.lastActiveAt} /> : "never signed in"}
                </span>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </GovSection>
  );
}
