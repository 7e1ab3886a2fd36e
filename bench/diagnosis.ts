/**
 * Diagnosis benchmark: runs diagnose() over bench/diagnosis-corpus.jsonl and prints accuracy per
 * type and overall, the confusion matrix, and accuracy per confidence bucket (calibration).
 *
 * Splits: the "tuning" batch is split deterministically by a hash of the case id into train
 * (`--split train`, the default: what the rules were developed against) and ~13% held out
 * (`--split heldout`, checked only at the end); `--split unseen` is a batch of families added
 * after the rules were frozen; `--split all` is everything. `--raw` strips Faultline's ToolError extras (toolCode, errno, status,
 * retryAfterMs) so only the document's fields remain — what a CLI user passes.
 *
 * `--corpus world` reads bench/diagnosis-world.jsonl instead: real error outputs quoted verbatim in
 * public sources (scripts/diagnosis-world.ts), split by source address into a tuning and a held-out
 * half. Both halves are reported separately (`--split tuning|heldout|all` narrows it); tune rules on
 * `--split tuning --errors` only, never on the held-out half's individual cases. `--batch N` keeps one
 * collection round (`--batch 1,2,3` several) (batch 2 was gathered by other hands and measured before any rule was written for it).
 *
 * Every report ends with the expected calibration error (10 equal-width bins, lib/diagnosis/calibration).
 *
 * Run: node --import tsx bench/diagnosis.ts [--corpus local|world|<path>] [--split train|heldout|unseen|all|tuning] [--raw] [--errors] [--batch N]
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { benchArgs } from "./args";
import { expectedCalibrationError, reliabilityBins } from "../lib/diagnosis/calibration";
import { classify } from "../lib/diagnosis/classify";
import { diagnose } from "../lib/diagnosis/diagnose";
import { DIAGNOSED_TYPES, ERROR_TYPES, diagnosisSchema, type DiagnosedType, type ErrorType, type InputContext } from "../lib/diagnosis/types";
import type { CorpusCase } from "../scripts/diagnosis-corpus";
import type { WorldCase } from "../scripts/diagnosis-world";

/** The corpus formats are defined by their generators (type-only imports: the generators do not run). */
type Case = CorpusCase | WorldCase;

const HELD_OUT_PERCENT = 13;
export const CALIBRATION_BUCKETS = [0, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0001] as const;

/** FNV-1a: a stable split that does not depend on the order of the corpus. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (const ch of s) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}
export const isHeldOut = (id: string) => hash(id) % 100 < HELD_OUT_PERCENT;

function stripToDocumentFields(input: InputContext): InputContext {
  const { errno: _e, status: _s, retryAfterMs: _r, toolCode: _t, ...error } = input.failure.error;
  return { ...input, failure: { ...input.failure, error } };
}

interface Outcome {
  c: Case;
  predicted: DiagnosedType;
  confidence: number;
  /** Who answered: a rule, the lexical model (no rule recognised the failure), or nobody (`unknown`). */
  answeredBy: "rules" | "lexical" | "unknown";
}

const pct = (n: number, d: number) => (d === 0 ? "   -  " : `${((100 * n) / d).toFixed(1).padStart(5)}%`);

/**
 * `minPerEcosystem`: ecosystems with fewer cases are pooled into one line. The world held-out half (and `all`) is reported with 5, so
 * no line stands for a single held-out case (an ecosystem of one would show whether that case was right).
 */
