"use client";

import { usePathname, useRouter } from "next/navigation";
import { useCallback, useState, useTransition, type ReactNode } from "react";
import type { FacetOption, HistoryFacets, HistoryRow } from "@/db/queries/failure-history";
import { FAILURE_LEVELS, FAILURE_SEVERITIES, HISTORY_FILTER_KEYS, OUTCOME_LABELS } from "@/lib/history/filters";
import { ExportLinks, FilterForm, FilterSelect, LoadMoreError, SearchRow, filterLooks, TimeRangeFields, useCursorPages, useTimeRange } from "../ui/filter-parts";
import { formatUtc } from "../ui/format-utc";
import { countLabel, type CappedCount } from "@/lib/query-filters";
import { DataTable, type DataColumn } from "../ui/data-table";
import { keepTableView } from "../ui/data-table-url";
import { durationText } from "./charts";
import * as ui from "@/components/ui/styles";

type Raw = Record<string, string>;

/** The query string of raw filter values in the canonical key order (empty values dropped). */
function queryOf(raw: Raw): string {
  const sp = new URLSearchParams();
  for (const k of HISTORY_FILTER_KEYS) if (raw[k]) sp.set(k, raw[k]);
  return sp.toString();
}

export interface HistoryInitial {
  rows: HistoryRow[];
  nextCursor: string | null;
  total: CappedCount;
}

/**
 * /history: the filters bar (synced to the URL with router.replace, so a shared URL reproduces the
 * view), the saved-queries menu and charts (server-rendered, passed in), and the virtualised table
 * with infinite scroll through GET /api/v1/failures.
 */
export function HistoryView(props: { raw: Raw; facets: HistoryFacets; initial: HistoryInitial | null; errors: Array<{ path: string; message: string }>; savedQueries: ReactNode; charts: ReactNode }) {
  const { raw, facets, initial, errors } = props;
  const router = useRouter();
  const pathname = usePathname();
  const [pending, start] = useTransition();
  const query = queryOf(raw);

  const go = useCallback(
    (changes: Raw) => {
      const next = { ...raw, ...changes };
      const q = keepTableView(queryOf(next), window.location.search);
      start(() => router.replace(`${pathname}${q ? `?${q}` : ""}`, { scroll: false }));
    },
    [raw, pathname, router],
  );

  return (
    <div className="grid gap-4">
      <FiltersBar key={query} raw={raw} facets={facets} go={go} errors={errors} />
      <div className={filterLooks.toolbar}>
        {props.savedQueries}
        <ExportLinks path="/api/v1/failures/export" query={query} label="Export this view:" testIdPrefix="export" />
      </div>
      {pending ? (
        <p className="text-muted" role="status" data-testid="history-loading">
          Loading the failures for these filters…
        </p>
      ) : null}
      <div className={ui.cx("[contain:inline-size]", pending && "opacity-55 transition-opacity")} aria-busy={pending}>
        {initial ? (
          <>
            {props.charts}
            <HistoryTable key={query} query={query} raw={raw} initial={initial} go={go} />
          </>
        ) : null}
      </div>
    </div>
  );
}

function Select({ id, label, value, options, onChange, any }: { id: string; label: string; value: string; options: readonly FacetOption[]; onChange: (v: string) => void; any?: string }) {
  // A value in the URL that is not among the facets (e.g. a mission id) is still shown.
  const all = value && !options.some((o) => o.value === value) ? [{ value, label: value }, ...options] : options;
  return <FilterSelect id={id} label={label} value={value} options={all} onChange={onChange} any={any} testId={`filter-${id.replace("hf-", "")}`} />;
}

/** A failure's severity in its colour (literal classes: Tailwind reads them from here). */
const SEVERITY: Record<string, string> = { critical: "font-semibold text-failed", error: "text-partial", warning: "text-muted" };
const opts = (xs: readonly string[]) => xs.map((x) => ({ value: x, label: x }));

function FiltersBar({ raw, facets, go, errors }: { raw: Raw; facets: HistoryFacets; go: (c: Raw) => void; errors: Array<{ path: string; message: string }> }) {
  const [q, setQ] = useState(raw.q ?? "");
  const range = useTimeRange(raw);
  const set = (key: string) => (v: string) => go({ [key]: v });
  const anyFilter = HISTORY_FILTER_KEYS.some((k) => k !== "sort" && k !== "dir" && raw[k]);

  return (
    <FilterForm label="Filter the failure history" testId="history-filters" onApply={() => go({ q: q.trim(), ...range.applied() })} errors={errors} errorsTestId="filter-errors">
      <SearchRow
        id="hf-q"
        label="Search what happened, why and the root cause"
        value={q}
        onChange={setQ}
        placeholder='Search what / why / root cause (e.g. quota, "connection refused")'
        testIdPrefix="filter"
        onClear={
          anyFilter
            ? () => {
                setQ("");
                range.setCustom(false);
                go(Object.fromEntries(HISTORY_FILTER_KEYS.map((k) => [k, ""])));
              }
            : null
        }
      />
      <div className={filterLooks.grid}>
        {raw.mission ? (
          <label className={filterLooks.field}>
            <span>Mission</span>
            <span className="flex flex-wrap items-center gap-2">
              <code className="text-sm" title={raw.mission}>
                {raw.mission.slice(0, 8)}…
              </code>
              <button type="button" className={ui.button("ghost", "sm")} onClick={() => go({ mission: "" })} aria-label="Remove the mission filter">
                ✕
              </button>
            </span>
          </label>
        ) : null}
        <Select id="hf-definition" label="Mission definition" value={raw.definition ?? ""} options={facets.definitions} onChange={set("definition")} />
        <Select id="hf-level" label="Level" value={raw.level ?? ""} options={opts(FAILURE_LEVELS)} onChange={set("level")} />
        <Select id="hf-severity" label="Severity" value={raw.severity ?? ""} options={opts(FAILURE_SEVERITIES)} onChange={set("severity")} />
        <Select id="hf-type" label="Error type" value={raw.type ?? ""} options={facets.errorTypes} onChange={set("type")} />
        <Select id="hf-mode" label="Failure mode" value={raw.mode ?? ""} options={facets.failureModes} onChange={set("mode")} />
        <Select id="hf-phase" label="Phase" value={raw.phase ?? ""} options={facets.phases} onChange={set("phase")} />
        <Select id="hf-actor" label="Actor (recorded or started)" value={raw.actor ?? ""} options={facets.actors} onChange={set("actor")} any="Anyone" />
        <Select id="hf-decidedBy" label="Decided by" value={raw.decidedBy ?? ""} options={facets.deciders} onChange={set("decidedBy")} any="Anyone" />
        <Select id="hf-status" label="Resolution" value={raw.status ?? ""} options={[{ value: "unresolved", label: "Unresolved" }, { value: "resolved", label: "Resolved" }]} onChange={set("status")} any="All" />
        <TimeRangeFields idPrefix="hf" range={range} go={go} testId="filter-time" />
      </div>
    </FilterForm>
  );
}

