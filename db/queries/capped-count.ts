import { sql, type SQL } from "drizzle-orm";
import { COUNT_CAP, type CappedCount } from "../../lib/query-filters";
import type { Executor } from "../client";

/**
 * How many rows of `from` match `where`, counting at most COUNT_CAP + 1 of them: a list's count stays as
 * fast on ten million rows as on ten thousand (an exact count(*) reads every matching row).
 */
export async function cappedCount(db: Executor, from: SQL, where: SQL | undefined): Promise<CappedCount> {
  const res = await db.execute(sql`select count(*)::int as n from (select 1 from ${from} ${where ? sql`where ${where}` : sql``} limit ${COUNT_CAP + 1}) s`);
  const n = Number((res[0] as { n: number }).n);
  return n > COUNT_CAP ? { count: COUNT_CAP, capped: true } : { count: n, capped: false };
}
