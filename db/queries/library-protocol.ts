import { and, desc, eq, sql } from "drizzle-orm";
import type { LibraryConsultation, LibraryHypothesis, LibraryQuery } from "../../lib/mission/library";
import type { MissionEvent } from "../../lib/mission/events";
import type { Db, Executor, Tx } from "../client";
import { libraryContributions, libraryMatches, libraryVersions } from "../schema";
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
        break;
      case "library.resolution":
        if (!e.payload.ok) await setOutcome(tx, e.missionId, e.payload.hypothesesSeq, e.payload.failure_id, "unresolved");
        break;
      case "library.resolved":
        await setOutcome(tx, e.missionId, e.payload.hypothesesSeq, e.payload.failure_id, e.payload.outcome);
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
