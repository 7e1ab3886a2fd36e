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
 * map. The knots were fitted on labelled cases only (the local corpus and the tuning half of the
 * world corpus, never the held-out half): per score band, the share of correct diagnoses, smoothed
 * toward 0.5 with 4 pseudo-cases, capped at 0.97 because rules tuned on a set are right less often
 * on cases nobody tuned on. Between knots the map is linear. `unknown` keeps its (low) score: it
 * is never the right answer to a labelled case.
 */
export const CONFIDENCE_KNOTS: ReadonlyArray<readonly [score: number, probability: number]> = [
  [0, 0.3],
  [0.2, 0.67],
  [0.42, 0.92],
  [0.6, 0.95],
  [0.78, 0.96],
  [0.92, 0.97],
  [1, 0.97],
];

export function calibratedConfidence(score: number, isUnknown = false): number {
  if (isUnknown) return score;
  const s = Math.min(1, Math.max(0, score));
  for (let i = 1; i < CONFIDENCE_KNOTS.length; i++) {
    const [x1, y1] = CONFIDENCE_KNOTS[i];
    const [x0, y0] = CONFIDENCE_KNOTS[i - 1];
    if (s <= x1) return Math.round((y0 + ((s - x0) / (x1 - x0)) * (y1 - y0)) * 100) / 100;
  }
  return CONFIDENCE_KNOTS[CONFIDENCE_KNOTS.length - 1][1];
}
