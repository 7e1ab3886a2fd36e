import type { Mean, Rate } from "@/lib/lab/metrics";

/** A rate as people read it: `92.6%`, or — without trials. */
export const pct = (v: number | null | undefined, digits = 1) => (v === null || v === undefined ? "—" : `${(v * 100).toFixed(digits)}%`);

/** A rate with its counts and 95% Wilson interval in words: `92.6% [76.6%, 97.9%] (25/27)`. */
export function rateText(r: Rate | null | undefined): string {
  if (!r || r.value === null) return "— (no trials)";
  return `${pct(r.value)}${r.ci ? ` [${pct(r.ci[0])}, ${pct(r.ci[1])}]` : ""} (${r.successes}/${r.trials})`;
}

/** A mean with its 95% t interval: `2.00 [1.79, 2.21] (n = 25)`. */
export function meanText(m: Mean | null | undefined): string {
  if (!m || m.value === null) return "— (none)";
  return `${m.value.toFixed(2)}${m.ci ? ` [${m.ci[0].toFixed(2)}, ${m.ci[1].toFixed(2)}]` : ""} (n = ${m.n})`;
}
