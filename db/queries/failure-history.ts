import { sql, type SQL } from "drizzle-orm";
import type { AuditActor } from "../../lib/audit";
import { AppError } from "../../lib/errors";
import { OUTCOME_ACTIONS, outcomeOf, resolveTimeBound, serializeHistoryFilters, type HistoryFilters, type Outcome } from "../../lib/history/filters";
import type { Executor } from "../client";
import { PHASES } from "../../lib/mission/definition";
import { recordAudit } from "./audit-log";
import { cappedCount, cappedWordsCount } from "./capped-count";
import { estimatedRows, partitionBounds, timeWindows, windowWhere } from "../partitions";
import { COUNT_CAP, type CappedCount } from "../../lib/query-filters";

/**
 * The failure history (issue 6): every failure across missions with its attribution (who, when, why,
 * how resolved), read from `failure_audit` (written by the projection, see db/queries/events.ts).
 * One WHERE builder serves the page (keyset pagination on the sort key + id), the capped count, the
 * facets, the charts and the streamed export. Filters come from lib/history/filters.ts.
 */

export const MAX_PAGE_SIZE = 500;
/** A full-text page first looks for its matches among this many newest rows of the view (see listFailureHistory). */
const SEARCH_SCAN = 5_000;

export interface HistoryRow {
  id: string;
  missionId: string;
  seq: number;
  /** When the failure was recorded (ISO, microseconds). */
  time: string;
  definition: string | null;
  agent: string | null;
  phase: string | null;
  step: number | null;
  attempt: number | null;
  level: string;
  severity: string;
  errorType: string;
  what: string;
  why: string | null;
  rootCause: string | null;
  failureMode: string | null;
  failureModeTitle: string | null;
  failureModeConfirmed: boolean;
  actorId: string | null;
  actorName: string | null;
  startedBy: string | null;
  startedByName: string | null;
  gateId: string | null;
  resolutionAction: string | null;
  outcome: Outcome;
  decidedBy: string | null;
  decidedByName: string | null;
  resolvedAt: string | null;
  resolutionMs: number | null;
}

const MAX_BIGINT = sql.raw("9223372036854775807");
/** The sort expressions; each has an index ending in id (migration 0011). */
const SORT_EXPR: Record<HistoryFilters["sort"], SQL> = {
  time: sql`f."timestamp"`,
  resolution: sql`coalesce(f."resolution_ms", ${MAX_BIGINT})`,
};

/** The WHERE clause of a filter set (`now` resolves relative time bounds such as `1h`). */
export function historyWhere(f: HistoryFilters, now = Date.now()): SQL {
  const c: SQL[] = [sql`true`];
  if (f.mission) c.push(sql`f."mission_id" = ${f.mission}::uuid`);
  if (f.definition) c.push(sql`f."definition" = ${f.definition}`);
  if (f.level) c.push(sql`f."level" = ${f.level}`);
  if (f.severity) c.push(sql`f."severity" = ${f.severity}`);
  if (f.type) c.push(sql`f."error_type" = ${f.type}`);
  if (f.mode) c.push(sql`f."failure_mode" = ${f.mode}`);
  if (f.actor) c.push(sql`(f."actor_id" = ${f.actor} or f."started_by" = ${f.actor})`);
  if (f.phase) c.push(sql`f."phase" = ${f.phase}`);
  if (f.from) c.push(sql`f."timestamp" >= ${new Date(resolveTimeBound(f.from, now)).toISOString()}::timestamptz`);
  if (f.to) c.push(sql`f."timestamp" <= ${new Date(resolveTimeBound(f.to, now)).toISOString()}::timestamptz`);
  if (f.status === "resolved") c.push(sql`f."resolved_at" is not null`);
  if (f.status === "unresolved") c.push(sql`f."resolved_at" is null`);
  if (f.decidedBy) c.push(sql`f."decided_by" = ${f.decidedBy}`);
  if (f.q) c.push(sql`f."search" @@ websearch_to_tsquery('english', ${f.q})`);
  return sql.join(c, sql` and `);
}

/** An opaque keyset cursor: the last row's sort value and id. */
export function encodeCursor(sort: HistoryFilters["sort"], row: Pick<HistoryRow, "id" | "time" | "resolutionMs">): string {
  const v = sort === "time" ? row.time : (row.resolutionMs ?? "9223372036854775807");
  return Buffer.from(JSON.stringify([sort, String(v), row.id])).toString("base64url");
}

