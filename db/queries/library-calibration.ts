import { sql } from "drizzle-orm";
import { reliabilityOf, type CalibrationCase, type Reliability } from "../../lib/diagnosis/calibration";
import { isTuningQuery, readLabelledQueries, type LabelledQuery } from "../../lib/library/labelled";
import type { Db, Executor } from "../client";
import { queryLibrary } from "./library-query";

/**
 * Does a library `match_score` mean what it says? A score is the calibrated probability that the hypothesis
 * names the failure the report describes; here it is set against what happened: the verdicts of walks
 * (a probe confirmed or rejected the hypothesis) and the labelled queries' expected entries.
 */
export interface ScoreReliability extends Reliability {
  name: string;
}

/**
 * Walks of the last `days` days: every probe with a verdict (confirmed / rejected, by its probe action or by
 * an operator) against the match_score its hypothesis had when the library was queried. Skipped and
 * inconclusive probes say nothing about the score and are left out.
 */
export async function walkScoreReliability(db: Executor, opts: { days: number; now?: Date }): Promise<ScoreReliability> {
  const since = new Date((opts.now ?? new Date()).getTime() - opts.days * 86_400_000).toISOString();
  const rows = (await db.execute(sql`
    select (h.hyp->>'match_score')::float8 as score, p.payload->>'verdict' as verdict
    from events p
    join events e on e.mission_id = p.mission_id and e.seq = (p.payload->>'hypothesesSeq')::int and e.type = 'library.hypotheses'
    cross join lateral (select x as hyp from jsonb_array_elements(e.payload->'hypotheses') x where x->>'failure_id' = p.payload->>'failure_id' limit 1) h
    where p.type = 'library.probe' and p.payload->>'verdict' in ('confirmed', 'rejected') and p.created_at >= ${since}
  `)) as unknown as Array<{ score: number | null; verdict: string }>;
  const cases = rows.filter((r) => r.score !== null && Number.isFinite(r.score)).map((r) => ({ confidence: Number(r.score), correct: r.verdict === "confirmed" }));
  return { name: "Walks' verdicts", ...reliabilityOf(cases) };
}

/**
 * The labelled queries nobody fitted on (the library set's even ids, the telemetry set's held-out half),
 * asked of the library as it is now: each answer's best hypothesis is a case, right when it is an entry the
 * query expects. Queries expecting an entry the library no longer holds are left out; abstentions state no
 * score and are counted apart. Cached per library version (about 250 queries, a few ms each).
 */
export interface LabelledScoreReliability extends ScoreReliability {
  libraryVersion: number | null;
  asked: number;
  abstained: number;
}

const cache = new Map<string, Promise<LabelledScoreReliability | null>>();

export async function labelledScoreReliability(db: Db): Promise<LabelledScoreReliability | null> {
  const [state] = (await db.execute(sql`
    select (select max(version) from library_versions)::int as version,
           coalesce((select array_agg(failure_id) from library_entries where not deprecated), '{}') as ids
  `)) as unknown as Array<{ version: number | null; ids: string[] }>;
  const key = `${state.version}`;
  let hit = cache.get(key);
  if (!hit) {
    hit = measureLabelled(db, state.version, new Set(state.ids)).catch((e) => {
      cache.delete(key);
      throw e;
    });
    cache.set(key, hit);
  }
  return hit;
}

async function measureLabelled(db: Db, version: number | null, active: Set<string>): Promise<LabelledScoreReliability | null> {
  const queries = readLabelledQueries().filter((q: LabelledQuery) => !isTuningQuery(q) && q.expected.every((id) => active.has(id)));
  if (queries.length === 0 || active.size === 0) return null;
  const cases: CalibrationCase[] = [];
  let abstained = 0;
  for (const q of queries) {
    const answer = await queryLibrary(db, q.query, { limit: 1 });
    const top = answer.results[0];
    if (answer.abstained || !top) {
      abstained += 1;
      continue;
    }
    cases.push({ confidence: top.match_score, correct: q.expected.includes(top.failure_id) });
  }
  return { name: "Labelled reports, held-out", ...reliabilityOf(cases), libraryVersion: version, asked: queries.length, abstained };
}
