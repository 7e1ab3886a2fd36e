import { asc } from "drizzle-orm";
import type { Db } from "../db/client";
import { readTraceSource } from "../db/queries/traces";
import { missions } from "../db/schema";
import { traceLines } from "../lib/trace/export";
import { replayTrace, type Divergence } from "../lib/trace/replay";
import { verifyTrace } from "../lib/trace/verify";

/** A mission whose trace did not replay as it was recorded. */
export interface ReplayProblem {
  missionId: string;
  name: string;
  why: string;
  firstDivergence: Divergence | null;
}

/**
 * Every mission of a database exported as its trace, verified and replayed through the real engine
 * (recorded readings played back, the library's answers included: the library may have changed since): the
 * end-to-end run's check that every mission it ran replays with zero divergences (issue 17).
 */
export async function replayEveryMission(db: Db): Promise<{ missions: number; events: number; problems: ReplayProblem[] }> {
  const ids = await db.select({ id: missions.id, name: missions.name }).from(missions).orderBy(asc(missions.createdAt));
  const problems: ReplayProblem[] = [];
  let events = 0;
  for (const m of ids) {
    const src = await readTraceSource(db, m.id);
    if (!src) continue;
    const v = verifyTrace([...traceLines(src)]);
    if (!v.ok) {
      problems.push({ missionId: m.id, name: m.name, why: `its exported trace does not verify: ${v.why}`, firstDivergence: null });
      continue;
    }
    const report = await replayTrace(v.trace);
    events += report.events;
    if (report.divergences.length) problems.push({ missionId: m.id, name: m.name, why: `${report.divergences.length} divergence(s)`, firstDivergence: report.firstDivergence });
  }
  return { missions: ids.length, events, problems };
}
