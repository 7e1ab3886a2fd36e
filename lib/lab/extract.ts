import { patternTrigger } from "../diagnosis/diagnose";
import type { Diagnosis } from "../diagnosis/types";
import { allProvidersFailed } from "../mission/failure";
import { buildLibraryQuery, noveltyDraft, type LibraryDraft, type LibraryQuery } from "../mission/library";
import { refusedBinary, stepDefinitionOf } from "../mission/steps";
import type { ToolError } from "../tools/result";
import type { LabRecord } from "./lab";

/**
 * Simulation extraction (000 "Population Methods": failures seen in simulated environments are
 * catalogued): what a lab run's failures say to the failure-mode library. Each diagnosed failure of a
 * run becomes a *sighting* with a signature, the library query a mission would have asked for it, and
 * the draft entry a mission would have proposed had the library not known it. db/queries/lab.ts stores
 * the sightings with the suite run and turns the recurring ones the library does not cover into draft
 * contributions (docs/lab.md "Simulation extraction").
 */

/** A signature must be seen in at least this many runs (suite run × scenario × repeat) to be recurring. */
export const MIN_SIGHTINGS = 2;

export interface FailureSighting {
  /** The seq of the `tool.failed` event in the run's trace. */
  seq: number;
  agent: string;
  step: number;
  /** `<diagnosed error type>:<learned-pattern trigger>`: the same failing thing failing the same way. */
  signature: string;
  errorType: string;
  /** The fault the lab injected (the ground truth), or null when the failure was not injected. */
  injected: string | null;
  errorCode: string;
  query: LibraryQuery;
  /** The entry a mission would propose for it (000: "log as novel failure … flag for library addition"). */
  draft: LibraryDraft;
}

/**
 * The signature of a diagnosed failure: its diagnosed type and the learned-pattern trigger of its
 * diagnosis (the failing thing without where it ran: `inventory_internal_rate_limit`), the key recovery
 * memory already uses for "the same failure". A port or a run's ids are not in it, so the same fault
 * in another run, repeat or suite run has the same signature.
 */
export function failureSignature(d: Diagnosis): string {
  return `${d.errorClassification.type}:${patternTrigger(d)}`;
}

/**
 * Every diagnosed failure of a run, with its signature, its library query and its draft. A failure the
 * library is never asked about in a mission is left out as well: a binary refused by the allowlist (its
 * remedy is the gate's allow_binary) and every model provider failing (an outage, not a failure mode).
 */
export function failureSightings(record: Pick<LabRecord, "events" | "calls" | "end" | "missionId">): FailureSighting[] {
  const state = record.end.state;
  if (!state) return [];
  const failed = new Map<string, { seq: number; attempt: number; error: ToolError }>();
  const out: FailureSighting[] = [];
  for (const e of record.events) {
    if (e.type === "tool.failed") failed.set(`${e.payload.agent}/${e.payload.step}`, { seq: e.seq, attempt: e.payload.attempt, error: e.payload.error });
    if (e.type !== "diagnostic_reflection") continue;
    const key = `${e.payload.agent}/${e.payload.step}`;
    const f = failed.get(key);
    if (!f || refusedBinary(f.error) || allProvidersFailed(f.error)) continue;
    let step;
    try {
      step = stepDefinitionOf(state, e.payload.agent, e.payload.step, f.attempt);
    } catch {
      continue; // an autonomous agent's step without an approved proposal: nothing ran, nothing to catalogue
    }
    if (!step) continue;
    const d = e.payload.diagnosis;
    const query = buildLibraryQuery(step, f.error, null, d);
    const physical = Boolean(query.force_applied) || !["shell", "http", "file", "llm"].some((x) => query.object_class?.startsWith(`${x}:`));
    const call = record.calls.findLast((c) => c.kind === "step" && `${c.agent}/${c.step}` === key && c.afterSeq < f.seq);
    out.push({
      seq: f.seq,
      agent: e.payload.agent,
      step: e.payload.step,
      signature: failureSignature(d),
      errorType: d.errorClassification.type,
      injected: call?.injected?.type ?? null,
      errorCode: f.error.code,
      query,
      draft: noveltyDraft(query, f.error, d, { missionId: record.missionId, failedSeq: f.seq, physical }),
    });
  }
  return out;
}
