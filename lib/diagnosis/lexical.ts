import { ERROR_TYPES, type ErrorType, type InputContext } from "./types";

/**
 * The diagnosis' second opinion: a naive Bayes model over the words of labelled failures, consulted only
 * when no rule recognised a failure (the rules would say `unknown`). Rules are precise but only know the
 * wordings someone wrote down; the words around an error ("registry", "quota", "schema", "login") still
 * carry its type. The model is trained by `npm run diagnosis:train` (scripts/diagnosis-lexical.ts) on the
 * tuning half of the world corpus and the local corpus's train split, never on a held-out case, and its
 * stated confidence is the accuracy it had in cross-validation on those (per band of its own margin).
 */

export interface LexicalModel {
  version: 1;
  /** Laplace smoothing. */
  alpha: number;
  /** Training documents per type. */
  docs: Record<ErrorType, number>;
  /** Feature → documents per type (in ERROR_TYPES order) containing it. */
  counts: Record<string, number[]>;
  /** Sum of feature occurrences per type (for the multinomial denominator). */
  totals: number[];
  /**
   * Cross-validated accuracy of the model on the failures the rules did not recognise, by the margin of
   * its best type's posterior over the second: [minMargin, accuracy] bands, highest first. Below the last
   * band's margin the model abstains.
   */
  bands: Array<[minMargin: number, accuracy: number, cases: number]>;
}

export interface LexicalVerdict {
  type: ErrorType;
  /** Posterior of the best type minus the second's (0–1). */
  margin: number;
  /** Cross-validated accuracy of verdicts with this margin: the stated probability. */
  accuracy: number;
  /** The words that spoke most for the type (for the explanation). */
  words: string[];
}

const MAX_TOKEN = 24;

/** Tokens of one text: lower-case words, whole and split at `_`/`.`/`-`, short numbers; ids and hashes dropped. */
export function tokens(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().match(/[a-z0-9][a-z0-9_.-]*[a-z0-9]|[a-z]/g) ?? []) {
    const parts = raw.split(/[_.-]+/).filter(Boolean);
    for (const t of parts.length > 1 ? [raw, ...parts] : [raw]) {
      if (t.length > MAX_TOKEN || t.length < 2) continue;
      if (/^\d+$/.test(t) && t.length > 3) continue; // ports, sizes, timestamps: too specific
      if (/\d/.test(t) && /[a-z]/.test(t) && t.length > 6) continue; // ids, hashes, versions
      if (/^v?\d/.test(t) && /[.]/.test(t)) continue; // versions and addresses
      if (/^v\d+$/.test(t)) continue; // a version's major
      out.push(t);
    }
  }
  return out;
}

/**
 * Features of a failure: its words and word pairs (`wordFeatures`) and the character 3–5-grams of its words
 * (`charFeatures`). The character n-grams carry spelling families across frameworks that word features miss
 * ("unavailable"/"unavailabletool", "apikey"/"api_key", "ECONNREFUSED"/"connrefused", "maxtokens"): measured by
 * leave-one-batch-out on the world tuning half (scripts/diagnosis-lobo.ts, docs/diagnosis-benchmark.md).
 */
export function features(input: InputContext): string[] {
  return [...wordFeatures(input), ...charFeatures(input)];
}

/**
 * Character 3–5-grams of each word (padded with word boundaries, digits folded to 0), marked `c:`. Paths and file names
 * are left out: they are the call's own names (`reports/permission_denied_summary.txt`), and their many n-grams would
 * outweigh the words of the error.
 */
export function charFeatures(input: InputContext): string[] {
  const e = input.failure.error;
  const text = [input.failure.tool, e.message, e.stderr, e.stdout]
    .filter(Boolean)
    .join("\n")
    .slice(0, 6000)
    .replace(/(?:[\w.~-]*[\\/])+[\w.-]*|\b[\w-]+\.[A-Za-z][A-Za-z0-9]{0,4}\b/g, " ");
  const set = new Set<string>();
  for (const t of tokens(text)) {
    const w = `<${t.replace(/\d/g, "0")}>`;
    for (let n = 3; n <= 5; n++) for (let i = 0; i + n <= w.length; i++) set.add(`c:${w.slice(i, i + n)}`);
  }
  return [...set];
}

/** Each line's words and adjacent word pairs, marked with `prefix`, into `set`. */
export function addWordsAndPairs(set: Set<string>, lines: Iterable<string>, prefix = ""): void {
  for (const line of lines) {
    const ts = tokens(line);
    for (let i = 0; i < ts.length; i++) {
      set.add(`${prefix}${ts[i]}`);
      if (i + 1 < ts.length) set.add(`${prefix}${ts[i]} ${ts[i + 1]}`);
    }
  }
}

/** Words and word pairs of these lines (the first 200), with the failure's exit code and HTTP status. */
export function wordFeaturesOfLines(lines: readonly string[], error: InputContext["failure"]["error"]): string[] {
  const set = new Set<string>();
  addWordsAndPairs(set, lines.slice(0, 200));
  if (typeof error.code === "number") set.add(`exit:${error.code}`);
  if (typeof error.status === "number") set.add(`status:${error.status}`);
  return [...set];
}

