/**
 * Calibration: does a stated confidence mean what it says? Cases are (confidence, correct) pairs,
 * from labelled corpora (bench) or from operators confirming or correcting a diagnosis. The
 * reliability diagram bins them by stated confidence and compares each bin's mean confidence with its
 * observed accuracy; the expected calibration error (ECE) is the case-weighted mean of the gaps.
 */
export interface CalibrationCase {
  /** Stated confidence in [0, 1]. */
  confidence: number;
  /** Was the statement right? */
  correct: boolean;
}

export interface ReliabilityBin {
  /** Inclusive lower and exclusive upper bound of stated confidence (the last bin includes 1). */
  from: number;
  to: number;
  count: number;
  /** Mean stated confidence of the cases in the bin (null when empty). */
  meanConfidence: number | null;
  /** Share of the bin's cases that were right (null when empty). */
  accuracy: number | null;
}

export const DEFAULT_BIN_COUNT = 10;

/** Equal-width bins over [0, 1]; empty bins are kept so charts have a stable x axis. */
export function reliabilityBins(cases: readonly CalibrationCase[], binCount = DEFAULT_BIN_COUNT): ReliabilityBin[] {
  const bins = Array.from({ length: binCount }, (_, i) => ({ from: i / binCount, to: (i + 1) / binCount, n: 0, conf: 0, ok: 0 }));
  for (const c of cases) {
    const clamped = Math.min(1, Math.max(0, c.confidence));
    const i = Math.min(binCount - 1, Math.floor(clamped * binCount));
    bins[i].n += 1;
    bins[i].conf += clamped;
    if (c.correct) bins[i].ok += 1;
  }
  return bins.map((b) => ({ from: b.from, to: b.to, count: b.n, meanConfidence: b.n ? b.conf / b.n : null, accuracy: b.n ? b.ok / b.n : null }));
}

/** ECE: Σ (n_bin / n) · |accuracy_bin − confidence_bin|; null with no cases. */
export function expectedCalibrationError(cases: readonly CalibrationCase[], binCount = DEFAULT_BIN_COUNT): number | null {
  if (cases.length === 0) return null;
  let sum = 0;
  for (const b of reliabilityBins(cases, binCount)) {
    if (b.count === 0) continue;
    sum += (b.count / cases.length) * Math.abs((b.accuracy ?? 0) - (b.meanConfidence ?? 0));
  }
  return sum;
}

/** A set of cases summarised: how many, how often right, the calibration error and the reliability bins. */
export interface Reliability {
  cases: number;
  /** Share of the cases that were right (null with none). */
  accuracy: number | null;
  ece: number | null;
  bins: ReliabilityBin[];
}

export function reliabilityOf(cases: readonly CalibrationCase[]): Reliability {
  return {
    cases: cases.length,
    accuracy: cases.length ? cases.filter((c) => c.correct).length / cases.length : null,
    ece: expectedCalibrationError(cases),
    bins: reliabilityBins(cases),
  };
}

/**
 * Stated confidence of a classification: the probability that its type is right, read from its
 * evidence score (winning score discounted by the strongest competitor, 0–1) through a monotone
 * map. The knots are fitted by `npm run diagnosis:calibrate` (scripts/diagnosis-calibration.ts) on
 * labelled cases nobody measures the held-out figures on, in two regimes given equal weight: the rules
 * of today on the cases they were written from (right almost always), and the rules' first answers to
 * the tuning cases of batches 2–9 before any rule was written for them (new wordings: right less often,
 * most of all at middling scores). These knots are for grounded answers (some specific statement carries them);
 * weak answers read WEAK_CONFIDENCE_KNOTS. Per score band, smoothed toward one half, made monotone, capped at
 * 0.97. Between knots the map is linear. A test checks the knots are what the fit gives.
 */
export const CONFIDENCE_KNOTS: ReadonlyArray<readonly [score: number, probability: number]> = [
  [0, 0.5],
  [0.1, 0.5],
  [0.25, 0.71],
  [0.36, 0.81],
  [0.51, 0.95],
  [0.69, 0.97],
  [0.85, 0.97],
  [0.96, 0.97],
  [1, 0.97],
];

/**
 * Stated confidence of an answer that no specific statement carries, only coarse or weak evidence (an HTTP 400, ENOENT, a bare
 * "not found", an exit code, a weak rule): `Classification.grounded` is false. At first sight such answers were right about
 * two times in three where grounded ones were right 19 times in 20 (batches 2–9, tuning halves), so they have their own map,
 * fitted the same way on the same two regimes, never stating more than the grounded map at the same score.
 */
export const WEAK_CONFIDENCE_KNOTS: ReadonlyArray<readonly [score: number, probability: number]> = [
  [0, 0.72],
  [0.21, 0.72],
  [0.51, 0.78],
  [0.8, 0.88],
  [1, 0.88],
];

/** Stated confidence of `unknown`: it is never the label of a case, so the probability that it is right is about nil (fitted with the knots). */
export const UNKNOWN_PROBABILITY = 0.01;

function readKnots(knots: ReadonlyArray<readonly [number, number]>, score: number): number {
  const s = Math.min(1, Math.max(0, score));
  for (let i = 1; i < knots.length; i++) {
    const [x1, y1] = knots[i];
    const [x0, y0] = knots[i - 1];
    if (s <= x1) return Math.round((y0 + ((s - x0) / (x1 - x0)) * (y1 - y0)) * 100) / 100;
  }
  return knots[knots.length - 1][1];
}

export function calibratedConfidence(score: number, isUnknown = false): number {
  if (isUnknown) return UNKNOWN_PROBABILITY;
  return readKnots(CONFIDENCE_KNOTS, score);
}

/** Stated confidence of an answer carried only by coarse or weak evidence: never more than a grounded one at the same score. */
export function weakConfidence(score: number): number {
  return Math.min(readKnots(WEAK_CONFIDENCE_KNOTS, score), calibratedConfidence(score));
}
