/**
 * The data table's view in the URL: which column sorts it and which way, which columns are hidden,
 * which page. Names are plain (`sort`, `dir`, `hide`, `page`) for a page's main table, or prefixed
 * (`tokens_sort`…) where a page has more than one.
 */

export interface TableSort {
  id: string;
  desc: boolean;
}

export interface TableUrlState {
  /** null: the table's default order. */
  sort: TableSort | null;
  /** null: the table's default columns; a list (maybe empty): exactly these are hidden. */
  hidden: string[] | null;
  /** 1-based. */
  page: number;
}

export function tableParamNames(key: string) {
  const p = key ? `${key}_` : "";
  return { sort: `${p}sort`, dir: `${p}dir`, hide: `${p}hide`, page: `${p}page` };
}

type Readable = Pick<URLSearchParams, "get">;

/** The view a URL asks for; unknown column ids are dropped, a bad page is page 1. */
export function readTableState(sp: Readable, key: string, columnIds: readonly string[]): TableUrlState {
  const n = tableParamNames(key);
  const known = new Set(columnIds);
  const sortId = sp.get(n.sort);
  const sort = sortId && known.has(sortId) ? { id: sortId, desc: sp.get(n.dir) === "desc" } : null;
  const hideRaw = sp.get(n.hide);
  const hidden = hideRaw === null ? null : hideRaw.split(",").filter((id) => known.has(id));
  const pageNum = Number(sp.get(n.page));
  const page = Number.isInteger(pageNum) && pageNum > 1 ? pageNum : 1;
  return { sort, hidden, page };
}

/** A copy of `sp` with the given parts of the view written (undefined: left as is; null/1: removed). */
export function writeTableState(sp: URLSearchParams, key: string, patch: Partial<TableUrlState>): URLSearchParams {
  const n = tableParamNames(key);
  const next = new URLSearchParams(sp);
  if (patch.sort !== undefined) {
    if (patch.sort) {
      next.set(n.sort, patch.sort.id);
      next.set(n.dir, patch.sort.desc ? "desc" : "asc");
    } else {
      next.delete(n.sort);
      next.delete(n.dir);
    }
  }
  if (patch.hidden !== undefined) {
    if (patch.hidden === null) next.delete(n.hide);
    else next.set(n.hide, patch.hidden.join(","));
  }
  if (patch.page !== undefined) {
    if (patch.page > 1) next.set(n.page, String(patch.page));
    else next.delete(n.page);
  }
  return next;
}

/** Compare two sort values for an ascending order: numbers as numbers, text naturally ("v2" before "v10"); empty last is handled by the table. */
export function compareValues(a: string | number, b: string | number): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b), "en", { numeric: true, sensitivity: "base" });
}

/** A filter query with the table's own view (hidden columns, for the table `key`) carried over from the current URL's `search`. */
export function keepTableView(query: string, search: string, key = ""): string {
  const n = tableParamNames(key);
  const from = new URLSearchParams(search);
  const to = new URLSearchParams(query);
  const hide = from.get(n.hide);
  if (hide !== null) to.set(n.hide, hide);
  return to.toString();
}
