import { desc, eq } from "drizzle-orm";
import type { Db, Executor } from "../client";
import type { AuditActor } from "../../lib/audit";
import { recordAudit } from "./audit-log";
import { counterfactualChecks } from "../schema";
import type { CounterfactualVerification } from "../../lib/trace/counterfactual-verify";

import type { CounterfactualCheckView } from "../../lib/views/mission-detail";

/** Records one `mission explain --verify` run: a row per counterfactual and its audit row, in one transaction. */
export async function recordCounterfactualChecks(db: Db, actor: AuditActor, p: { missionId: string; missionSeq: number; results: readonly CounterfactualVerification[] }): Promise<void> {
  if (!p.results.length) return;
  await db.transaction(async (tx) => {
    await tx.insert(counterfactualChecks).values(
      p.results.map((r) => ({ missionId: p.missionId, subject: r.subject, counterfactual: r.counterfactual, verdict: r.verdict, summary: r.summary, change: r.change, evidence: r.evidence, missionSeq: p.missionSeq, verifiedBy: actor.id })),
    );
    const count = (v: string) => p.results.filter((r) => r.verdict === v).length;
    await recordAudit(tx, actor, {
      action: "counterfactual.verify",
      summary: `${actor.name} verified ${p.results.length} counterfactual(s) of mission ${p.missionId} by replay: ${count("held")} held, ${count("did_not_hold")} did not hold, ${count("undetermined")} undetermined`,
      target: { type: "mission", id: p.missionId },
      missionId: p.missionId,
      after: { verdicts: p.results.map((r) => ({ subject: r.subject, verdict: r.verdict })) },
    });
  });
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
