"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { DropdownMenu } from "radix-ui";
import {
  columnVisibilityFeature,
  createPaginatedRowModel,
  createSortedRowModel,
  functionalUpdate,
  rowPaginationFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type ColumnVisibilityState,
  type PaginationState,
  type Row,
  type RowData,
  type SortingState,
} from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef, useState, type ReactNode, type TdHTMLAttributes } from "react";
import { compareValues, readTableState, writeTableState, type TableSort, type TableUrlState } from "./data-table-url";

const features = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  columnVisibilityFeature,
  rowPaginationFeature,
  paginatedRowModel: createPaginatedRowModel(),
});
type Features = typeof features;

/** Past this many rows a list renders only the rows in view. */
export const VIRTUAL_FROM = 200;

type DataAttrs = Record<`data-${string}`, string | number | boolean | undefined>;
export type CellAttrs = TdHTMLAttributes<HTMLTableCellElement> & DataAttrs;
export type SortValue = string | number | null | undefined;

export interface DataColumn<T extends RowData> {
  id: string;
  header: ReactNode;
  /** The column's name in the column menu (defaults to the header when it is text). */
  label?: string;
  cell: (row: T) => ReactNode;
  /** Sorts in the browser by this value (numbers as numbers, text naturally; empty last). */
  sortValue?: (row: T) => SortValue;
  /** Sorted by the server under this key (with `server.onSort`). */
  sortKey?: string;
  /** Each row carries this column's value (its `sortValue`) as `data-<rowAttr>`: what tests find a row by. */
  rowAttr?: string;
  /** Start descending on the first click (default: text ascending, numbers descending). */
  sortDescFirst?: boolean;
  numeric?: boolean;
  /** The row's header cell (<th scope="row">); the row link goes here. */
  rowHeader?: boolean;
  /** Never hidden, and not in the column menu. */
  alwaysVisible?: boolean;
  /** Hidden until shown from the column menu. */
  defaultHidden?: boolean;
  /** Fixed width in px (virtual lists lay out by these); `minWidth` for the flexible ones. */
  width?: number;
  minWidth?: number;
  className?: string;
  headerClassName?: string;
  cellProps?: (row: T) => CellAttrs;
}

/**
 * The row's header column in two lines: the row's name, and under it a smaller muted line (a file, a
 * description, a kind) when `detail` gives one. `detailWeight: "normal"` (the default) sets that line in
 * normal weight; `"header"` leaves it in the header cell's semibold.
 */
export function rowHeaderColumn<T extends RowData>(c: {
  id: string;
  header: ReactNode;
  sortValue: (row: T) => SortValue;
  name: (row: T) => ReactNode;
  detail: (row: T) => ReactNode;
  detailWeight?: "normal" | "header";
}): DataColumn<T> {
  const detailClass = c.detailWeight === "header" ? "block text-sm text-muted" : "block text-sm font-normal text-muted";
  return {
    id: c.id,
    header: c.header,
    alwaysVisible: true,
    rowHeader: true,
    sortValue: c.sortValue,
    cell: (row) => {
      const detail = c.detail(row);
      return (
        <>
          {c.name(row)}
          {detail ? <span className={detailClass}>{detail}</span> : null}
        </>
      );
    },
  };
}

export interface ServerList {
  /** The order the server applied; a header with a `sortKey` calls `onSort` with it. */
  sort?: { key: string; dir: "asc" | "desc" } | null;
  onSort?: (key: string) => void;
  /** Rows that exist (may be more than loaded); null = unknown. */
  total?: number | null;
  /** Asked for more rows when the end comes into view; omit when everything is loaded. */
  onNeedMore?: () => void;
  loadingMore?: boolean;
}

