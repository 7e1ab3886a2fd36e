import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "./client";
import { queryRows } from "./client";

/**
 * Time partitions (issue 19, migration 0028; docs/deploy.md "Time partitions"). The event log (by the mission's
 * creation time), the audit log (by `at`) and the failure history (by `timestamp`) are range-partitioned by UTC
 * month. `faultline_create_partitions(table, from, to)` (SQL, in the migration) creates the months that are
 * missing; a row of a month without a partition lands in `<table>_default` and moves into its month when that
 * month's partition is created.
 */
export const PARTITIONED_TABLES = ["events", "audit_log", "failure_audit"] as const;
export type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

/** Months created ahead of the current one, so a worker that runs for weeks never writes into the default. */
export const PARTITION_MONTHS_AHEAD = 3;

/** How often a running worker checks that the months ahead exist (cheap: a catalog lookup per month). */
export const PARTITION_CHECK_MS = 60 * 60 * 1000;

/**
 * Creates the monthly partitions of every partitioned table from `from` (default: this month) to
 * PARTITION_MONTHS_AHEAD months after this one; returns how many it created. Called by the migration runner
 * after migrating and by every worker when it starts and once an hour; safe when several run at once.
 */
export async function ensurePartitions(db: Executor, opts: { from?: string; tables?: readonly PartitionedTable[] } = {}): Promise<number> {
  let created = 0;
  for (const table of opts.tables ?? PARTITIONED_TABLES) {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`select faultline_create_partitions(${table}, coalesce(${opts.from ?? null}::timestamptz, now()), now() + make_interval(months => ${PARTITION_MONTHS_AHEAD})) as n`,
    );
    created += Number(row.n);
  }
  return created;
}

/** One partition as `listPartitions` reads it from the catalog. */
export interface PartitionInfo {
  table: PartitionedTable;
  partition: string;
  /** `FOR VALUES FROM (…) TO (…)` or `DEFAULT`. */
  bounds: string;
  rows: number;
  bytes: number;
}

/** The partitions of the partitioned tables, oldest first per table, with estimated rows and size (indexes included). */
export async function listPartitions(db: Executor): Promise<PartitionInfo[]> {
  const rows = await queryRows<{ table: PartitionedTable; partition: string; bounds: string; rows: string; bytes: string }>(
    db,
    sql`select p.relname as "table", c.relname as partition, pg_get_expr(c.relpartbound, c.oid) as bounds,
               greatest(c.reltuples, 0)::bigint as rows, pg_total_relation_size(c.oid) as bytes
        from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent join pg_namespace n on n.oid = p.relnamespace
        where n.nspname = 'public' and p.relname in ('events', 'audit_log', 'failure_audit') and p.relkind = 'p'
        order by p.relname, c.relname`,
  );
  return rows.map((r) => ({ ...r, rows: Number(r.rows), bytes: Number(r.bytes) }));
}

const BOUNDS_TTL_MS = 60_000;
const boundsCache = new Map<PartitionedTable, { at: number; bounds: number[] }>();

/** The boundaries of `table`'s monthly partitions (epoch ms, ascending), read from the catalog at most once a minute. */
export async function partitionBounds(db: Executor, table: PartitionedTable): Promise<number[]> {
  const hit = boundsCache.get(table);
  if (hit && Date.now() - hit.at < BOUNDS_TTL_MS) return hit.bounds;
  const rows = await queryRows<{ b: string }>(
    db,
    sql`select distinct extract(epoch from unnest(array[m[1]::timestamptz, m[2]::timestamptz])) * 1000 as b
        from (select regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \\(''([^'']+)''\\) TO \\(''([^'']+)''\\)') as m
              from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass(${`public.${table}`})) p
        where m is not null order by 1`,
  );
  const bounds = rows.map((r) => Number(r.b));
  boundsCache.set(table, { at: Date.now(), bounds });
  return bounds;
}

/** The planner's estimate of a partitioned table's rows (from its partitions' statistics: no row is read). */
export async function estimatedRows(db: Executor, table: PartitionedTable): Promise<number> {
  const [{ n }] = await queryRows<{ n: number }>(db, sql`select coalesce(sum(greatest(c.reltuples, 0)), 0)::float8 as n from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass(${`public.${table}`})`);
  return Number(n);
}

/** A span of time [from, to) in epoch ms; null: unbounded on that side. */
export interface TimeWindow {
  from: number | null;
  to: number | null;
}

/**
 * All of time cut at `bounds` (the partitions' boundaries), newest first, without the windows that hold nothing
 * at or after `after` nor at or before `before` (epoch ms; the filters' own bounds stay in the query). Read one
 * window after the other, a newest-first page stops in the newest months that fill it, each query reading one
 * partition (the planner would otherwise open every month, and a bitmap plan builds each month in full). The
 * windows cover every instant, whatever the partitions are, so a stale `bounds` costs speed, never rows. Bounds
 * after `now` are left out: the current month, the empty months ahead and future strays are the first window.
 */
export function timeWindows(bounds: readonly number[], opts: { after?: number | null; before?: number | null; now?: number } = {}): TimeWindow[] {
  // The months ahead are empty until they come: the current month and everything after it are one window.
  const now = opts.now ?? Date.now();
  const edges = [null, ...bounds.filter((b) => b <= now), null];
  const windows: TimeWindow[] = [];
  for (let i = edges.length - 2; i >= 0; i--) {
    const w = { from: edges[i], to: edges[i + 1] };
    if (opts.after != null && w.to != null && w.to <= opts.after) continue;
    if (opts.before != null && w.from != null && w.from > opts.before) continue;
    windows.push(w);
  }
  return windows;
}

/** The WHERE of a window: `time` (a column of the partitioned table) within [from, to); true where unbounded. */
export function windowWhere(time: SQL, w: TimeWindow): SQL {
  const from = w.from != null ? sql`${time} >= ${new Date(w.from).toISOString()}::timestamptz` : sql`true`;
  const to = w.to != null ? sql`${time} < ${new Date(w.to).toISOString()}::timestamptz` : sql`true`;
  return sql`${from} and ${to}`;
}

/**
 * `windows` (timeWindows, newest first) cut into slices for a search whose matches no index orders by time (words
 * in a text, read through a trigram index): the newest slice spans `first` ms below `top` (the newest instant
 * wanted: now, or a page's cursor), each next one `growth` times the one before, never across a window's bounds
 * (the oldest window, before every partition, stays whole). A newest-first page reads slice after slice and stops
 * once it has enough, so a common word is answered from the newest day, not a month's bitmap, and a rare one in a
 * few more queries (a count with words: cappedWordsCount). The slices cover exactly what the windows cover.
 */
export function searchSlices(windows: readonly TimeWindow[], opts: { top: number; first: number; growth?: number }): TimeWindow[] {
  const growth = opts.growth ?? 2;
  let size = opts.first;
  const slices: TimeWindow[] = [];
  for (const w of windows) {
    if (w.from == null) {
      slices.push(w);
      continue;
    }
    // The first slice of a window keeps its upper bound (the newest window's is open: future strays included).
    let to = w.to;
    let below = Math.min(w.to ?? Infinity, opts.top);
    for (;;) {
      const from = below - size;
      size *= growth;
      if (from <= w.from) {
        slices.push({ from: w.from, to });
        break;
      }
      slices.push({ from, to });
      to = from;
      below = from;
    }
  }
  return slices;
}
