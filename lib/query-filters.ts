import { z } from "zod";

/**
 * Generic pieces of filters that live in the URL, shared by the failure history (lib/history/filters.ts)
 * and the audit log (lib/audit/filters.ts): time bounds (an instant, or a span before now such as 24h),
 * the page's time presets, picking a view's keys out of a query string, and writing it back canonically.
 */

/** `1h`, `30m`, `24h`, `7d`: that long before now. */
const RELATIVE = /^(\d{1,4})(m|h|d)$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A `from` / `to` value: a date and time, or a span before now. */
export const timeBound = z
  .string()
  .trim()
  .refine((v) => RELATIVE.test(v) || (/^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v))), "must be a date and time (2025-01-31T08:00Z) or a span before now such as 30m, 1h, 24h, 7d");

/** A time bound as epoch milliseconds: a span (`1h`) counts back from `now`. */
export function resolveTimeBound(v: string, now: number): number {
  const m = RELATIVE.exec(v.trim());
  return m ? now - Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] : Date.parse(v);
}

/** A zod refinement for filters with `from` and `to`: `to` must not be before `from`. */
export function checkTimeOrder(f: { from?: string; to?: string }, ctx: z.RefinementCtx): void {
  if (f.from && f.to) {
    const now = Date.now();
    if (resolveTimeBound(f.from, now) > resolveTimeBound(f.to, now)) ctx.addIssue({ code: "custom", path: ["to"], message: "must be after from" });
  }
}

/** Time presets of the pages, as `from` spans. */
export const TIME_PRESETS = [
  { from: "1h", label: "Last hour" },
  { from: "24h", label: "Last 24 hours" },
  { from: "7d", label: "Last 7 days" },
  { from: "30d", label: "Last 30 days" },
  { from: "90d", label: "Last 90 days" },
] as const;

export type ParamSource = URLSearchParams | Record<string, string | string[] | undefined>;

/** The given keys of a query string or Next.js `searchParams` (first value of each; empty = not set). */
export function pickParams(src: ParamSource, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) {
    const raw = src instanceof URLSearchParams ? src.get(k) : src[k];
    const v = Array.isArray(raw) ? raw[0] : raw;
    if (v !== undefined && v !== null && v.trim() !== "") out[k] = v;
  }
  return out;
}

/** The canonical query string (without `?`): these keys in this order, unset values and defaults omitted. */
export function serializeParams<F extends object>(f: Partial<F>, keys: readonly (keyof F & string)[], defaults: Partial<F> = {}): string {
  const sp = new URLSearchParams();
  for (const k of keys) {
    const v = f[k];
    if (v === undefined || v === null || v === "" || v === defaults[k]) continue;
    sp.set(k, String(v));
  }
  return sp.toString();
}

/** Zod issues as field errors (`{ path, message }`), for a page that shows them beside the filters. */
export function issuesToFieldErrors(e: z.ZodError): Array<{ path: string; message: string }> {
  return e.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
}

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A datetime-local input's value (the browser's local time) as ISO UTC ("" stays ""). */
export function localInputToIso(local: string): string {
  return local ? new Date(local).toISOString() : "";
}

/** An ISO instant as a datetime-local input's value in the browser's time ("" for a span or nothing). */
export function isoToLocalInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime()) || !/^\d{4}-/.test(iso)) return "";
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** A saved query shipped in code. `needs`: a URL parameter the query is about (e.g. `mission`), filled in from the current view. */
export interface BuiltInQuery {
  id: string;
  name: string;
  query: string;
  needs?: string;
  description?: string;
}

/** A list's count is exact up to this many rows, then shown as "10,000+" (counting millions of rows costs seconds). */
export const COUNT_CAP = 10_000;

/**
 * With words (the audit log's words, the failure history's full text) a count is exact up to this many rows, "1,000+"
 * beyond: each match is checked against its row (a text index only narrows, and knows nothing of the other filters or
 * of time), so counting 10,000 of them reads 10,000 rows or more — over a second at 10,000,000 rows.
 */
export const WORDS_COUNT_CAP = 1_000;

/** How many rows match a view's filters: exact up to COUNT_CAP, else `capped` (at least `count`). */
export interface CappedCount {
  count: number;
  capped: boolean;
}

/**
 * "1,234", or "10,000+" when capped. A capped count is a lower bound (a words count cut by its time says "at least"
 * what it found): with `loaded`, the rows a list has already shown, never less than those.
 */
export function countLabel(c: CappedCount, loaded = 0): string {
  return c.capped ? `${Math.max(c.count, loaded).toLocaleString("en")}+` : c.count.toLocaleString("en");
}
