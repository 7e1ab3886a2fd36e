import { and, sql, type SQL } from "drizzle-orm";
import { env } from "../../lib/env";
import { COUNT_CAP, WORDS_COUNT_CAP, type CappedCount } from "../../lib/query-filters";
import type { Executor } from "../client";
import { estimatedRows, partitionBounds, timeWindows, windowWhere, type PartitionedTable, type TimeWindow } from "../partitions";

/**
 * How many rows of `from` match `where`, counting at most `cap` (default COUNT_CAP) + 1 of them: a list's count stays as
 * fast on ten million rows as on ten thousand (an exact count(*) reads every matching row).
 */
export async function cappedCount(db: Executor, from: SQL, where: SQL | undefined, cap = COUNT_CAP): Promise<CappedCount> {
  const res = await db.execute(sql`select count(*)::int as n from (select 1 from ${from} ${where ? sql`where ${where}` : sql``} limit ${cap + 1}) s`);
  const n = Number((res[0] as { n: number }).n);
  return n > cap ? { count: cap, capped: true } : { count: n, capped: false };
}

/** A words count first reads this many of the view's newest rows and checks the words on them. */
const WORDS_SCAN = 10_000;

/** Tables of fewer rows count words in one query, without the reads below (see cappedWordsCount). */
const WORDS_EXACT_BELOW = 1_000_000;

/** A view of a time-ordered log with words: its table, its other filters, the words' condition, its (time, id) key. */
export interface WordsView {
  table: PartitionedTable;
  from: SQL;
  view: SQL | undefined;
  words: SQL;
  time: SQL;
  id: SQL;
  /** The id's SQL type (`uuid`, `bigint`). */
  idType: "uuid" | "bigint";
}

/**
 * The count of a view with words (the failure history's full text, the audit log's words): exact up to
 * WORDS_COUNT_CAP ("1,000+"), in one query in a table of under a million rows. In a larger one, a text index knows nothing of time or of the other filters, and a common word's bitmap
 * over a month is costly (457,642 rows for "timeout" in one month of 10,000,000 failures: 150 ms, and as much again to
 * AND it with the month's unresolved rows). So the view's newest WORDS_SCAN rows are read in time order first and the
 * words checked on them (in the newest month: a query that plans one partition, not every month): a common word
 * reaches the cap there. If that read's own time per row and share of rows with the words say that reading on in
 * time order reaches the cap well within the time left (a word in a few percent of a dense view's rows), it reads on
 * once. The older rows then go through the text index (a rarer word: small bitmaps): the newest month below the rows
 * read, then every older month in one statement.
 * Everything after the first read runs within the rest of `ms` (FAULTLINE_WORDS_COUNT_MS, 80): past it (a word
 * neither common nor rare in a sparse view, a long phrase's trigrams over a month) the count is what was found so
 * far, marked capped: "at least", never a wait.
 */
export async function cappedWordsCount(db: Executor, v: WordsView, opts: { ms?: number; exactBelow?: number } = {}): Promise<CappedCount> {
  const deadline = performance.now() + (opts.ms ?? env().FAULTLINE_WORDS_COUNT_MS);
  const cap = WORDS_COUNT_CAP;
  // A table of fewer rows than this (the planner's estimate) is counted in one query, exact up to the cap, whatever it takes.
  if ((await estimatedRows(db, v.table)) < (opts.exactBelow ?? WORDS_EXACT_BELOW)) return cappedCount(db, v.from, and(v.view, v.words), cap);
  const spanOf = (w: TimeWindow) => windowWhere(v.time, w);
  // Month by month, newest first (each query plans and reads one partition).
  const [newest, ...older] = timeWindows(await partitionBounds(db, v.table));
  const below = (at: string, id: string) => sql`(${v.time}, ${v.id}) < (${at}::timestamptz, ${id}::${sql.raw(v.idType)})`;
  /** The newest `limit` rows of the newest month (below `after`): how many hold the words, how many were read, the last. */
  const scan = async (ex: Executor, limit: number, after: { at: string; id: string } | null) =>
    ((await ex.execute(sql`with s as (select ${v.time} as t, ${v.id} as id, (${v.words}) as hit from ${v.from} where ${and(v.view, spanOf(newest), after ? below(after.at, after.id) : undefined)} order by ${v.time} desc, ${v.id} desc limit ${limit})
      select count(*) filter (where s.hit)::int as m, count(*)::int as n,
        (select to_json(o.t)#>>'{}' from s o order by o.t, o.id limit 1) as "at", (select o.id::text from s o order by o.t, o.id limit 1) as "id"
      from s`)) as unknown as Array<{ m: number; n: number; at: string | null; id: string | null }>)[0];
  const started = performance.now();
  const head = await scan(db, WORDS_SCAN, null);
  let found = head.m;
  if (found > cap) return { count: cap, capped: true };
  let last = head.n === WORDS_SCAN && head.at != null && head.id != null ? { at: head.at, id: head.id } : null;
  if (!last && !older.length) return { count: found, capped: false };
  const perRow = (performance.now() - started) / Math.max(1, head.n);
  try {
    return await db.transaction(async (tx) => {
      /** Gives the next statement the time left as its statement_timeout; false when no time is left. */
      const inTime = async (): Promise<boolean> => {
        const left = deadline - performance.now();
        if (left < 1) return false;
        await tx.execute(sql`select set_config('statement_timeout', ${String(Math.round(left))}, true)`);
        return true;
      };
      let result: CappedCount | null = null;
      if (last) {
        const needed = found ? Math.ceil(((cap + 1 - found) * head.n) / found) : Infinity;
        if (needed * perRow <= 0.8 * (deadline - performance.now()) && (await inTime())) {
          const limit = Math.ceil(needed * 1.2);
          const r = await scan(tx, limit, last);
          found += r.m;
          if (found > cap) result = { count: cap, capped: true };
          last = r.n === limit && r.at != null && r.id != null ? { at: r.at, id: r.id } : null;
        }
      }
      // The rest: the newest month below the last row read (unless every row of it was read), then the older months
      // in one query (a statement each would cost a round trip per month, which a loaded machine makes slow).
      const rest: SQL[] = [];
      if (last) rest.push(and(v.view, spanOf(newest), below(last.at, last.id), v.words)!);
      if (older.length) rest.push(and(v.view, sql`${v.time} < ${new Date(newest.from!).toISOString()}::timestamptz`, v.words)!);
      for (const where of result ? [] : rest) {
        if (!(await inTime())) {
          result = { count: found, capped: true };
          break;
        }
        const c = await cappedCount(tx, v.from, where, cap - found);
        found += c.count;
        if (c.capped) {
          result = { count: cap, capped: true };
          break;
        }
      }
      // Within a caller's transaction the setting would outlive this savepoint.
      await tx.execute(sql`set local statement_timeout to default`);
      return result ?? { count: found, capped: false };
    });
  } catch (e) {
    // Cancelled by the statement_timeout set above: at least what was counted.
    const err = e as { code?: string; cause?: { code?: string } };
    if (err.code === "57014" || err.cause?.code === "57014") return { count: found, capped: true };
    throw e;
  }
}
