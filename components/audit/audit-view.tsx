"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useCallback, useMemo, useState, useTransition, type ReactNode } from "react";
import type { AuditEntry } from "@/db/queries/audit-log";
import { AUDIT_ACTIONS, AUDIT_VIA } from "@/lib/audit";
import { AUDIT_ACTION_GROUPS, AUDIT_FILTER_KEYS, AUDIT_OUTCOMES, serializeAuditFilters, type AuditFilters } from "@/lib/audit/filters";
import { DiffTable } from "../library-curation/diff-table";
import { ExportLinks, FilterForm, FilterSelect, LoadMoreError, SearchRow, filterLooks, TimeRangeFields, useCursorPages, useTimeRange } from "../ui/filter-parts";
import { formatUtc } from "../ui/format-utc";
import { countLabel, type CappedCount } from "@/lib/query-filters";
import { DataTable, type DataColumn } from "../ui/data-table";
import { keepTableView } from "../ui/data-table-url";
import * as ui from "@/components/ui/styles";

type Raw = Record<string, string>;

export interface AuditInitial {
  entries: AuditEntry[];
  nextCursor: string | null;
  total: CappedCount;
}

/**
 * /audit: the filters bar (synced to the URL with router.replace, so a shared URL reproduces the view),
 * saved queries (passed in), export links of the filtered view, and the virtualised table with infinite
 * scroll through GET /api/v1/audit. "Details" on a row opens its full record and before/after diff.
 */
export function AuditView(props: { raw: Raw; actors: Array<{ id: string; name: string }>; initial: AuditInitial | null; errors: Array<{ path: string; message: string }>; savedQueries: ReactNode }) {
  const { raw, initial } = props;
  const router = useRouter();
  const pathname = usePathname();
  const [pending, start] = useTransition();
  const query = serializeAuditFilters(raw as Partial<AuditFilters>);

  const go = useCallback(
    (changes: Raw) => {
      const next = keepTableView(serializeAuditFilters({ ...raw, ...changes } as Partial<AuditFilters>), window.location.search);
      start(() => router.replace(`${pathname}${next ? `?${next}` : ""}`, { scroll: false }));
    },
    [raw, pathname, router],
  );

  return (
    <div className="grid gap-4 [&>*]:min-w-0 [&_section>*]:min-w-0">
      <FiltersBar key={query} raw={raw} actors={props.actors} go={go} errors={props.errors} />
      <div className={filterLooks.toolbar}>
        {props.savedQueries}
        <ExportLinks path="/api/v1/audit/export" query={query} label="Export this view (recorded in the log):" testIdPrefix="audit-export" />
      </div>
      {pending ? (
        <p className="text-muted" role="status">
          Loading the audit log for these filters…
        </p>
      ) : null}
      <div className={pending ? "opacity-55 transition-opacity" : undefined} aria-busy={pending}>
        {initial ? <AuditTable key={query} query={query} initial={initial} /> : null}
      </div>
    </div>
  );
}

const ACTION_OPTIONS = AUDIT_ACTION_GROUPS.map((g) => ({ group: g, actions: AUDIT_ACTIONS.filter((a) => a.startsWith(`${g}.`)) }));

