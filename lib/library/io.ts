import { isMap, isSeq, LineCounter, parseDocument, stringify as stringifyYaml } from "yaml";
import { validateEntries, type EntryError, type LibraryEntry } from "./entry";

/**
 * Import and export of the Failure Mode Reference Library in the document's schema (000 "Library
 * Schema"), as JSON or YAML: the one place that turns a library file into entries and entries into a
 * file, used by the console, the REST API and the CLI. A library file is a list of entries.
 */

export const LIBRARY_FORMATS = ["json", "yaml"] as const;
export type LibraryFormat = (typeof LIBRARY_FORMATS)[number];

/** Largest library file accepted (characters): about 30 times the starter library. */
export const MAX_LIBRARY_FILE_CHARS = 5_000_000;

/** The order fields are written in: the document's schema first, then Faultline's additions. */
const FIELD_ORDER = ["failure_id", "title", "category", "surface_symptom", "hidden_reality", "diagnostic_probe", "resolution_path", "risk_level", "risk_notes", "context_tags", "references", "source", "probe_action", "resolution_action"] as const;

/** An entry error with where it is in the file (1-based line, when the file is YAML or JSON text). */
export interface FileError extends EntryError {
  line?: number;
}

export type ParseLibraryFileResult = { ok: true; entries: LibraryEntry[]; format: LibraryFormat } | { ok: false; errors: FileError[]; format: LibraryFormat };

/** The format of a file: from its name when it says (.json, .yaml, .yml), else from its first character. */
export function detectFormat(text: string, fileName?: string): LibraryFormat {
  if (fileName && /\.json$/i.test(fileName)) return "json";
  if (fileName && /\.ya?ml$/i.test(fileName)) return "yaml";
  return /^\s*[[{]/.test(text) ? "json" : "yaml";
}

/**
 * Parses a library file (JSON or YAML; `format` auto-detected when not given): every entry is
 * validated; errors name the entry's position, its failure_id, the field and the line.
 */
export function parseLibraryFile(text: string, opts: { format?: LibraryFormat; fileName?: string } = {}): ParseLibraryFileResult {
  const format = opts.format ?? detectFormat(text, opts.fileName);
  const fail = (message: string, line?: number): ParseLibraryFileResult => ({ ok: false, format, errors: [{ path: "", message, ...(line ? { line } : {}) }] });
  if (text.length > MAX_LIBRARY_FILE_CHARS) return fail(`The file is ${text.length.toLocaleString("en")} characters long; at most ${MAX_LIBRARY_FILE_CHARS.toLocaleString("en")} are accepted. Split it and import the parts one after the other.`);
  if (!text.trim()) return fail("The file is empty: it should be a list of entries (failure_id, category, surface_symptom, …).");
  // YAML is a superset of JSON: one parser gives positions for both.
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (format === "json") {
    try {
      JSON.parse(text);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const pos = /position (\d+)/.exec(message);
      const line = pos ? lines.linePos(Number(pos[1])).line : undefined;
      return fail(`Not valid JSON${line ? ` at line ${line}` : ""}: ${message.replace(/ in JSON at position \d+.*$/, "")}`, line);
    }
  }
  if (doc.errors.length) {
    const e = doc.errors[0];
    const line = lines.linePos(e.pos[0]).line;
    return fail(`Not valid YAML at line ${line}: ${e.message.split("\n")[0]}`, line);
  }
  const raw: unknown = doc.toJS({ maxAliasCount: 100 });
  if (!Array.isArray(raw)) {
    const entries = raw && typeof raw === "object" && Array.isArray((raw as { entries?: unknown }).entries) ? (raw as { entries: unknown[] }).entries : null;
    if (!entries) return fail("The file must be a list of entries (a JSON array, or a YAML list of `- failure_id: …` items).");
    return withLines(validateEntries(entries), format, doc.get("entries", true), lines);
  }
  return withLines(validateEntries(raw), format, doc.contents, lines);
}

function withLines(r: ReturnType<typeof validateEntries>, format: LibraryFormat, list: unknown, lines: LineCounter): ParseLibraryFileResult {
  if (r.ok) return { ok: true, entries: r.entries, format };
  const items = isSeq(list) ? list.items : [];
  return {
    ok: false,
    format,
    errors: r.errors.map((e) => {
      const item = e.index === undefined ? undefined : items[e.index];
      // The line of the field when it is there, else of the entry.
      const field = isMap(item) && e.path ? item.get(e.path.split(/[.[]/)[0], true) : undefined;
      const node = (field && typeof field === "object" && "range" in field ? field : item) as { range?: [number, number, number] } | undefined;
      const offset = node?.range?.[0];
      return offset === undefined ? e : { ...e, line: lines.linePos(offset).line };
    }),
  };
}

/** One error in words: "entry 4 (FM-PHY-0004, line 37), surface_symptom: must be at least 10 characters". */
export function describeFileError(e: FileError): string {
  const where = [e.failureId, e.line ? `line ${e.line}` : null].filter(Boolean).join(", ");
  const entry = e.index !== undefined ? `entry ${e.index + 1}${where ? ` (${where})` : ""}` : e.line ? `line ${e.line}` : "";
  const field = e.path ? `${e.path}: ` : "";
  return `${entry}${entry ? ", " : ""}${field}${e.message}`;
}

/** An entry with the document's field order and no empty optional fields. */
export function toFileEntry(e: LibraryEntry): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of FIELD_ORDER) {
    const v = e[f];
    if (v !== undefined && v !== null) out[f] = v;
  }
  return out;
}

/** Writes entries as a library file (sorted by failure_id); YAML starts with a comment naming the library version. */
export function serializeLibrary(entries: LibraryEntry[], format: LibraryFormat, meta?: { version: number | null; exportedAt?: string }): string {
  const list = [...entries].sort((a, b) => (a.failure_id < b.failure_id ? -1 : a.failure_id > b.failure_id ? 1 : 0)).map(toFileEntry);
  if (format === "json") return `${JSON.stringify(list, null, 2)}\n`;
  const head = meta ? `# Faultline failure-mode library${meta.version ? `, version ${meta.version}` : ""}: ${entriesCount(list.length)}${meta.exportedAt ? `, exported ${meta.exportedAt}` : ""}.\n# Import with: npx faultline library import FILE [--replace]\n` : "";
  return head + stringifyYaml(list, { lineWidth: 0 });
}

/** "1 entry", "3 entries". */
export function entriesCount(n: number): string {
  return `${n} ${n === 1 ? "entry" : "entries"}`;
}

export function exportFileName(format: LibraryFormat, version: number | null): string {
  return `faultline-library${version ? `-v${version}` : ""}.${format === "json" ? "json" : "yaml"}`;
}
