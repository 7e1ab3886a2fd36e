import { describe, expect, it } from "vitest";
import { fitConfidence } from "../../scripts/diagnosis-calibration";
import { CONFIDENCE_KNOTS, UNKNOWN_PROBABILITY, WEAK_CONFIDENCE_KNOTS, expectedCalibrationError, reliabilityBins, weakConfidence, calibratedConfidence } from "./calibration";

describe("calibration", () => {
  it("a forecaster whose 0.9s are right 9 times in 10 is calibrated", () => {
    const cases = Array.from({ length: 10 }, (_, i) => ({ confidence: 0.9, correct: i < 9 }));
    expect(expectedCalibrationError(cases)).toBeCloseTo(0, 10);
  });
  it("an overconfident one is not: 0.95 stated, half right", () => {
    const cases = Array.from({ length: 10 }, (_, i) => ({ confidence: 0.95, correct: i % 2 === 0 }));
    expect(expectedCalibrationError(cases)).toBeCloseTo(0.45, 10);
  });
  it("bins cover [0, 1], confidence 1 falls in the last bin, empty bins stay for the chart", () => {
    const bins = reliabilityBins([{ confidence: 1, correct: true }, { confidence: 0, correct: false }], 5);
    expect(bins).toHaveLength(5);
    expect(bins[4]).toMatchObject({ count: 1, accuracy: 1, meanConfidence: 1 });
    expect(bins[0]).toMatchObject({ count: 1, accuracy: 0 });
    expect(bins[2]).toMatchObject({ count: 0, accuracy: null, meanConfidence: null });
  });
  it("no cases: no error to state", () => {
    expect(expectedCalibrationError([])).toBeNull();
  });
});

describe("the stated-confidence map", () => {
  it("is what the tuning cases fit (run npm run diagnosis:calibrate after changing rules or labels)", () => {
    const { knots, weak, unknown } = fitConfidence();
    expect(knots).toEqual(CONFIDENCE_KNOTS);
    expect(weak).toEqual(WEAK_CONFIDENCE_KNOTS);
    expect(unknown).toBe(UNKNOWN_PROBABILITY);
    for (let i = 1; i < knots.length; i++) expect(knots[i][1]).toBeGreaterThanOrEqual(knots[i - 1][1]);
  });
  it("an answer carried only by coarse evidence never states more than a grounded one at the same score", () => {
    for (const s of [0, 0.2, 0.35, 0.5, 0.6, 0.8, 1]) expect(weakConfidence(s)).toBeLessThanOrEqual(calibratedConfidence(s));
  });
});
