import { asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { AuditActor } from "../../lib/audit";
import { AppError } from "../../lib/errors";
import type { LibraryEntry } from "../../lib/library/entry";
import type { Db, Executor, Tx } from "../client";
import { libraryEntries, libraryEntryVersions, libraryVersions, type LibraryEntryRow } from "../schema";
import { recordAudit } from "./audit-log";

/**
 * The Failure Mode Reference Library's store: publishing a set of entry changes is one new library
 * version (one transaction): each changed entry gets a new revision with its author, reviewer and diff;
 * entries are never deleted, only deprecated; ids never change.
 */

/** The entry fields compared and versioned (the document's schema and Faultline's additions). */
const FIELDS = ["title", "category", "surface_symptom", "hidden_reality", "diagnostic_probe", "resolution_path", "risk_level", "risk_notes", "context_tags", "references", "source", "probe_action", "resolution_action"] as const;

export function rowToEntry(r: LibraryEntryRow): LibraryEntry & { revision: number; libraryVersion: number; deprecated: boolean } {
  return {
    failure_id: r.failureId,
    title: r.title,
    category: r.category as LibraryEntry["category"],
    surface_symptom: r.surfaceSymptom,
    hidden_reality: r.hiddenReality,
    diagnostic_probe: r.diagnosticProbe,
    resolution_path: r.resolutionPath,
    risk_level: r.riskLevel as LibraryEntry["risk_level"],
    ...(r.riskNotes ? { risk_notes: r.riskNotes } : {}),
    context_tags: r.contextTags,
    references: r.references,
    source: r.source as LibraryEntry["source"],
    ...(r.probeAction ? { probe_action: r.probeAction as LibraryEntry["probe_action"] } : {}),
    ...(r.resolutionAction ? { resolution_action: r.resolutionAction as LibraryEntry["resolution_action"] } : {}),
    revision: r.revision,
    libraryVersion: r.libraryVersion,
    deprecated: r.deprecated,
  };
}

function toColumns(e: LibraryEntry) {
  return {
    title: e.title,
    category: e.category,
    surfaceSymptom: e.surface_symptom,
    hiddenReality: e.hidden_reality,
    diagnosticProbe: e.diagnostic_probe,
    resolutionPath: e.resolution_path,
    riskLevel: e.risk_level,
    riskNotes: e.risk_notes ?? null,
    contextTags: e.context_tags,
    references: e.references,
    source: e.source,
    probeAction: e.probe_action ?? null,
    resolutionAction: e.resolution_action ?? null,
  };
}

/** Field-by-field differences between two versions of an entry (absent and null are the same). */
export function entryDiff(before: Partial<LibraryEntry> | null, after: LibraryEntry): Array<{ field: string; before: unknown; after: unknown }> {
  const norm = (v: unknown) => (v === undefined ? null : v);
  // Key order does not count: jsonb (probe_action, resolution_action) gives keys back in its own order.
  const canonical = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x));
  return FIELDS.filter((f) => canonical(norm(before?.[f])) !== canonical(norm(after[f]))).map((f) => ({ field: f, before: norm(before?.[f]), after: norm(after[f]) }));
}

export type EntryChange = { kind: "upsert"; entry: LibraryEntry } | { kind: "deprecate"; failureId: string } | { kind: "restore"; failureId: string };

/**
 * Publishes changes as a new library version in the caller's transaction. Unchanged entries are skipped;
 * if nothing changes, no version is created (returns null).
 */
export async function publishChanges(tx: Tx, p: { changes: EntryChange[]; authorId: string; reviewerId?: string | null; summary: string }): Promise<number | null> {
  // One publisher at a time: versions are numbered without gaps.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('faultline_library_publish'))`);
  const [{ current }] = (await tx.execute(sql`select coalesce(max(version), 0)::int as current from library_versions`)) as Array<{ current: number }>;
  const version = current + 1;
  const ids = p.changes.map((c) => (c.kind === "upsert" ? c.entry.failure_id : c.failureId));
  const existing = new Map((ids.length ? await tx.select().from(libraryEntries).where(inArray(libraryEntries.failureId, ids)) : []).map((r) => [r.failureId, r]));
  const changelog: Array<{ failureId: string; change: string; revision: number }> = [];
  const now = new Date().toISOString();
  for (const c of p.changes) {
    const id = c.kind === "upsert" ? c.entry.failure_id : c.failureId;
    const row = existing.get(id);
    if (c.kind === "upsert") {
      const before = row ? rowToEntry(row) : null;
      const diff = entryDiff(before, c.entry);
      if (row && diff.length === 0) continue;
      const revision = (row?.revision ?? 0) + 1;
      const change = row ? "edited" : "added";
      const [written] = row
        ? await tx.update(libraryEntries).set({ ...toColumns(c.entry), revision, libraryVersion: version, updatedAt: now }).where(eq(libraryEntries.failureId, id)).returning()
        : await tx.insert(libraryEntries).values({ failureId: id, ...toColumns(c.entry), revision, libraryVersion: version, updatedAt: now }).returning();
      existing.set(id, written);
      await tx.insert(libraryEntryVersions).values({ failureId: id, revision, libraryVersion: version, change, data: c.entry, diff, authorId: p.authorId, reviewerId: p.reviewerId ?? null, createdAt: now });
      changelog.push({ failureId: id, change, revision });
    } else {
      if (!row) throw new AppError("not_found", { userMessage: `Failure mode ${id} does not exist.` });
      const deprecate = c.kind === "deprecate";
      if (row.deprecated === deprecate) continue;
      const revision = row.revision + 1;
      const [written] = await tx.update(libraryEntries).set({ deprecated: deprecate, revision, libraryVersion: version, updatedAt: now }).where(eq(libraryEntries.failureId, id)).returning();
      existing.set(id, written);
      const change = deprecate ? "deprecated" : "restored";
      await tx.insert(libraryEntryVersions).values({ failureId: id, revision, libraryVersion: version, change, data: rowToEntry(row), diff: [{ field: "deprecated", before: !deprecate, after: deprecate }], authorId: p.authorId, reviewerId: p.reviewerId ?? null, createdAt: now });
      changelog.push({ failureId: id, change, revision });
    }
  }
  if (changelog.length === 0) return null;
  await tx.insert(libraryVersions).values({ version, summary: p.summary, changelog, authorId: p.authorId, createdAt: now });
  return version;
}