function report(outcomes: Outcome[], title: string, minPerEcosystem = 1): { overall: number; perType: Record<string, number>; ece: number | null } {
  const correct = outcomes.filter((o) => o.predicted === o.c.label).length;
  console.log(`\n== ${title}: ${correct}/${outcomes.length} correct (${pct(correct, outcomes.length).trim()})`);

  console.log("\nAccuracy per type");
  const perType: Record<string, number> = {};
  for (const t of ERROR_TYPES) {
    const of = outcomes.filter((o) => o.c.label === t);
    const ok = of.filter((o) => o.predicted === t).length;
    perType[t] = of.length ? ok / of.length : NaN;
    console.log(`  ${t.padEnd(20)} ${String(ok).padStart(3)}/${String(of.length).padEnd(3)} ${pct(ok, of.length)}`);
  }

  const abbrev = (t: string) => t.split("_").map((w) => w.slice(0, 3)).join("_").slice(0, 7);
  console.log("\nConfusion matrix (rows: label, columns: predicted)");
  console.log(`  ${"".padEnd(20)}${DIAGNOSED_TYPES.map((t) => abbrev(t).padStart(8)).join("")}`);
  for (const t of ERROR_TYPES) {
    const row = DIAGNOSED_TYPES.map((p) => outcomes.filter((o) => o.c.label === t && o.predicted === p).length);
    console.log(`  ${t.padEnd(20)}${row.map((n) => (n ? String(n) : ".").padStart(8)).join("")}`);
  }

  console.log("\nCalibration (accuracy per confidence bucket)");
  for (let i = 0; i < CALIBRATION_BUCKETS.length - 1; i++) {
    const lo = CALIBRATION_BUCKETS[i];
    const hi = CALIBRATION_BUCKETS[i + 1];
    const inBucket = outcomes.filter((o) => o.confidence >= lo && o.confidence < hi);
    const ok = inBucket.filter((o) => o.predicted === o.c.label).length;
    const mean = inBucket.length ? inBucket.reduce((s, o) => s + o.confidence, 0) / inBucket.length : 0;
    console.log(`  [${lo.toFixed(1)}, ${Math.min(hi, 1).toFixed(1)}${hi > 1 ? "]" : ")"}  n=${String(inBucket.length).padStart(3)}  mean confidence ${mean.toFixed(2)}  accuracy ${pct(ok, inBucket.length)}`);
  }

  const calibrationCases = outcomes.map((o) => ({ confidence: o.confidence, correct: o.predicted === o.c.label }));
  const ece = expectedCalibrationError(calibrationCases);
  const bins = reliabilityBins(calibrationCases).filter((b) => b.count > 0);
  console.log(`\nReliability (10 bins): ${bins.map((b) => `[${b.from.toFixed(1)},${b.to.toFixed(1)}) n=${b.count} conf ${b.meanConfidence?.toFixed(2)} acc ${b.accuracy?.toFixed(2)}`).join("; ")}`);
  console.log(`Expected calibration error: ${ece === null ? "-" : ece.toFixed(3)}`);
  const summary = (of: Outcome[]) => {
    const ok = of.filter((o) => o.predicted === o.c.label).length;
    const e = expectedCalibrationError(of.map((o) => ({ confidence: o.confidence, correct: o.predicted === o.c.label })));
    const mean = of.reduce((sum, o) => sum + o.confidence, 0) / of.length;
    return `n=${String(of.length).padStart(3)}  mean confidence ${mean.toFixed(2)}  accuracy ${pct(ok, of.length)}  ECE ${e === null ? "-" : e.toFixed(3)}`;
  };
  console.log("\nCalibration per stated type (how often each answer was right)");
  for (const t of DIAGNOSED_TYPES) {
    const of = outcomes.filter((o) => o.predicted === t);
    if (of.length) console.log(`  ${t.padEnd(20)} ${summary(of)}`);
  }
  console.log("Calibration per answer source");
  for (const by of ["rules", "lexical", "unknown"] as const) {
    const of = outcomes.filter((o) => o.answeredBy === by);
    if (of.length) console.log(`  ${by.padEnd(20)} ${summary(of)}`);
  }

  const bySource = new Map<string, [number, number]>();
  for (const o of outcomes) {
    const k = o.c.ecosystem;
    const [ok, n] = bySource.get(k) ?? [0, 0];
    bySource.set(k, [ok + (o.predicted === o.c.label ? 1 : 0), n + 1]);
  }
  const pooled: [number, number] = [0, 0];
  for (const [k, [ok, n]] of bySource)
    if (n < minPerEcosystem) {
      pooled[0] += ok;
      pooled[1] += n;
      bySource.delete(k);
    }
  console.log(`\nAccuracy per ecosystem${minPerEcosystem > 1 ? ` (with at least ${minPerEcosystem} cases)` : ""}`);
  for (const [k, [ok, n]] of [...bySource].sort()) console.log(`  ${k.padEnd(20)} ${String(ok).padStart(3)}/${String(n).padEnd(3)} ${pct(ok, n)}`);
  if (pooled[1]) console.log(`  ${"(the others, pooled)".padEnd(20)} ${String(pooled[0]).padStart(3)}/${String(pooled[1]).padEnd(3)} ${pct(pooled[0], pooled[1])}`);
  return { overall: outcomes.length ? correct / outcomes.length : NaN, perType, ece };
}

const CORPORA: Record<string, string> = {
  local: path.join(import.meta.dirname, "diagnosis-corpus.jsonl"),
  world: path.join(import.meta.dirname, "diagnosis-world.jsonl"),
};

