import { createHash } from "node:crypto";

/**
 * The lab's only source of chance (seed 002 FDR-N004: a run must be reproducible from its trace and its
 * seed). A small, well-known generator (mulberry32) seeded from a 32-bit integer; a run's seed is derived
 * from the suite's seed and the run's name, so adding a scenario does not change the others' draws.
 */
export interface Rng {
  /** A number in [0, 1). */
  next(): number;
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** A version-4-shaped UUID made of draws (ids of a seeded run: the same seed, the same ids). */
  uuid(): string;
}

export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(next() * 16).toString(16)).join("");
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => p > 0 && next() < p,
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-${"89ab"[Math.floor(next() * 4)]}${hex(3)}-${hex(12)}`,
  };
}

/** A 31-bit seed derived from a seed and names (sha-256, so neighbouring seeds give unrelated draws). */
export function deriveSeed(seed: number, ...parts: Array<string | number>): number {
  return createHash("sha256").update(JSON.stringify([seed, ...parts])).digest().readUInt32BE(0) >>> 1;
}
