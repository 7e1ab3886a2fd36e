/**
 * A timestamp as "YYYY-MM-DD HH:MM UTC", the same on server and browser (so a first render hydrates
 * without a mismatch). Takes ISO-8601 or PostgreSQL's timestamptz text ("2025-01-02 10:11:12.3+00",
 * any offset); text that is no timestamp is shown as it is. A plain module (not "use client") so
 * server components can call it.
 */
export function formatUtc(ts: string): string {
  // PostgreSQL's text in ISO form ("T", "+00:00"): every browser's Date parses that, not only V8.
  const d = new Date(ts.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00"));
  return Number.isNaN(d.getTime()) ? ts : `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