/** The words of its tool, message and output, present or not (not counted), with word pairs. */
export function wordFeatures(input: InputContext): string[] {
  const e = input.failure.error;
  return wordFeaturesOfLines([input.failure.tool, e.message, e.stderr, e.stdout].filter(Boolean).join("\n").split(/\r?\n/), e);
}

/** Trains the counts (bands are filled by cross-validation in the training script). */
export function train(cases: Array<{ label: ErrorType; input: InputContext }>, opts: { alpha?: number; minDocs?: number } = {}): LexicalModel {
  const alpha = opts.alpha ?? 0.5;
  const minDocs = opts.minDocs ?? 2;
  const raw = new Map<string, number[]>();
  const docs = Object.fromEntries(ERROR_TYPES.map((t) => [t, 0])) as Record<ErrorType, number>;
  for (const c of cases) {
    const k = ERROR_TYPES.indexOf(c.label);
    docs[c.label] += 1;
    for (const f of features(c.input)) {
      let row = raw.get(f);
      if (!row) raw.set(f, (row = new Array<number>(ERROR_TYPES.length).fill(0)));
      row[k] += 1;
    }
  }
  const counts: Record<string, number[]> = {};
  const totals = new Array<number>(ERROR_TYPES.length).fill(0);
  for (const f of [...raw.keys()].sort()) {
    const row = raw.get(f)!;
    if (row.reduce((a, b) => a + b, 0) < minDocs) continue; // seen once: a name, not a word of the trade
    counts[f] = row;
    row.forEach((n, i) => (totals[i] += n));
  }
  return { version: 1, alpha, docs, counts, totals, bands: [] };
}

/**
 * The vocabulary size of a model's counts, computed once per counts table: `Object.keys` over its thousands of
 * features was most of the time of every verdict (the model checker's diagnoses spent 40% of their time there).
 * A trained model's counts are never changed afterwards (train builds them whole; a copy with other bands shares them).
 */
const vocabularySizes = new WeakMap<LexicalModel["counts"], number>();
function vocabularySize(model: LexicalModel): number {
  let V = vocabularySizes.get(model.counts);
  if (V === undefined) vocabularySizes.set(model.counts, (V = Object.keys(model.counts).length));
  return V;
}

/** Posterior per type (uniform prior: a type's frequency in the corpus says nothing of the next failure). */
export function posterior(model: LexicalModel, input: InputContext): { probs: number[]; known: string[] } {
  const V = vocabularySize(model);
  const logp = new Array<number>(ERROR_TYPES.length).fill(0);
  const known = features(input).filter((f) => f in model.counts);
  for (const f of known) {
    const row = model.counts[f];
    for (let k = 0; k < logp.length; k++) logp[k] += Math.log((row[k] + model.alpha) / (model.totals[k] + model.alpha * V));
  }
  // Tempered: word presences are not independent, so the raw product is far too sure of itself.
  const temper = Math.max(1, Math.sqrt(known.length));
  // A type nobody labelled a case of cannot be the answer (its unseen-word likelihoods are not evidence).
  const trained = ERROR_TYPES.map((t) => (model.docs[t] ?? 0) > 0);
  const max = Math.max(...logp.filter((_, k) => trained[k]).map((x) => x / temper));
  const exp = logp.map((x, k) => (trained[k] ? Math.exp(x / temper - max) : 0));
  const sum = exp.reduce((a, b) => a + b, 0);
  return { probs: exp.map((x) => x / sum), known };
}

/** The model's verdict, or null when it has too few known words or its margin is below every band. */
export function lexicalVerdict(model: LexicalModel, input: InputContext): LexicalVerdict | null {
  const { probs, known } = posterior(model, input);
  // Three known words at least: character n-grams alone (shared by any English) are no evidence of a type.
  if (known.filter((f) => !f.startsWith("c:")).length < 3) return null;
  const order = probs.map((p, k) => [p, k] as const).sort((a, b) => b[0] - a[0]);
  const [[p1, k1], [p2]] = order;
  const margin = p1 - p2;
  const band = model.bands.find(([min]) => margin >= min);
  if (!band) return null;
  const type = ERROR_TYPES[k1];
  const V = vocabularySize(model);
  const lift = (f: string) => {
    const row = model.counts[f];
    const own = (row[k1] + model.alpha) / (model.totals[k1] + model.alpha * V);
    const others = row.reduce((s, n, k) => (k === k1 ? s : s + (n + model.alpha) / (model.totals[k] + model.alpha * V)), 0) / (row.length - 1);
    return Math.log(own / others);
  };
  const words = known
    .filter((f) => !f.includes(":"))
    .map((f) => [f, lift(f)] as const)
    .filter(([, l]) => l > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([f]) => f);
  return { type, margin: Math.round(margin * 1000) / 1000, accuracy: band[1], words };
}
