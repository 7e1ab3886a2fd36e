import { getDb } from "@/db/client";
import { listAuditLog } from "@/db/queries/audit-log";
import { auditFilterParams } from "@/lib/audit/filters";
import { apiRoute, parseOr400 } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/**
 * The audit log, newest first (audit.view): `?actor=&action=library.*&targetType=&targetId=&mission=
 * &via=&outcome=&from=24h|<ISO>&to=&q=&cursor=&limit=`. 200 `{ entries, nextCursor }` (null on the
 * last page); 400 names each invalid filter.
 */
export const GET = apiRoute(api.listAudit, async ({ req }) => {
  const sp = new URL(req.url).searchParams;
  const { cursor, limit, ...filters } = parseOr400(api.listAudit.query, { ...auditFilterParams(sp), cursor: sp.get("cursor") ?? undefined, limit: sp.get("limit") ?? undefined }, "filter");
  return Response.json(await listAuditLog(getDb(), filters, { cursor, limit }));
});
