import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { CATEGORIES, RISK_LEVELS, SOURCES, type LibraryEntry } from "../../lib/library/entry";
import type { Executor } from "../client";
import { getEntry } from "./library";

/**
 * Reading the failure-mode library for people: a filtered, sorted, paged list of entries (plain text
 * search over the entries, filters by category, risk, tags, source and deprecation), an entry's
 * history with names, the failures in missions that matched it, and the numbered versions.
 */

const list = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined || v === "" ? [] : (Array.isArray(v) ? v : [v]).flatMap((x) => String(x).split(",")).map((s) => s.trim()).filter(Boolean)), z.array(item).max(40, "at most 40 values"));

export const BROWSE_SORTS = ["relevance", "id", "title", "risk", "updated"] as const;
export const PAGE_SIZES = [25, 50, 100] as const;

/** Filters as they come from a URL (`?q=&category=Physical&risk=High,Low&tag=drawer&source=&deprecated=hide&sort=&page=&per=`). */
export const browseFiltersSchema = z.object({
  q: z.string().trim().max(200, "must be at most 200 characters").optional().default(""),
  category: list(z.enum(CATEGORIES, { error: `must be one of ${CATEGORIES.join(", ")}` })),
  risk: list(z.enum(RISK_LEVELS, { error: `must be one of ${RISK_LEVELS.join(", ")}` })),
  tag: list(z.string().toLowerCase().max(40, "must be at most 40 characters")),
  source: list(z.enum(SOURCES, { error: `must be one of ${SOURCES.join(", ")}` })),
  deprecated: z.enum(["hide", "show", "only"], { error: "must be hide, show or only" }).optional().default("hide"),
  sort: z.enum(BROWSE_SORTS, { error: `must be one of ${BROWSE_SORTS.join(", ")}` }).optional(),
  page: z.coerce.number({ error: "must be a page number" }).int("must be a whole number").min(1, "must be at least 1").max(100_000).optional().default(1),
  per: z.coerce
    .number({ error: "must be 25, 50 or 100" })
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), "must be 25, 50 or 100")
    .optional()
    .default(50),
});
export type BrowseFilters = z.output<typeof browseFiltersSchema>;

