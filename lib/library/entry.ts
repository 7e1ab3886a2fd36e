import { z } from "zod";
import { parse as parseYaml } from "yaml";
import { formatPath } from "../errors";
import { isRegExp } from "../regexp";

/**
 * The Failure Mode Reference Library entry (000: "Entry Schema"), with the document's field names,
 * plus: `title` (the hypothesis name shown in results), `risk_notes` (where risk depends on context),
 * `references`, `source` (how the entry was populated) and optional machine-executable
 * `probe_action` / `resolution_action` for the orchestrator.
 */

export const CATEGORIES = ["Physical", "Material", "Constraint", "Environmental", "State"] as const;
export type Category = (typeof CATEGORIES)[number];
export const RISK_LEVELS = ["Low", "Medium", "High", "Requires-Oversight"] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];
/** The document's population methods. */
export const SOURCES = ["expert_curation", "incident_analysis", "crowdsourcing", "simulation_extraction"] as const;
export type Source = (typeof SOURCES)[number];

/** What decides a probe's "confirmed" or a resolution's success: one check on the tool's result. */
export const actionCheckSchema = z.union([
  z.strictObject({ exit_code: z.number().int() }),
  z.strictObject({
    output_matches: z.string().min(1).max(500).refine(isRegExp, "is not a valid regular expression"),
  }),
  z.strictObject({ http_status: z.number().int().min(100).max(599) }),
]);
export type ActionCheck = z.infer<typeof actionCheckSchema>;

const actionTool = z.enum(["shell", "http", "file"], { error: "must be shell, http or file" });
const actionArgs = z.record(z.string(), z.unknown());
export const probeActionSchema = z.strictObject({ tool: actionTool, args: actionArgs, confirm_when: actionCheckSchema });
export const resolutionActionSchema = z.strictObject({ tool: actionTool, args: actionArgs, expect: actionCheckSchema });
export type ProbeAction = z.infer<typeof probeActionSchema>;
export type ResolutionAction = z.infer<typeof resolutionActionSchema>;

const text = (min: number, max: number) => z.string().trim().min(min, `must be at least ${min} characters`).max(max, `must be at most ${max} characters`);

/**
 * A failure id: Faultline's series (`FM-PHY-0001`, `FM-SW-0004`) or any document's own `PREFIX-NUMBER`
 * (`PHYS-042`, `MAT-017`, `STATE-008`): an upper-case prefix (letters, digits, inner dashes) and a number.
 */
export const FAILURE_ID = /^[A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)*-\d{1,6}$/;

export const entrySchema = z.strictObject({
  /** Immutable identifier, e.g. FM-PHY-0001. */
  failure_id: z.string().regex(FAILURE_ID, "must be an upper-case prefix and a number, such as FM-PHY-0001 or PHYS-042"),
  title: text(2, 80).optional(),
  category: z.enum(CATEGORIES, { error: `must be one of ${CATEGORIES.join(", ")}` }),
  surface_symptom: text(10, 400),
  hidden_reality: text(10, 1000),
  diagnostic_probe: text(5, 1000),
  resolution_path: text(5, 1000),
  risk_level: z.enum(RISK_LEVELS, { error: `must be one of ${RISK_LEVELS.join(", ")}` }),
  risk_notes: text(2, 500).optional(),
  context_tags: z.array(z.string().trim().toLowerCase().regex(/^[a-z0-9][a-z0-9_.+-]{0,39}$/, "must be a short lower-case tag (letters, digits, _ . + -)")).max(20, "at most 20 tags").default([]),
  references: z.array(text(2, 300)).max(20).default([]),
  source: z.enum(SOURCES, { error: `must be one of ${SOURCES.join(", ")}` }).default("expert_curation"),
  probe_action: probeActionSchema.optional(),
  resolution_action: resolutionActionSchema.optional(),
});
export type EntryInput = z.input<typeof entrySchema>;
/** An entry as stored: the title is always present (derived when an import lacks it). */
export type LibraryEntry = z.output<typeof entrySchema> & { title: string };

/**
 * A hypothesis name from the hidden reality when an entry has no title: its first clause, without a
 * leading article, at most six words ("A child-safety latch inside the drawer front catches…" →
 * "Child-safety latch inside the drawer front").
 */
export function deriveTitle(hiddenReality: string): string {
  const clause = hiddenReality.split(/[.;:,(]|\s[-–—]\s/)[0].trim();
  const words = clause.replace(/^(?:a|an|the)\s+/i, "").split(/\s+/);
  const cut: string[] = [];
  for (const w of words) {
    if (cut.length >= 3 && /^(?:is|are|was|were|has|have|catches|blocks|holds|prevents|causes|keeps|makes|that|which|so|because)$/i.test(w)) break;
    cut.push(w);
    if (cut.length === 6) break;
  }
  const t = cut.join(" ");
  return t.charAt(0).toUpperCase() + t.slice(1);
}

export interface EntryError {
  /** Position in the list (0-based), when parsing many. */
  index?: number;
  failureId?: string;
  path: string;
  message: string;
}

export type ParseEntriesResult = { ok: true; entries: LibraryEntry[] } | { ok: false; errors: EntryError[] };

/** Validates a list of entries (an import): field errors with their position; duplicate ids refused. */
export function validateEntries(raw: unknown): ParseEntriesResult {
  if (!Array.isArray(raw)) return { ok: false, errors: [{ path: "", message: "The library file must be a list of entries." }] };
  const errors: EntryError[] = [];
  const entries: LibraryEntry[] = [];
  const seen = new Set<string>();
  raw.forEach((item, index) => {
    const parsed = entrySchema.safeParse(item);
    const failureId = typeof (item as { failure_id?: unknown })?.failure_id === "string" ? (item as { failure_id: string }).failure_id : undefined;
    if (!parsed.success) {
      for (const i of parsed.error.issues) errors.push({ index, failureId, path: formatPath(i.path), message: i.message });
      return;
    }
    if (seen.has(parsed.data.failure_id)) {
      errors.push({ index, failureId, path: "failure_id", message: `${parsed.data.failure_id} appears twice: failure ids are unique and immutable` });
      return;
    }
    seen.add(parsed.data.failure_id);
    entries.push({ ...parsed.data, title: parsed.data.title ?? deriveTitle(parsed.data.hidden_reality) });
  });
  return errors.length ? { ok: false, errors } : { ok: true, entries };
}

/** Parses a YAML (or JSON) library file. */
export function parseEntries(textContent: string): ParseEntriesResult {
  let raw: unknown;
  try {
    raw = parseYaml(textContent, { prettyErrors: true });
  } catch (e) {
    return { ok: false, errors: [{ path: "", message: `Not valid YAML or JSON: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}` }] };
  }
  return validateEntries(raw);
}
