import { sql } from "drizzle-orm";
import { z } from "zod";
import type { LibraryEntry } from "../../lib/library/entry";
import { causeFamilies, contextTokens, normalizeQuery } from "../../lib/library/normalize";
import { synonyms } from "../../lib/library/wordnet";
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

/** Weights of the raw (ranking) score: raw = cover + tags + domain + trigram, each weighted (set by hand, checked with bench:library; the calibration is fitted on top). */
export interface ScoreWeights {
  trigram: number;
  tags: number;
  domain: number;
  cover: number;
  /** Similarity to reports a walk confirmed as the entry (library_confirmed_reports), when at least LEARNED_MIN. */
  learned: number;
}
export const DEFAULT_WEIGHTS: ScoreWeights = { trigram: 1.0, tags: 0.3, domain: 0.15, cover: 1.0, learned: 0.6 };
/** A confirmed report counts for a new one when it holds at least this IDF share of the new report's concepts. */
export const LEARNED_MIN = 0.5;
/** WordNet senses consulted per part of speech for a report word that neither the rules nor the lexicon cover. */
export const SYNONYM_SENSES = 2;

/**
 * Two small logistic models over the candidate's score parts (CALIBRATION_FEATURES), both fitted by
 * `npm run bench:library -- --fit` on the odd-numbered labelled queries of bench/library-queries.jsonl
 * and checked on the even-numbered half (uncovered queries count as wrong):
 *
 * - CALIBRATION gives `match_score`: the probability that THIS candidate is the failure mode the report
 *   describes (target: "the best candidate is an expected entry"). `margin` (how far its raw score is
 *   ahead of the next candidate's) is one of its features, so near-ties share the probability: three
 *   drawer hypotheses that explain a terse "drawer won't open" equally well each score low.
 * - ANSWER decides abstention: the probability that an expected entry is among the top 3 (target:
 *   "some expected entry is in the top 3"). It does not look at `margin` (its weight is 0): several
 *   hypotheses explaining a report equally well is exactly when the orchestrator should probe them in
 *   turn, while a report that no entry explains should get nothing. The library abstains when the best
 *   candidate's ANSWER probability is under ABSTAIN_BELOW, chosen on the same odd half to maximise the
 *   sum of the rates: uncovered queries abstained on, covered queries (close, paraphrase, terse)
 *   answered with an expected entry in the top 3.
 *
 * `cause` (is the cause the report names, if any, one the entry gives?) is computed after the statement, from the
 * returned entries' title, symptom and hidden reality (CAUSE_FAMILIES in lib/library/normalize.ts); it is aimed at
 * near misses, which name an entry's symptom and another cause.
 *
 * (`cover`, `coverA` and `raw` overlap, so their weights only make sense together.) See docs/library-ranking.md.
 */
export const CALIBRATION_FEATURES = ["raw", "margin", "cover", "coverA", "ecover", "unknown", "trigram", "tags", "object", "outcome", "cause"] as const;
export type CalibrationFeature = (typeof CALIBRATION_FEATURES)[number];
/** ANSWER's features: all but `margin`. */
export const ANSWER_FEATURES = CALIBRATION_FEATURES.filter((f) => f !== "margin");
export interface Calibration {
  bias: number;
  weights: Record<CalibrationFeature, number>;
}
export const CALIBRATION: Calibration = { bias: -7.644, weights: { raw: 4.765, margin: 7.353, cover: 3.786, coverA: -8.155, ecover: 5.229, unknown: -0.617, trigram: 4.876, tags: -2.335, object: 1.559, outcome: 1.191, cause: 3.942 } };
export const ANSWER: Calibration = { bias: -7.782, weights: { raw: 3.759, margin: 0.000, cover: 7.176, coverA: -7.991, ecover: 6.289, unknown: -0.773, trigram: 8.296, tags: -2.105, object: 2.226, outcome: 0.910, cause: 4.231 } };
export const ABSTAIN_BELOW = 0.59;

export function calibrate(f: Record<CalibrationFeature, number>, c: Calibration = CALIBRATION): number {
  let z = c.bias;
  for (const k of CALIBRATION_FEATURES) z += c.weights[k] * f[k];
  return 1 / (1 + Math.exp(-z));
}

/** The calibration features of each candidate of a ranked list (margin to the next one). */
export function candidateFeatures(cands: Candidate[]): Array<Record<CalibrationFeature, number>> {
  return cands.map((c, i) => ({ raw: c.raw, margin: c.raw - (cands[i + 1]?.raw ?? 0), cover: c.cover, coverA: c.cover_a, ecover: c.ecover, unknown: c.unknown, trigram: c.trigram, tags: c.tags, object: c.object, outcome: c.outcome, cause: c.cause }));
}

