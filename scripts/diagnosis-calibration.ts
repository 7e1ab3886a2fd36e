/**
 * Fits the map from the diagnosis' evidence score to its stated confidence (CONFIDENCE_KNOTS and
 * UNKNOWN_PROBABILITY in lib/diagnosis/calibration.ts): `npm run diagnosis:calibrate` prints the knots
 * (`-- --check` compares them with the committed ones; a test does the same).
 *
 * Only labelled cases nobody measures the held-out figures on are used, in two regimes:
 * - learnt: the rules of today on the world corpus's tuning half and the local corpus's train split —
 *   wordings the rules were written from, where they are right almost always;
 * - fresh: what the rules said about the tuning cases of batches 2 and later when each batch was collected,
 *   before any rule was written for it (`firstSeen`: the stated confidence of the knots of that time,
 *   read back to a score through those knots: unchanged from batch 1 to batch 4, refitted on 2026-11-27
 *   before batch 5 was collected) — new wordings.
 * Grounded answers (a specific statement carries them) and weak ones (only coarse or weak evidence: `grounded` false)
 * are fitted separately, the weak ones on wider bands (WEAK_CONFIDENCE_KNOTS).
 * A failure met in use is worded like one of either kind, so each score band's probability is the mean of
 * the two regimes' accuracies (each smoothed toward one half with two pseudo-cases), made monotone
 * (pool adjacent violators), capped at 0.97. The lexical model's verdicts state their own cross-validated
 * accuracy and are left out. `unknown` is never the label of a case: its probability is the smoothed
 * share of right answers among the cases it was said of (none).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { classify } from "../lib/diagnosis/classify";
import { CONFIDENCE_KNOTS, UNKNOWN_PROBABILITY, WEAK_CONFIDENCE_KNOTS } from "../lib/diagnosis/calibration";
import type { DiagnosedType, ErrorType, InputContext } from "../lib/diagnosis/types";
import { maxBatchArg, upToBatch } from "./diagnosis-lexical";
import { fnv } from "./diagnosis-world";

interface Labelled {
  id: string;
  label: ErrorType;
  half?: string;
  batch?: string | number;
  /** `grounded`: the rules' answer at first sight rested on a specific statement (backfilled for batches 2–7, see below). */
  firstSeen?: { rules: DiagnosedType; said: DiagnosedType; confidence: number; grounded?: boolean };
  input: InputContext;
}

const ROOT = path.join(import.meta.dirname, "..");
/** Score bands (lower edges); the knot of a band sits at its middle. */
const EDGES = [0, 0.2, 0.3, 0.42, 0.6, 0.78, 0.92, 1];
const CAP = 0.97;
/**
 * The knots every batch's first sight was stated with (4a6bfb6, unchanged until this fit): used only to
 * read a first-seen stated confidence back to the score it came from.
 */
const FIRST_SEEN_KNOTS: ReadonlyArray<readonly [number, number]> = [
  [0, 0.3],
  [0.2, 0.67],
  [0.42, 0.92],
  [0.6, 0.95],
  [0.78, 0.96],
  [0.92, 0.97],
  [1, 0.97],
];
/**
 * The knots batch 5's first sight was stated with (fitted on 2026-11-27, commit 3041f91, before batch 5 was
 * collected). A batch collected later states its first sight with the knots of its own time: add them here.
 */
const BATCH5_FIRST_SEEN_KNOTS: ReadonlyArray<readonly [number, number]> = [
  [0, 0.5],
  [0.1, 0.5],
  [0.25, 0.65],
  [0.36, 0.76],
  [0.51, 0.86],
  [0.69, 0.87],
  [0.85, 0.89],
  [0.96, 0.97],
  [1, 0.97],
];
/** The knots batch 6's first sight was stated with (refitted after batch 5, commit ca7a0ed, before batch 6 was collected). */
const BATCH6_FIRST_SEEN_KNOTS: ReadonlyArray<readonly [number, number]> = [
  [0, 0.5],
  [0.1, 0.5],
  [0.25, 0.69],
  [0.36, 0.73],
  [0.51, 0.85],
  [0.69, 0.92],
  [0.85, 0.92],
  [0.96, 0.97],
  [1, 0.97],
];
/** The knots batch 7's first sight was stated with (refitted after batch 6, commit 3731c19, before batch 7 was collected). */
const BATCH7_FIRST_SEEN_KNOTS: ReadonlyArray<readonly [number, number]> = [
  [0, 0.5],
  [0.1, 0.5],
  [0.25, 0.69],
  [0.36, 0.73],
  [0.51, 0.87],
  [0.69, 0.94],
  [0.85, 0.94],
  [0.96, 0.97],
  [1, 0.97],
];
/**
 * The knots batch 8's first sight was stated with (refitted after batch 7, commit 5ea9ba8, before batch 8 was collected):
 * grounded answers read the first map, weak ones (`firstSeen.grounded` false) the weak map of that time.
 */
