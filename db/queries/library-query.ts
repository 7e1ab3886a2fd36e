import { sql } from "drizzle-orm";
import { z } from "zod";
import type { LibraryEntry } from "../../lib/library/entry";
import { contextTokens, normalizeQuery } from "../../lib/library/normalize";
import type { Db } from "../client";
import type { LibraryEntryRow } from "../schema";
import { rowToEntry } from "./library";

/**
 * Failure Mode Reference Library query (000: "Query Interface"): observed symptom, object class,
 * force applied and environmental context in; ranked `{ failure_id, match_score, hypothesis }` out.
 * Stateless: one read-only SQL statement.
 */

const optionalText = (max: number) => z.string().max(max, `must be at most ${max} characters`).optional();

export const libraryQuerySchema = z.strictObject({
  observed_symptom: z.string({ error: "is required (a description of what was observed)" }).trim().min(3, "must be at least 3 characters").max(1000, "must be at most 1000 characters"),
  object_class: optionalText(300),
  force_applied: optionalText(300),
  /** A string, or a list of context words (each ≤ 300 characters). */
  environmental_context: z.union([z.string().max(300, "must be at most 300 characters"), z.array(z.string().max(300, "each item must be at most 300 characters")).max(30, "at most 30 items")]).optional(),
});
export type LibraryQueryInput = z.input<typeof libraryQuerySchema>;

export class LibraryQueryError extends Error {
  constructor(public readonly issues: Array<{ field: string; message: string }>) {
    super(`Invalid library query: ${issues.map((i) => `${i.field} ${i.message}`).join("; ")}`);
    this.name = "LibraryQueryError";
  }
}

/** Weights of the raw score (see bench/library.ts --fit for how they and the calibration were chosen). */
export interface ScoreWeights {
  fts: number;
  trigram: number;
  tags: number;
  domain: number;
}
export const DEFAULT_WEIGHTS: ScoreWeights = { fts: 1.0, trigram: 1.0, tags: 0.3, domain: 0.15 };

/**
 * Platt calibration (two-feature logistic): match_score = 1 / (1 + exp(-(A·raw + C·margin + B))), where
 * margin is how far a candidate's raw score is ahead of the next candidate's (0 for the last one).
 * Fitted by `npm run bench:library -- --fit` on the odd-numbered labelled queries of
 * bench/library-queries.jsonl (the target is "the candidate is an expected entry"; uncovered queries
 * count as wrong), and checked on the even-numbered half. ABSTAIN_BELOW is the match_score under which
 * the answer is empty, chosen on the same odd half to maximise (Hit@1 on covered + abstention on uncovered).
 */
export const CALIBRATION = { A: 5.079, C: 11.8, B: -7.465 };
export const ABSTAIN_BELOW = 0.36;

export const calibrate = (raw: number, margin: number, c: { A: number; C: number; B: number } = CALIBRATION) => 1 / (1 + Math.exp(-(c.A * raw + c.C * margin + c.B)));

export interface Candidate {
  failure_id: string;
  title: string;
  raw: number;
  fts: number;
  trigram: number;
  tags: number;
  domain: number;
  row?: LibraryEntryRow;
}

export function parseLibraryQuery(input: unknown) {
  const parsed = libraryQuerySchema.safeParse(input);
  if (!parsed.success) {
    throw new LibraryQueryError(parsed.error.issues.map((i) => ({ field: i.path.length ? i.path.join(".") : "query", message: i.message })));
  }
  return parsed.data;
}

