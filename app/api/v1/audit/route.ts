import { z } from "zod";
import { getDb } from "@/db/client";
import { listAuditLog } from "@/db/queries/audit-log";
import { auditFiltersSchema, auditFilterParams } from "@/lib/audit/filters";
import { apiRoute, parseOr400 } from "@/server/api";

export const dynamic = "force-dynamic";

const paging = z.object({
  cursor: z.string().max(200, "must be the nextCursor of the previous page").optional(),
  limit: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1, "must be at least 1").max(500, "must be at most 500").optional(),
});

/**
 * The audit log, newest first (audit.view): `?actor=&action=library.*&targetType=&targetId=&mission=
 * &via=&outcome=&from=24h|<ISO>&to=&q=&cursor=&limit=`. 200 `{ entries, nextCursor }` (null on the
 * last page); 400 names each invalid filter.
 */
export const GET = apiRoute({ name: "GET audit", permission: "audit.view" }, async ({ req }) => {
  const sp = new URL(req.url).searchParams;
  const filters = parseOr400(auditFiltersSchema, auditFilterParams(sp), "filter");
  const page = parseOr400(paging, { cursor: sp.get("cursor") ?? undefined, limit: sp.get("limit") ?? undefined }, "paging");
  return Response.json(await listAuditLog(getDb(), filters, page));
});