export interface DataTableProps<T extends RowData> {
  data: readonly T[];
  /** Keep this stable (module scope or useMemo): a new array rebuilds the table. */
  columns: readonly DataColumn<T>[];
  /** A row's stable key; rows with an `id` need none (it is the key). */
  rowKey?: (row: T) => string;
  /** The table's name: its caption (read by screen readers; shown with `captionVisible`). */
  label: string;
  caption?: ReactNode;
  testId?: string;
  /** Every row's test id (`data-testid`); a row's values come from the columns' `rowAttr`. */
  rowTestId?: string;
  /** More of a row's data attributes (values no column shows as its sort value). */
  rowAttrs?: (row: T) => DataAttrs;
  /** Where a row leads: its header cell (or first cell) becomes the link. */
  rowHref?: (row: T) => string | undefined;
  /** Said in the table when there are no rows. */
  empty?: ReactNode;
  emptyTestId?: string;
  loading?: boolean;
  error?: ReactNode;
  /** Prefix of this table's URL parameters (sort, dir, hide, page); null keeps the view in memory only. */
  urlKey?: string | null;
  defaultSort?: TableSort;
  /** Pages of this many rows in the browser (the page in the URL); omit to show all (virtual past 200). */
  pageSize?: number;
  /** Sorting and loading by the server. */
  server?: ServerList;
  /** Force (true) or forbid (false) rendering only the rows in view; default: past 200 rows. */
  virtual?: boolean;
  /** Height of a virtual list's scrolling viewport (CSS). */
  height?: string;
  rowHeight?: number;
  /** The column menu (show/hide columns): default when four or more columns can be hidden. */
  columnMenu?: boolean;
  /** Tighter cells, for wide lists on a laptop screen. */
  dense?: boolean;
  /** Extra controls beside the column menu. */
  toolbar?: ReactNode;
  className?: string;
}

const CELL_WIDE = "px-3 py-[7px] text-left align-middle border-b border-border max-xl:px-[9px] max-xl:py-1.5 max-[1100px]:px-[7px]";
const CELL_DENSE = "px-2 py-1.5 text-left align-middle border-b border-border";
const HEAD = "bg-surface-2 text-[12px] font-semibold uppercase tracking-[0.03em] text-muted whitespace-nowrap";
const NUM = "text-right tabular-nums";
const BUTTON =
  "inline-flex cursor-pointer items-center gap-1 rounded-md border border-border bg-surface px-2 py-0.5 text-sm text-fg [font-family:inherit] hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus disabled:cursor-default disabled:opacity-50";

const labelOf = <T extends RowData>(c: DataColumn<T>) => c.label ?? (typeof c.header === "string" ? c.header : c.id);

/** The view (sort, hidden columns, page) in the URL, or in memory when `key` is null. */
function useTableView(key: string | null, ids: readonly string[]) {
  const sp = useSearchParams();
  const pathname = usePathname();
  const [local, setLocal] = useState<TableUrlState>({ sort: null, hidden: null, page: 1 });
  const view = key === null || !sp ? local : readTableState(sp, key, ids);
  const update = (patch: Partial<TableUrlState>) => {
    if (key === null) return setLocal((s) => ({ ...s, ...patch }));
    const q = writeTableState(new URLSearchParams(window.location.search), key, patch).toString();
    // Next.js keeps useSearchParams in step with the native history API, without a server round trip.
    window.history.replaceState(null, "", `${pathname}${q ? `?${q}` : ""}${window.location.hash}`);
  };
  return [view, update] as const;
}

function idOf(row: unknown): string {
  const id = (row as { id?: unknown }).id;
  if (typeof id !== "string" && typeof id !== "number") throw new Error("DataTable: rows without an id need a rowKey");
  return String(id);
}

/**
 * The console's one table: sortable headers (buttons, aria-sort), a column menu (Radix, keyboard
 * operable), the view in the URL, row links, empty / loading / error rows, pages or virtual scrolling
 * (@tanstack/react-virtual) past 200 rows, and server-driven sorting and infinite loading.
 * Built on @tanstack/react-table.
 */