/** The ranked candidates with their raw score and its parts (no calibration, no abstention). */
export async function rankCandidates(db: Db, input: unknown, opts: { limit?: number; weights?: ScoreWeights; withRow?: boolean } = {}): Promise<Candidate[]> {
  const q = parseLibraryQuery(input);
  const w = opts.weights ?? DEFAULT_WEIGHTS;
  const limit = Math.max(1, Math.min(51, opts.limit ?? 5));
  const norm = normalizeQuery(q);
  const tags = contextTokens(q.object_class, q.environmental_context);
  // Terms are [a-z0-9]+ only, so the OR expression cannot be malformed.
  const tsq = norm.terms.length ? norm.terms.join(" | ") : "";
  const domain = norm.hints.physical && !norm.hints.software ? "phy" : norm.hints.software && !norm.hints.physical ? "sw" : "";
  // One read-only statement; pg_trgm's default similarity_threshold (0.3) decides trigram candidates.
  const res = await db.execute(sql`
        with q as (select to_tsquery('english', ${tsq}) as tsq, ${norm.symptom}::text as s, string_to_array(${tags.join("\u0001")}::text, chr(1)) as tags)
        select c.*, ${w.fts}::float8 * c.fts + ${w.trigram}::float8 * c.trigram + ${w.tags}::float8 * c.tags + ${w.domain}::float8 * c.domain as raw
        from (
          select e.failure_id, e.title,
            ts_rank_cd('{0.2, 0.4, 0.7, 1.0}', e.search, q.tsq, 32)::float8 as fts,
            similarity(q.s, e.surface_symptom)::float8 as trigram,
            (select count(*) from unnest(e.context_tags) t where t = any(q.tags))::float8 / greatest(1, least(cardinality(q.tags), 4))::float8 as tags,
            case when ${domain}::text = '' then 0
                 when (${domain}::text = 'phy') = (e.failure_id like 'FM-PHY-%') then 1 else 0 end::float8 as domain
            ${opts.withRow ? sql`, to_jsonb(e) - 'search' as row` : sql``}
          from library_entries e, q
          where not e.deprecated and (e.search @@ q.tsq or e.surface_symptom % q.s)
        ) c
        order by raw desc, c.failure_id
        limit ${limit}`);
  return res.rows as unknown as Candidate[];
}

export interface LibraryQueryResult {
  results: Array<{ failure_id: string; match_score: number; hypothesis: string; entry?: LibraryEntry }>;
  abstained: boolean;
}

export async function queryLibrary(db: Db, input: unknown, opts: { limit?: number; includeEntry?: boolean } = {}): Promise<LibraryQueryResult> {
  const limit = Math.max(1, Math.min(50, opts.limit ?? 5));
  // One more candidate than shown, for the last one's margin.
  const cands = await rankCandidates(db, input, { limit: limit + 1, withRow: opts.includeEntry });
  // The calibration was fitted on the best candidate; lower ones are capped by the one above so the list stays sorted.
  let cap = 1;
  const results = cands.slice(0, limit).map((c, i) => ({
    failure_id: c.failure_id,
    match_score: (cap = Math.min(cap, Math.round(calibrate(c.raw, c.raw - (cands[i + 1]?.raw ?? 0)) * 1000) / 1000)),
    hypothesis: c.title,
    ...(opts.includeEntry && c.row ? { entry: entryFromJson(c.row as unknown as Record<string, unknown>) } : {}),
  }));
  if (!results.length || results[0].match_score < ABSTAIN_BELOW) return { results: [], abstained: true };
  return { results, abstained: false };
}

/** A row as `to_jsonb` gives it (snake_case columns) → the entry. */
function entryFromJson(j: Record<string, unknown>): LibraryEntry {
  const row = {
    failureId: j.failure_id,
    revision: j.revision,
    libraryVersion: j.library_version,
    title: j.title,
    category: j.category,
    surfaceSymptom: j.surface_symptom,
    hiddenReality: j.hidden_reality,
    diagnosticProbe: j.diagnostic_probe,
    resolutionPath: j.resolution_path,
    riskLevel: j.risk_level,
    riskNotes: j.risk_notes,
    contextTags: j.context_tags,
    references: j.references,
    source: j.source,
    probeAction: j.probe_action,
    resolutionAction: j.resolution_action,
    deprecated: j.deprecated,
    updatedAt: j.updated_at,
  } as unknown as LibraryEntryRow;
  const { revision: _r, libraryVersion: _l, deprecated: _d, ...entry } = rowToEntry(row);
  return entry;
}
