"use client";

import Link from "next/link";
import { useEffect, useRef, useState, type ReactNode } from "react";

export interface VirtualColumn<T> {
  key: string;
  header: string;
  /** CSS grid track, e.g. "160px" or "minmax(200px, 2fr)". */
  width: string;
  cell: (row: T) => ReactNode;
  /** The server's sort key when this column can be sorted. */
  sortKey?: string;
  numeric?: boolean;
}

export interface VirtualTableProps<T> {
  rows: readonly T[];
  columns: readonly VirtualColumn<T>[];
  rowKey: (row: T) => string;
  /** Where a row leads (its first cell becomes the link). */
  rowHref?: (row: T) => string;
  /** Accessible name of the table. */
  label: string;
  /** Rows that exist (may be more than loaded); null = unknown. */
  total?: number | null;
  /** Asked for more rows when the end comes into view; omit when everything is loaded. */
  onNeedMore?: () => void;
  loadingMore?: boolean;
  sort?: { key: string; dir: "asc" | "desc" } | null;
  onSort?: (key: string) => void;
  rowHeight?: number;
  /** Height of the scrolling viewport (CSS). */
  height?: string;
  testId?: string;
  empty?: ReactNode;
}

/**
 * A table that renders only the rows in view (fixed row height), so hundreds of thousands of loaded
 * rows scroll smoothly. ARIA table semantics on a CSS grid; sticky header; sortable headers are
 * buttons; `onNeedMore` asks for the next page when the end is near.
 */
export function VirtualTable<T>(props: VirtualTableProps<T>) {
  const { rows, columns, rowKey, rowHref, label, total, onNeedMore, loadingMore, sort, onSort, testId, empty } = props;
  const rowHeight = props.rowHeight ?? 36;
  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(600);

  useEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setViewHeight(el.clientHeight));
    ro.observe(el);
    setViewHeight(el.clientHeight);
    return () => ro.disconnect();
  }, []);

  const overscan = 10;
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(rows.length, Math.ceil((scrollTop + viewHeight) / rowHeight) + overscan);

  useEffect(() => {
    if (onNeedMore && !loadingMore && rows.length > 0 && last >= rows.length - overscan) onNeedMore();
  }, [last, rows.length, onNeedMore, loadingMore]);

  const template = columns.map((c) => c.width).join(" ");
  const headerCell = (c: VirtualColumn<T>) => {
    const active = sort && c.sortKey && sort.key === c.sortKey;
    const ariaSort = active ? (sort!.dir === "asc" ? "ascending" : "descending") : c.sortKey ? "none" : undefined;
    return (
      <div key={c.key} role="columnheader" aria-sort={ariaSort} className={`vt-th${c.numeric ? " num" : ""}`}>
        {c.sortKey && onSort ? (
          <button type="button" className="vt-sort" onClick={() => onSort(c.sortKey!)}>
            {c.header}
            <span aria-hidden="true">{active ? (sort!.dir === "asc" ? " ▲" : " ▼") : ""}</span>
          </button>
        ) : (
          c.header
        )}
      </div>
    );
  };

  return (
    <div className="vt" data-testid={testId}>
      <div
        ref={viewport}
        className="vt-viewport"
        style={{ height: props.height ?? "min(70vh, 720px)" }}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        role="table"
        aria-label={label}
        aria-rowcount={(total ?? rows.length) + 1}
      >
        <div role="rowgroup" className="vt-head">
          <div role="row" className="vt-row vt-header-row" style={{ gridTemplateColumns: template }} aria-rowindex={1}>
            {columns.map(headerCell)}
          </div>
        </div>
        {rows.length === 0 ? (
          <div className="vt-empty">{empty ?? "Nothing matches."}</div>
        ) : (
          <div role="rowgroup" style={{ height: rows.length * rowHeight, position: "relative" }}>
            {rows.slice(first, last).map((r, i) => {
              const index = first + i;
              const href = rowHref?.(r);
              return (
                <div
                  key={rowKey(r)}
                  role="row"
                  aria-rowindex={index + 2}
                  className="vt-row"
                  data-row-key={rowKey(r)}
                  style={{ gridTemplateColumns: template, position: "absolute", top: index * rowHeight, height: rowHeight, left: 0, right: 0 }}
                >
                  {columns.map((c, ci) => (
                    <div key={c.key} role="cell" className={`vt-td${c.numeric ? " num" : ""}`}>
                      {ci === 0 && href ? (
                        <Link href={href} className="link strong vt-link">
                          {c.cell(r)}
                        </Link>
                      ) : (
                        c.cell(r)
                      )}
                    </div>
                  ))}
                </div>
              );
            })}
          </div>
        )}
      </div>
      <p className="vt-foot muted" aria-live="polite">
        {rows.length === 0 ? null : `${rows.length.toLocaleString("en")} shown${total != null ? ` of ${total.toLocaleString("en")}` : ""}${loadingMore ? " · loading more…" : ""}`}
      </p>
    </div>
  );
}