function FiltersBar({ raw, actors, go, errors }: { raw: Raw; actors: Array<{ id: string; name: string }>; go: (c: Raw) => void; errors: Array<{ path: string; message: string }> }) {
  const [text, setText] = useState({ q: raw.q ?? "", actor: raw.actor ?? "", targetType: raw.targetType ?? "", targetId: raw.targetId ?? "", mission: raw.mission ?? "" });
  const range = useTimeRange(raw);
  const anyFilter = AUDIT_FILTER_KEYS.some((k) => raw[k]);
  const input = (key: keyof typeof text, label: string, placeholder: string, list?: string) => (
    <label className={filterLooks.field} htmlFor={`af-${key}`}>
      <span>{label}</span>
      <input id={`af-${key}`} type="text" value={text[key]} onChange={(e) => setText({ ...text, [key]: e.target.value })} placeholder={placeholder} maxLength={200} list={list} data-testid={`audit-filter-${key}`} />
    </label>
  );
  const select = (key: string, label: string, options: readonly string[], any = "Any") => (
    <FilterSelect id={`af-${key}`} label={label} value={raw[key] ?? ""} options={options} onChange={(v) => go({ [key]: v })} any={any} testId={`audit-filter-${key}`} />
  );
  return (
    <FilterForm
      label="Filter the audit log"
      testId="audit-filters"
      onApply={() => go({ ...Object.fromEntries(Object.entries(text).map(([k, v]) => [k, v.trim()])), ...range.applied() })}
      errors={errors}
      errorsTestId="audit-filter-errors"
    >
      <SearchRow
        id="af-q"
        label="Search the summaries"
        value={text.q}
        onChange={(q) => setText({ ...text, q })}
        placeholder="Search the summaries (e.g. approved, deprecated, 203.0.113.9)"
        testIdPrefix="audit-filter"
        onClear={
          anyFilter
            ? () => {
                setText({ q: "", actor: "", targetType: "", targetId: "", mission: "" });
                range.setCustom(false);
                go(Object.fromEntries(AUDIT_FILTER_KEYS.map((k) => [k, ""])));
              }
            : null
        }
      />
      <div className={filterLooks.grid}>
        {input("actor", "Who (name, email or actor id)", "e.g. Ana or cli:ops", "audit-actors")}
        <datalist id="audit-actors">
          {actors.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </datalist>
        <label className={filterLooks.field} htmlFor="af-action">
          <span>Action</span>
          <select id="af-action" value={raw.action ?? ""} onChange={(e) => go({ action: e.target.value })} data-testid="audit-filter-action">
            <option value="">Any action</option>
            {ACTION_OPTIONS.map(({ group, actions }) => (
              <optgroup key={group} label={group}>
                <option value={`${group}.*`}>{`${group}.* (all)`}</option>
                {actions.map((a) => (
                  <option key={a} value={a}>
                    {a}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
        {input("targetType", "Target type", "mission, contribution, user…")}
        {input("targetId", "Target id", "an id, e.g. FM-PHY-0001")}
        {input("mission", "Mission id", "a mission's UUID")}
        {select("via", "Via", AUDIT_VIA)}
        {select("outcome", "Outcome", AUDIT_OUTCOMES)}
        <TimeRangeFields idPrefix="af" range={range} go={go} testId="audit-filter-time" />
      </div>
    </FilterForm>
  );
}

function AuditTable({ query, initial }: { query: string; initial: AuditInitial }) {
  const { rows, more, loading, error, hasMore } = useCursorPages<AuditEntry>({ path: "/api/v1/audit", query, key: "entries", initialRows: initial.entries, initialCursor: initial.nextCursor });
  const [open, setOpen] = useState<AuditEntry | null>(null);

  // Narrow enough for a laptop screen without horizontal scrolling: fixed widths, and the flexible
  // columns (who, target, summary) share the rest; "Details" first.
  const columns = useMemo<DataColumn<AuditEntry>[]>(
    () => [
      {
        id: "details",
        header: "",
        label: "Details",
        alwaysVisible: true,
        width: 76,
        cell: (r) => (
          <button type="button" className={ui.button("ghost", "sm")} aria-expanded={open?.id === r.id} aria-controls="audit-detail" aria-label={`Details of row ${r.id}`} onClick={() => setOpen(open?.id === r.id ? null : r)} data-testid="audit-row-details">
            {open?.id === r.id ? "Hide" : "Details"}
          </button>
        ),
      },
      { id: "at", header: "Time (UTC)", width: 140, cell: (r) => <span title={r.at}>{formatUtc(r.at).replace(" UTC", "")}</span> },
      { id: "who", header: "Who", minWidth: 80, cell: (r) => <span className="block overflow-hidden text-ellipsis whitespace-nowrap [contain:inline-size]" title={r.actorId}>{r.actorName}</span> },
      { id: "action", header: "Action", width: 146, cell: (r) => <code className="whitespace-nowrap text-[12px]">{r.action}</code> },
      { id: "target", header: "Target", minWidth: 80, cell: (r) => (r.targetType ? <span className="block overflow-hidden text-ellipsis whitespace-nowrap [contain:inline-size] text-sm" title={`${r.targetType} ${r.targetId ?? ""}`}>{`${r.targetType} ${r.targetId ?? ""}`}</span> : <span className="text-muted">—</span>) },
      { id: "summary", header: "Summary", minWidth: 160, cell: (r) => <span className="block overflow-hidden text-ellipsis whitespace-nowrap [contain:inline-size]" title={r.summary}>{r.summary}</span> },
      { id: "via", header: "Via", width: 44, cell: (r) => r.via },
      { id: "ip", header: "From", width: 84, cell: (r) => (r.ip ? <span className="block overflow-hidden text-ellipsis whitespace-nowrap [contain:inline-size] text-sm" title={r.ip}>{r.ip}</span> : <span className="text-muted">—</span>) },
      { id: "outcome", header: "Outcome", width: 88, cell: (r) => <span className={r.outcome === "refused" ? "font-semibold text-failed" : "text-muted"}>{r.outcome}</span> },
    ],
    [open],
  );

  return (
    <section aria-labelledby="audit-table-title" className="grid gap-2">
      <h2 id="audit-table-title" className="text-[15px] font-[650]">
        Actions{" "}
        <span className="text-muted" data-testid="audit-count">
          ({countLabel(initial.total, rows.length)})
        </span>
      </h2>
      <DataTable
        data={rows}
        columns={columns}
        rowKey={(r) => String(r.id)}
        label="Audit log"
        server={{ total: initial.total.capped ? null : initial.total.count, onNeedMore: hasMore && !error ? more : undefined, loadingMore: loading }}
        virtual
        dense
        testId="audit-table"
        height="min(60vh, 620px)"
        empty="No recorded action matches these filters. Widen the time range or clear a filter."
      />
      <LoadMoreError error={error} what="rows" retry={() => void more()} />
      {open ? <AuditDetail entry={open} onClose={() => setOpen(null)} /> : null}
    </section>
  );
}

const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : v === null || v === undefined ? {} : { value: v });

/** One row in full: who and from where, the target, and the before/after field by field. */
function AuditDetail({ entry: e, onClose }: { entry: AuditEntry; onClose: () => void }) {
  const before = asRecord(e.before);
  const after = asRecord(e.after);
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return (
    <section id="audit-detail" className={ui.cx(ui.card, "grid gap-2 px-4 py-3.5")} aria-label={`Audit row ${e.id}`} data-testid="audit-detail">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-[15px] font-[650]">
          <code>{e.action}</code> · {formatUtc(e.at)}
        </h3>
        <button type="button" className={ui.button("ghost", "sm")} onClick={onClose}>
          Close
        </button>
      </div>
      <p>{e.summary}</p>
      <dl className="m-0 grid grid-cols-[max-content_1fr] gap-x-3.5 gap-y-1 [&_dt]:text-sm [&_dt]:text-muted [&_dd]:m-0 [&_dd]:[overflow-wrap:anywhere]">
        <dt>Who</dt>
        <dd>
          {e.actorName} <code className="text-sm">{e.actorId}</code>
        </dd>
        <dt>Outcome</dt>
        <dd className={e.outcome === "refused" ? "font-semibold text-failed" : undefined}>{e.outcome}</dd>
        <dt>Via / from</dt>
        <dd>
          {e.via}
          {e.ip ? ` · ${e.ip}` : ""}
          {e.userAgent ? <span className="text-sm text-muted"> · {e.userAgent}</span> : null}
        </dd>
        {e.targetType ? (
          <>
            <dt>Target</dt>
            <dd>
              {e.targetType} <code className="text-sm">{e.targetId}</code>
            </dd>
          </>
        ) : null}
        {e.missionId ? (
          <>
            <dt>Mission</dt>
            <dd>
              <Link className="text-link underline underline-offset-2" href={`/missions/${e.missionId}`}>
                {e.missionId}
              </Link>
            </dd>
          </>
        ) : null}
        <dt>Row</dt>
        <dd>#{e.id} (append-only: it cannot be changed or deleted)</dd>
      </dl>
      {fields.length ? (
        <DiffTable before={before} after={after} labels={Object.fromEntries(fields.map((f) => [f, f]))} caption="Field by field: the state before and after this action" columns={["Before", "After"]} />
      ) : (
        <p className="text-sm text-muted">Nothing changed state (no before/after recorded for this action).</p>
      )}
    </section>
  );
}
