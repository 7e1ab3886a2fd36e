import { sql } from "drizzle-orm";
import type { Executor } from "../client";
import type { DiagnosticsCounts } from "../../lib/diagnosis/metrics";

export type { DiagnosticsCounts };

/**
 * ADR-0003 "Success Metrics", measured from the event log: how many failures were diagnosed, how many
 * recoveries ran and worked, how often a learned pattern took the fast path, how many failures needed
 * a person, how often the stuck-loop detector fired, and how often an LLM proposal agreed with the
 * evidence. Grouped per day and per mission definition.
 */
export interface DiagnosticsRow extends DiagnosticsCounts {
  key: string;
}

export interface DiagnosticsReport {
  since: string;
  total: DiagnosticsCounts;
  byDay: DiagnosticsRow[];
  byDefinition: DiagnosticsRow[];
  byType: Array<{ type: string; count: number }>;
}

const COUNTS = sql`
  count(*) filter (where e.type = 'diagnostic_reflection')::int as diagnosed,
  count(*) filter (where e.type in ('recovery.started', 'recovery.fast_path'))::int as "recoveriesStarted",
  count(*) filter (where e.type = 'recovery.fast_path')::int as "fastPath",
  count(*) filter (where e.type = 'recovery.finished' and e.payload->>'outcome' = 'succeeded')::int as recovered,
  count(*) filter (where e.type = 'recovery.finished' and e.payload->>'outcome' = 'failed')::int as "recoveryFailed",
  coalesce(sum((e.payload->>'iterations')::int) filter (where e.type = 'recovery.finished' and e.payload->>'outcome' = 'succeeded'), 0)::int as "iterationsToSuccess",
  count(*) filter (where e.type = 'recovery.loop_detected')::int as loops,
  count(*) filter (where e.type = 'gate.opened' and coalesce(e.payload->>'kind', 'agent') = 'agent' and e.payload->'diagnosis' is not null and e.payload->>'diagnosis' <> 'null')::int as gates,
  count(*) filter (where e.type = 'diagnosis.proposal' and e.payload->'proposal'->>'status' = 'accepted')::int as "proposalsAccepted",
  count(*) filter (where e.type = 'diagnosis.proposal' and e.payload->'proposal'->>'status' = 'rejected')::int as "proposalsRejected"`;

const TYPES = sql`('diagnostic_reflection', 'recovery.started', 'recovery.fast_path', 'recovery.finished', 'recovery.loop_detected', 'gate.opened', 'diagnosis.proposal')`;

export async function diagnosticsReport(db: Executor, opts: { days?: number; definition?: string } = {}): Promise<DiagnosticsReport> {
  const days = Math.max(1, Math.min(365, Math.floor(opts.days ?? 14)));
  const since = new Date(Date.now() - days * 86_400_000).toISOString();
  const where = sql`e.type in ${TYPES} and e.created_at >= ${since}${opts.definition ? sql` and m.name = ${opts.definition}` : sql``}`;
  const from = sql`from events e join missions m on m.id = e.mission_id where ${where}`;
  const [total] = (await db.execute(sql`select ${COUNTS} ${from}`)) as unknown as DiagnosticsCounts[];
  const byDay = (await db.execute(sql`select to_char(date_trunc('day', e.created_at at time zone 'UTC'), 'YYYY-MM-DD') as key, ${COUNTS} ${from} group by 1 order by 1`)) as unknown as DiagnosticsRow[];
  // Definitions with nothing to measure (an approval gate, no failure) are left out.
  const byDefinition = (
    await db.execute(sql`select m.name as key, ${COUNTS} ${from} group by 1 having count(*) filter (where e.type in ('diagnostic_reflection', 'recovery.started', 'recovery.fast_path')) > 0 order by diagnosed desc, 1 limit 50`)
  ) as unknown as DiagnosticsRow[];
  const byType = (
    await db.execute(sql`select e.payload->'diagnosis'->'errorClassification'->>'type' as type, count(*)::int as count ${from} and e.type = 'diagnostic_reflection' group by 1 order by 2 desc`)
  ) as unknown as Array<{ type: string; count: number }>;
  return { since, total, byDay, byDefinition, byType };
}