/** A ranked candidate: `raw` is the ranking score; the other numbers are its parts and calibration features (docs/library-ranking.md). */
export interface Candidate {
  failure_id: string;
  title: string;
  raw: number;
  trigram: number;
  tags: number;
  domain: number;
  cover: number;
  /** Like `cover`, but only what the entry's title and surface symptom explain (its hidden reality and tags do not count). */
  cover_a: number;
  /** The IDF share of the report's outcome concepts (what happened: stuck, fell, leaks…) the entry's title, symptom or reality names; 0.5 when the report names none. */
  outcome: number;
  /**
   * The weighted share of the report's cause families (CAUSE_FAMILIES: deposit, corrosion, damage, misalignment,
   * wet, electrical) that the entry's title, symptom or hidden reality also names, each family weighing its
   * heaviest concept's IDF; 0.5 when the report names no cause. A near miss names the symptom and another cause.
   */
  cause: number;
  s1: number;
  /** IDF share of this report's concepts found in the most similar report a walk confirmed as this entry (0 below LEARNED_MIN). */
  learned: number;
  unknown: number;
  ecover: number;
  object: number;
  row?: LibraryEntryRow;
}

export function parseLibraryQuery(input: unknown) {
  const parsed = libraryQuerySchema.safeParse(input);
  if (!parsed.success) {
    throw new LibraryQueryError(parsed.error.issues.map((i) => ({ field: i.path.length ? i.path.join(".") : "query", message: i.message })));
  }
  return parsed.data;
}

/**
 * Candidate stage budget: a query reads the postings (library_terms, migration 0008) of its rarest
 * known terms, in order of document frequency, until this many postings are read (the rarest term is
 * always read whole); its commoner terms still count in the score of the candidates found. On the
 * starter library no labelled query reads more than about 200 postings, so nothing is cut; at 100,000
 * entries the budget keeps the statement within milliseconds.
 */
export const POSTINGS_BUDGET = 3_000;
/** How many of the best candidates of the postings stage get the full score. */
export const RERANK = 25;
/** How many of those get the (costlier) trigram similarity of their surface symptom. */
export const TRIGRAM_TOP = 10;

/**
 * How the statement reads the reports walks confirmed (library_confirmed_reports) for `learned`. A report counts
 * only when it holds at least LEARNED_MIN of the query's concept weight (and the query LEARNED_MIN of its own), so
 * a report that shares none of the query's heaviest concepts — taken heaviest first until those left weigh less
 * than LEARNED_MIN of the query — cannot count. `pref` lists those concepts; only reports holding one of their
 * lexemes are read, through the GIN index on `lexemes` (reports sharing only light, common words are never
 * read); identical (entry, lexemes) reports are compared once (`near`); only those holding LEARNED_MIN of the
 * query's weight are compared the other way (the IDF share of the report's own lexemes the query holds), each
 * lexeme's document frequency one index look-up. The score is the same as comparing every report sharing any lexeme (LEARNED_SCAN, the read before,
 * kept as the reference db/queries/library-learning.test.ts checks this one against): a report left out scores
 * under LEARNED_MIN, and `learned` keeps an entry's best report only when it reaches LEARNED_MIN.
 */
const learnedIndexed = sql`
        pref as (
          select x.cid from (select cid, sum(cidf) over (order by cidf desc, cid rows between current row and unbounded following) as rest from concepts) x, qsum
          -- (1 - 1e-6): a margin for the rounding of float sums in another order, so no report that could reach LEARNED_MIN is left out.
          where x.rest >= ${LEARNED_MIN}::float8 * qsum.total * (1 - 1e-6)
        ),
        near as (
          select r.failure_id, r.lexemes,
            (select coalesce(sum(c.cidf), 0) from concepts c where exists (select 1 from qw where qw.cid = c.cid and qw.lexeme = any(r.lexemes)))::float8 / qsum.total as share
          from (select distinct r.failure_id, r.lexemes
                from (select distinct qw.lexeme from qw where qw.cid in (select cid from pref)) p
                cross join lateral (select r.failure_id, r.lexemes from library_confirmed_reports r where r.lexemes @> array[p.lexeme]) r) r, qsum
        ),
        learned as (
          select r.failure_id, max(least(
              r.share,
              (select coalesce(sum(x.idf) filter (where x.lexeme = any(qsum.lexemes)) / nullif(sum(x.idf), 0), 0)
                 from (select l.lexeme, ln(1 + q.n / greatest(1, coalesce((select st.df from library_term_stats st where st.lexeme = l.lexeme), 0))) * (case when l.lexeme ~ '^[0-9]' then 0.25 else 1 end) as idf
                       from unnest(r.lexemes) l(lexeme)) x)::float8
            )) as sim
          from near r, qsum, q
          where r.share >= ${LEARNED_MIN}
          group by r.failure_id
        )`;
