import { readFile } from "node:fs/promises";
import path from "node:path";
import { reliabilityOf, type CalibrationCase, type Reliability } from "./calibration";
import { diagnose } from "./diagnose";
import type { InputContext } from "./types";

/**
 * Calibration of the diagnosis on labelled cases, for the Diagnostics page: the local corpus (commands
 * really run, bench/diagnosis-corpus.jsonl) and the held-out half of the real-world corpus (error outputs
 * quoted in public sources, bench/diagnosis-world.jsonl; never tuned on). Computed once per process: the
 * corpora ship with the release and diagnose() is deterministic.
 */

export interface LabelledCalibration extends Reliability {
  name: string;
  source: string;
}

interface Row {
  label?: string;
  input?: InputContext;
  half?: string;
}

async function calibrationOf(name: string, file: string, keep: (r: Row) => boolean): Promise<LabelledCalibration | null> {
  let text: string;
  try {
    text = await readFile(path.join(process.cwd(), "bench", file), "utf8");
  } catch {
    return null; // a deployment without the bench folder shows the operators' half only
  }
  const cases: CalibrationCase[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let row: Row;
    try {
      row = JSON.parse(line) as Row;
    } catch {
      continue;
    }
    if (!row.input || !row.label || !keep(row)) continue;
    try {
      const d = diagnose(row.input, { now: 0 });
      cases.push({ confidence: d.rootCause.confidence, correct: d.errorClassification.type === row.label });
    } catch {
      // a case that no longer fits the input schema is not evidence either way
    }
  }
  if (cases.length === 0) return null;
  return { name, source: `bench/${file}`, ...reliabilityOf(cases) };
}

let cached: Promise<LabelledCalibration[]> | null = null;

export function labelledCalibration(): Promise<LabelledCalibration[]> {
  cached ??= Promise.all([
    calibrationOf("Real-world errors, held-out half", "diagnosis-world.jsonl", (r) => r.half === "heldout"),
    calibrationOf("Local corpus (commands run here)", "diagnosis-corpus.jsonl", () => true),
  ]).then((list) => list.filter((x): x is LabelledCalibration => x !== null));
  return cached;
}