export function DataTable<T extends RowData>(props: DataTableProps<T>) {
  const { data, columns, label, testId, rowTestId, rowAttrs, rowHref, server, pageSize } = props;
  const rowKey = props.rowKey ?? idOf;
  const CELL = props.dense ? CELL_DENSE : CELL_WIDE;
  const ids = useMemo(() => columns.map((c) => c.id), [columns]);
  const byId = useMemo(() => new Map(columns.map((c) => [c.id, c])), [columns]);
  const attrColumns = useMemo(() => {
    const valued = columns.filter((c) => c.rowAttr);
    for (const c of valued) if (!c.sortValue) throw new Error(`DataTable: column "${c.id}" has a rowAttr but no sortValue to take its value from; give it one or use rowAttrs.`);
    return valued;
  }, [columns]);
  const attrsOf = (r: T): DataAttrs => ({ "data-testid": rowTestId, ...Object.fromEntries(attrColumns.map((c) => [`data-${c.rowAttr}`, c.sortValue!(r) ?? undefined])), ...rowAttrs?.(r) });
  const [view, setView] = useTableView(props.urlKey === undefined ? "" : props.urlKey, ids);

  const defs = useMemo<ColumnDef<Features, T>[]>(
    () =>
      columns.map((c) => ({
        id: c.id,
        header: labelOf(c),
        ...(c.sortValue ? { accessorFn: (r: T) => c.sortValue!(r) ?? undefined } : {}),
        enableSorting: !!c.sortValue,
        enableHiding: !c.alwaysVisible,
        sortUndefined: "last" as const,
        ...(c.sortDescFirst !== undefined ? { sortDescFirst: c.sortDescFirst } : {}),
        sortFn: (a: Row<Features, T>, b: Row<Features, T>, id: string) => compareValues(a.getValue<string | number>(id), b.getValue<string | number>(id)),
      })),
    [columns],
  );

  const serverSortId = server?.sort ? columns.find((c) => c.sortKey === server.sort!.key)?.id : undefined;
  const sorting: SortingState = server ? (serverSortId ? [{ id: serverSortId, desc: server.sort!.dir === "desc" }] : []) : view.sort ? [view.sort] : props.defaultSort ? [props.defaultSort] : [];
  const defaultHidden = columns.filter((c) => c.defaultHidden).map((c) => c.id);
  const hidden = view.hidden ?? defaultHidden;
  const columnVisibility: ColumnVisibilityState = Object.fromEntries(ids.map((id) => [id, !hidden.includes(id) || !!byId.get(id)?.alwaysVisible]));
  const pagination: PaginationState = { pageIndex: pageSize ? view.page - 1 : 0, pageSize: pageSize ?? Math.max(1, data.length) };

  const table = useTable({
    features,
    columns: defs,
    data,
    getRowId: (r) => rowKey(r),
    state: { sorting, columnVisibility, pagination },
    onSortingChange: (u) => {
      const next = functionalUpdate(u, sorting);
      setView({ sort: next[0] ?? null, page: 1 });
    },
    onColumnVisibilityChange: (u) => {
      const next = functionalUpdate(u, columnVisibility);
      const nowHidden = ids.filter((id) => next[id] === false);
      const same = nowHidden.length === defaultHidden.length && nowHidden.every((id) => defaultHidden.includes(id));
      setView({ hidden: same ? null : nowHidden });
    },
    onPaginationChange: (u) => setView({ page: functionalUpdate(u, pagination).pageIndex + 1 }),
    manualSorting: !!server,
    manualPagination: !pageSize,
    autoResetPageIndex: false,
  });

  const rows = table.getRowModel().rows;
  const visible = table.getVisibleLeafColumns().map((c) => byId.get(c.id)!);
  const hideable = table.getAllLeafColumns().filter((c) => c.getCanHide());
  const showMenu = props.columnMenu ?? hideable.length >= 4;

  // Virtual scrolling: only the rows in view (and a few either side) are in the document.
  const isVirtual = props.virtual ?? (!pageSize && rows.length > VIRTUAL_FROM);
  const scrollRef = useRef<HTMLDivElement>(null);
  const rowHeight = props.rowHeight ?? 36;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 10,
    enabled: isVirtual,
    getItemKey: (i) => rows[i]?.id ?? i,
    initialRect: { width: 1200, height: 720 },
  });
  const items = isVirtual ? virtualizer.getVirtualItems() : null;
  const lastIndex = items ? (items.at(-1)?.index ?? -1) : rows.length - 1;
  const onNeedMore = server?.onNeedMore;
  const loadingMore = !!server?.loadingMore;
  useEffect(() => {
    if (onNeedMore && !loadingMore && rows.length > 0 && lastIndex >= rows.length - 10) onNeedMore();
  }, [lastIndex, rows.length, onNeedMore, loadingMore]);

  const padTop = items?.length ? items[0].start : 0;
  const padBottom = items?.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const shown = items ? items.map((it) => ({ row: rows[it.index], index: it.index })) : rows.map((row, index) => ({ row, index }));
  const fixedLayout = isVirtual && visible.some((c) => c.width);
  const minWidth = fixedLayout ? visible.reduce((n, c) => n + (c.width ?? c.minWidth ?? 100), 0) : undefined;
  const total = server?.total;

  const header = (c: DataColumn<T>) => {
    const col = table.getColumn(c.id);
    const sortable = server ? !!(c.sortKey && server.onSort) : !!col?.getCanSort();
    const dir = sorting[0]?.id === c.id ? (sorting[0].desc ? "desc" : "asc") : false;
    return (
      <th key={c.id} scope="col" aria-sort={dir ? (dir === "asc" ? "ascending" : "descending") : sortable ? "none" : undefined} className={`${CELL} ${HEAD} ${isVirtual ? "sticky top-0 z-[1]" : ""} ${c.numeric ? NUM : ""} ${c.headerClassName ?? ""}`}>
        {sortable ? (
          <button
            type="button"
            className="group relative cursor-pointer border-0 bg-transparent p-0 text-inherit uppercase tracking-[inherit] [font:inherit] hover:text-fg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus"
            onClick={(e) => (server ? server.onSort!(c.sortKey!) : col!.getToggleSortingHandler()?.(e))}
            data-testid={testId ? `${testId}-sort-${c.id}` : undefined}
          >
            {c.header}
            {/* In the cell's padding, so an arrow never widens the column. */}
            <span aria-hidden="true" className={`absolute top-1/2 left-full ml-0.5 -translate-y-1/2 text-[10px] ${dir ? "" : "opacity-40 group-hover:opacity-70"}`}>
              {dir === "asc" ? "▲" : dir === "desc" ? "▼" : "↕"}
            </span>
          </button>
        ) : (
          c.header
        )}
      </th>
    );
  };

  const cell = (c: DataColumn<T>, r: T, first: boolean) => {
    const href = first ? rowHref?.(r) : undefined;
    const content = href ? (
      <Link href={href} className="font-semibold text-link no-underline hover:underline">
        {c.cell(r)}
      </Link>
    ) : (
      c.cell(r)
    );
    const cls = `${CELL} ${c.numeric ? NUM : ""} ${isVirtual ? "overflow-hidden text-ellipsis whitespace-nowrap" : ""} ${c.className ?? ""}`;
    const extra = c.cellProps?.(r) ?? {};
    return c.rowHeader ? (
      <th key={c.id} scope="row" {...extra} className={`${cls} min-w-[12em] font-semibold ${extra.className ?? ""}`}>
        {content}
      </th>
    ) : (
      <td key={c.id} {...extra} className={`${cls} ${extra.className ?? ""}`}>
        {content}
      </td>
    );
  };
  const linkColumn = visible.find((c) => c.rowHeader)?.id ?? visible[0]?.id;

  const status = props.error ? (
    <span role="alert" className="text-failed">
      {props.error}
    </span>
  ) : props.loading && rows.length === 0 ? (
    <span role="status">Loading…</span>
  ) : rows.length === 0 ? (
    (props.empty ?? "Nothing to show.")
  ) : null;

  const tableEl = (
    <table
      className={`w-full border-separate border-spacing-0 text-[13.5px] max-[1100px]:text-[13px] [&_.link]:no-underline [&_.link:hover]:underline [&_a.text-link]:no-underline [&_a.text-link:hover]:underline [&_td_time]:whitespace-nowrap [&_td_.muted]:whitespace-nowrap ${fixedLayout ? "table-fixed" : ""}`}
      style={minWidth ? { minWidth } : undefined}
      data-testid={testId}
      aria-rowcount={isVirtual ? (total ?? rows.length) + 1 : undefined}
      aria-busy={props.loading || loadingMore || undefined}
    >
      <caption className={props.caption ? "caption-top px-3 py-2 text-left text-sm text-muted" : "sr-only"}>{props.caption ?? label}</caption>
      {fixedLayout ? (
        <colgroup>
          {visible.map((c) => (
            <col key={c.id} style={c.width ? { width: c.width } : undefined} />
          ))}
        </colgroup>
      ) : null}
      <thead>
        <tr aria-rowindex={isVirtual ? 1 : undefined}>{visible.map(header)}</tr>
      </thead>
      <tbody>
        {status !== null && rows.length === 0 ? (
          <tr>
            <td colSpan={Math.max(1, visible.length)} className={`${CELL} border-b-0 text-muted`} data-testid={props.emptyTestId}>
              {status}
            </td>
          </tr>
        ) : null}
        {padTop > 0 ? (
          <tr aria-hidden="true">
            <td colSpan={visible.length} style={{ height: padTop, padding: 0, border: 0 }} />
          </tr>
        ) : null}
        {shown.map(({ row, index }) => {
          const r = row.original;
          return (
            <tr key={row.id} {...attrsOf(r)} data-index={index} ref={isVirtual ? virtualizer.measureElement : undefined} aria-rowindex={isVirtual ? index + 2 : undefined} className="hover:bg-surface-2 [&:last-child>*]:border-b-0">
              {visible.map((c) => cell(c, r, c.id === linkColumn))}
            </tr>
          );
        })}
        {padBottom > 0 ? (
          <tr aria-hidden="true">
            <td colSpan={visible.length} style={{ height: padBottom, padding: 0, border: 0 }} />
          </tr>
        ) : null}
      </tbody>
    </table>
  );

  const pageCount = pageSize ? table.getPageCount() : 1;
  return (
    <div className={`flex flex-col gap-1.5 ${props.className ?? ""}`}>
      {showMenu || props.toolbar ? (
        <div className="flex flex-wrap items-center justify-end gap-2">
          {props.toolbar}
          {showMenu ? <ColumnMenu columns={hideable.map((c) => ({ id: c.id, label: labelOf(byId.get(c.id)!), visible: c.getIsVisible(), toggle: (v: boolean) => c.toggleVisibility(v) }))} reset={() => setView({ hidden: null })} testId={testId} tableLabel={label} /> : null}
        </div>
      ) : null}
      <div ref={scrollRef} className={`rounded-md border border-border bg-surface shadow-card ${isVirtual ? "overflow-auto" : "overflow-x-auto"}`} style={isVirtual ? { maxHeight: props.height ?? "min(70vh, 720px)" } : undefined}>
        {tableEl}
      </div>
      {props.error && rows.length > 0 ? (
        <p role="alert" className="m-0 text-sm text-failed">
          {props.error}
        </p>
      ) : null}
      {isVirtual && rows.length > 0 ? (
        <p className="m-0 text-sm text-muted" aria-live="polite">
          {`${rows.length.toLocaleString("en")} shown${total != null ? ` of ${total.toLocaleString("en")}` : ""}${loadingMore ? " · loading more…" : ""}`}
        </p>
      ) : null}
      {pageSize && pageCount > 1 ? (
        <nav aria-label={`Pages of ${label}`} className="flex items-center gap-2" data-testid={testId ? `${testId}-pager` : undefined}>
          <button type="button" className={BUTTON} onClick={() => table.previousPage()} disabled={!table.getCanPreviousPage()}>
            ← Previous
          </button>
          <span className="text-sm text-muted">
            Page {pagination.pageIndex + 1} of {pageCount}
          </span>
          <button type="button" className={BUTTON} onClick={() => table.nextPage()} disabled={!table.getCanNextPage()}>
            Next →
          </button>
        </nav>
      ) : null}
    </div>
  );
}

