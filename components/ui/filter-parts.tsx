"use client";

import { useCallback, useRef, useState, type ReactNode } from "react";
import { isoToLocalInput, localInputToIso, TIME_PRESETS } from "@/lib/query-filters";
import * as ui from "@/components/ui/styles";

/**
 * Pieces of a filtered page whose filters live in the URL (failure history, audit log): the time
 * range (presets or a custom range in the browser's time), the list of invalid filters, the export
 * links of the current view, and paging through a keyset API as the table scrolls. The filter select
 * serves the mission timeline's toolbar too.
 */

type Go = (changes: Record<string, string>) => void;

/**
 * The one look of a filters bar (failure history, audit log): the card of the form, the grid of its
 * fields, one field (a small muted caption over a full-width select or input), and the toolbar under it
 * (saved queries, export links).
 */
export const filterLooks = {
  bar: ui.cx(ui.card, "flex flex-col gap-2.5 px-3.5 py-3"),
  grid: "grid grid-cols-[repeat(auto-fill,minmax(170px,1fr))] gap-x-3 gap-y-2",
  field: ui.cx(ui.field, "[&>span:first-child]:text-[12px] [&>span:first-child]:text-muted [&_input]:w-full [&_select]:w-full"),
  toolbar: "flex flex-wrap items-start justify-between gap-3",
} as const;

/** The time range's state: a preset span (`from=24h`) applies at once, a custom range on submit (`applied()`). */
export function useTimeRange(raw: Record<string, string>) {
  const preset = raw.to || (raw.from && !TIME_PRESETS.some((p) => p.from === raw.from)) ? "custom" : (raw.from ?? "");
  const [custom, setCustom] = useState(preset === "custom");
  const [from, setFrom] = useState(isoToLocalInput(raw.from ?? ""));
  const [to, setTo] = useState(isoToLocalInput(raw.to ?? ""));
  return { preset, custom, setCustom, from, setFrom, to, setTo, applied: (): Record<string, string> => (custom ? { from: localInputToIso(from), to: localInputToIso(to) } : {}) };
}

/** The time select (any time, presets, custom…) and, for a custom range, its two datetime inputs. */
export function TimeRangeFields({ idPrefix, range, go, className = filterLooks.field, testId }: { idPrefix: string; range: ReturnType<typeof useTimeRange>; go: Go; className?: string; testId: string }) {
  return (
    <>
      <label className={className} htmlFor={`${idPrefix}-time`}>
        <span>Time</span>
        <select
          id={`${idPrefix}-time`}
          value={range.custom ? "custom" : range.preset}
          onChange={(e) => {
            const v = e.target.value;
            if (v === "custom") return range.setCustom(true);
            range.setCustom(false);
            go({ from: v, to: "" });
          }}
          data-testid={testId}
        >
          <option value="">Any time</option>
          {TIME_PRESETS.map((p) => (
            <option key={p.from} value={p.from}>
              {p.label}
            </option>
          ))}
          <option value="custom">Custom range…</option>
        </select>
      </label>
      {range.custom ? (
        <>
          <label className={className} htmlFor={`${idPrefix}-from`}>
            <span>From (your time)</span>
            <input id={`${idPrefix}-from`} type="datetime-local" value={range.from} onChange={(e) => range.setFrom(e.target.value)} />
          </label>
          <label className={className} htmlFor={`${idPrefix}-to`}>
            <span>To (your time)</span>
            <input id={`${idPrefix}-to`} type="datetime-local" value={range.to} onChange={(e) => range.setTo(e.target.value)} />
          </label>
        </>
      ) : null}
    </>
  );
}

/**
 * A filters bar: a search form (`label` names it for screen readers) whose submit applies what was typed
 * (`onApply`); the invalid filters of the address under its fields.
 */
export function FilterForm({ label, testId, onApply, errors, errorsTestId, children }: { label: string; testId: string; onApply: () => void; errors: Array<{ path: string; message: string }>; errorsTestId: string; children: ReactNode }) {
  return (
    <form
      className={filterLooks.bar}
      role="search"
      aria-label={label}
      data-testid={testId}
      onSubmit={(e) => {
        e.preventDefault();
        onApply();
      }}
    >
      {children}
      <FilterErrors errors={errors} testId={errorsTestId} />
    </form>
  );
}

export type FilterOption = string | { value: string; label: string };

/**
 * How a filter select sits: `field`, a field of a filters bar (caption over the select); `inline`, a
 * toolbar's filter (caption beside a compact select, as over the mission's timeline).
 */
const SELECT_LOOKS = {
  field: { label: filterLooks.field },
  inline: { label: "flex items-center gap-1.5", caption: "text-muted", select: "rounded border border-border bg-surface px-2 py-1 text-sm" },
} satisfies Record<string, { label: string; caption?: string; select?: string }>;

