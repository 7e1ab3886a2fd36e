import { getDb } from "@/db/client";
import { importLibraryFile } from "@/db/queries/library-io";
import { userActorId } from "@/db/queries/users";
import { AppError } from "@/lib/errors";
import { describeFileError, MAX_LIBRARY_FILE_CHARS } from "@/lib/library/io";
import { apiRoute, parseOr400 } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/**
 * Imports a library file as ONE new version (library.manage). The body is the file itself: JSON
 * (`content-type: application/json`) or YAML (`application/yaml`, `text/yaml`). `?replace=true`: the
 * file's entries become the whole published library (the rest is deprecated). `?dryRun=true`: the
 * preview only. 200 `{ version, counts: {added, edited, unchanged, deprecated, restored}, ids }`;
 * 400 lists every invalid field with the entry's position, failure_id and line.
 */
export const POST = apiRoute(api.importLibrary, async ({ req, user, actor }) => {
  const sp = new URL(req.url).searchParams;
  const opts = parseOr400(api.importLibrary.query, { replace: sp.get("replace") ?? undefined, dryRun: sp.get("dryRun") ?? undefined, format: sp.get("format") ?? undefined }, "query string");
  const type = req.headers.get("content-type") ?? "";
  const format = opts.format ?? (/json/i.test(type) ? "json" : /yaml/i.test(type) ? "yaml" : undefined);
  const text = await req.text();
  if (text.length > MAX_LIBRARY_FILE_CHARS) throw new AppError("bad_request", { userMessage: `The file is too large (${text.length.toLocaleString("en")} characters; at most ${MAX_LIBRARY_FILE_CHARS.toLocaleString("en")}). Split it.` });
  const r = await importLibraryFile(getDb(), { text, format, replace: opts.replace, dryRun: opts.dryRun, authorId: userActorId(user.id), audit: actor });
  if (!r.ok) {
    throw new AppError("bad_request", {
      userMessage: `The library file is not valid (${r.errors.length} error${r.errors.length === 1 ? "" : "s"}); nothing was imported: ${r.errors.slice(0, 5).map(describeFileError).join("; ")}${r.errors.length > 5 ? "; …" : ""}.`,
      details: { errors: r.errors, fieldErrors: r.errors.map((e) => ({ path: [e.index, e.path].filter((x) => x !== undefined && x !== "").join("."), message: describeFileError(e) })) },
    });
  }
  return Response.json(r);
});