function targets(name: string, overall: number, perType: Record<string, number>, ece: number | null): void {
  const worst = Math.min(...Object.values(perType).filter((v) => !Number.isNaN(v)));
  const met = overall >= 0.95 && worst >= 0.85 && (ece ?? 1) <= 0.05;
  console.log(`\nTargets for ${name} (≥95% overall, every type ≥85%, ECE ≤0.05): ${met ? "met" : "NOT met"} — overall ${(overall * 100).toFixed(1)}%, worst type ${(worst * 100).toFixed(1)}%, ECE ${ece === null ? "-" : ece.toFixed(3)}`);
}

function main(): number {
  const values = benchArgs("bench:diagnosis", {
    split: { type: "string", default: "train" },
    raw: { type: "boolean", default: false },
    errors: { type: "boolean", default: false },
    corpus: { type: "string", default: "local" },
    batch: { type: "string" },
  });
  const corpusPath = CORPORA[values.corpus] ?? values.corpus;
  const all: Case[] = readFileSync(corpusPath, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Case);
  const isWorld = all.length > 0 && all.every((c) => "half" in c);
  if (isWorld) return mainWorld((all as WorldCase[]).filter((c) => !values.batch || values.batch.split(",").includes(String(c.batch ?? 1))), values);
  const split = values.split;
  const inSplit: Record<string, (c: Case) => boolean> = {
    train: (c) => "batch" in c && c.batch === "tuning" && !isHeldOut(c.id),
    heldout: (c) => "batch" in c && c.batch === "tuning" && isHeldOut(c.id),
    unseen: (c) => "batch" in c && c.batch === "unseen",
    all: () => true,
  };
  if (!inSplit[split]) throw new Error(`--split must be one of ${Object.keys(inSplit).join(", ")}`);
  const cases = all.filter(inSplit[split]);
  console.log(`Corpus: ${all.length} cases; split "${split}": ${cases.length} cases${values.raw ? " (document fields only: toolCode/errno/status/retryAfterMs removed)" : ""}`);

  const outcomes = run(cases, values.raw);
  const { overall, perType, ece } = report(outcomes, `diagnosis (${split}${values.raw ? ", raw" : ""})`);
  if (values.errors) printErrors(outcomes);
  targets(split, overall, perType, ece);
  return 0;
}

function run(cases: Case[], raw: boolean): Outcome[] {
  return cases.map((c) => {
    const input = raw ? stripToDocumentFields(c.input) : c.input;
    const d = diagnose(input, { now: 0, id: c.id });
    diagnosisSchema.parse(d); // every diagnosis must satisfy the contract
    const type = d.errorClassification.type;
    const answeredBy = type === "unknown" ? "unknown" : classify(input).evidence[0]?.source === "lexical" ? "lexical" : "rules";
    return { c, predicted: type, confidence: d.rootCause.confidence, answeredBy };
  });
}

function printErrors(outcomes: Outcome[]): void {
  console.log("\nMisclassified");
  for (const o of outcomes.filter((x) => x.predicted !== x.c.label)) console.log(`  ${o.c.id}: ${o.c.label} → ${o.predicted} (${o.confidence})`);
}

/** The world corpus: each half reported on its own. `--errors` lists the tuning half's only. */
function mainWorld(all: WorldCase[], values: { split: string; raw: boolean; errors: boolean }): number {
  const split = values.split === "train" ? "both" : values.split; // the local default means "both halves" here
  const halves = split === "both" ? (["tuning", "heldout"] as const) : split === "tuning" || split === "heldout" ? ([split] as const) : null;
  if (!halves && split !== "all") throw new Error("--split must be tuning, heldout or all for the world corpus");
  const sources = new Set(all.map((c) => c.source)).size;
  console.log(`World corpus: ${all.length} cases from ${sources} sources (tuning ${all.filter((c) => c.half === "tuning").length}, heldout ${all.filter((c) => c.half === "heldout").length})`);
  for (const half of halves ?? (["all"] as const)) {
    const cases = half === "all" ? all : all.filter((c) => c.half === half);
    const outcomes = run(cases, values.raw);
    const { overall, perType, ece } = report(outcomes, `world ${half}${values.raw ? ", raw" : ""}`, half === "tuning" ? 1 : 5);
    if (values.errors && half === "tuning") printErrors(outcomes);
    if (values.errors && half !== "tuning") console.log("\n(--errors lists the tuning half only: the held-out half is not tuned on)");
    targets(`world ${half}`, overall, perType, ece);
  }
  return 0;
}

process.exitCode = main();
