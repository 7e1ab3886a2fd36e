import { parse as parseYaml } from "yaml";
import { ACTION_MAX_BYTES } from "@/lib/library/contribution";
import type { FieldError } from "@/server/action-result";

/**
 * The contribution form's text fields and their conversion to the entry JSON the server validates
 * (the same shape the REST API takes): tags split on commas or spaces, one reference per line,
 * probe/resolution actions written as JSON or YAML. Pure: used by the form, its preview and its tests.
 */
export interface EntryFormValues {
  title: string;
  category: string;
  surface_symptom: string;
  hidden_reality: string;
  diagnostic_probe: string;
  resolution_path: string;
  risk_level: string;
  risk_notes: string;
  context_tags: string;
  references: string;
  source: string;
  probe_action: string;
  resolution_action: string;
}

export const EMPTY_FORM: EntryFormValues = {
  title: "",
  category: "",
  surface_symptom: "",
  hidden_reality: "",
  diagnostic_probe: "",
  resolution_path: "",
  risk_level: "",
  risk_notes: "",
  context_tags: "",
  references: "",
  source: "crowdsourcing",
  probe_action: "",
  resolution_action: "",
};

const str = (v: unknown) => (typeof v === "string" ? v : "");
const actionText = (v: unknown) => (v && typeof v === "object" ? JSON.stringify(v, null, 2) : "");

/** A stored entry (or a partial draft) as form values. */
export function formFromEntry(e: Record<string, unknown> | null | undefined): EntryFormValues {
  if (!e) return { ...EMPTY_FORM };
  return {
    title: str(e.title),
    category: str(e.category),
    surface_symptom: str(e.surface_symptom),
    hidden_reality: str(e.hidden_reality),
    diagnostic_probe: str(e.diagnostic_probe),
    resolution_path: str(e.resolution_path),
    risk_level: str(e.risk_level),
    risk_notes: str(e.risk_notes),
    context_tags: Array.isArray(e.context_tags) ? e.context_tags.join(", ") : "",
    references: Array.isArray(e.references) ? e.references.join("\n") : "",
    source: str(e.source) || EMPTY_FORM.source,
    probe_action: actionText(e.probe_action),
    resolution_action: actionText(e.resolution_action),
  };
}

function parseAction(text: string, field: "probe_action" | "resolution_action", errors: FieldError[]): unknown {
  if (!text.trim()) return undefined;
  if (text.length > ACTION_MAX_BYTES) {
    errors.push({ path: `entry.${field}`, message: `must be at most ${ACTION_MAX_BYTES / 1024} KB of JSON or YAML (it is ${Math.ceil(text.length / 1024)} KB)` });
    return undefined;
  }
  try {
    const v = parseYaml(text);
    if (!v || typeof v !== "object" || Array.isArray(v)) {
      errors.push({ path: `entry.${field}`, message: "must be an object: { tool, args, " + (field === "probe_action" ? "confirm_when" : "expect") + " }" });
      return undefined;
    }
    return v;
  } catch (e) {
    errors.push({ path: `entry.${field}`, message: `is not valid JSON or YAML: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}` });
    return undefined;
  }
}

/** Form values → the entry JSON, plus the errors only the form can see (unparseable actions). */
export function entryFromForm(f: EntryFormValues): { entry: Record<string, unknown>; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const entry: Record<string, unknown> = {
    title: f.title.trim() || undefined,
    category: f.category || undefined,
    surface_symptom: f.surface_symptom,
    hidden_reality: f.hidden_reality,
    diagnostic_probe: f.diagnostic_probe,
    resolution_path: f.resolution_path,
    risk_level: f.risk_level || undefined,
    risk_notes: f.risk_notes.trim() || undefined,
    context_tags: f.context_tags
      .split(/[,\s]+/)
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean),
    references: f.references
      .split("\n")
      .map((r) => r.trim())
      .filter(Boolean),
    source: f.source || undefined,
    probe_action: parseAction(f.probe_action, "probe_action", errors),
    resolution_action: parseAction(f.resolution_action, "resolution_action", errors),
  };
  return { entry: Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined)), errors };
}

/** The entry fields shown to people, in order, with their labels. */
export const FIELD_LABELS: Record<string, string> = {
  title: "Title (hypothesis name)",
  category: "Category",
  surface_symptom: "Surface symptom",
  hidden_reality: "Hidden reality",
  diagnostic_probe: "Diagnostic probe",
  resolution_path: "Resolution path",
  risk_level: "Risk level",
  risk_notes: "Risk notes",
  context_tags: "Context tags",
  references: "References",
  source: "Source",
  probe_action: "Probe action (machine step)",
  resolution_action: "Resolution action (machine step)",
};
