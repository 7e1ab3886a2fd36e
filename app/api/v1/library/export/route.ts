import { getDb } from "@/db/client";
import { exportEntries } from "@/db/queries/library-io";
import { exportFileName, serializeLibrary } from "@/lib/library/io";
import { apiRoute, parseOr400 } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** The published library as a file in the document's schema (`?format=json|yaml`, default yaml; `?deprecated=include`). Admin only (library.manage), like the console's export. */
export const GET = apiRoute(api.exportLibrary, async ({ req }) => {
  const sp = new URL(req.url).searchParams;
  const opts = parseOr400(api.exportLibrary.query, { format: sp.get("format") ?? undefined, deprecated: sp.get("deprecated") ?? undefined }, "query string");
  const { version, entries } = await exportEntries(getDb(), { includeDeprecated: opts.deprecated === "include" });
  return new Response(serializeLibrary(entries, opts.format, { version, exportedAt: new Date().toISOString() }), {
    headers: {
      "content-type": opts.format === "json" ? "application/json; charset=utf-8" : "application/yaml; charset=utf-8",
      "content-disposition": `attachment; filename="${exportFileName(opts.format, version)}"`,
      "x-library-version": String(version ?? ""),
      "cache-control": "no-store",
    },
  });
});
