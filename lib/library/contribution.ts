import { z } from "zod";
import { AppError } from "../errors";
import { entrySchema, FAILURE_ID } from "./entry";

/**
 * Library curation rules that need no database (issue 5): contribution states, verdicts, id series,
 * and the validation of what contributors send (form, REST) — shared by the server
 * (db/queries/contributions.ts) and the contribution form. The state machine itself is enforced in
 * db/queries/contributions.ts, under row locks.
 */

export const CONTRIBUTION_STATUSES = ["draft", "pending", "in_review", "changes_requested", "approved", "rejected"] as const;
export type ContributionStatus = (typeof CONTRIBUTION_STATUSES)[number];
export const CONTRIBUTION_ORIGINS = ["contributor", "novel_failure", "learned_pattern", "simulation"] as const;
export const VERDICTS = ["approve", "request_changes", "reject"] as const;
export type Verdict = (typeof VERDICTS)[number];
/** Which id series a new entry gets: FM-PHY-#### (embodied) or FM-SW-#### (software agents). */
export const DOMAINS = ["physical", "software"] as const;
export type Domain = (typeof DOMAINS)[number];
export const PREFIX: Record<Domain, string> = { physical: "FM-PHY", software: "FM-SW" };

/** Probe / resolution actions are machine steps; 8 KB of JSON is plenty and bounds what a reviewer must read. */
export const ACTION_MAX_BYTES = 8192;
const actionSize = (v: unknown) => v === undefined || new TextEncoder().encode(JSON.stringify(v)).length <= ACTION_MAX_BYTES;

/** A contributed entry: the library's entry schema; `failure_id` is the target's for an edit and assigned at approval for a new one. */
export const contributionEntrySchema = entrySchema
  .omit({ failure_id: true })
  .extend({
    probe_action: entrySchema.shape.probe_action.refine(actionSize, `must be at most ${ACTION_MAX_BYTES / 1024} KB of JSON`),
    resolution_action: entrySchema.shape.resolution_action.refine(actionSize, `must be at most ${ACTION_MAX_BYTES / 1024} KB of JSON`),
  });
export type ContributionEntry = z.output<typeof contributionEntrySchema>;

/** A draft may be incomplete, but what it holds must already be valid and within the size limits. */
const draftEntrySchema = contributionEntrySchema.partial();

const reasonSchema = z.string({ error: "is required: say why" }).trim().min(3, "is required: say why (at least 3 characters)").max(2000, "must be at most 2000 characters");

/** What a contributor sends (form or REST). `entry` is validated separately: fully on submit, partially for a draft. */
export const contributionInputSchema = z.strictObject({
  /** The entry an edit changes; absent for a new entry. */
  target_failure_id: z.string().regex(FAILURE_ID, "must be an existing failure id such as FM-PHY-0001 or PHYS-042").optional(),
  /** The existing entry a new one is a variant of (after seeing the similar entries). */
  variant_of: z.string().regex(FAILURE_ID, "must be a failure id such as FM-PHY-0001 or PHYS-042").nullish(),
  /** For a new entry: FM-PHY (physical) or FM-SW (software) ids. Guessed from the entry when absent. */
  domain: z.enum(DOMAINS, { error: "must be physical or software" }).optional(),
  summary: z.string().trim().max(500, "must be at most 500 characters").default(""),
  entry: z.record(z.string(), z.unknown(), { error: "must be an object with the entry's fields" }),
  /** true: submit for review (pending); false: keep as a draft. */
  submit: z.boolean({ error: "must be true or false" }).default(true),
});
export type ContributionInput = z.input<typeof contributionInputSchema>;

export const reviewInputSchema = z.strictObject({
  verdict: z.enum(VERDICTS, { error: "must be approve, request_changes or reject" }),
  reason: reasonSchema,
});
export const commentInputSchema = z.strictObject({
  body: z.string({ error: "is required" }).trim().min(1, "is required").max(4000, "must be at most 4000 characters"),
  parent_id: z.number({ error: "must be a comment id" }).int().positive().nullish(),
});

export const fieldErrorsOf = (e: z.ZodError, prefix: string) => e.issues.map((i) => ({ path: [prefix, ...i.path.map(String)].filter(Boolean).join("."), message: i.message }));
export function badFields(what: string, fieldErrors: Array<{ path: string; message: string }>): never {
  throw new AppError("bad_request", {
    userMessage: `${what}: ${fieldErrors.map((f) => `${f.path} ${f.message}`).join("; ")}. Correct the fields and try again.`,
    details: { fieldErrors },
  });
}

/** Empty strings and empty lists from a form mean "not given". */
export function compact(raw: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== null && !(typeof v === "string" && v.trim() === "")));
}

const REQUIRED_TEXT = ["surface_symptom", "hidden_reality", "diagnostic_probe", "resolution_path"] as const;

/** Validates a contributed entry: fully (to submit) or as a draft. Field errors are under `entry.<field>`. */
export function validateContributionEntry(raw: Record<string, unknown>, mode: "submit" | "draft"): ContributionEntry | Partial<ContributionEntry> {
  const { failure_id: _id, domain: _domain, ...rest } = compact(raw);
  // To submit, an empty required text is "too short" (a clearer message than "expected string").
  if (mode === "submit") for (const k of REQUIRED_TEXT) rest[k] ??= "";
  const r = (mode === "submit" ? contributionEntrySchema : draftEntrySchema).safeParse(rest);
  if (!r.success) badFields(mode === "submit" ? "The entry is not ready to submit" : "The draft is not valid", fieldErrorsOf(r.error, "entry"));
  return r.data;
}

/** A guess of the domain when the contributor did not choose: software words in tags or actions → software. */
export function guessDomain(entry: Partial<ContributionEntry>, origin: string): Domain {
  if (origin === "learned_pattern") return "software";
  // A mission's novel failure is a software one unless the tool reported an object (the draft says Physical).
  if (origin === "novel_failure" || origin === "simulation") return entry.category === "Physical" ? "physical" : "software";
  if (entry.probe_action || entry.resolution_action) return "software";
  const sw = /^(shell|http|https|file|dns|tls|ssl|npm|pip|git|docker|sandbox|credentials?|token|api|binary|process|port|disk|network|ci|linux|database|postgres|software)$/;
  return (entry.context_tags ?? []).some((t) => sw.test(t)) ? "software" : "physical";
}

