import { z } from "zod";
import { checkTimeOrder, issuesToFieldErrors, pickParams, serializeParams, timeBound, TIME_PRESETS, type ParamSource } from "../query-filters";
import { AUDIT_ACTIONS, AUDIT_VIA } from "./index";

/**
 * The audit log's filters: ONE schema for the page (URL), GET /api/v1/audit, its export and saved
 * queries (/audit?actor=ana&action=library.*&from=24h). Every field is optional; all given ones must
 * hold. Same shape as lib/history/filters.ts; the generic parts are in lib/query-filters.ts.
 */

/** Action groups: the prefix before the dot (`library.*` is every library action). */
export const AUDIT_ACTION_GROUPS = [...new Set(AUDIT_ACTIONS.map((a) => a.split(".")[0]))];

const ACTION_VALUES = new Set<string>([...AUDIT_ACTIONS, ...AUDIT_ACTION_GROUPS.map((g) => `${g}.*`)]);

export const AUDIT_OUTCOMES = ["ok", "refused"] as const;

export const auditFiltersSchema = z
  .object({
    /** An actor id (`user:<uuid>`, `cli:ana`, `system`) or part of a name or email. */
    actor: z.string().trim().max(200, "must be at most 200 characters").optional(),
    /** One action (`mission.start`) or a group (`library.*`). */
    action: z
      .string()
      .trim()
      .refine((a) => ACTION_VALUES.has(a), `must be an action like mission.start or a group like library.* (groups: ${AUDIT_ACTION_GROUPS.join(", ")})`)
      .optional(),
    targetType: z.string().trim().max(60, "must be at most 60 characters").optional(),
    targetId: z.string().trim().max(200, "must be at most 200 characters").optional(),
    mission: z.guid("must be a mission id (a UUID)").optional(),
    via: z.enum(AUDIT_VIA, { error: `must be one of ${AUDIT_VIA.join(", ")}` }).optional(),
    outcome: z.enum(AUDIT_OUTCOMES, { error: "must be ok or refused" }).optional(),
    from: timeBound.optional(),
    to: timeBound.optional(),
    /** Words in the summary (case-insensitive). */
    q: z.string().trim().max(200, "must be at most 200 characters").optional(),
  })
  .superRefine(checkTimeOrder);

export type AuditFilters = z.output<typeof auditFiltersSchema>;

/** Filter keys in URL order. */
export const AUDIT_FILTER_KEYS = ["actor", "action", "targetType", "targetId", "mission", "via", "outcome", "from", "to", "q"] as const satisfies readonly (keyof AuditFilters)[];

/** The filter keys of a query string or Next.js `searchParams` (paging and format keys are left out). */
export function auditFilterParams(src: ParamSource): Record<string, string> {
  return pickParams(src, AUDIT_FILTER_KEYS);
}

export type ParsedAuditFilters = { ok: true; filters: AuditFilters } | { ok: false; errors: Array<{ path: string; message: string }> };

export function parseAuditFilters(src: ParamSource): ParsedAuditFilters {
  const r = auditFiltersSchema.safeParse(auditFilterParams(src));
  return r.success ? { ok: true, filters: r.data } : { ok: false, errors: issuesToFieldErrors(r.error) };
}

/** The canonical query string (without `?`) of these filters, in fixed order. */
export function serializeAuditFilters(f: Partial<AuditFilters>): string {
  return serializeParams(f, AUDIT_FILTER_KEYS);
}

/** The filters in words, for an export's audit row ("action library.*, from last 24 hours"). */
export function describeAuditFilters(f: AuditFilters): string {
  const parts: string[] = [];
  const when = (v: string) => TIME_PRESETS.find((p) => p.from === v)?.label.toLowerCase() ?? v;
  if (f.actor) parts.push(`actor "${f.actor}"`);
  if (f.action) parts.push(`action ${f.action}`);
  if (f.targetType || f.targetId) parts.push(`target ${[f.targetType, f.targetId].filter(Boolean).join(" ")}`);
  if (f.mission) parts.push(`mission ${f.mission}`);
  if (f.via) parts.push(`via ${f.via}`);
  if (f.outcome) parts.push(`outcome ${f.outcome}`);
  if (f.from) parts.push(`from ${when(f.from)}`);
  if (f.to) parts.push(`until ${f.to}`);
  if (f.q) parts.push(`summary contains "${f.q}"`);
  return parts.length ? parts.join(", ") : "no filter";
}
