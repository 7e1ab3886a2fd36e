import fs from "node:fs";
import path from "node:path";
import type { Db } from "../db/client";
import type { AuditActor } from "../lib/audit";
import { importLibraryFile, exportEntries } from "../db/queries/library-io";
import { LibraryQueryError, queryLibrary } from "../db/queries/library-query";
import { describeFileError, detectFormat, entriesCount, LIBRARY_FORMATS, serializeLibrary, type LibraryFormat } from "../lib/library/io";

/**
 * `faultline library import | export | query`: the failure-mode library from scripts, on the embedded
 * default database (or DATABASE_URL) without a server. Output goes through `out` / `err` so the
 * commands are plain functions of their input.
 */

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

export class LibraryUsageError extends Error {}

export function readInput(file: string | undefined, what: string): string {
  if (!file) throw new LibraryUsageError(`Missing ${what}: give a path, or - for standard input.`);
  if (file === "-") return fs.readFileSync(0, "utf8");
  if (!fs.existsSync(file)) throw new LibraryUsageError(`No such file: ${file}`);
  if (fs.statSync(file).isDirectory()) throw new LibraryUsageError(`${file} is a directory; give a library file (JSON or YAML).`);
  return fs.readFileSync(file, "utf8");
}

export function parseFormat(v: string | undefined, fallback: LibraryFormat): LibraryFormat {
  if (v === undefined) return fallback;
  if (!(LIBRARY_FORMATS as readonly string[]).includes(v)) throw new LibraryUsageError(`--format must be json or yaml (got "${v}").`);
  return v as LibraryFormat;
}

/** 0 imported (or previewed, or nothing to change); 2 the file is invalid (every error listed, nothing imported). */
export async function libraryImport(db: Db, io: Io, p: { text: string; file: string; replace: boolean; dryRun: boolean; json: boolean; authorId: string; audit?: AuditActor }): Promise<number> {
  const text = p.text;
  const fileName = p.file && p.file !== "-" ? path.basename(p.file) : undefined;
  const r = await importLibraryFile(db, { text, fileName, replace: p.replace, dryRun: p.dryRun, authorId: p.authorId, audit: p.audit });
  if (!r.ok) {
    if (p.json) io.out(JSON.stringify({ error: { code: "invalid_library_file", message: `The library file is not valid (${r.errors.length} error${r.errors.length === 1 ? "" : "s"}); nothing was imported.`, errors: r.errors } }, null, 2));
    else {
      io.err(`${p.file === "-" ? "The library on standard input" : p.file} is not valid; nothing was imported. Fix these and import again:`);
      for (const e of r.errors) io.err(`  ${describeFileError(e)}`);
    }
    return 2;
  }
  const c = r.counts;
  const counts = `${c.added} added, ${c.edited} edited, ${c.unchanged} unchanged, ${c.deprecated} deprecated${c.restored ? `, ${c.restored} restored` : ""}`;
  if (p.json) io.out(JSON.stringify(r, null, 2));
  else if (r.dryRun) io.out(`Preview (nothing changed) of ${entriesCount(r.entries)}${p.replace ? ", replacing the library" : ""}: ${counts}.`);
  else if (r.version === null) io.out(`Nothing to change: the library already holds these ${entriesCount(r.entries)} as they are (${counts}).`);
  else io.out(`Imported ${entriesCount(r.entries)} as library version ${r.version}${p.replace ? " (replacing the library)" : ""}: ${counts}.`);
  return 0;
}

/** Writes the published library to stdout or to FILE (written whole or not at all). */
export async function libraryExport(db: Db, io: Io, p: { format: string | undefined; out: string | undefined; includeDeprecated: boolean }): Promise<number> {
  if (p.out !== undefined && !p.out.trim()) throw new LibraryUsageError("--out needs a file name.");
  const format = parseFormat(p.format, p.out ? detectFormat("", p.out) : "yaml");
  const { version, entries } = await exportEntries(db, { includeDeprecated: p.includeDeprecated });
  const text = serializeLibrary(entries, format, { version, exportedAt: new Date().toISOString() });
  if (!p.out) {
    process.stdout.write(text);
    return 0;
  }
  const tmp = path.join(path.dirname(path.resolve(p.out)), `.${path.basename(p.out)}.${process.pid}.partial`);
  fs.writeFileSync(tmp, text, { flag: "wx" });
  fs.renameSync(tmp, p.out);
  io.err(`Wrote ${entriesCount(entries.length)} (library version ${version ?? "none"}) to ${p.out} as ${format.toUpperCase()}.`);
  return 0;
}