/** Show or hide columns: a Radix menu of checkboxes (arrow keys, Space/Enter, Escape). */
function ColumnMenu({ columns, reset, testId, tableLabel }: { columns: Array<{ id: string; label: string; visible: boolean; toggle: (v: boolean) => void }>; reset: () => void; testId?: string; tableLabel: string }) {
  const hiddenCount = columns.filter((c) => !c.visible).length;
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <button type="button" className={BUTTON} aria-label={`Columns of ${tableLabel}${hiddenCount ? `, ${hiddenCount} hidden` : ""}`} data-testid={testId ? `${testId}-columns` : undefined}>
          Columns{hiddenCount ? <span className="text-muted">({hiddenCount} hidden)</span> : null}
          <span aria-hidden="true">▾</span>
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={4} className="z-50 min-w-48 rounded-md border border-border bg-surface p-1 text-sm text-fg shadow-card">
          <DropdownMenu.Label className="px-2 py-1 text-xs text-muted">Show columns</DropdownMenu.Label>
          {columns.map((c) => (
            <DropdownMenu.CheckboxItem
              key={c.id}
              checked={c.visible}
              onCheckedChange={(v) => c.toggle(v === true)}
              onSelect={(e) => e.preventDefault()}
              className="flex cursor-pointer items-center gap-2 rounded px-2 py-1 outline-none select-none data-[highlighted]:bg-surface-2"
              data-testid={testId ? `${testId}-column-${c.id}` : undefined}
            >
              <span className="inline-block w-3 text-center" aria-hidden="true">
                <DropdownMenu.ItemIndicator>✓</DropdownMenu.ItemIndicator>
              </span>
              {c.label}
            </DropdownMenu.CheckboxItem>
          ))}
          <DropdownMenu.Separator className="my-1 h-px bg-border" />
          <DropdownMenu.Item onSelect={reset} disabled={!hiddenCount} className="cursor-pointer rounded px-2 py-1 pl-7 outline-none select-none data-[disabled]:cursor-default data-[disabled]:text-muted data-[highlighted]:bg-surface-2">
            Show all columns
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** A row of a table whose cells were rendered by a server component. */
export interface CellRow {
  key: string;
  cells: Record<string, ReactNode>;
  /** Values to sort by, where a cell is not plain text or a number. */
  sort?: Record<string, string | number | null>;
  href?: string;
  attrs?: DataAttrs;
  cellAttrs?: Record<string, CellAttrs>;
}

export type CellColumn = Omit<DataColumn<CellRow>, "cell" | "sortValue" | "cellProps"> & { sortable?: boolean };

function cellsColumns(columns: readonly CellColumn[]): DataColumn<CellRow>[] {
  return columns.map(({ sortable, ...c }) => ({
    ...c,
    cell: (r: CellRow) => r.cells[c.id],
    sortValue: sortable
      ? (r: CellRow) => {
          if (r.sort && c.id in r.sort) return r.sort[c.id];
          const v = r.cells[c.id];
          return typeof v === "string" || typeof v === "number" ? v : null;
        }
      : undefined,
    cellProps: (r: CellRow) => r.cellAttrs?.[c.id] ?? {},
  }));
}

/** The data table for server components: cells already rendered, columns as plain data. */
export function CellsTable({ rows, columns, ...rest }: Omit<DataTableProps<CellRow>, "data" | "columns" | "rowKey" | "rowHref" | "rowAttrs"> & { rows: CellRow[]; columns: CellColumn[] }) {
  const cols = useMemo(() => cellsColumns(columns), [columns]);
  return <DataTable {...rest} data={rows} columns={cols} rowKey={(r) => r.key} rowHref={(r) => r.href} rowAttrs={(r) => r.attrs ?? {}} />;
}
