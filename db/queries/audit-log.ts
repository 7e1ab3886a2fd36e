import { and, desc, eq, gte, ilike, like, lte, or, sql, type SQL } from "drizzle-orm";
import type { AuditActor, AuditRecord } from "../../lib/audit";
import type { AuditFilters } from "../../lib/audit/filters";
import { AppError } from "../../lib/errors";
import { COUNT_CAP, likeEscape, resolveTimeBound, type CappedCount } from "../../lib/query-filters";
import type { Executor } from "../client";
import { auditLog, auditLogActors, users, type AuditLogRow } from "../schema";
import { cappedCount, cappedWordsCount } from "./capped-count";
import { partitionBounds, searchSlices, timeWindows, windowWhere, type TimeWindow } from "../partitions";

/**
 * Appends one row to the audit log. Call it in the transaction of the change it records, so the
 * log and the data never disagree (a rolled-back change leaves no audit row, and vice versa).
 */
export async function recordAudit(db: Executor, actor: AuditActor, record: AuditRecord): Promise<void> {
  await db.insert(auditLog).values({
    actorId: actor.id,
    actorName: actor.name,
    action: record.action,
    outcome: record.outcome ?? "ok",
    targetType: record.target?.type ?? null,
    targetId: record.target?.id ?? null,
    missionId: record.missionId ?? null,
    summary: record.summary,
    via: actor.via,
    ip: actor.ip ?? null,
    userAgent: actor.userAgent ? actor.userAgent.slice(0, 400) : null,
    before: record.before === undefined ? null : (record.before as object | null),
    after: record.after === undefined ? null : (record.after as object | null),
  });
}

/** One audit row as the page, the API and exports show it (times ISO-8601 UTC). */
export interface AuditEntry {
  id: number;
  at: string;
  actorId: string;
  actorName: string;
  action: string;
  outcome: "ok" | "refused";
  targetType: string | null;
  targetId: string | null;
  missionId: string | null;
  summary: string;
  via: string;
  ip: string | null;
  userAgent: string | null;
  before: unknown;
  after: unknown;
}

/** Columns of a CSV export, in order. */
export const AUDIT_EXPORT_COLUMNS = ["id", "at", "actorId", "actorName", "action", "outcome", "targetType", "targetId", "missionId", "summary", "via", "ip", "userAgent", "before", "after"] as const;

function toEntry(r: AuditLogRow): AuditEntry {
  return { ...r, at: new Date(r.at).toISOString(), before: r.before ?? null, after: r.after ?? null };
}

/** The shape of an actor id: a kind, a colon, no spaces (`system` alone too). */
const ACTOR_ID = /^(system|[a-z]+:\S+)$/;

/** The WHERE of a filtered view (see lib/audit/filters.ts). */
function auditWhere(f: AuditFilters, now = Date.now()): SQL | undefined {
  const from = f.from ? new Date(resolveTimeBound(f.from, now)).toISOString() : null;
  const to = f.to ? new Date(resolveTimeBound(f.to, now)).toISOString() : null;
  const actorLike = f.actor ? `%${likeEscape(f.actor)}%` : null;
  return and(
    // An actor id (`user:<uuid>`, `cli:ops`, `worker:vm:1`) is looked up by its index alone; anything else is part of a name or an email.
    f.actor && ACTOR_ID.test(f.actor)
      ? eq(auditLog.actorId, f.actor)
      : f.actor
      ? and(
          // The actors the text can mean, read once (an array, not a subquery per row) from small tables: the text as
          // an id, the (actor, name at the time) pairs of the log whose name holds it (audit_log_actors, migration
          // 0029), the people whose email holds it. The log is then read by actor id (audit_log_actor): a trigram
          // index over every row's name reads nearly every row for a common name part such as "Person 13".
          sql`${auditLog.actorId} = any(array(select ${f.actor}::text union select ${auditLogActors.actorId} from ${auditLogActors} where ${auditLogActors.actorName} ilike ${actorLike} union select 'user:' || ${users.id}::text from ${users} where ${users.email} ilike ${actorLike}))`,
          // Of those actors, the rows whose name at the time holds the text (names change), or the id or an email matched.
          or(
            eq(auditLog.actorId, f.actor),
            ilike(auditLog.actorName, actorLike!),
            sql`${auditLog.actorId} = any(array(select 'user:' || ${users.id}::text from ${users} where ${users.email} ilike ${actorLike}))`,
          ),
        )
      : undefined,
    f.action ? (f.action.endsWith(".*") ? like(auditLog.action, `${likeEscape(f.action.slice(0, -1))}%`) : eq(auditLog.action, f.action)) : undefined,
    f.targetType ? eq(auditLog.targetType, f.targetType) : undefined,
    f.targetId ? eq(auditLog.targetId, f.targetId) : undefined,
    f.mission ? eq(auditLog.missionId, f.mission) : undefined,
    f.via ? eq(auditLog.via, f.via) : undefined,
    f.outcome ? eq(auditLog.outcome, f.outcome) : undefined,
    from ? gte(auditLog.at, from) : undefined,
    to ? lte(auditLog.at, to) : undefined,
    f.q ? ilike(auditLog.summary, `%${likeEscape(f.q)}%`) : undefined,
  );
}