type Answer = Awaited<ReturnType<typeof queryLibrary>> | { error: { line?: number; code: "invalid_json" | "invalid_query"; message: string; fieldErrors?: Array<{ path: string; message: string }> } };

async function answer(db: Db, text: string, limit: number | undefined, line?: number): Promise<Answer> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { error: { ...(line ? { line } : {}), code: "invalid_json", message: `Not valid JSON: ${e instanceof Error ? e.message : String(e)}` } };
  }
  try {
    return await queryLibrary(db, value, { limit });
  } catch (e) {
    if (!(e instanceof LibraryQueryError)) throw e;
    const fieldErrors = e.issues.map((i) => ({ path: i.field, message: i.message }));
    return { error: { ...(line ? { line } : {}), code: "invalid_query", message: `Not a library query: ${fieldErrors.map((f) => `${f.path} ${f.message}`).join("; ")}`, fieldErrors } };
  }
}

export function parseLimit(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 50) throw new LibraryUsageError(`--limit must be a whole number from 1 to 50 (got "${v}").`);
  return n;
}

/** One query (JSON) → its ranked list as JSON (or readable lines). 0 answered (an abstention too); 2 invalid query. */
export async function libraryQuery(db: Db, io: Io, p: { query: string | undefined; limit: number | undefined; json: boolean }): Promise<number> {
  if (!p.query) throw new LibraryUsageError(`Missing the query: faultline library query --json '{"observed_symptom": "0 mm displacement on pull", "object_class": "drawer"}'`);
  const r = await answer(db, p.query, p.limit);
  if ("error" in r) {
    if (p.json) io.out(JSON.stringify(r, null, 2));
    else io.err(r.error.message);
    return 2;
  }
  if (p.json) io.out(JSON.stringify(r, null, 2));
  else if (r.abstained || !r.results.length) io.out("No hypothesis: the library abstains (nothing matches well enough). Log it as a novel failure.");
  else for (const h of r.results) io.out(`${h.match_score.toFixed(3)}  ${h.failure_id.padEnd(12)} ${h.hypothesis}`);
  return 0;
}

/**
 * JSON Lines in (one query per line; blank lines are skipped), one ranked list per line out, in input
 * order. A bad line answers `{"error": {line, code, message}}` on its own output line; the rest go on.
 * Four queries run at a time. 0 whenever input was read; 2 for no input.
 */
export async function libraryQueryBatch(db: Db, io: Io, p: { text: string; limit: number | undefined }): Promise<number> {
  const lines = p.text
    .split(/\r?\n/)
    .map((text, i) => ({ text: text.trim(), line: i + 1 }))
    .filter((l) => l.text);
  if (!lines.length) throw new LibraryUsageError("No queries: give JSON Lines, one query object per line.");
  const results: Array<Answer | undefined> = new Array(lines.length);
  let next = 0;
  let printed = 0;
  let bad = 0;
  const flush = () => {
    while (printed < lines.length && results[printed] !== undefined) {
      const r = results[printed]!;
      if ("error" in r) bad++;
      io.out(JSON.stringify(r));
      results[printed++] = undefined;
    }
  };
  const worker = async () => {
    for (let i = next++; i < lines.length; i = next++) {
      results[i] = await answer(db, lines[i].text, p.limit, lines[i].line);
      if (i === printed) flush();
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, lines.length) }, worker));
  flush();
  if (bad) io.err(`${bad} of ${lines.length} line${lines.length === 1 ? "" : "s"} could not be answered (see their "error" objects).`);
  return 0;
}