/** The read before learnedIndexed: every confirmed report sharing any lexeme with the query (the reference it is tested against). */
const learnedScan = sql`
        learned as (
          select r.failure_id, max(least(
              (select coalesce(sum(c.cidf), 0) from concepts c where exists (select 1 from qw where qw.cid = c.cid and qw.lexeme = any(r.lexemes)))::float8 / qsum.total,
              (select coalesce(sum(x.idf) filter (where x.lexeme = any(qsum.lexemes)) / nullif(sum(x.idf), 0), 0)
                 from (select l.lexeme, ln(1 + q.n / greatest(1, coalesce(st.df, 0))) * (case when l.lexeme ~ '^[0-9]' then 0.25 else 1 end) as idf
                       from unnest(r.lexemes) l(lexeme) left join library_term_stats st on st.lexeme = l.lexeme) x)::float8
            )) as sim
          from library_confirmed_reports r, qsum, q
          where r.lexemes && (select array_agg(lexeme) from qw)
          group by r.failure_id
        )`;

/** What rankCandidates needs beyond the query: how many candidates, the weights, whether to return each entry's row. */
export interface RankOptions {
  limit?: number;
  weights?: ScoreWeights;
  withRow?: boolean;
  /** "scan" reads confirmed reports as before learnedIndexed (every report sharing any lexeme); for tests and bench:library only. */
  learnedRead?: "indexed" | "scan";
}

/** The ranked candidates with their raw score and its parts (no calibration, no abstention). */
export async function rankCandidates(db: Db, input: unknown, opts: RankOptions = {}): Promise<Candidate[]> {
  const { statement, finish } = rankStatement(input, opts);
  return finish(await db.execute(statement));
}