/** A page's position: the last row's time and id, opaque to clients. */
export function encodeAuditCursor(e: { at: string; id: number }): string {
  return Buffer.from(`${e.at}|${e.id}`).toString("base64url");
}

function decodeAuditCursor(cursor: string): { at: string; id: number } {
  const [at, id] = Buffer.from(cursor, "base64url").toString().split("|");
  if (!at || Number.isNaN(Date.parse(at)) || !/^\d+$/.test(id ?? "")) throw new AppError("bad_request", { userMessage: "The cursor is not valid: pass the nextCursor of the previous page as it is." });
  return { at, id: Number(id) };
}

/**
 * One page of the audit log, newest first (keyset on (at, id), the audit_log_at index): `nextCursor`
 * is null on the last page.
 */
export async function listAuditLog(db: Executor, f: AuditFilters, page: { cursor?: string | null; limit?: number } = {}): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const limit = Math.min(Math.max(1, page.limit ?? 100), 1000);
  const after = page.cursor ? decodeAuditCursor(page.cursor) : null;
  const now = Date.now();
  const where = auditWhere(f, now);
  // Month by month, newest first (the log is partitioned by month, migration 0028): a page stops in the newest
  // months that fill it, and each query reads one month.
  const windows = await auditWindows(db, f, now, after ? Date.parse(after.at) : Infinity);
  const rows: Array<{ row: AuditLogRow; exactAt: string }> = [];
  for (const w of windows) {
    // The cursor keeps the time to the microsecond (a JavaScript Date has milliseconds: rows of the same
    // millisecond would be skipped).
    const found = await db
      .select({ row: auditLog, exactAt: sql<string>`to_json(${auditLog.at})#>>'{}'` })
      .from(auditLog)
      .where(
        and(
          where,
          after ? sql`(${auditLog.at}, ${auditLog.id}) < (${after.at}::timestamptz, ${after.id})` : undefined,
          windowWhere(sql`${auditLog.at}`, w),
        ),
      )
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(limit + 1 - rows.length);
    rows.push(...found);
    if (rows.length > limit) break;
  }
  const entries = rows.slice(0, limit).map((r) => toEntry(r.row));
  const last = rows[limit - 1];
  return { entries, nextCursor: rows.length > limit ? encodeAuditCursor({ at: last.exactAt, id: last.row.id }) : null };
}

/**
 * The spans of time a newest-first read goes through, newest first: the partitions' months (timeWindows), and with
 * words (`q`, read through the trigram index, which knows nothing of time) those months cut into slices growing
 * from a day below the newest instant wanted (searchSlices), so a page stops in the newest day that
 * answers it instead of building a month's bitmap.
 */
async function auditWindows(db: Executor, f: AuditFilters, now: number, before = Infinity): Promise<TimeWindow[]> {
  const to = Math.min(f.to ? resolveTimeBound(f.to, now) : Infinity, before);
  const windows = timeWindows(await partitionBounds(db, "audit_log"), { after: f.from ? resolveTimeBound(f.from, now) : null, before: to });
  return f.q ? searchSlices(windows, { top: Math.min(to, now), first: SEARCH_SLICE_MS }) : windows;
}

