import { getDb } from "@/db/client";
import { LibraryQueryError, queryLibrary } from "@/db/queries/library-query";
import { AppError } from "@/lib/errors";
import { apiRoute, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/**
 * The document's query (observed_symptom, object_class, force_applied, environmental_context) →
 * `{ results: [{ failure_id, match_score, hypothesis, entry? }], abstained }`, highest first.
 * `?limit=` (1–50, default 5), `?include=entry`. Stateless: it never changes the library. 400 lists each field.
 */
export const POST = apiRoute(api.queryLibrary, async ({ req }) => {
  const url = new URL(req.url);
  const opts = parseOr400(api.queryLibrary.query, { limit: url.searchParams.get("limit") ?? undefined, include: url.searchParams.get("include") ?? undefined }, "query string");
  const body = await readJson(req);
  try {
    return Response.json(await queryLibrary(getDb(), body, { limit: opts.limit, includeEntry: opts.include === "entry" }));
  } catch (e) {
    if (!(e instanceof LibraryQueryError)) throw e;
    const fieldErrors = e.issues.map((i) => ({ path: i.field, message: i.message }));
    throw new AppError("bad_request", { userMessage: `The library query is not valid: ${fieldErrors.map((f) => `${f.path}: ${f.message}`).join("; ")}.`, details: { fieldErrors } });
  }
});
