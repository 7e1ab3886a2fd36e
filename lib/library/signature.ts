/**
 * Symptom signatures and contradiction (issue 18), pure.
 *
 * Word overlap cannot tell a near miss from a paraphrase: a near miss names the entry's object and symptom and
 * differs in what the readings or the cause say ("arcs with no metal in the dish" against "Metal in microwave";
 * "drawer moves 25 mm then stops" against a drawer entry whose drawer does not move at all). A signature is what a
 * text's own readings and denials say, read from the normalised text (normalizeText's buckets), for a report and
 * for an entry alike:
 *
 * - `motion`: "still" (0 mm travel, stuck, no movement, and no travel of 10 mm or more) or "moved" (a travel of
 *   10 mm or more and nothing immobile), else unknown;
 * - `temperature` of the object (ambient readings left out): from its readings when it has any — "hot" (50 °C or
 *   more: entries call a 52 °C cord overheated), "freezing" (below 0 °C), "normal" (all under 40 °C), else unknown; "at room temperature" and "cold to the touch" are "normal";
 *   without readings, "overheating" is "hot" and frost or ice "freezing";
 * - `humidity`: "humid" (≥ 70 %) or "dry" (≤ 25 %); without readings, from the words (wet, damp, soaked, moist, humid,
 *   condensation against dry) that the text does not deny;
 * - `trend`: "rises" (a series rising to 1.5× or more) or "drops" (falling to half or less);
 * - `denied`: the words the text denies ("no metal", "keyhole=none", "corrosion_detected=false", "no rust visible",
 *   "without a latch"), each as a stem; and the cause families (CAUSE_FAMILIES) of those words.
 *
 * - `asserted`: the roots of the words the text states without denying them ("water drained" asserts "drain"); and
 *   `unRoots`, the roots of its un-words ("undrained", "unlocks": "drain", "lock").
 *
 * `contradictions(report, entry)` lists where the report's signature says the opposite of the entry's: motion still
 * against moved, hot against freezing or normal, humid against dry, rising against dropping, or the report denying a
 * word of the entry's title (its failure in a few words) or a cause family the entry asserts — a denial the entry
 * shares ("no visible obstruction" in both) is agreement, not contradiction. The entry's title states its failure in a
 * few words, so a report that asserts what the title negates ("door latched" against "Microwave door not latched") or
 * the plain form of a title's un-word ("water drained" against "Washer locked, water undrained"), or the reverse ("door
 * unlocks" against "Washer locked"), contradicts it too.
 */

import { causeFamilies, normalizeText, tokenize } from "./normalize";

export interface Signature {
  motion?: "still" | "moved";
  temperature?: "hot" | "freezing" | "normal";
  humidity?: "humid" | "dry";
  trend?: "rises" | "drops";
  /** Stems of the words the text denies. */
  denied: Set<string>;
  /** Cause families of the denied words. */
  deniedCauses: Set<string>;
  /** On/off states of named parts ("light off", "fan=on", "display dark", "motor running"): part stem → state. */
  states: Map<string, "on" | "off">;
  /** Roots (`root`) of the words the text states: every word but those it denies or negates ("not latched", "never opens"). */
  asserted: Set<string>;
  /** Roots of the text's un-words without their prefix ("undrained" → "drain", "unlocks" → "lock"). */
  unRoots: Set<string>;
}

/** A crude stem: lower case, the first five letters of longer words ("latched", "latch" → "latch"; "corroded", "corrosion" → "corro"). */
export function stem(word: string): string {
  const w = word.toLowerCase().replace(/[^a-z]/g, "");
  return w.length > 5 ? w.slice(0, 5) : w;
}

/** A word's stem after its inflection ("locked", "locks", "locking" → "lock"; "drained" → "drain"), for matching a word with its un-word. */
export function root(word: string): string {
  const w = word.toLowerCase().replace(/[^a-z]/g, "");
  return stem(w.length > 4 ? w.replace(/(?:ing|ed|es|s)$/, "") : w);
}

/** Roots of the un-words among `words` without their prefix ("undrained" → "drain", "unlocks" → "lock"). */
function unRootsOf(words: readonly string[]): Set<string> {
  return new Set(words.filter((w) => /^un[a-z]{4,}$/.test(w)).map((w) => root(w.slice(2))));
}

/** Words never counted as denied: the denial's own machinery and words that say nothing about a cause. */
const NOT_DENIED = new Set(["detected", "detect", "visible", "found", "present", "seen", "observed", "sign", "signs", "any", "other", "more", "further", "error", "fault", "issue", "problem", "event", "change", "data", "response", "reply", "output", "value", "reading", "state", "status", "sensor", "flag", "time", "longer", "then", "after", "before", "when", "and", "or", "the", "a", "an", "of", "on", "in", "at", "to", "is", "was"]);

