import { desc, eq } from "drizzle-orm";
import type { Executor } from "../client";
import { counterfactualChecks } from "../schema";
import type { CounterfactualVerification } from "../../lib/trace/counterfactual-verify";

import type { CounterfactualCheckView } from "../../lib/views/mission-detail";

/** Records one `mission explain --verify` run: a row per counterfactual, in one insert. */
export async function recordCounterfactualChecks(db: Executor, p: { missionId: string; missionSeq: number; verifiedBy: string; results: readonly CounterfactualVerification[] }): Promise<void> {
  if (!p.results.length) return;
  await db.insert(counterfactualChecks).values(
    p.results.map((r) => ({ missionId: p.missionId, subject: r.subject, counterfactual: r.counterfactual, verdict: r.verdict, summary: r.summary, change: r.change, evidence: r.evidence, missionSeq: p.missionSeq, verifiedBy: p.verifiedBy })),
  );
}

/** The newest verdict per subject of a mission's verified counterfactuals. */
export async function listCounterfactualChecksByMission(db: Executor, missionId: string): Promise<CounterfactualCheckView[]> {
  const rows = await db
    .select({ subject: counterfactualChecks.subject, verdict: counterfactualChecks.verdict, summary: counterfactualChecks.summary, missionSeq: counterfactualChecks.missionSeq, verifiedBy: counterfactualChecks.verifiedBy, verifiedAt: counterfactualChecks.verifiedAt })
    .from(counterfactualChecks)
    .where(eq(counterfactualChecks.missionId, missionId))
    .orderBy(desc(counterfactualChecks.verifiedAt), desc(counterfactualChecks.id))
    .limit(500);
  const seen = new Set<string>();
  return rows.filter((r) => !seen.has(r.subject) && seen.add(r.subject));
}
