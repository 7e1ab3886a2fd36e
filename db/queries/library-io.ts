import { asc, eq, sql } from "drizzle-orm";
import type { AuditActor } from "../../lib/audit";
import { AppError } from "../../lib/errors";
import type { LibraryEntry } from "../../lib/library/entry";
import { entriesCount, parseLibraryFile, type FileError, type LibraryFormat } from "../../lib/library/io";
import type { Db, Executor } from "../client";
import { libraryEntries } from "../schema";
import { recordAudit } from "./audit-log";
import { entryDiff, publishChanges, rowToEntry, type EntryChange } from "./library";

/**
 * Importing a library file (lib/library/io.ts parses it) as one new library version, and reading
 * the published library for export. With `replace`, the file's entries become the whole published
 * library: entries missing from the file are deprecated, deprecated entries in the file are restored.
 */

export interface ImportCounts {
  added: number;
  edited: number;
  unchanged: number;
  deprecated: number;
  restored: number;
}

export interface ImportPlan {
  counts: ImportCounts;
  /** failure_ids by kind of change (unchanged ones are only counted). */
  ids: { added: string[]; edited: string[]; deprecated: string[]; restored: string[] };
  changes: EntryChange[];
}

/** What importing `entries` would change, without changing anything. */
export async function planImport(db: Executor, entries: LibraryEntry[], opts: { replace: boolean }): Promise<ImportPlan> {
  if (opts.replace && entries.length === 0) {
    throw new AppError("bad_request", { userMessage: "The file has no entries: replacing the library with it would deprecate every entry. Import a file with the entries the library should keep." });
  }
  const current = new Map((await db.select().from(libraryEntries)).map((r) => [r.failureId, rowToEntry(r)]));
  const plan: ImportPlan = { counts: { added: 0, edited: 0, unchanged: 0, deprecated: 0, restored: 0 }, ids: { added: [], edited: [], deprecated: [], restored: [] }, changes: [] };
  const inFile = new Set<string>();
  for (const entry of entries) {
    inFile.add(entry.failure_id);
    const before = current.get(entry.failure_id);
    if (!before) {
      plan.counts.added++;
      plan.ids.added.push(entry.failure_id);
      plan.changes.push({ kind: "upsert", entry });
    } else if (entryDiff(before, entry).length) {
      plan.counts.edited++;
      plan.ids.edited.push(entry.failure_id);
      plan.changes.push({ kind: "upsert", entry });
    } else plan.counts.unchanged++;
    if (before?.deprecated && opts.replace) {
      plan.counts.restored++;
      plan.ids.restored.push(entry.failure_id);
      plan.changes.push({ kind: "restore", failureId: entry.failure_id });
    }
  }
  if (opts.replace) {
    for (const [id, e] of [...current].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (inFile.has(id) || e.deprecated) continue;
      plan.counts.deprecated++;
      plan.ids.deprecated.push(id);
      plan.changes.push({ kind: "deprecate", failureId: id });
    }
  }
  return plan;
}

/**
 * Imports entries as ONE new library version (one transaction; the publish lock is taken before the
 * plan is made, so the plan is what gets published). Returns the version (null when nothing changed).
 * `audit`: the person or script importing, recorded in the same transaction.
 */
export async function importLibrary(db: Db, p: { entries: LibraryEntry[]; replace: boolean; authorId: string; source?: string; audit?: AuditActor }): Promise<{ version: number | null; plan: ImportPlan }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('faultline_library_publish'))`);
    const plan = await planImport(tx, p.entries, { replace: p.replace });
    const c = plan.counts;
    const what = [c.added && `${c.added} added`, c.edited && `${c.edited} edited`, c.deprecated && `${c.deprecated} deprecated`, c.restored && `${c.restored} restored`].filter(Boolean).join(", ");
    const summary = `${p.replace ? "Import replacing the library" : "Import"}${p.source ? ` of ${p.source}` : ""}: ${what || "no change"} (${entriesCount(p.entries.length)} in the file).`;
    const version = await publishChanges(tx, { changes: plan.changes, authorId: p.authorId, summary });
    if (p.audit) {
      const ids = (l: string[]) => (l.length > 100 ? [...l.slice(0, 100), `… ${l.length - 100} more`] : l);
      await recordAudit(tx, p.audit, {
        action: "library.import",
        summary: `${p.audit.name} imported ${p.source ?? "a library file"}${p.replace ? " replacing the library" : ""}: ${what || "no change"}${version ? ` (published library v${version})` : " (no new version)"}.`,
        target: { type: "library", id: version ? `v${version}` : "library" },
        before: { replace: p.replace, entriesInFile: p.entries.length },
        after: { version, counts: c, ids: { added: ids(plan.ids.added), edited: ids(plan.ids.edited), deprecated: ids(plan.ids.deprecated), restored: ids(plan.ids.restored) } },
      });
    }
    return { version, plan };
  });
}

/** The published library (deprecated entries left out unless asked), sorted by failure_id, with its version. */
export async function exportEntries(db: Executor, opts: { includeDeprecated?: boolean } = {}): Promise<{ version: number | null; entries: LibraryEntry[] }> {
  const rows = await db
    .select()
    .from(libraryEntries)
    .where(opts.includeDeprecated ? undefined : eq(libraryEntries.deprecated, false))
    .orderBy(asc(libraryEntries.failureId));
  const [{ version }] = (await db.execute(sql`select max(version)::int as version from library_versions`)) as Array<{ version: number | null }>;
  return {
    version,
    entries: rows.map((r) => {
      const { revision: _r, libraryVersion: _v, deprecated: _d, ...entry } = rowToEntry(r);
      return entry;
    }),
  };
}

export type ImportFileResult =
  | { ok: false; format: LibraryFormat; errors: FileError[] }
  | { ok: true; format: LibraryFormat; dryRun: boolean; entries: number; version: number | null; counts: ImportCounts; ids: ImportPlan["ids"] };

/**
 * A library file from a person or a script (console, REST, CLI): parsed and validated, then previewed
 * (`dryRun`) or imported as one version. An invalid file changes nothing and lists every error.
 */
export async function importLibraryFile(db: Db, p: { text: string; format?: LibraryFormat; fileName?: string; replace: boolean; dryRun: boolean; authorId: string; audit?: AuditActor }): Promise<ImportFileResult> {
  const parsed = parseLibraryFile(p.text, { format: p.format, fileName: p.fileName });
  if (!parsed.ok) return parsed;
  const { version, plan } = p.dryRun ? { version: null, plan: await planImport(db, parsed.entries, { replace: p.replace }) } : await importLibrary(db, { entries: parsed.entries, replace: p.replace, authorId: p.authorId, source: p.fileName, audit: p.audit });
  return { ok: true, format: parsed.format, dryRun: p.dryRun, entries: parsed.entries.length, version, counts: plan.counts, ids: plan.ids };
}