function decodeCursor(sort: HistoryFilters["sort"], cursor: string): { value: string; id: string } {
  try {
    const [s, value, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [string, string, string];
    if (s === sort && typeof value === "string" && /^[0-9a-f-]{36}$/i.test(id) && (sort === "time" ? !Number.isNaN(Date.parse(value)) : /^\d+$/.test(value))) return { value, id };
  } catch {
    // fall through
  }
  throw new AppError("bad_request", { userMessage: "The cursor is not valid for this sort: start again from the first page (omit cursor).", details: { fieldErrors: [{ path: "cursor", message: "is not a cursor of this view" }] } });
}

const ROW_COLUMNS = sql`
  f."id", f."mission_id" as "missionId", f."seq", to_json(f."timestamp")#>>'{}' as "time", f."definition", f."agent", f."phase", f."step", f."attempt",
  f."level", f."severity", f."error_type" as "errorType", f."what", f."why", f."root_cause" as "rootCause",
  f."failure_mode" as "failureMode", le."title" as "failureModeTitle", f."failure_mode_confirmed" as "failureModeConfirmed",
  f."actor_id" as "actorId", aa."display_name" as "actorName", f."started_by" as "startedBy", sa."display_name" as "startedByName",
  f."gate_id" as "gateId", f."resolution_action" as "resolutionAction", f."decided_by" as "decidedBy", da."display_name" as "decidedByName",
  to_json(f."resolved_at")#>>'{}' as "resolvedAt", f."resolution_ms" as "resolutionMs"`;

const ROW_JOINS = sql`
  left join "library_entries" le on le."failure_id" = f."failure_mode"
  left join "actors" aa on aa."id" = f."actor_id"
  left join "actors" sa on sa."id" = f."started_by"
  left join "actors" da on da."id" = f."decided_by"`;

export interface HistoryPage {
  rows: HistoryRow[];
  /** Pass as `cursor` for the next page; null at the end. */
  nextCursor: string | null;
}

/** One page of failures, ordered by the sort key then id, after `cursor` (keyset: no gaps, no duplicates while rows are added). */
export async function listFailureHistory(db: Executor, params: { filters: HistoryFilters; cursor?: string | null; limit?: number; now?: number }): Promise<HistoryPage> {
  return historyPage(db, params, MAX_PAGE_SIZE);
}

async function historyPage(db: Executor, params: { filters: HistoryFilters; cursor?: string | null; limit?: number; now?: number }, maxLimit: number): Promise<HistoryPage> {
  const f = params.filters;
  const limit = Math.max(1, Math.min(maxLimit, params.limit ?? 100));
  const now = params.now ?? Date.now();
  const key = SORT_EXPR[f.sort];
  const dir = sql.raw(f.dir);
  const where = [historyWhere({ ...f, q: undefined }, now)];
  const c = params.cursor ? decodeCursor(f.sort, params.cursor) : null;
  if (c) {
    const value = f.sort === "time" ? sql`${c.value}::timestamptz` : sql`${c.value}::bigint`;
    where.push(f.dir === "desc" ? sql`(${key}, f."id") < (${value}, ${c.id}::uuid)` : sql`(${key}, f."id") > (${value}, ${c.id}::uuid)`);
  }
  const order = sql`order by ${key} ${dir}, f."id" ${dir}`;
  const rowsOf = async (ids: SQL) => {
    // The page's ids first (an index range read), then the joins for just those rows. With the time: the table is
    // partitioned by it (migration 0028), so each row is fetched from its month, not looked for in every month.
    const res = await db.execute(sql`with page as (${ids}) select ${ROW_COLUMNS} from page p join "failure_audit" f on f."id" = p."id" and f."timestamp" = p."timestamp" ${ROW_JOINS} ${order}`);
    return res as unknown as Array<Omit<HistoryRow, "outcome">>;
  };
  /** With words: false once SEARCH_SCAN of the view's rows held fewer matches than a page needs (a rare word). */
  let scan = true;
  /** Up to `need` rows of the view within `span` (more where), in sort order. */
  const read = async (span: SQL[], need: number) => {
    const w = sql.join([...where, ...span], sql` and `);
    if (f.q) {
      const match = sql`f."search" @@ websearch_to_tsquery('english', ${f.q})`;
      // A common word matches thousands of rows: reading the newest rows in sort order and keeping the matches
      // is far cheaper than fetching every match from the full-text index and sorting them. Only when the
      // newest SEARCH_SCAN rows hold fewer than needed does the full-text index answer (rare words: few matches),
      // and then in the older months too, without reading their newest rows first (12 ms a month for nothing).
      if (scan) {
        const scanned = await rowsOf(sql`select f."id", f."timestamp" from (select f."id", f."timestamp", f."resolution_ms", f."search" from "failure_audit" f where ${w} ${order} limit ${SEARCH_SCAN}) f where ${match} ${order} limit ${need}`);
        if (scanned.length >= need) return scanned;
        // Short: a rare word if the span had SEARCH_SCAN rows to read (a month just begun may hold a handful).
        scan = !(await cappedCount(db, sql`"failure_audit" f`, w, SEARCH_SCAN - 1)).capped;
      }
      return rowsOf(sql`select f."id", f."timestamp" from "failure_audit" f where ${w} and ${match} ${order} limit ${need}`);
    }
    return rowsOf(sql`select f."id", f."timestamp" from "failure_audit" f where ${w} ${order} limit ${need}`);
  };
  let raw: Array<Omit<HistoryRow, "outcome">> = [];
  if (f.sort === "time") {
    // Month by month in the page's direction (the history is partitioned by month, migration 0028), as the audit
    // log is read: a page stops in the months that fill it, and each query reads one month.
    const windows = timeWindows(await partitionBounds(db, "failure_audit"), {
      after: Math.max(f.from ? resolveTimeBound(f.from, now) : -Infinity, c && f.dir === "asc" ? Date.parse(c.value) : -Infinity),
      before: Math.min(f.to ? resolveTimeBound(f.to, now) : Infinity, c && f.dir === "desc" ? Date.parse(c.value) : Infinity),
      now,
    });
    if (f.dir === "asc") windows.reverse();
    for (const w of windows) {
      raw.push(...(await read([windowWhere(sql`f."timestamp"`, w)], limit + 1 - raw.length)));
      if (raw.length > limit) break;
    }
  } else raw = await read([], limit + 1);
  const more = raw.length > limit;
  const rows = raw.slice(0, limit).map(withOutcome);
  return { rows, nextCursor: more && rows.length ? encodeCursor(f.sort, rows[rows.length - 1]) : null };
}

function withOutcome(r: Omit<HistoryRow, "outcome">): HistoryRow {
  return { ...r, resolutionMs: r.resolutionMs === null ? null : Number(r.resolutionMs), outcome: outcomeOf(r.resolutionAction) };
}

/** How many failures match: exact up to COUNT_CAP ("10,000+" beyond); with full text, see cappedWordsCount. */
export function countFailureHistory(db: Executor, filters: HistoryFilters, now = Date.now()): Promise<CappedCount> {
  if (!filters.q) return cappedCount(db, sql`"failure_audit" f`, historyWhere(filters, now));
  const words = sql`f."search" @@ websearch_to_tsquery('english', ${filters.q})`;
  return cappedWordsCount(db, { table: "failure_audit", from: sql`"failure_audit" f`, view: historyWhere({ ...filters, q: undefined }, now), words, time: sql`f."timestamp"`, id: sql`f."id"`, idType: "uuid" });
}

export interface FacetOption {
  value: string;
  label: string;
}
export interface HistoryFacets {
  definitions: FacetOption[];
  errorTypes: FacetOption[];
  failureModes: FacetOption[];
  actors: FacetOption[];
  deciders: FacetOption[];
  phases: FacetOption[];
}

/** Distinct values of an indexed column by a loose index scan (one index probe per value, not a scan of every row). */
function distinctValues(column: string, limit = 200): SQL {
  const col = sql.raw(`"${column}"`);
  return sql`with recursive t(v) as (
      (select ${col} from "failure_audit" where ${col} is not null order by ${col} limit 1)
      union all
      select (select ${col} from "failure_audit" where ${col} > t.v order by ${col} limit 1) from t where t.v is not null
    ) select v from t where v is not null limit ${limit}`;
}

/** Values for the filter dropdowns (every value present in the history, not only in the current view). */
export async function historyFacets(db: Executor): Promise<HistoryFacets> {
  const values = async (column: string) => ((await db.execute(distinctValues(column))) as Array<{ v: string }>).map((r) => r.v);
  const [definitions, errorTypes, modes, recorders, starters, deciders] = await Promise.all([
    values("definition"),
    values("error_type"),
    values("failure_mode"),
    values("actor_id"),
    values("started_by"),
    values("decided_by"),
  ]);
  const ids = [...new Set([...recorders, ...starters, ...deciders])];
  const names = new Map<string, string>();
  if (ids.length) {
    const r = await db.execute(sql`select "id", "display_name" as name from "actors" where "id" in ${sql`(${sql.join(ids.map((i) => sql`${i}`), sql`, `)})`}`);
    for (const x of r as unknown as Array<{ id: string; name: string }>) names.set(x.id, x.name);
  }
  const titles = new Map<string, string>();
  if (modes.length) {
    const r = await db.execute(sql`select "failure_id" as id, "title" from "library_entries" where "failure_id" in ${sql`(${sql.join(modes.map((i) => sql`${i}`), sql`, `)})`}`);
    for (const x of r as unknown as Array<{ id: string; title: string }>) titles.set(x.id, x.title);
  }
  const actorOption = (id: string) => ({ value: id, label: names.get(id) ?? id });
  return {
    definitions: definitions.map((v) => ({ value: v, label: v })),
    errorTypes: errorTypes.map((v) => ({ value: v, label: v })),
    failureModes: modes.map((v) => ({ value: v, label: titles.has(v) ? `${v} — ${titles.get(v)}` : v })),
    actors: ids.filter((i) => recorders.includes(i) || starters.includes(i)).map(actorOption).sort((a, b) => a.label.localeCompare(b.label)),
    deciders: deciders.map(actorOption).sort((a, b) => a.label.localeCompare(b.label)),
    // The state machine's phases, in their order (a distinct over the history read every row: 10 s at 10,000,000).
    phases: PHASES.map((v) => ({ value: v, label: v })),
  };
}

export interface HistoryStats {
  bucket: "hour" | "day";
  /** Failures per bucket and error type (the 6 most frequent types; the rest as "other"). */
  overTime: { buckets: string[]; types: string[]; counts: number[][] };
  /** Time to resolution by level, milliseconds. */
  resolutionByLevel: Array<{ level: string; count: number; medianMs: number; p90Ms: number }>;
  topFailureModes: Array<{ failureMode: string; title: string | null; count: number }>;
  outcomes: Array<{ outcome: Outcome; count: number }>;
  /** Set when the charts are estimated from a sample of the history (see failureHistoryStats); null: every row read. */
  sample: { percent: number; rows: number } | null;
}

const TOP_TYPES = 6;

/** SQL of the outcome categories (same mapping as `outcomeOf`). */
function outcomeSql(): SQL {
  const when = Object.entries(OUTCOME_ACTIONS).map(([k, list]) => sql`when f."resolution_action" in (${sql.join(list.map((a) => sql`${a}`), sql`, `)}) then ${k}`);
  return sql`case when f."resolution_action" is null then 'unresolved' when f."resolution_action" like 'library_resolution%' then 'library_resolution' ${sql.join(when, sql` `)} else 'other' end`;
}

/** Charts of a large view read about this many rows of the whole history, a sample (see failureHistoryStats). */
export const CHART_SAMPLE_ROWS = 50_000;

/**
 * The charts of a filtered view: failures over time by type (hourly up to 3 days, else daily), time to resolution by
 * level, top failure modes, outcomes. They aggregate every row of the view: 33 s for the unfiltered view of 10,000,000
 * failures. So a view the planner expects to hold more than COUNT_CAP rows, in a history of more than ten times
 * CHART_SAMPLE_ROWS, is drawn from a sample of the history's pages (TABLESAMPLE SYSTEM, the same pages for every chart
 * and every reload: REPEATABLE; more pages for a selective view, see chartSamplePercent), its counts scaled up and
 * marked as estimates (`sample`); a sample holding too few of the view's rows (under 1% of `sampleRows`) is not used.
 */
export async function failureHistoryStats(db: Executor, filters: HistoryFilters, now = Date.now(), sampleRows = CHART_SAMPLE_ROWS): Promise<HistoryStats> {
  const where = historyWhere(filters, now);
  const fromMs = filters.from
    ? resolveTimeBound(filters.from, now)
    : await db.execute(sql`select extract(epoch from min(f."timestamp")) * 1000 as ms from "failure_audit" f where ${where}`).then((r) => Number((r[0] as { ms: number | null }).ms ?? now));
  const toMs = filters.to ? resolveTimeBound(filters.to, now) : now;
  const bucket: "hour" | "day" = toMs - fromMs <= 3 * 86_400_000 ? "hour" : "day";
  let percent = await chartSamplePercent(db, filters, where, now, sampleRows);
  // A sample holding too few of the view's rows is read again on as many more pages as it needed (once), then used
  // if it holds any; none at all (a view that turned out small), every row is read.
  for (let round = 0; percent != null && round < 2; round++) {
    const sampled = await historyAggregates(db, where, bucket, percent);
    const rows = sampled.outcomes.reduce((t, o) => t + o.count, 0);
    if (rows >= sampleRows / 100 || (round === 1 && rows > 0)) return scaled(sampled, percent, rows);
    const more: number = (percent * sampleRows) / 100 / Math.max(rows, 1);
    percent = round === 0 && rows > 0 && more < 20 ? more : null;
  }
  return historyAggregates(db, where, bucket, null);
}

/**
 * The sample's size in percent of the history's pages, or null when every row of the view is cheap enough to read:
 * a history of up to 10 × sampleRows rows, a small view (the planner expects under COUNT_CAP rows; with full text,
 * whose selectivity the planner misjudges, the words count is under 1,000), or one so selective that a sample holding
 * a hundredth of sampleRows of its rows would read a fifth of the history anyway.
 */
async function chartSamplePercent(db: Executor, filters: HistoryFilters, where: SQL, now: number, sampleRows: number): Promise<number | null> {
  const n = await estimatedRows(db, "failure_audit");
  if (n <= 10 * sampleRows) return null;
  const base = (100 * sampleRows) / n;
  if (filters.q) return (await countFailureHistory(db, filters, now)).capped ? base : null;
  const plan = (await db.execute(sql`explain (format json) select 1 from "failure_audit" f where ${where}`)) as unknown as Array<{ "QUERY PLAN": Array<{ Plan: { "Plan Rows": number } }> }>;
  const expected = plan[0]["QUERY PLAN"][0].Plan["Plan Rows"];
  if (expected < COUNT_CAP) return null;
  const percent = Math.max(base, sampleRows / expected);
  return percent >= 20 ? null : percent;
}

/** The sampled aggregates' counts scaled to the whole view (percentiles stay as sampled). */
function scaled(s: HistoryStats, percent: number, rows: number): HistoryStats {
  const up = (x: number) => Math.round((x * 100) / percent);
  return {
    ...s,
    overTime: { ...s.overTime, counts: s.overTime.counts.map((row) => row.map(up)) },
    resolutionByLevel: s.resolutionByLevel.map((r) => ({ ...r, count: up(r.count) })),
    topFailureModes: s.topFailureModes.map((r) => ({ ...r, count: up(r.count) })),
    outcomes: s.outcomes.map((r) => ({ ...r, count: up(r.count) })),
    sample: { percent, rows },
  };
}

/** The four aggregates of a view, over every row or over a sample of `percent` of the history's pages. */
async function historyAggregates(db: Executor, where: SQL, bucket: "hour" | "day", percent: number | null): Promise<HistoryStats> {
  const from = percent == null ? sql`"failure_audit" f` : sql`"failure_audit" f tablesample system (${sql.raw(percent.toFixed(6))}) repeatable (19)`;
  const [series, resolution, modes, outcomes] = await Promise.all([
    db.execute(sql`
      with c as (select date_trunc(${bucket}, f."timestamp", 'UTC') as b, f."error_type" as t, count(*)::int as n from ${from} where ${where} group by 1, 2),
      top as (select t from c group by t order by sum(n) desc, t limit ${TOP_TYPES})
      select to_json(b)#>>'{}' as b, case when t in (select t from top) then t else 'other' end as t, sum(n)::int as n from c group by 1, 2 order by 1, 2`),
    db.execute(sql`
      select f."level", count(*)::int as n, percentile_cont(0.5) within group (order by f."resolution_ms") as p50, percentile_cont(0.9) within group (order by f."resolution_ms") as p90
      from ${from} where ${where} and f."resolution_ms" is not null group by 1 order by 1`),
    db.execute(sql`
      select f."failure_mode" as m, le."title", count(*)::int as n from ${from} left join "library_entries" le on le."failure_id" = f."failure_mode"
      where ${where} and f."failure_mode" is not null group by 1, 2 order by 3 desc, 1 limit 10`),
    db.execute(sql`select ${outcomeSql()} as o, count(*)::int as n from ${from} where ${where} group by 1 order by 2 desc`),
  ]);
  const points = series as unknown as Array<{ b: string; t: string; n: number }>;
  const buckets = [...new Set(points.map((p) => p.b))];
  const totals = new Map<string, number>();
  for (const p of points) totals.set(p.t, (totals.get(p.t) ?? 0) + p.n);
  const types = [...totals.keys()].sort((a, b) => (a === "other" ? 1 : b === "other" ? -1 : totals.get(b)! - totals.get(a)! || a.localeCompare(b)));
  const counts = buckets.map(() => types.map(() => 0));
  for (const p of points) counts[buckets.indexOf(p.b)][types.indexOf(p.t)] = p.n;
  return {
    bucket,
    overTime: { buckets, types, counts },
    resolutionByLevel: (resolution as unknown as Array<{ level: string; n: number; p50: number; p90: number }>).map((r) => ({ level: r.level, count: r.n, medianMs: Math.round(Number(r.p50)), p90Ms: Math.round(Number(r.p90)) })),
    topFailureModes: (modes as unknown as Array<{ m: string; title: string | null; n: number }>).map((r) => ({ failureMode: r.m, title: r.title, count: r.n })),
    outcomes: (outcomes as unknown as Array<{ o: Outcome; n: number }>).map((r) => ({ outcome: r.o, count: r.n })),
    sample: null,
  };
}

/** The columns of an export, in order (CSV header). */
export const EXPORT_COLUMNS = [
  "time",
  "missionId",
  "seq",
  "definition",
  "phase",
  "agent",
  "step",
  "attempt",
  "level",
  "severity",
  "errorType",
  "what",
  "why",
  "rootCause",
  "failureMode",
  "failureModeTitle",
  "failureModeConfirmed",
  "actorId",
  "actorName",
  "startedBy",
  "startedByName",
  "outcome",
  "resolutionAction",
  "decidedBy",
  "decidedByName",
  "resolvedAt",
  "resolutionMs",
  "id",
] as const satisfies ReadonlyArray<keyof HistoryRow>;

/** Rows per page of an export (larger than the API's pages: fewer round trips, still constant memory). */
const EXPORT_PAGE = 2_000;

/** Every failure of a filtered view, page by page (keyset): constant memory however many rows. */
export async function* exportFailureHistory(db: Executor, filters: HistoryFilters, opts: { pageSize?: number; now?: number } = {}): AsyncGenerator<HistoryRow> {
  const now = opts.now ?? Date.now();
  let cursor: string | null = null;
  do {
    const page: HistoryPage = await historyPage(db, { filters, cursor, limit: opts.pageSize ?? EXPORT_PAGE, now }, EXPORT_PAGE);
    yield* page.rows;
    cursor = page.nextCursor;
  } while (cursor);
}

/** An export of the history is itself recorded in the audit log: who exported which view, in which format. */
export async function recordHistoryExport(db: Executor, actor: AuditActor, params: { filters: HistoryFilters; format: "csv" | "jsonl" }): Promise<void> {
  const query = serializeHistoryFilters(params.filters);
  await recordAudit(db, actor, {
    action: "history.export",
    summary: `Exported the failure history${query ? ` (${query})` : " (every failure)"} as ${params.format === "csv" ? "CSV" : "JSON Lines"}.`,
    target: { type: "failure_history", id: query || "all" },
    missionId: params.filters.mission ?? null,
    after: { query, format: params.format },
  });
}