const BATCH8_FIRST_SEEN_KNOTS: ReadonlyArray<readonly [number, number]> = [
  [0, 0.5],
  [0.1, 0.5],
  [0.25, 0.77],
  [0.36, 0.77],
  [0.51, 0.94],
  [0.69, 0.97],
  [0.85, 0.97],
  [0.96, 0.97],
  [1, 0.97],
];
const BATCH8_FIRST_SEEN_WEAK_KNOTS: ReadonlyArray<readonly [number, number]> = [
  [0, 0.69],
  [0.21, 0.69],
  [0.51, 0.79],
  [0.8, 0.85],
  [1, 0.85],
];
/**
 * The knots batch 9's first sight was stated with (lib/diagnosis/calibration.ts at 5f62110, refitted after batch 8 by 921ab48 and
 * 76ba79e, before batch 9 was collected): grounded answers read the first map, weak ones the weak map of that time.
 */
const BATCH9_FIRST_SEEN_KNOTS: ReadonlyArray<readonly [number, number]> = [
  [0, 0.5],
  [0.1, 0.5],
  [0.25, 0.73],
  [0.36, 0.81],
  [0.51, 0.95],
  [0.69, 0.97],
  [0.85, 0.97],
  [0.96, 0.97],
  [1, 0.97],
];
const BATCH9_FIRST_SEEN_WEAK_KNOTS: ReadonlyArray<readonly [number, number]> = [
  [0, 0.71],
  [0.21, 0.71],
  [0.51, 0.79],
  [0.8, 0.87],
  [1, 0.87],
];
/**
 * The knots batch 10's first sight was stated with (lib/diagnosis/calibration.ts at 8cf166b, before batch 10 was collected): the
 * grounded map is batch 9's; the weak map had moved (weak 0–0.21 → 0.73, 0.51 → 0.78).
 */
const BATCH10_FIRST_SEEN_KNOTS = BATCH9_FIRST_SEEN_KNOTS;
const BATCH10_FIRST_SEEN_WEAK_KNOTS: ReadonlyArray<readonly [number, number]> = [
  [0, 0.73],
  [0.21, 0.73],
  [0.51, 0.78],
  [0.8, 0.87],
  [1, 0.87],
];
type Knots = ReadonlyArray<readonly [number, number]>;
/** Which knots each batch was first seen with, newest first: a batch takes the first row it reaches (`weak`: the weak map, where one was kept apart). */
const FIRST_SEEN_BY_BATCH: ReadonlyArray<{ from: number; grounded: Knots; weak?: Knots }> = [
  { from: 10, grounded: BATCH10_FIRST_SEEN_KNOTS, weak: BATCH10_FIRST_SEEN_WEAK_KNOTS },
  { from: 9, grounded: BATCH9_FIRST_SEEN_KNOTS, weak: BATCH9_FIRST_SEEN_WEAK_KNOTS },
  { from: 8, grounded: BATCH8_FIRST_SEEN_KNOTS, weak: BATCH8_FIRST_SEEN_WEAK_KNOTS },
  { from: 7, grounded: BATCH7_FIRST_SEEN_KNOTS },
  { from: 6, grounded: BATCH6_FIRST_SEEN_KNOTS },
  { from: 5, grounded: BATCH5_FIRST_SEEN_KNOTS },
  { from: -Infinity, grounded: FIRST_SEEN_KNOTS },
];
const firstSeenKnotsOf = (batch: number, grounded = true): Knots => {
  const row = FIRST_SEEN_BY_BATCH.find((r) => batch >= r.from) ?? FIRST_SEEN_BY_BATCH[FIRST_SEEN_BY_BATCH.length - 1];
  return grounded ? row.grounded : (row.weak ?? row.grounded);
};
/**
 * Score bands of the weak map (answers no specific statement carries): fewer cases, so wider bands. Whether a first-sight
 * answer was grounded was backfilled on 2026-11-27 by running, rules only, the classifier of the commit that collected each
 * batch (d66aadd, cc0b426, 77d83a0^, ca7a0ed, 33a0452, 2874bb4): it reproduced every stored first-sight type (541 of 541).
 */
const WEAK_EDGES = [0, 0.42, 0.6, 1];

function read(file: string): Labelled[] {
  return readFileSync(path.join(ROOT, "bench", file), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Labelled);
}

/** The score a first-seen stated confidence came from (the lowest score that states it, through the knots of its time). */
function scoreOf(stated: number, knots: ReadonlyArray<readonly [number, number]>): number {
  for (let i = 1; i < knots.length; i++) {
    const [x0, y0] = knots[i - 1];
    const [x1, y1] = knots[i];
    if (stated <= y1 && y1 > y0) return x0 + ((Math.max(stated, y0) - y0) / (y1 - y0)) * (x1 - x0);
  }
  return knots[knots.length - 1][0];
}

const smoothed = (right: number, n: number) => (right + 1) / (n + 2);
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Pool adjacent violators: the closest non-decreasing sequence (weighted by cases). */
function monotone(values: number[], weights: number[]): number[] {
  const blocks = values.map((v, i) => ({ v, w: Math.max(weights[i], 1), n: 1 }));
  for (let i = 0; i < blocks.length - 1; ) {
    if (blocks[i].v <= blocks[i + 1].v) {
      i++;
      continue;
    }
    const [a, b] = [blocks[i], blocks[i + 1]];
    blocks.splice(i, 2, { v: (a.v * a.w + b.v * b.w) / (a.w + b.w), w: a.w + b.w, n: a.n + b.n });
    if (i > 0) i--;
  }
  return blocks.flatMap((b) => Array<number>(b.n).fill(b.v));
}