/**
 * Deprecates or restores one entry with a reason: one new library version; a conflict when it already
 * is. `audit`: who, recorded with the deprecated flag before and after in the same transaction.
 */
export async function setEntryDeprecated(db: Db, p: { failureId: string; deprecated: boolean; reason: string; authorId: string; audit?: AuditActor }): Promise<number> {
  return db.transaction(async (tx) => {
    const version = await publishChanges(tx, { changes: [{ kind: p.deprecated ? "deprecate" : "restore", failureId: p.failureId }], authorId: p.authorId, summary: `${p.deprecated ? "Deprecated" : "Restored"} ${p.failureId}: ${p.reason}` });
    if (version === null) throw new AppError("conflict", { userMessage: `${p.failureId} is already ${p.deprecated ? "deprecated" : "published"}; nothing changed. Reload the page to see its current state.` });
    if (p.audit) {
      const [entry] = await tx.select({ title: libraryEntries.title }).from(libraryEntries).where(eq(libraryEntries.failureId, p.failureId));
      await recordAudit(tx, p.audit, {
        action: p.deprecated ? "library.deprecate" : "library.restore",
        summary: `${p.audit.name} ${p.deprecated ? "deprecated" : "restored"} ${p.failureId} "${entry?.title ?? ""}" (library v${version}): ${p.reason}`,
        target: { type: "library_entry", id: p.failureId },
        before: { deprecated: !p.deprecated },
        after: { deprecated: p.deprecated, libraryVersion: version, reason: p.reason },
      });
    }
    return version;
  });
}

/** Loads the starter library into an empty library (version 1); a library that has versions is left alone. */
export async function loadStarterLibrary(db: Db, entries: LibraryEntry[], authorId: string): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [{ n }] = (await tx.execute(sql`select count(*)::int as n from library_versions`)) as Array<{ n: number }>;
    if (n > 0) return null;
    return publishChanges(tx, { changes: entries.map((entry) => ({ kind: "upsert" as const, entry })), authorId, summary: `Starter library: ${entries.length} failure modes written by the Faultline team (expert curation).` });
  });
}

export async function getEntry(db: Executor, failureId: string) {
  const [row] = await db.select().from(libraryEntries).where(eq(libraryEntries.failureId, failureId));
  return row ? rowToEntry(row) : null;
}

export async function entryHistory(db: Executor, failureId: string) {
  return db.select().from(libraryEntryVersions).where(eq(libraryEntryVersions.failureId, failureId)).orderBy(asc(libraryEntryVersions.revision));
}

export async function listLibraryVersions(db: Executor, limit = 100) {
  return db.select().from(libraryVersions).orderBy(desc(libraryVersions.version)).limit(limit);
}

/**
 * Rolls the library back to version `to`: every entry changed after it gets back its state as of `to`
 * (entries added after it are deprecated). Recorded as a new version; history is never rewritten.
 */
export async function rollbackLibrary(db: Db, p: { to: number; authorId: string; audit?: AuditActor }): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [{ current }] = (await tx.execute(sql`select coalesce(max(version), 0)::int as current from library_versions`)) as Array<{ current: number }>;
    if (!Number.isInteger(p.to) || p.to < 1 || p.to >= current) throw new AppError("bad_request", { userMessage: `Roll back to a version from 1 to ${current - 1} (the library is at version ${current}).` });
    const changed = (await tx.execute(sql`select distinct failure_id from library_entry_versions where library_version > ${p.to}`)) as Array<{ failure_id: string }>;
    const changes: EntryChange[] = [];
    for (const { failure_id } of changed) {
      const [asOf] = (await tx.execute(sql`select data, change from library_entry_versions where failure_id = ${failure_id} and library_version <= ${p.to} order by revision desc limit 1`)) as Array<{ data: LibraryEntry; change: string }>;
      const [now] = await tx.select({ deprecated: libraryEntries.deprecated }).from(libraryEntries).where(eq(libraryEntries.failureId, failure_id));
      if (!asOf) {
        changes.push({ kind: "deprecate", failureId: failure_id });
        continue;
      }
      changes.push({ kind: "upsert", entry: asOf.data });
      const wasDeprecated = asOf.change === "deprecated";
      if (wasDeprecated !== now.deprecated) changes.push({ kind: wasDeprecated ? "deprecate" : "restore", failureId: failure_id });
    }
    const version = await publishChanges(tx, { changes, authorId: p.authorId, summary: `Rollback to version ${p.to}.` });
    if (p.audit) {
      await recordAudit(tx, p.audit, {
        action: "library.rollback",
        summary: `${p.audit.name} rolled the library back to v${p.to}${version ? ` as v${version} (${changed.length} entr${changed.length === 1 ? "y" : "ies"} restored to their v${p.to} state)` : " (nothing to change)"}.`,
        target: { type: "library", id: version ? `v${version}` : "library" },
        before: { libraryVersion: current },
        after: { libraryVersion: version ?? current, rolledBackTo: p.to, entries: changed.map((c) => c.failure_id).slice(0, 100) },
      });
    }
    return version;
  });
}
