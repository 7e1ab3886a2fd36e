import { sql, type SQL } from "drizzle-orm";
import { COUNT_CAP, type CappedCount } from "../../lib/query-filters";
import type { Executor } from "../client";

/**
 * How many rows of `from` match `where`, counting at most `cap` (default COUNT_CAP) + 1 of them: a list's count stays as
 * fast on ten million rows as on ten thousand (an exact count(*) reads every matching row).
 */
export async function cappedCount(db: Executor, from: SQL, where: SQL | undefined, cap = COUNT_CAP): Promise<CappedCount> {
  const res = await db.execute(sql`select count(*)::int as n from (select 1 from ${from} ${where ? sql`where ${where}` : sql``} limit ${cap + 1}) s`);
  const n = Number((res[0] as { n: number }).n);
  return n > cap ? { count: cap, capped: true } : { count: n, capped: false };
}