type Answer = [score: number, right: boolean];

/** Per band, the mean of the two regimes' smoothed accuracies, made monotone and capped; knots at the band middles. */
function fitKnots(edges: readonly number[], learnt: Answer[], fresh: Answer[], name: string, report: string[]): Array<[number, number]> {
  const values: number[] = [];
  const weights: number[] = [];
  for (let i = 0; i < edges.length - 1; i++) {
    const [lo, hi] = [edges[i], edges[i + 1]];
    const inBand = (xs: Answer[]) => xs.filter(([s]) => s >= lo && (s < hi || (hi === 1 && s <= 1)));
    const [l, f] = [inBand(learnt), inBand(fresh)];
    const [lr, fr] = [l.filter(([, ok]) => ok).length, f.filter(([, ok]) => ok).length];
    const parts = [...(l.length ? [smoothed(lr, l.length)] : []), ...(f.length ? [smoothed(fr, f.length)] : [])];
    values.push(parts.length ? parts.reduce((a, b) => a + b, 0) / parts.length : 0.5);
    weights.push(l.length + f.length);
    report.push(`${name} score [${lo}, ${hi}): learnt ${lr}/${l.length}, fresh ${fr}/${f.length} → ${values[i].toFixed(3)}`);
  }
  const fitted = monotone(values, weights).map((v) => round2(Math.min(CAP, v)));
  const knots: Array<[number, number]> = [[0, fitted[0]]];
  for (let i = 0; i < fitted.length; i++) knots.push([round2((edges[i] + edges[i + 1]) / 2), fitted[i]]);
  knots.push([1, fitted[fitted.length - 1]]);
  return knots;
}

/** `maxBatch`: leave later collection batches out (a batch still being measured at first sight is not fitted on). */
export function fitConfidence(opts: { maxBatch?: number } = {}): { knots: Array<[number, number]>; weak: Array<[number, number]>; unknown: number; report: string[] } {
  const world = read("diagnosis-world.jsonl").filter((c) => c.half === "tuning" && upToBatch(opts.maxBatch)(c));
  const local = read("diagnosis-corpus.jsonl").filter((c) => c.batch === "tuning" && fnv(c.id) % 100 >= 13);
  const learnt: Answer[] = [];
  const learntWeak: Answer[] = [];
  let unknownSaid = 0;
  for (const c of [...world, ...local]) {
    const cls = classify(c.input);
    if (cls.type === "unknown") unknownSaid++;
    else if (cls.evidence[0]?.source !== "lexical") (cls.grounded ? learnt : learntWeak).push([cls.confidence, cls.type === c.label]);
  }
  const fresh: Answer[] = [];
  const freshWeak: Answer[] = [];
  for (const c of world) {
    const f = c.firstSeen;
    if (!f || (c.batch ?? 1) === 1) continue;
    if (f.said === "unknown") unknownSaid++;
    else if (f.rules !== "unknown") (f.grounded === false ? freshWeak : fresh).push([scoreOf(f.confidence, firstSeenKnotsOf(Number(c.batch ?? 1), f.grounded !== false)), f.said === c.label]);
  }
  const report = [
    `learnt: ${learnt.length} grounded and ${learntWeak.length} weak rule answers of today on the tuning half and the local train split; fresh: ${fresh.length} grounded and ${freshWeak.length} weak rule answers at first sight (tuning, batches 2 and later)`,
  ];
  const knots = fitKnots(EDGES, learnt, fresh, "grounded", report);
  const weak = fitKnots(WEAK_EDGES, learntWeak, freshWeak, "weak", report);
  const unknown = Math.max(0.01, round2(smoothed(0, unknownSaid)));
  report.push(`unknown: said of ${unknownSaid} labelled cases, never their label → ${unknown}`);
  return { knots, weak, unknown, report };
}

function main(): void {
  const { knots, weak, unknown, report } = fitConfidence({ maxBatch: maxBatchArg() });
  for (const line of report) console.log(line);
  console.log(`CONFIDENCE_KNOTS = ${JSON.stringify(knots)}; WEAK_CONFIDENCE_KNOTS = ${JSON.stringify(weak)}; UNKNOWN_PROBABILITY = ${unknown}`);
  if (process.argv.includes("--check")) {
    const same = JSON.stringify(knots) === JSON.stringify(CONFIDENCE_KNOTS) && JSON.stringify(weak) === JSON.stringify(WEAK_CONFIDENCE_KNOTS) && unknown === UNKNOWN_PROBABILITY;
    console.log(same ? "lib/diagnosis/calibration.ts is current" : "lib/diagnosis/calibration.ts differs: copy the knots above into it");
    if (!same) process.exitCode = 1;
  }
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) main();
