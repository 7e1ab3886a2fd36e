import { getDb } from "@/db/client";
import { browseFiltersSchema, librarySummary, listEntries, searchParamsObject } from "@/db/queries/library-browse";
import { apiRoute, parseOr400 } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/**
 * Entries of the library, one page at a time: `?q=` (full text, or an id / title fragment),
 * `category`, `risk`, `tag` (all of), `source` (repeat or comma-separate), `deprecated=hide|show|only`,
 * `sort=relevance|id|title|risk|updated`, `page`, `per` (25, 50, 100).
 */
export const GET = apiRoute(api.libraryEntries, async ({ req }) => {
  const filters = parseOr400(browseFiltersSchema, searchParamsObject(new URL(req.url).searchParams), "filter");
  const db = getDb();
  const [page, summary] = await Promise.all([listEntries(db, filters), librarySummary(db)]);
  return Response.json({ libraryVersion: summary.version, ...page });
});
