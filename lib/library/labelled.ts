import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The library's labelled queries (bench/): reports with the entries they should retrieve, or none.
 * `library` (bench/library-queries.jsonl) is the project's own set, split by id parity (odd ids fit the
 * calibration, even ids evaluate it); `telemetry` (bench/library-telemetry.jsonl) holds reports written as
 * robot telemetry from public failure write-ups, split by source into a tuning and a held-out half.
 * Read by `npm run bench:library` and by the Diagnostics page's reliability chart of match scores.
 */
export interface LabelledQuery {
  id: string;
  set: LabelledSet;
  /** Telemetry set: the half of its source; the library set splits by odd/even id instead. */
  half?: "tuning" | "heldout";
  /** Telemetry set: the public page the report was derived from. */
  source?: string;
  /** Telemetry set: collection round (2: written by a second hand before reading entries or rules). */
  batch?: number;
  /** close / paraphrase: descriptive reports; terse: one-line tool output or a few words; uncovered: no entry describes it. */
  kind: "close" | "paraphrase" | "terse" | "uncovered";
  query: { observed_symptom: string; object_class?: string; force_applied?: string; environmental_context?: string[] | string };
  expected: string[];
}

export const LABELLED_SETS = { library: "library-queries.jsonl", telemetry: "library-telemetry.jsonl" } as const;
export type LabelledSet = keyof typeof LABELLED_SETS;

/** The bench folder: beside the sources in a checkout, else the working directory's (a bundler moved this module). */
function benchDir(): string {
  const here = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "bench");
  return existsSync(path.join(here, LABELLED_SETS.library)) ? here : path.join(process.cwd(), "bench");
}

/** Reads the labelled sets; a set whose file is missing (a deployment without bench/) is empty. */
export function readLabelledQueries(sets: readonly LabelledSet[] = Object.keys(LABELLED_SETS) as LabelledSet[]): LabelledQuery[] {
  const dir = benchDir();
  return sets.flatMap((set) => {
    let text: string;
    try {
      text = readFileSync(/*turbopackIgnore: true*/ path.join(/*turbopackIgnore: true*/ dir, LABELLED_SETS[set]), "utf8");
    } catch {
      return [];
    }
    return text
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => ({ ...JSON.parse(l), set }) as LabelledQuery);
  });
}

/** The half the calibration and the rules were fitted on: odd ids of the library set, the telemetry set's tuning sources. */
export function isTuningQuery(q: LabelledQuery): boolean {
  return q.half ? q.half === "tuning" : Number(q.id.replace(/\D/g, "")) % 2 === 1;
}