/** URLSearchParams (or Next's searchParams object) → the raw object the schema reads (repeated keys become lists). */
export function searchParamsObject(sp: URLSearchParams | Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const entries = sp instanceof URLSearchParams ? [...sp.keys()].map((k) => [k, sp.getAll(k)] as const) : Object.entries(sp);
  // An empty form field (`sort=`) means "not set".
  for (const [k, v] of entries) {
    const values = (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter((x) => x !== "");
    if (values.length) out[k] = values.length === 1 ? values[0] : values;
  }
  return out;
}

export interface EntrySummary {
  failure_id: string;
  title: string;
  category: string;
  risk_level: string;
  risk_notes: string | null;
  surface_symptom: string;
  context_tags: string[];
  source: string;
  deprecated: boolean;
  revision: number;
  library_version: number;
  updated_at: string;
}

const RISK_ORDER = sql`array_position(array['Requires-Oversight','High','Medium','Low']::text[], e.risk_level)`;

/** One page of entries matching the filters, with the total. Text search: full text (websearch syntax) over the entry, or an id / title fragment. */
export async function listEntries(db: Executor, f: BrowseFilters): Promise<{ entries: EntrySummary[]; total: number; page: number; per: number; pages: number }> {
  const where: SQL[] = [];
  const q = f.q.trim();
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  if (q) where.push(sql`(e.search @@ websearch_to_tsquery('english', ${q}) or e.failure_id ilike ${like} or e.title ilike ${like})`);
  const values = (xs: readonly string[]) => sql.join(xs.map((x) => sql`${x}`), sql`, `);
  if (f.category.length) where.push(sql`e.category in (${values(f.category)})`);
  if (f.risk.length) where.push(sql`e.risk_level in (${values(f.risk)})`);
  if (f.source.length) where.push(sql`e.source in (${values(f.source)})`);
  // Tags narrow: an entry must carry all of them.
  if (f.tag.length) where.push(sql`e.context_tags @> array[${values(f.tag)}]::text[]`);
  if (f.deprecated === "hide") where.push(sql`not e.deprecated`);
  if (f.deprecated === "only") where.push(sql`e.deprecated`);
  const sort = f.sort ?? (q ? "relevance" : "id");
  const order =
    sort === "relevance" && q
      ? sql`(e.failure_id ilike ${q}) desc, ts_rank_cd('{0.2, 0.4, 0.7, 1.0}', e.search, websearch_to_tsquery('english', ${q})) desc, e.failure_id`
      : sort === "title"
        ? sql`lower(e.title), e.failure_id`
        : sort === "risk"
          ? sql`${RISK_ORDER}, e.failure_id`
          : sort === "updated"
            ? sql`e.updated_at desc, e.failure_id`
            : sql`e.failure_id`;
  const res = await db.execute(sql`
    select e.failure_id, e.title, e.category, e.risk_level, e.risk_notes, e.surface_symptom, e.context_tags, e.source, e.deprecated, e.revision, e.library_version,
           to_char(e.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at, count(*) over ()::int as total
    from library_entries e
    ${where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``}
    order by ${order}
    limit ${f.per} offset ${(f.page - 1) * f.per}`);
  const rows = res as unknown as Array<EntrySummary & { total: number }>;
  let total = rows[0]?.total ?? 0;
  if (!rows.length && f.page > 1) {
    // Past the last page: still say how many there are.
    const [c] = (await db.execute(sql`select count(*)::int as n from library_entries e ${where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``}`)) as Array<{ n: number }>;
    total = c.n;
  }
  return { entries: rows.map(({ total: _t, ...r }) => r), total, page: f.page, per: f.per, pages: Math.max(1, Math.ceil(total / f.per)) };
}

/** Tags of the published entries, most used first (for the tag filter). */
export async function popularTags(db: Executor, limit = 40): Promise<Array<{ tag: string; n: number }>> {
  const res = await db.execute(sql`select t as tag, count(*)::int as n from library_entries e, unnest(e.context_tags) t where not e.deprecated group by t order by n desc, t limit ${limit}`);
  return res as unknown as Array<{ tag: string; n: number }>;
}

/** The library as a whole: current version, published and deprecated entry counts. */
export async function librarySummary(db: Executor): Promise<{ version: number | null; published: number; deprecated: number }> {
  const [r] = (
    await db.execute(sql`select (select max(version) from library_versions)::int as version,
      (select count(*) from library_entries where not deprecated)::int as published,
      (select count(*) from library_entries where deprecated)::int as deprecated`)
  ) as Array<{ version: number | null; published: number; deprecated: number }>;
  return r;
}

export interface EntryRevision {
  revision: number;
  libraryVersion: number;
  change: "added" | "edited" | "deprecated" | "restored";
  diff: Array<{ field: string; before: unknown; after: unknown }>;
  authorId: string;
  authorName: string;
  reviewerId: string | null;
  reviewerName: string | null;
  versionSummary: string | null;
  createdAt: string;
}

/** Every revision of an entry, newest first, with the names of author and reviewer and the version's summary. */
export async function entryRevisions(db: Executor, failureId: string): Promise<EntryRevision[]> {
  const res = await db.execute(sql`
    select v.revision, v.library_version as "libraryVersion", v.change, v.diff, v.author_id as "authorId", coalesce(a.display_name, v.author_id) as "authorName",
           v.reviewer_id as "reviewerId", coalesce(r.display_name, v.reviewer_id) as "reviewerName", lv.summary as "versionSummary",
           to_char(v.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt"
    from library_entry_versions v
    left join actors a on a.id = v.author_id
    left join actors r on r.id = v.reviewer_id
    left join library_versions lv on lv.version = v.library_version
    where v.failure_id = ${failureId}
    order by v.revision desc`);
  return res as unknown as EntryRevision[];
}

export interface EntryMatch {
  missionId: string;
  missionName: string;
  seq: number;
  rank: number;
  matchScore: number;
  outcome: string | null;
  at: string;
}

/** The failures in missions that matched an entry (library_matches), newest first, with the total. */
export async function entryMatches(db: Executor, failureId: string, limit = 50): Promise<{ matches: EntryMatch[]; total: number }> {
  const res = await db.execute(sql`
    select m.mission_id as "missionId", mi.name as "missionName", m.seq, m.rank, m.match_score as "matchScore", m.outcome,
           to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, count(*) over ()::int as total
    from library_matches m join missions mi on mi.id = m.mission_id
    where m.failure_id = ${failureId}
    order by m.created_at desc, m.mission_id, m.seq
    limit ${limit}`);
  const rows = res as unknown as Array<EntryMatch & { total: number }>;
  return { matches: rows.map(({ total: _t, ...m }) => m), total: rows[0]?.total ?? 0 };
}

export interface EntryDetail {
  entry: LibraryEntry & { revision: number; libraryVersion: number; deprecated: boolean };
  history: EntryRevision[];
  matches: EntryMatch[];
  matchCount: number;
}

/** An entry with its history and matched failures; null when the id names no entry. */
export async function entryDetail(db: Executor, failureId: string): Promise<EntryDetail | null> {
  const entry = await getEntry(db, failureId);
  if (!entry) return null;
  const [history, m] = await Promise.all([entryRevisions(db, failureId), entryMatches(db, failureId)]);
  return { entry, history, matches: m.matches, matchCount: m.total };
}

export interface LibraryVersionView {
  version: number;
  summary: string;
  changelog: Array<{ failureId: string; change: string; revision: number }>;
  authorId: string;
  authorName: string;
  createdAt: string;
}

/** The numbered versions, newest first, with their changelog and the author's name. */
export async function listVersions(db: Executor, opts: { limit?: number } = {}): Promise<LibraryVersionView[]> {
  const res = await db.execute(sql`
    select v.version, v.summary, v.changelog, v.author_id as "authorId", coalesce(a.display_name, v.author_id) as "authorName",
           to_char(v.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt"
    from library_versions v left join actors a on a.id = v.author_id
    order by v.version desc
    limit ${Math.max(1, Math.min(1000, opts.limit ?? 200))}`);
  return res as unknown as LibraryVersionView[];
}