/** rankCandidates' one read-only statement, and how its rows become candidates (tests EXPLAIN the statement). */
export function rankStatement(input: unknown, opts: RankOptions = {}) {
  const q = parseLibraryQuery(input);
  const w = opts.weights ?? DEFAULT_WEIGHTS;
  const limit = Math.max(1, Math.min(51, opts.limit ?? 5));
  const norm = normalizeQuery(q);
  const tags = contextTokens(q.object_class, q.environmental_context);
  // Words are [a-z0-9]+ only; each carries the index of its concept.
  // A word no rule or lexicon line joined to others (a concept of its own) also brings its WordNet
  // synonyms; the statement counts them only when the word itself is unknown to the library.
  const syn = norm.concepts.flatMap((c, i) => (c.length === 1 && /^[a-z]{4,}$/.test(c[0]) ? synonyms(c[0], SYNONYM_SENSES).map((w) => [w, i] as const) : []));
  const words = [...norm.concepts.flatMap((c) => c), ...syn.map(([w]) => w)];
  const cids = [...norm.concepts.flatMap((c, i) => c.map(() => i)), ...syn.map(([, i]) => i)];
  const synFlags = words.map((_, k) => (k >= words.length - syn.length ? 1 : 0));
  // The object the agent was handling, as words (kitchen_drawer → kitchen drawer).
  const objectWords = (q.object_class ?? "").toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
  const domain = norm.hints.physical && !norm.hints.software ? "phy" : norm.hints.software && !norm.hints.physical ? "sw" : "";
  // One read-only statement:
  //   qw/qt/qc  the query's lexemes (stemmed like the entries), their document frequency and IDF;
  //   concepts  each concept's weight: the mean IDF of its known lexemes, or the IDF of a word no entry
  //             uses when none is known (unexplained evidence); a number weighs a quarter;
  //   learned   per entry, the similarity of its most similar confirmed report (learnedIndexed);
  //   cand      the postings of the rarest known lexemes within POSTINGS_BUDGET, IDF × field weight
  //             summed per entry: the best RERANK entries go on, with the entries `learned` raises;
  //   f1        cover: the weighted share of the query's concepts the entry explains (best field per
  //             concept); context-tag overlap; domain agreement; keeps the best TRIGRAM_TOP;
  //   f3        trigram similarity of the reported symptom to the entry's surface symptom: the raw
  //             score; keeps the best `limit`;
  //   final     calibration-only features: the entry-side cover (the IDF share of the entry's
  //             title/symptom words the query mentions) and whether the entry names the object class.
  const statement = sql`
        with q as (
          select ${norm.symptom}::text as s, string_to_array(${tags.join("\u0001")}::text, chr(1)) as tags,
                 tsvector_to_array(to_tsvector('english', ${objectWords})) as olex,
                 greatest(1, (select df from library_term_stats where lexeme = ''))::float8 as n
        ),
        qw0 as (
          select distinct w.cid, l.lexeme, w.syn = 1 as syn
          from unnest(string_to_array(${words.join(" ")}::text, ' '), string_to_array(${cids.join(",")}::text, ',')::int[], string_to_array(${synFlags.join(",")}::text, ',')::int[]) w(word, cid, syn),
               unnest(tsvector_to_array(to_tsvector('english', w.word))) l(lexeme)
        ),
        qknown as (
          select distinct qw0.cid from qw0 join library_term_stats st on st.lexeme = qw0.lexeme where not qw0.syn and st.df > 0
        ),
        qw as (
          select distinct cid, lexeme from qw0 where not syn or cid not in (select cid from qknown)
        ),
        qt as (
          select x.lexeme, x.df, ln(1 + q.n / greatest(1, x.df)) as idf
          from q, (select l.lexeme, coalesce((select st.df from library_term_stats st where st.lexeme = l.lexeme), 0) as df
                   from (select distinct lexeme from qw) l) x
        ),
        concepts as (
          select qw.cid,
            (case when max(qt.df) > 0 then avg(qt.idf) filter (where qt.df > 0) else max(qt.idf) end)
              * (case when bool_and(qw.lexeme ~ '^[0-9]') then 0.25 else 1 end) as cidf,
            max(qt.df) = 0 as unknown
          from qw join qt using (lexeme) group by qw.cid
        ),
        qsum as (
          select greatest(1e-9, sum(cidf)) as total, coalesce(sum(cidf) filter (where unknown) / nullif(sum(cidf), 0), 0)::float8 as unknown,
                 (select array_agg(lexeme) from qt) as lexemes
          from concepts
        ),
        picked as (
          select lexeme, idf from (select qt.*, sum(df) over (order by df, lexeme) as cum, row_number() over (order by df, lexeme) as rn from qt where df > 0) x
          where cum <= ${POSTINGS_BUDGET} or rn = 1
        ),
        ${opts.learnedRead === "scan" ? learnedScan : learnedIndexed},
        cand as (
          select * from (
            select p.failure_id, sum(k.idf * p.weight) as s1
            from picked k join library_terms p on p.lexeme = k.lexeme
            group by p.failure_id order by s1 desc, p.failure_id collate "C" limit ${Math.max(RERANK, limit)}
          ) x
          union
          select l.failure_id, 0 from learned l where l.sim >= ${LEARNED_MIN} and not exists (select 1 from picked k join library_terms p on p.lexeme = k.lexeme where p.failure_id = l.failure_id)
        ),
        f1 as (
          select e.failure_id, e.title, e.surface_symptom, e.hidden_reality, e.search,
            (select coalesce(sum(c.cidf * m.wmax), 0)
               from (select qw.cid, max(case when 'A' = any(u.weights) then 1.0 when 'B' = any(u.weights) then 0.7 when 'C' = any(u.weights) then 0.4 else 0.2 end) as wmax
                     from unnest(e.search) u join qw on qw.lexeme = u.lexeme group by qw.cid) m
               join concepts c on c.cid = m.cid)::float8 / qsum.total as cover,
            (select coalesce(sum(c.cidf), 0) from concepts c
               where exists (select 1 from unnest(e.search) u join qw on qw.lexeme = u.lexeme where qw.cid = c.cid and 'A' = any(u.weights)))::float8 / qsum.total as cover_a,
            (select coalesce(coalesce(sum(c.cidf) filter (where m.wmax >= 0.7), 0) / nullif(sum(c.cidf), 0), 0.5)
               from concepts c left join (select qw.cid, max(case when 'A' = any(u.weights) then 1.0 when 'B' = any(u.weights) then 0.7 else 0 end) as wmax
                     from unnest(e.search) u join qw on qw.lexeme = u.lexeme group by qw.cid) m on m.cid = c.cid
               where c.cid = any(${`{${norm.outcome.flatMap((o, i) => (o ? [i] : [])).join(",")}}`}::int[]))::float8 as outcome,
            (select count(*) from unnest(e.context_tags) t where t = any(q.tags))::float8 / greatest(1, least(cardinality(q.tags), 4))::float8 as tags,
            case when ${domain}::text = '' then 0
                 -- Software entries: Faultline's FM-SW series, or any entry with a machine-run probe or resolution
                 -- (ids alone cannot say: a document's PHYS-042 and MAT-017 are physical, and so is FM-PHY-0001).
                 when (${domain}::text = 'sw') = (e.failure_id like 'FM-SW-%' or e.probe_action is not null or e.resolution_action is not null) then 1 else 0 end::float8 as domain,
            cand.s1::float8 as s1,
            coalesce((select l.sim from learned l where l.failure_id = e.failure_id and l.sim >= ${LEARNED_MIN}), 0)::float8 as learned
            ${opts.withRow ? sql`, to_jsonb(e) - 'search' as row` : sql``}
          from cand join library_entries e on e.failure_id = cand.failure_id, q, qsum
          where not e.deprecated
        ),
        f2 as (
          select f1.*, ${w.cover}::float8 * f1.cover + ${w.tags}::float8 * f1.tags + ${w.domain}::float8 * f1.domain + ${w.learned}::float8 * f1.learned as pre
          from f1 order by pre desc, f1.failure_id collate "C" limit ${Math.max(TRIGRAM_TOP, limit)}
        ),
        f3 as (
          select f2.failure_id, f2.title, f2.surface_symptom, f2.hidden_reality, f2.search, f2.cover, f2.cover_a, f2.outcome, f2.tags, f2.domain, f2.s1, f2.learned, similarity(q.s, f2.surface_symptom)::float8 as trigram,
            f2.pre + ${w.trigram}::float8 * similarity(q.s, f2.surface_symptom) as raw
            ${opts.withRow ? sql`, f2.row` : sql``}
          from f2, q
          order by raw desc, f2.failure_id collate "C"
          limit ${limit}
        )
        select f3.failure_id, f3.title, f3.surface_symptom, f3.hidden_reality, f3.cover, f3.cover_a, f3.outcome, f3.tags, f3.domain, f3.s1, f3.learned, f3.trigram, f3.raw, qsum.unknown,
          (select coalesce(json_object_agg(cid, cidf), '{}') from concepts) as cidfs,
          (select coalesce(sum(ln(1 + q.n / greatest(1, st.df))) filter (where a.lexeme = any(qsum.lexemes)) / nullif(sum(ln(1 + q.n / greatest(1, st.df))), 0), 0)
             from (select u.lexeme from unnest(f3.search) u where 'A' = any(u.weights)) a join library_term_stats st on st.lexeme = a.lexeme)::float8 as ecover,
          coalesce((select count(*) from unnest(q.olex) o where o = any(tsvector_to_array(f3.search)))::float8 / nullif(cardinality(q.olex), 0), 0.5)::float8 as object
          ${opts.withRow ? sql`, f3.row` : sql``}
        from f3, q, qsum
        order by f3.raw desc, f3.failure_id collate "C"
        limit ${limit}`;
  return { statement, finish: (res: unknown) => candidatesFromRows(res, norm) };
}

