import { z } from "zod";
import { checkTimeOrder, issuesToFieldErrors, pickParams, resolveTimeBound, serializeParams, TIME_PRESETS, timeBound, type ParamSource } from "../query-filters";

// Time bounds, presets and query-string helpers are shared with the audit log (lib/query-filters.ts).
export { resolveTimeBound, TIME_PRESETS };

/**
 * The failure history's filters: ONE schema for the page (URL), the REST API and saved queries.
 * Parameters are single values in the URL query string; `parseHistoryFilters` reports bad values as
 * field errors (a 400 in the API, words on the page), `serializeHistoryFilters` writes the canonical
 * query string (defaults omitted, fixed order) so a saved or shared view reproduces the same URL.
 */

export const FAILURE_LEVELS = ["agent", "phase", "infrastructure", "client"] as const;
export const FAILURE_SEVERITIES = ["warning", "error", "critical"] as const;
/** Sortable columns: time of the failure, time to resolution (unresolved failures count as the longest). */
export const HISTORY_SORTS = ["time", "resolution"] as const;
export type HistorySort = (typeof HISTORY_SORTS)[number];

const token = (what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(200, "must be at most 200 characters")
    .regex(/^[\w.:@\-/ ]+$/, `must be ${what} as listed in the filter (letters, digits and . _ : @ - /)`);

export const historyFiltersSchema = z
  .object({
    mission: z.guid("must be a mission id (a UUID)").optional(),
    definition: z.string().trim().min(1).max(200, "must be at most 200 characters").optional(),
    level: z.enum(FAILURE_LEVELS, { error: `must be one of ${FAILURE_LEVELS.join(", ")}` }).optional(),
    severity: z.enum(FAILURE_SEVERITIES, { error: `must be one of ${FAILURE_SEVERITIES.join(", ")}` }).optional(),
    type: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9_]{1,60}$/, "must be an error type such as rate_limited, timeout or exit_nonzero")
      .optional(),
    mode: token("a library entry id").optional(),
    actor: token("an actor id").optional(),
    phase: z
      .string()
      .trim()
      .regex(/^[A-Z_]{1,40}$/, "must be a phase such as EXECUTION")
      .optional(),
    from: timeBound.optional(),
    to: timeBound.optional(),
    status: z.enum(["resolved", "unresolved"], { error: "must be resolved or unresolved" }).optional(),
    decidedBy: token("an actor id").optional(),
    q: z.string().trim().min(1).max(200, "must be at most 200 characters").optional(),
    sort: z.enum(HISTORY_SORTS, { error: `must be one of ${HISTORY_SORTS.join(", ")}` }).default("time"),
    dir: z.enum(["asc", "desc"], { error: "must be asc or desc" }).default("desc"),
  })
  .superRefine(checkTimeOrder);
export type HistoryFilters = z.output<typeof historyFiltersSchema>;
export type HistoryFilterKey = keyof HistoryFilters;

/** Filter keys in URL order. */
export const HISTORY_FILTER_KEYS = ["mission", "definition", "level", "severity", "type", "mode", "actor", "phase", "from", "to", "status", "decidedBy", "q", "sort", "dir"] as const satisfies readonly HistoryFilterKey[];

export const DEFAULT_HISTORY_FILTERS: HistoryFilters = historyFiltersSchema.parse({});

/** The filter keys of a query string or Next.js `searchParams` (first value of each; empty = not set). */
export function filterParams(src: ParamSource): Record<string, string> {
  return pickParams(src, HISTORY_FILTER_KEYS);
}

export type ParsedHistoryFilters = { ok: true; filters: HistoryFilters } | { ok: false; errors: Array<{ path: string; message: string }> };

export function parseHistoryFilters(src: ParamSource): ParsedHistoryFilters {
  const r = historyFiltersSchema.safeParse(filterParams(src));
  if (r.success) return { ok: true, filters: r.data };
  return { ok: false, errors: issuesToFieldErrors(r.error) };
}

/** The canonical query string (without `?`) of these filters: defaults omitted, fixed order. */
export function serializeHistoryFilters(f: Partial<HistoryFilters>): string {
  return serializeParams(f, HISTORY_FILTER_KEYS, DEFAULT_HISTORY_FILTERS);
}

/**
 * How a failure ended, from its resolution action: the recovery-outcome chart's categories.
 * `retried`: an operator retried (step, phase) or a crashed idempotent step was re-run; `recovered`:
 * an automatic or operator-applied recovery plan, or a resume after a pause or crash.
 */
export const OUTCOMES = ["retried", "skipped", "aborted", "library_resolution", "recovered", "unresolved", "other"] as const;
export type Outcome = (typeof OUTCOMES)[number];
export const OUTCOME_LABELS: Record<Outcome, string> = {
  retried: "Retried",
  skipped: "Skipped / continued",
  aborted: "Aborted",
  library_resolution: "Library resolution",
  recovered: "Recovered",
  unresolved: "Unresolved",
  other: "Other decision",
};
export const OUTCOME_ACTIONS: Record<Exclude<Outcome, "unresolved" | "other" | "library_resolution">, readonly string[]> = {
  retried: ["retry", "retry_phase", "restart_phase", "rerun_idempotent"],
  skipped: ["skip", "skip_phase", "continue"],
  aborted: ["abort"],
  recovered: ["recovered", "recover", "resume"],
};

export function outcomeOf(action: string | null): Outcome {
  if (!action) return "unresolved";
  if (action.startsWith("library_resolution")) return "library_resolution";
  for (const [k, list] of Object.entries(OUTCOME_ACTIONS)) if (list.includes(action)) return k as Outcome;
  return "other";
}