/** Words that end a denied phrase ("no give and no visible obstruction" denies a give, then an obstruction). */
const PHRASE_END = new Set(["and", "or", "but", "nor", "no", "not", "with", "then", "than", "at", "in", "on", "after", "before", "when", "while", "to", "of", "for", "from", "is", "was", "are", "were", "by", "under", "over", "near", "since", "during", "until"]);

/** The words a text denies: the head of each denied phrase (its last word that says something). */
export function deniedWords(raw: string): string[] {
  const s = raw.toLowerCase().replace(/[‘’`´]/g, "'");
  const out: string[] = [];
  // A denied phrase's head: "no access permission" denies a permission, not access; "no water softener" a
  // softener; "no rust visible" rust.
  const take = (words: string[]) => {
    const head = words.filter((w) => w.length > 2 && !NOT_DENIED.has(w)).pop();
    if (head) out.push(head);
  };
  // "no metal", "no foil, no utensils", "without a latch", "zero rust": up to three words, ending at punctuation,
  // a conjunction, a preposition or the next denial.
  for (const m of s.matchAll(/\b(?:no|without|zero|lacks?|lacking|absent)\s+(?=([a-z][a-z_ -]*))/g)) {
    const words: string[] = [];
    for (const w of m[1].split(/[\s_-]+/)) {
      if (!w || PHRASE_END.has(w) || words.length === 3) break;
      words.push(w);
    }
    take(words);
  }
  // key=none / key=false / key: no / key=0 (telemetry flags): the key's words.
  for (const m of s.matchAll(/\b([a-z][a-z_.]*)\s*[=:]\s*(?:none|false|no|absent|not[_ ]detected|0)(?![\w.])/g)) take(m[1].split(/[_.]+/));
  // "rust not visible", "metal not found", "latch not present".
  for (const m of s.matchAll(/\b([a-z][a-z-]*)\s+(?:is\s+|was\s+)?(?:not|never)\s+(?:visible|found|present|detected|seen|observed|involved)\b/g)) take([m[1]]);
  return out;
}

const num = (x: string) => Number(x);

/** Words before "on"/"off" that are not a part in a state ("turn on", "switched off", "drops off", "at the end on"). */
const NOT_A_PART = new Set(["turn", "turns", "turned", "turning", "switch", "switches", "switched", "power", "powers", "powered", "shut", "shuts", "cut", "cuts", "drop", "drops", "dropped", "fall", "falls", "fell", "come", "came", "comes", "go", "goes", "went", "set", "sets", "kick", "kicks", "kicked", "put", "puts", "click", "clicks", "clicked", "log", "logged", "pull", "pulled", "pulls", "push", "pushed", "take", "took", "left", "keep", "keeps", "kept", "and", "the", "but", "then", "not", "was", "are", "were", "all", "one", "both", "stay", "stays", "stayed", "remain", "remains", "still", "its", "with", "when", "once", "while"]);

/**
 * On/off states a text gives its parts: "light off", "display is dark", "fan=on", "motor running", "pump: stopped".
 * The part is the word just before the state (a few verbs that make "on"/"off" a particle are not parts).
 */
export function partStates(raw: string): Map<string, "on" | "off"> {
  const out = new Map<string, "on" | "off">();
  for (const m of raw.toLowerCase().matchAll(/\b([a-z]{3,})\s*(?:is\s+|=\s*|:\s*)?(on|off|lit|dark|running|stopped)\b/g)) {
    if (NOT_A_PART.has(m[1])) continue;
    out.set(stem(m[1]), m[2] === "on" || m[2] === "lit" || m[2] === "running" ? "on" : "off");
  }
  // A state that persists: "light keeps running", "fan stays on", "fan and light keep running", "lamp remains dark".
  for (const m of raw.toLowerCase().matchAll(/\b([a-z]{3,})(?:\s+and\s+([a-z]{3,}))?\s+(?:keeps?|kept|stays?|stayed|remains?|remained|continues?|continued)\s+(?:to\s+)?(on|lit|running|run|spinning|spin|turning|turn|off|dark)\b/g)) {
    const state = m[3] === "off" || m[3] === "dark" ? "off" : "on";
    for (const part of [m[1], m[2]]) if (part && !NOT_A_PART.has(part)) out.set(stem(part), state);
  }
  return out;
}

/** The signature of a text (a report's symptom or an entry's symptom and hidden reality). */
export function signature(raw: string): Signature {
  const n = ` ${normalizeText(raw)} `;
  // Negated: denied heads, the word after not/never/no/…n't, and every word of a flag set false ("latch_closed=false").
  const lower = raw.toLowerCase().replace(/[‘’`´]/g, "'");
  const negated = new Set(
    [
      ...deniedWords(raw),
      ...[...lower.matchAll(/\b(?:not|never|no)\s+([a-z]+)|\b[a-z]+n't\s+([a-z]+)/g)].map((m) => m[1] ?? m[2]),
      ...[...lower.matchAll(/\b([a-z][a-z_.]*)\s*[=:]\s*(?:none|false|no|absent|not[_ ]detected|0)(?![\w.])/g)].flatMap((m) => m[1].split(/[_.]+/)),
    ].map(root),
  );
  const words = tokenize(n).filter((w) => /^[a-z]{3,}$/.test(w));
  const sig: Signature = {
    denied: new Set(),
    deniedCauses: new Set(),
    states: partStates(raw),
    asserted: new Set(words.map(root).filter((r) => !negated.has(r))),
    unRoots: unRootsOf(words),
  };
  const travel = [...n.matchAll(/(-?\d+(?:\.\d+)?) mm displacement/g)].map((m) => num(m[1]));
  const immobile = /\bimmobile\b/.test(n);
  if (immobile && !travel.some((v) => v >= 10)) sig.motion = "still";
  else if (!immobile && travel.some((v) => v >= 10)) sig.motion = "moved";

  // Readings of the object itself: ambient ones ("amb 24 °C", "room 29 °C", "outside -6 °C") say where it is, not
  // what it is. A reading or a touch ("at room temperature", "cold to the touch") outweighs a message's words ("MC:
  // overheating"): a sensor that reports overheating on a joint at room temperature is not a hot joint.
  const temps = [...n.matchAll(/(-|−)?(\d+(?:\.\d+)?) °c temperature/g)]
    .filter((m) => !/\b(?:amb|ambient|room|outside|outdoor|outdoors|air|environment|env)\b[^;,.]{0,12}$/.test(n.slice(Math.max(0, m.index! - 24), m.index)))
    .map((m) => (m[1] ? -num(m[2]) : num(m[2])));
  const touchNormal = /\b(?:at|to) room temp(?:erature)?\b|\b(?:cold|cool) to (?:the )?touch\b/.test(n);
  if (temps.length || touchNormal) {
    if (temps.some((t) => t >= 50)) sig.temperature = "hot";
    else if (temps.some((t) => t < 0)) sig.temperature = "freezing";
    else if (temps.every((t) => t < 40)) sig.temperature = "normal";
  } else {
    const hot = /\boverheat(?:s|ed|ing)?\b/.test(n);
    const freezing = /\b(?:below freezing|frost|frosted|icy|iced|ice|frozen)\b/.test(n);
    if (hot && !freezing) sig.temperature = "hot";
    else if (freezing && !hot) sig.temperature = "freezing";
  }

  const rh = [...n.matchAll(/(\d+(?:\.\d+)?) % humidity/g)].map((m) => num(m[1]));
  if (rh.some((v) => v >= 70) && !rh.some((v) => v <= 25)) sig.humidity = "humid";
  else if (rh.some((v) => v <= 25) && !rh.some((v) => v >= 70)) sig.humidity = "dry";
  else if (!rh.length) {
    // Without readings, the words: "floor dry" against "wet floor", "damp wood" against "dry air".
    const wet = ["wet", "damp", "soak", "moist", "humid", "condensation"].some((w) => sig.asserted.has(root(w)));
    const dry = sig.asserted.has("dry");
    if (wet && !dry) sig.humidity = "humid";
    else if (dry && !wet) sig.humidity = "dry";
  }

  const rises = /\bresistance rises smoothly\b|\btorque rises\b/.test(n);
  const drops = /\bsudden drop\b|\bdrops suddenly\b/.test(n);
  if (rises && !drops) sig.trend = "rises";
  else if (drops && !rises) sig.trend = "drops";

  for (const w of deniedWords(raw)) {
    sig.denied.add(stem(w));
    for (const f of causeFamilies(w)) sig.deniedCauses.add(f);
  }
  return sig;
}

export interface EntryText {
  title: string;
  surface_symptom: string;
  hidden_reality: string;
}

/**
 * A software entry, by the rule the query statement's `domain` part uses: Faultline's FM-SW series, or any entry with
 * a machine-run probe or resolution (ids alone cannot say: a document's PHYS-042 is physical).
 */
export function isSoftwareEntry(e: { failure_id: string; probe_action?: unknown; resolution_action?: unknown }): boolean {
  return e.failure_id.startsWith("FM-SW-") || e.probe_action != null || e.resolution_action != null;
}

/** What the entry asserts: its signature, its title's stems, and the cause families it names. */
export interface EntrySignature {
  sig: Signature;
  titleStems: Set<string>;
  causes: Set<string>;
  /** Roots of the words the title negates ("Microwave door not latched": "latch"). */
  titleNegated: Set<string>;
  /** Roots of the title's words, and of its un-words without their prefix ("Washer locked, water undrained": "drain"). */
  titleRoots: Set<string>;
  titleUnRoots: Set<string>;
}

/** Words that say the word before them is missing ("depth holes", "vacuum loss", "signal dropout"). */
const ABSENCE = /^(?:holes?|loss|losses|dropouts?|gaps?|missing)$/;

export function entrySignature(e: EntryText): EntrySignature {
  const title = tokenize(e.title.toLowerCase().replace(/[-_/]+/g, " ")).filter((w) => /^[a-z]{3,}$/.test(w));
  return {
    titleNegated: new Set([...e.title.toLowerCase().matchAll(/\b(?:not|no|never)\s+([a-z]+)/g)].map((m) => root(m[1]))),
    titleRoots: new Set(title.map(root)),
    titleUnRoots: unRootsOf(title),
    sig: signature(`${e.surface_symptom}. ${e.hidden_reality}`),
    // A title word followed by a word of absence names what is missing ("depth holes", "vacuum loss"): a report denying it agrees.
    titleStems: new Set(title.filter((w, i) => !ABSENCE.test(title[i + 1] ?? "")).map(stem)),
    causes: new Set(causeFamilies(`${e.title} ${e.surface_symptom} ${e.hidden_reality}`)),
  };
}

/** Where the report's signature says the opposite of the entry's (empty: no contradiction). */
export function contradictions(report: Signature, entry: EntrySignature, opts: { denials?: boolean } = {}): string[] {
  const out: string[] = [];
  const e = entry.sig;
  // Motion one way only: an object that travelled 10 mm or more is not the entry's object that does not move. The
  // other way is not a contradiction: entries that move partway ("opens 60 mm then stops") are also reported at 0 mm.
  if (report.motion === "moved" && e.motion === "still") out.push("motion: report moved, entry still");
  if (report.temperature && e.temperature && report.temperature !== e.temperature) out.push(`temperature: report ${report.temperature}, entry ${e.temperature}`);
  if (report.humidity && e.humidity && report.humidity !== e.humidity) out.push(`humidity: report ${report.humidity}, entry ${e.humidity}`);
  if (report.trend && e.trend && report.trend !== e.trend) out.push(`trend: report ${report.trend}, entry ${e.trend}`);
  // A part the report gives one state and the entry the other ("turntable turns and light is on" against an entry
  // whose light is off). Physical entries only, as denials: in error output "off"/"on" name settings, not parts.
  // Denials are read against physical entries only (opts.denials): in error output "no X" is the failure itself
  // ("No such file or directory", "no ECDSA host key is known"), not an absence someone observed.
  if (opts.denials === false) return out;
  for (const [part, state] of report.states) if (e.states.has(part) && e.states.get(part) !== state) out.push(`state: report ${part}… ${state}, entry ${e.states.get(part)}`);
  for (const w of report.denied) if (entry.titleStems.has(w) && !e.denied.has(w)) out.push(`denies the entry's "${w}…"`);
  for (const f of report.deniedCauses) if (entry.causes.has(f) && !e.deniedCauses.has(f)) out.push(`denies the entry's cause (${f})`);
  // The title's failure in a few words, said the other way: what it negates asserted ("door latched" against "door not
  // latched"), the plain form of its un-word ("drained" against "undrained"), or the un-word of its plain word ("door
  // unlocks" against "Washer locked") — unless the report also says the title's own form.
  for (const r of entry.titleNegated) if (report.asserted.has(r)) out.push(`asserts what the entry's title negates ("${r}…")`);
  for (const r of entry.titleUnRoots) if (report.asserted.has(r) && !report.unRoots.has(r)) out.push(`says "${r}…" where the entry's title says "un${r}…"`);
  for (const r of report.unRoots) if (entry.titleRoots.has(r) && !entry.titleUnRoots.has(r) && !report.asserted.has(r)) out.push(`says "un${r}…" where the entry's title says "${r}…"`);
  return out;
}