/** The newest slice of a words search (then 2, 4, 8… days). */
const SEARCH_SLICE_MS = 86_400_000;

/**
 * How many rows match the filters: exact up to COUNT_CAP, else `capped` at that many (the page shows "10,000+"); with
 * words, see cappedWordsCount ("1,000+", or at least what was counted in its time).
 */
export async function countAuditLog(db: Executor, f: AuditFilters): Promise<CappedCount> {
  const now = Date.now();
  if (f.q) return cappedWordsCount(db, { table: "audit_log", from: sql`${auditLog}`, view: auditWhere({ ...f, q: undefined }, now), words: ilike(auditLog.summary, `%${likeEscape(f.q)}%`), time: sql`${auditLog.at}`, id: sql`${auditLog.id}`, idType: "bigint" });
  if (f.actor && !ACTOR_ID.test(f.actor)) return countByNamePart(db, f, now);
  return cappedCount(db, sql`${auditLog}`, auditWhere(f, now));
}

/**
 * The count of part of a name (f.actor, not an id), exact up to COUNT_CAP, as two disjoint reads in one statement
 * (one snapshot): the actors all of whose names in the log hold the text (or matched as an id or by email) count
 * every row they have, from the audit_log_actor index alone; the actors only some of whose names hold it (renamed)
 * count the rows whose name at the time holds it. The same rows as auditWhere's condition, without reading each
 * row to check its name (which made this count read 10,000 rows).
 */
async function countByNamePart(db: Executor, f: AuditFilters, now: number): Promise<CappedCount> {
  const like = `%${likeEscape(f.actor!)}%`;
  const rest = auditWhere({ ...f, actor: undefined }, now);
  const byIdOrEmail = sql`select ${f.actor}::text union select 'user:' || ${users.id}::text from ${users} where ${users.email} ilike ${like}`;
  const named = sql`select p.actor_id, bool_and(p.actor_name ilike ${like}) as every from ${auditLogActors} p
    where p.actor_id in (select actor_id from ${auditLogActors} where actor_name ilike ${like}) group by p.actor_id`;
  const whole = sql`array(${byIdOrEmail} union select actor_id from (${named}) n where n.every)`;
  const some = sql`array(select actor_id from (${named}) n where not n.every except ${byIdOrEmail})`;
  const and_ = (c: SQL) => (rest ? sql`${c} and ${rest}` : c);
  const res = await db.execute(sql`select count(*)::int as n from (
      (select 1 from ${auditLog} where ${and_(sql`${auditLog.actorId} = any(${whole})`)} limit ${COUNT_CAP + 1})
      union all
      (select 1 from ${auditLog} where ${and_(sql`${auditLog.actorId} = any(${some}) and ${auditLog.actorName} ilike ${like}`)} limit ${COUNT_CAP + 1})
    ) s`);
  const n = Number((res[0] as { n: number }).n);
  return n > COUNT_CAP ? { count: COUNT_CAP, capped: true } : { count: n, capped: false };
}

/** Every matching row, newest first, read page by page (keyset) so an export of any size streams in constant memory. */
export async function* auditLogRecords(db: Executor, f: AuditFilters, pageSize = 1000): AsyncGenerator<AuditEntry> {
  // Spans (from=24h) are fixed when the export starts, so every page reads the same window.
  const now = Date.now();
  const fixed: AuditFilters = { ...f, from: f.from ? new Date(resolveTimeBound(f.from, now)).toISOString() : undefined, to: f.to ? new Date(resolveTimeBound(f.to, now)).toISOString() : undefined };
  let cursor: string | null = null;
  for (;;) {
    const { entries, nextCursor }: { entries: AuditEntry[]; nextCursor: string | null } = await listAuditLog(db, fixed, { cursor, limit: pageSize });
    yield* entries;
    if (!nextCursor) return;
    cursor = nextCursor;
  }
}