const COLUMNS: DataColumn<HistoryRow>[] = [
  { id: "time", header: "Time (UTC)", width: 150, sortKey: "time", cell: (r) => <span title={r.time}>{formatUtc(r.time).replace(" UTC", "")}</span> },
  { id: "mission", header: "Mission", width: 170, cell: (r) => <span title={r.missionId}>{r.definition ?? r.missionId.slice(0, 8)}</span> },
  { id: "agent", header: "Agent", width: 110, cell: (r) => r.agent ?? <span className="text-muted">—</span> },
  { id: "phase", header: "Phase / step", width: 150, cell: (r) => <span className="text-sm">{[r.phase, r.step != null ? `step ${r.step + 1}` : null, r.attempt != null ? `try ${r.attempt}` : null].filter(Boolean).join(" · ") || "—"}</span> },
  { id: "level", header: "Level", width: 104, cell: (r) => r.level },
  { id: "severity", header: "Severity", width: 84, cell: (r) => <span className={SEVERITY[r.severity] ?? "text-muted"}>{r.severity}</span> },
  { id: "type", header: "Error type", width: 150, cell: (r) => <code className="font-semibold text-failed">{r.errorType}</code> },
  { id: "what", header: "What", width: 400, cell: (r) => <span className="block overflow-hidden text-ellipsis whitespace-nowrap" title={[r.what, r.why, r.rootCause ? `Root cause: ${r.rootCause}` : null].filter(Boolean).join("\n")}>{r.what}</span> },
  { id: "mode", header: "Failure mode", width: 130, cell: (r) => (r.failureMode ? <span title={r.failureModeTitle ?? undefined}>{r.failureMode}{r.failureModeConfirmed ? " ✓" : ""}</span> : <span className="text-muted">—</span>) },
  {
    id: "resolution",
    header: "Resolution · by · after",
    width: 260,
    sortKey: "resolution",
    cell: (r) =>
      r.resolvedAt ? (
        <span className="text-sm">
          {OUTCOME_LABELS[r.outcome]}
          {r.resolutionAction && OUTCOME_LABELS[r.outcome].toLowerCase() !== r.resolutionAction ? ` (${r.resolutionAction})` : ""} · {r.decidedByName ?? (r.decidedBy ? r.decidedBy : "automatic")} · {durationText(r.resolutionMs ?? 0)}
        </span>
      ) : (
        <span className="text-sm font-semibold text-paused">Unresolved</span>
      ),
  },
];

function HistoryTable({ query, raw, initial, go }: { query: string; raw: Raw; initial: HistoryInitial; go: (c: Raw) => void }) {
  const { rows, more, loading, error, hasMore } = useCursorPages<HistoryRow>({ path: "/api/v1/failures", query, key: "rows", initialRows: initial.rows, initialCursor: initial.nextCursor });

  const sort = { key: raw.sort || "time", dir: (raw.dir || "desc") as "asc" | "desc" };
  const onSort = (key: string) => go(key === sort.key ? { sort: key === "time" ? "" : key, dir: sort.dir === "desc" ? "asc" : "" } : { sort: key === "time" ? "" : key, dir: "" });

  const total = initial.total;
  return (
    <section aria-labelledby="hist-table-title" className="grid grid-cols-[minmax(0,1fr)] gap-2">
      <h2 id="hist-table-title" className="text-[15px] font-[650]">
        Failures{" "}
        <span className="text-muted" data-testid="history-count">
          ({countLabel(total, rows.length)})
        </span>
      </h2>
      <DataTable
        data={rows}
        columns={COLUMNS}
        rowHref={(r) => `/missions/${r.missionId}?seq=${r.seq}#event-${r.seq}`}
        label="Failure history"
        server={{ sort, onSort, total: total.capped ? null : total.count, onNeedMore: hasMore && !error ? more : undefined, loadingMore: loading }}
        virtual
        testId="history-table"
        empty="No failures match these filters. Widen the time range or clear a filter."
      />
      <LoadMoreError error={error} what="failures" retry={() => void more()} />
    </section>
  );
}