/** One filter chosen from a list (applied at once): "Any" first, then the options. */
export function FilterSelect({ id, label, value, options, onChange, any = "Any", testId, look = "field" }: { id: string; label: string; value: string; options: readonly FilterOption[]; onChange: (v: string) => void; any?: string; testId: string; look?: keyof typeof SELECT_LOOKS }) {
  const looks: { label: string; caption?: string; select?: string } = SELECT_LOOKS[look];
  return (
    <label className={looks.label} htmlFor={id}>
      <span className={looks.caption}>{label}</span>
      <select id={id} className={looks.select} value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
        <option value="">{any}</option>
        {options.map((o) => {
          const { value: v, label: text } = typeof o === "string" ? { value: o, label: o } : o;
          return (
            <option key={v} value={v}>
              {text}
            </option>
          );
        })}
      </select>
    </label>
  );
}

/** Filters from the address that are not valid: nothing was searched; each one with its reason. */
export function FilterErrors({ errors, testId }: { errors: Array<{ path: string; message: string }>; testId: string }) {
  if (!errors.length) return null;
  return (
    <div className={ui.result.error} role="alert" data-testid={testId}>
      <p>Some filters in the address are not valid, so nothing was searched. Change or clear them:</p>
      <ul className={ui.fieldErrors}>
        {errors.map((e) => (
          <li key={e.path + e.message}>
            <strong>{e.path || "filters"}</strong>: {e.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** CSV and JSON Lines downloads of the current view: `${path}?<query>&format=…`. */
export function ExportLinks({ path, query, label, testIdPrefix }: { path: string; query: string; label: string; testIdPrefix: string }) {
  const href = (format: string) => `${path}?${query ? `${query}&` : ""}format=${format}`;
  return (
    <div className="flex flex-wrap items-center gap-2" aria-label="Export this view">
      <span className="text-sm text-muted">{label}</span>
      <a className={ui.button("secondary", "sm")} href={href("csv")} download data-testid={`${testIdPrefix}-csv`}>
        CSV
      </a>
      <a className={ui.button("secondary", "sm")} href={href("jsonl")} download data-testid={`${testIdPrefix}-jsonl`}>
        JSON Lines
      </a>
    </div>
  );
}

/**
 * Rows of a keyset-paged GET API, loaded a page at a time as the table asks for more: `path?<query>&
 * limit=&cursor=`, the rows under `key` and `nextCursor` in the answer.
 */
export function useCursorPages<T>(opts: { path: string; query: string; key: string; initialRows: T[]; initialCursor: string | null; limit?: number }) {
  const { path, query, key, limit = 200 } = opts;
  const [rows, setRows] = useState(opts.initialRows);
  const cursor = useRef(opts.initialCursor);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const more = useCallback(async () => {
    if (!cursor.current || loading) return;
    setLoading(true);
    setError(null);
    try {
      const res = await fetch(`${path}?${query ? `${query}&` : ""}limit=${limit}&cursor=${encodeURIComponent(cursor.current)}`);
      const body = (await res.json()) as Record<string, unknown> & { nextCursor: string | null; error?: { message: string } };
      if (!res.ok) throw new Error(body.error?.message ?? `HTTP ${res.status}`);
      cursor.current = body.nextCursor;
      setRows((r) => [...r, ...(body[key] as T[])]);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setLoading(false);
    }
  }, [path, query, key, limit, loading]);
  return { rows, more, loading, error, hasMore: cursor.current !== null };
}

/** The next page could not be loaded: why, and a way to try again. */
export function LoadMoreError({ error, what, retry }: { error: string | null; what: string; retry: () => void }) {
  if (!error) return null;
  return (
    <p className={ui.result.error} role="alert">
      Could not load more {what}: {error}{" "}
      <button type="button" className={ui.button("secondary", "sm")} onClick={retry}>
        Try again
      </button>
    </p>
  );
}

/** The search box of a filters form (it submits the form), and "Clear filters" while any filter is set. */
export function SearchRow(props: { id: string; label: string; value: string; onChange: (v: string) => void; placeholder: string; testIdPrefix: string; onClear: (() => void) | null }) {
  const { id, testIdPrefix: t } = props;
  return (
    <div className="flex gap-2">
      <label className="sr-only" htmlFor={id}>
        {props.label}
      </label>
      <input id={id} className="flex-1" type="search" value={props.value} onChange={(e) => props.onChange(e.target.value)} placeholder={props.placeholder} maxLength={200} data-testid={`${t}-q`} />
      <button type="submit" className={ui.button("primary")} data-testid={`${t}-apply`}>
        Search
      </button>
      {props.onClear ? (
        <button type="button" className={ui.button("ghost")} onClick={props.onClear} data-testid={`${t}-clear`}>
          Clear filters
        </button>
      ) : null}
    </div>
  );
}
