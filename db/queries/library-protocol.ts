import { and, desc, eq, sql } from "drizzle-orm";
import type { LibraryConsultation, LibraryHypothesis, LibraryQuery } from "../../lib/mission/library";
import type { MissionEvent } from "../../lib/mission/events";
import type { Db, Executor, Tx } from "../client";
import { libraryContributions, libraryMatches, libraryVersions } from "../schema";
import { normalizeQuery } from "../../lib/library/normalize";
import { queryLibrary } from "./library-query";

/**
 * The failure-mode library in missions (000 Output Protocol), the PostgreSQL side: the worker's query
 * (ranked hypotheses with the entries as they are now, and the library version), and the projections
 * of the orchestrator's `library.*` events, written by `appendEvents` in the events' transaction:
 * `library_matches` (one row per ranked hypothesis, its outcome following the walk) and the
 * contribution draft of a novel failure.
 */

/** Ranked hypotheses for a failure's query; never throws (a failed query is returned as `error`). */
export async function consultLibrary(db: Db, query: LibraryQuery, limit: number): Promise<LibraryConsultation> {
  try {
    const [v] = await db.select({ version: libraryVersions.version }).from(libraryVersions).orderBy(desc(libraryVersions.version)).limit(1);
    const r = await queryLibrary(db, query, { limit, includeEntry: true });
    const hypotheses: LibraryHypothesis[] = r.results.flatMap((x, i) =>
      x.entry
        ? [
            {
              failure_id: x.failure_id,
              rank: i + 1,
              match_score: x.match_score,
              title: x.hypothesis,
              category: x.entry.category,
              risk_level: x.entry.risk_level,
              risk_notes: x.entry.risk_notes ?? null,
              diagnostic_probe: x.entry.diagnostic_probe,
              resolution_path: x.entry.resolution_path,
              probe_action: x.entry.probe_action ?? null,
              resolution_action: x.entry.resolution_action ?? null,
            },
          ]
        : [],
    );
    return { libraryVersion: v?.version ?? null, abstained: r.abstained, hypotheses };
  } catch (e) {
    return { libraryVersion: null, abstained: true, hypotheses: [], error: e instanceof Error ? e.message.split("\n")[0].slice(0, 300) : String(e) };
  }
}

/** The events writeLibraryProtocol writes for. */
const LIBRARY_PROTOCOL_EVENTS = new Set(["library.hypotheses", "library.probe", "library.resolution", "library.resolved", "library.novel"]);

/** Whether writeLibraryProtocol has anything to write for these events. */
export function touchesLibraryProtocol(list: readonly MissionEvent[]): boolean {
  return list.some((e) => LIBRARY_PROTOCOL_EVENTS.has(e.type));
}

/** Applies what a batch of appended events changes in library_matches and library_contributions. */
export async function writeLibraryProtocol(tx: Tx, list: readonly MissionEvent[]): Promise<void> {
  for (const e of list) {
    switch (e.type) {
      case "library.hypotheses":
        if (e.payload.hypotheses.length) {
          await tx
            .insert(libraryMatches)
            .values(e.payload.hypotheses.map((h) => ({ missionId: e.missionId, seq: e.seq, failureId: h.failure_id, rank: h.rank, matchScore: h.match_score, outcome: null, createdAt: e.at })))
            .onConflictDoNothing();
        }
        break;
      case "library.probe":
        if (e.payload.verdict !== "inconclusive") await setOutcome(tx, e.missionId, e.payload.hypothesesSeq, e.payload.failure_id, e.payload.verdict);
        if (e.payload.verdict === "confirmed") await rememberConfirmed(tx, e.missionId, e.payload.hypothesesSeq, e.payload.failure_id, list);
        break;
      case "library.resolution":
        if (!e.payload.ok) await setOutcome(tx, e.missionId, e.payload.hypothesesSeq, e.payload.failure_id, "unresolved");
        break;
      case "library.resolved":
        await setOutcome(tx, e.missionId, e.payload.hypothesesSeq, e.payload.failure_id, e.payload.outcome);
        if (e.payload.outcome === "resolved") await rememberConfirmed(tx, e.missionId, e.payload.hypothesesSeq, e.payload.failure_id, list);
        break;
      case "library.novel": {
        const d = e.payload.draft;
        await tx
          .insert(libraryContributions)
          .values({
            id: e.payload.contributionId,
            kind: "new",
            // The document's schema without failure_id: curation assigns the id when the draft is approved.
            entry: d,
            status: "draft",
            origin: "novel_failure",
            missionId: e.missionId,
            seq: e.payload.failedSeq,
            authorId: e.actorId,
            summary: `Novel failure of step ${e.payload.step + 1} of "${e.payload.agent}": ${d.surface_symptom.slice(0, 160)}`,
            createdAt: e.at,
            updatedAt: e.at,
          })
          .onConflictDoNothing();
        break;
      }
    }
  }
}

/**
 * Learning from confirmed walks (issue 18): the report of the `library.hypotheses` event at `seq` (in
 * this batch or already stored), confirmed as `failureId`, is kept with the lexemes of its normalised
 * words (the words the ranking reads), so similar reports rank that entry higher. Idempotent.
 */
async function rememberConfirmed(tx: Tx, missionId: string, seq: number, failureId: string, batch: readonly MissionEvent[]): Promise<void> {
  let query: LibraryQuery | undefined;
  for (const b of batch) if (b.type === "library.hypotheses" && b.missionId === missionId && b.seq === seq) query = b.payload.query;
  if (!query) {
    const rows = (await tx.execute(sql`select payload->'query' as query from events where mission_id = ${missionId} and seq = ${seq} and type = 'library.hypotheses' limit 1`)) as unknown as Array<{ query: LibraryQuery | null }>;
    query = rows[0]?.query ?? undefined;
  }
  if (!query?.observed_symptom) return;
  await recordConfirmedReport(tx, { missionId, seq, failureId, query });
}

/** Stores one confirmed report (also used by tests and imports of operator confirmations). */
export async function recordConfirmedReport(db: Executor, r: { missionId: string; seq: number; failureId: string; query: LibraryQuery }): Promise<void> {
  const terms = normalizeQuery(r.query).terms.join(" ");
  await db.execute(sql`
    insert into library_confirmed_reports (mission_id, seq, failure_id, symptom, lexemes)
    values (${r.missionId}, ${r.seq}, ${r.failureId}, ${r.query.observed_symptom.slice(0, 1000)}, tsvector_to_array(to_tsvector('english', ${terms})))
    on conflict do nothing`);
}

async function setOutcome(tx: Tx, missionId: string, seq: number, failureId: string, outcome: string): Promise<void> {
  await tx
    .update(libraryMatches)
    .set({ outcome })
    .where(and(eq(libraryMatches.missionId, missionId), eq(libraryMatches.seq, seq), eq(libraryMatches.failureId, failureId)));
}

/** A mission's library matches, in the order they were ranked (for tests and the console). */
export async function listLibraryMatchesByMission(db: Executor, missionId: string) {
  return db.select().from(libraryMatches).where(eq(libraryMatches.missionId, missionId)).orderBy(libraryMatches.seq, libraryMatches.rank);
}

/** The drafts the orchestrator created for a mission's novel failures. */
export async function listNovelDraftsByMission(db: Executor, missionId: string) {
  return db
    .select()
    .from(libraryContributions)
    .where(and(eq(libraryContributions.missionId, missionId), eq(libraryContributions.origin, "novel_failure")))
    .orderBy(sql`${libraryContributions.createdAt}`);
}