function candidatesFromRows(res: unknown, norm: ReturnType<typeof normalizeQuery>): Candidate[] {
  // The report's cause families, each weighing its heaviest concept's weight; which of them each candidate names.
  const rows = res as unknown as Array<Candidate & { surface_symptom: string; hidden_reality: string; cidfs: Record<string, number> }>;
  const causeWeight = new Map<string, number>();
  norm.causes.forEach((families, i) => {
    for (const f of families) causeWeight.set(f, Math.max(causeWeight.get(f) ?? 0, Number(rows[0]?.cidfs[i] ?? 0)));
  });
  const causeTotal = [...causeWeight.values()].reduce((a, b) => a + b, 0);
  return rows.map(({ surface_symptom, hidden_reality, cidfs: _c, ...c }) => {
    const named = new Set(causeFamilies(`${c.title} ${surface_symptom} ${hidden_reality}`));
    const cause = causeTotal > 0 ? [...causeWeight].reduce((a, [f, w]) => a + (named.has(f) ? w : 0), 0) / causeTotal : 0.5;
    return { ...c, cause };
  });
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
  const features = candidateFeatures(cands);
  const results = cands.slice(0, limit).map((c, i) => ({
    failure_id: c.failure_id,
    match_score: (cap = Math.min(cap, Math.round(calibrate(features[i]) * 1000) / 1000)),
    hypothesis: c.title,
    ...(opts.includeEntry && c.row ? { entry: entryFromJson(c.row as unknown as Record<string, unknown>) } : {}),
  }));
  if (!results.length || calibrate(features[0], ANSWER) < ABSTAIN_BELOW) return { results: [], abstained: true };
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
