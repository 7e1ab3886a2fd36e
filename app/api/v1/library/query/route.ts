import { z } from "zod";
import { getDb } from "@/db/client";
import { LibraryQueryError, queryLibrary } from "@/db/queries/library-query";
import { AppError } from "@/lib/errors";
import { apiRoute, parseOr400, readJson } from "@/server/api";

export const dynamic = "force-dynamic";

const options = z.object({
  limit: z.coerce.number({ error: "must be a number from 1 to 50" }).int("must be a whole number").min(1, "must be at least 1").max(50, "must be at most 50").optional(),
  include: z.enum(["entry"], { error: "can only be entry (adds each hypothesis's full entry)" }).optional(),
});

/**
 * The document's query (observed_symptom, object_class, force_applied, environmental_context) →
 * `{ results: [{ failure_id, match_score, hypothesis, entry? }], abstained }`, highest first.
 * `?limit=` (1–50, default 5), `?include=entry`. Stateless: it never changes the library. 400 lists each field.
 */
export const POST = apiRoute({ name: "POST library query", permission: "library.view" }, async ({ req }) => {
  const url = new URL(req.url);
  const opts = parseOr400(options, { limit: url.searchParams.get("limit") ?? undefined, include: url.searchParams.get("include") ?? undefined }, "query string");
  const body = await readJson(req);
  try {
    return Response.json(await queryLibrary(getDb(), body, { limit: opts.limit, includeEntry: opts.include === "entry" }));
  } catch (e) {
    if (!(e instanceof LibraryQueryError)) throw e;
    const fieldErrors = e.issues.map((i) => ({ path: i.field, message: i.message }));
    throw new AppError("bad_request", { userMessage: `The library query is not valid: ${fieldErrors.map((f) => `${f.path}: ${f.message}`).join("; ")}.`, details: { fieldErrors } });
  }
});
