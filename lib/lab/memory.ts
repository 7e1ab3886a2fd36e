import type { MissionEvent } from "../mission/events";
import type { PatternRef } from "../mission/types";
import type { PatternStore } from "./world";

/** The fast-path threshold a new pattern gets (learned_patterns.threshold's default). */
export const PATTERN_THRESHOLD = 0.8;

/**
 * ADR-0003 pattern memory for a lab run, in memory: the same learning rule as the worker's projection
 * (db/queries/learning.ts) — every finished recovery that was not abandoned counts one success or one
 * failure for its trigger → strategy, and a pattern's confidence is its Laplace-smoothed success rate
 * (successes + 1) / (attempts + 2), to two decimals — so a suite's later runs may take the fast path
 * that its earlier recoveries earned; `set` gives patterns a starting record (a scenario's `patterns`).
 */
export type PatternSeed = Pick<PatternRef, "when" | "then" | "successes" | "failures"> & { threshold?: number; enabled?: boolean };

export function patternMemory(): PatternStore & { list(): PatternRef[]; set(patterns: readonly PatternSeed[]): void } {
  const byKey = new Map<string, PatternRef>();
  const key = (when: string, then: string) => `${when}\u0000${then}`;
  const put = (when: string, then: string, successes: number, failures: number, threshold = PATTERN_THRESHOLD, enabled = true) =>
    byKey.set(key(when, then), { id: `lab-pattern:${when}:${then}`, when, then, successes, failures, confidence: Math.round(((successes + 1) / (successes + failures + 2)) * 100) / 100, threshold, enabled });
  return {
    find: (when) => [...byKey.values()].filter((p) => p.when === when).map((p) => ({ ...p })),
    learn(events: readonly MissionEvent[]) {
      for (const e of events) {
        if (e.type !== "recovery.finished" || e.payload.outcome === "abandoned") continue;
        const prev = byKey.get(key(e.payload.when, e.payload.strategy));
        const ok = e.payload.outcome === "succeeded";
        put(e.payload.when, e.payload.strategy, (prev?.successes ?? 0) + (ok ? 1 : 0), (prev?.failures ?? 0) + (ok ? 0 : 1), prev?.threshold, prev?.enabled);
      }
    },
    list: () => [...byKey.values()].map((p) => ({ ...p })),
    /** Sets these patterns' records (a scenario's starting patterns: in a shared memory they replace what earlier runs learned for them). */
    set(patterns) {
      for (const p of patterns) put(p.when, p.then, p.successes, p.failures, p.threshold, p.enabled);
    },
  };
}
