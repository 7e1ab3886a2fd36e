import { eq, inArray } from "drizzle-orm";
import type { Executor } from "../client";
import { actors, missions } from "../schema";

/** Read-only lookups for the console and the realtime relay. */

/** The last seq of a mission, or null when it does not exist. */
export async function getMissionLastSeq(db: Executor, missionId: string): Promise<number | null> {
  const [r] = await db.select({ lastSeq: missions.lastSeq }).from(missions).where(eq(missions.id, missionId));
  return r?.lastSeq ?? null;
}

/** Display names of the given actor ids (those unknown are left out). */
export async function getActorNames(db: Executor, ids: readonly string[]): Promise<Record<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return {};
  const rows = await db.select({ id: actors.id, displayName: actors.displayName }).from(actors).where(inArray(actors.id, unique));
  return Object.fromEntries(rows.map((r) => [r.id, r.displayName]));
}
