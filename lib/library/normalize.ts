/**
 * Term normalisation for Failure Mode Reference Library queries (pure).
 *
 * Real reports say the same thing many ways: "won't open", "jammed", "0 mm displacement"; "30N" or
 * "30 N pull"; "ENOENT" or "No such file or directory". The rules below map these forms onto the
 * vocabulary library entries are written in (forces in N, torques in N·m, displacements in mm,
 * error names and their usual messages), keeping the original words too. They are written from
 * how robots, shells, Node/Python and HTTP clients report failures — not from the labelled bench
 * queries, which must stay an honest measure.
 *
 * Output: `terms` (distinct lower-case words), `concepts` (the same words grouped: a reported word
 * and the canonical words a rule added for it form one concept, so "won't budge" counts once, as
 * explained when an entry says any of "stuck", "immobile", "no movement"), and `symptom` (the reported
 * symptom, cleaned, for trigram similarity against surface symptoms).
 */

import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface NormalizedQuery {
  /** Distinct search words (letters/digits only), for an OR full-text query. */
  terms: string[];
  /** `terms` grouped into concepts (a word and the synonyms a rule added for it); numbers stand alone. */
  concepts: string[][];
  /** The cleaned symptom as reported (no expansions), for trigram similarity. */
  symptom: string;
  /** Coarse domain hints derived from the wording. */
  hints: { physical: boolean; software: boolean };
  /** Per concept: whether it names what went wrong (an outcome: stuck, fell, leaks, overheats, flickers…), see OUTCOME_RULES. */
  outcome: boolean[];
  /** Per concept: the cause families it names (deposit, corrosion, damage, misalignment, wet, electrical), see CAUSE_FAMILIES. */
  causes: string[][];
}

/**
 * The domain lexicon (lib/library/lexicon.tsv): trade words → the entries' words. Each line becomes one
 * rule; its reported forms and the words it adds form one concept. An empty right-hand side drops the form.
 */
export const LEXICON_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), "lexicon.tsv");
export function parseLexicon(text: string): Array<[RegExp, string]> {
  const rules: Array<[RegExp, string]> = [];
  for (const raw of text.split("\n")) {
    if (!raw.trim() || raw.trimStart().startsWith("#")) continue;
    const [left, right = ""] = raw.split("\t");
    const forms = left.split(" | ").map((f) => f.trim().toLowerCase()).filter(Boolean);
    if (!forms.length) continue;
    // Longest form first, so "ft sensor" wins over "ft"; word boundaries on both sides.
    const alt = forms.sort((a, b) => b.length - a.length).map((f) => f.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&").replace(/ /g, "\\s+")).join("|");
    const words = right.trim().toLowerCase();
    rules.push([new RegExp(`(?<![a-z0-9])(?:${alt})(?![a-z0-9])`, "g"), words ? `$& ${words} ` : " "]);
  }
  return rules;
}
let lexicon: Array<[RegExp, string]> | undefined;
function lexiconRules(): Array<[RegExp, string]> {
  if (!lexicon) {
    // Beside this module; from the project root when a bundler moved the module (Next's server chunks).
    let text = "";
    for (const f of [LEXICON_FILE, path.join(process.cwd(), "lib", "library", "lexicon.tsv")]) {
      try {
        text = readFileSync(/*turbopackIgnore: true*/ f, "utf8");
        break;
      } catch {
        /* next candidate */
      }
    }
    lexicon = parseLexicon(text);
  }
  return lexicon;
}

/** Words too common in reports to help ranking (the english configuration drops its own stop words too). */
const STOP = new Set(
  ("a an the and or but if then than so as at by for from in into of on onto to with without within is are was were be been being " +
    "it its this that these those there here i we you he she they me my our your their them us do does did done doing has have had " +
    "having not no nor can could would should will shall may might must just very too also again still even only about after before " +
    "while when where which who whom what why how all any each every some such other same both few more most much many own off out " +
    "up down over under once get got gets make makes made like seems seem appear appears something anything nothing thing " +
    // Discourse words reports are full of; in a small library each is rare, so IDF alone would call them distinctive.
    "although though yet however whereas whether either neither else ever never already always sometimes often really quite rather " +
    "almost pretty somehow anyway instead went goes going gone come comes came coming keep keeps kept see sees seen saw look looks " +
    "looked looking try tries tried trying way bit lot lots little one two three first second several someone somebody anyone " +
    "everyone thing things stuff kind sort around fine okay ok sure want wanted need needs needed tell told says said").split(/\s+/),
);

const IMMOBILE = " stuck immobile no movement 0 mm displacement ";

/** Negated motion and synonyms of "does not move" → one canonical phrase. */
const MOVEMENT_RULES: Array<[RegExp, string]> = [
  [/\b(?:won'?t|wont|doesn'?t|does not|did not|didn'?t|will not|cannot|can'?t|can not|fails? to|failed to|refuses? to|unable to)\s+(?:be\s+)?(open|move|budge|turn|slide|rotate|lift|release|come out|pull out|shift|give)(?:ed|s)?\b/g, `$& ${IMMOBILE} $1`],
  [/\b(?:stuck|jammed|jams|seized|frozen in place|wedged|immovable|immobile|locked up|won'?t budge|refuses to budge)\b/g, `$& ${IMMOBILE}`],
  [/\b(?:no|zero|0)\s*(?:mm\s+)?(?:movement|motion|travel|displacement|give)\b/g, `$& ${IMMOBILE}`],
  [/\b(?:stays|remains|stayed|remained)\s+(?:shut|closed|put|in place)\b/g, `$& ${IMMOBILE}`],
  [/\b(?:doesn'?t|does not|won'?t|will not)\s+(?:start|run|turn on|power on|switch on|light up)\b/g, "$& no power off"],
  [/\bslip(?:s|ping|ped)?\b/g, "$& slip"],
];

/**
 * Outcome words: what happened to the object, as opposed to what the object is. Reports word the same
 * outcome many ways ("tipped over", "toppled", "fell"); each family adds its canonical words, so a
 * report and an entry that name the same outcome in different words agree, and the calibrator can ask
 * whether the entry explains the report's outcome at all (a near miss names the object right and the
 * outcome wrong). Families are general English for how physical failures are described.
 */
const OUTCOME_RULES: Array<[RegExp, string]> = [
  [/\b(?:falls?|fell|falling|fallen|drops?|dropped|dropping|topples?|toppled|toppling|tips? over|tipped|tipping|tumbles?|tumbled|knocked over|keels? over)\b/g, "$& fall drop topple"],
  [/\b(?:slips?|slipped|slipping|slides?|slid|sliding|skids?|skidded|skidding)\b/g, "$& slip slide"],
  [/\b(?:sticky|glued|glues?|adheres?|adhered|adhering|adhesive|clings?|clung|clinging|tacky|bonded)\b/g, "$& adhere attached sticky"],
  [/\b(?:leaks?|leaked|leaking|leaky|drips?|dripped|dripping|spills?|spilled|spilt|spilling|seeps?|seeping|overflows?|overflowed|overflowing)\b/g, "$& leak drip spill"],
  [/\b(?:hot|hotter|heats?|heated|heating|overheats?|overheated|overheating|warm|warmer|scorching|scalding|searing)\b/g, "$& hot heat"],
  [/\b(?:cold|colder|cool|cooler|chilled|chilly|lukewarm|tepid|icy)\b/g, "$& cold cool"],
  [/\b(?:flicker(?:s|ed|ing|y)?|blink(?:s|ed|ing)?|strob(?:e|es|ing))\b/g, "$& flicker"],
  [/\b(?:break(?:s|ing)?|broke|broken|crack(?:s|ed|ing)?|snap(?:s|ped|ping)?|torn|tears?|tearing|rip(?:s|ped)?|shatter(?:s|ed)?|split(?:s|ting)?)\b/g, "$& broken crack"],
  [/\b(?:bend(?:s|ing)?|bent|warp(?:s|ed|ing)?|deform(?:s|ed|ing)?|buckl(?:e|es|ed|ing)|sag(?:s|ged|ging)?|bulg(?:e|es|ed|ing))\b/g, "$& bent deform"],
  [/\b(?:vibrat(?:e|es|ed|ing|ion)|shak(?:e|es|ing)|shook|wobbl(?:e|es|ed|ing|y)|oscillat(?:e|es|ed|ing|ion)|judder(?:s|ing)?)\b/g, "$& vibration oscillation"],
  [/\b(?:stall(?:s|ed|ing)?|halt(?:s|ed|ing)?|cuts? out)\b/g, "$& stall stop"],
];

/**
 * Cause families: what a report says made the object fail, as opposed to what happened to it (OUTCOME_RULES)
 * and what it is. A near miss names an entry's symptom and adds a cause the entry does not give ("igniter
 * clicks, no flame; burner cap crusted with burnt-on sauce" against "gas valve closed"); a paraphrase's
 * extra evidence agrees with the entry's reality (humidity for swollen wood, orange-brown flakes for a
 * corroded bolt). The families are general English for physical causes, not the labelled reports' words.
 * They do not change ranking: the calibration's `cause` feature (db/queries/library-query.ts) asks which of
 * the report's families the candidate's title, symptom or hidden reality also names (`causeFamilies`).
 */
export const CAUSE_FAMILIES: ReadonlyArray<readonly [string, RegExp]> = [
  ["deposit", /\b(?:crust(?:s|ed|y)?|encrust(?:ed)?|scal(?:e|ed|ing|y)|limescale|calcium|minerals?|residues?|deposit(?:s|ed)?|debris|dirt(?:y)?|grime|grimy|gunk(?:y)?|buildup|soot(?:y)?|lint|dust(?:y)?|grease|greasy|sludge|caked|fouled|contaminat(?:ed|ion)|clog(?:s|ged|ging)?|blocked|blockage|obstruct(?:ed|ion)?)\b/],
  ["corrosion", /\b(?:rust(?:s|ed|y|ing)?|corro(?:ded|sion|sive|des)|oxidi[sz](?:ed|ation)|oxide|tarnish(?:ed)?|patina|verdigris|galvanic)\b/],
  ["damage", /\b(?:broken|broke|snapped|crack(?:ed|s)?|split|torn|tear|ripped|jagged|chipped|shattered|fragment(?:s|ed)?|sheared|stripped|rounded|frayed|worn|wear|eroded|perished|brittle|punctured|dent(?:ed)?|damaged?)\b/],
  ["misalignment", /\b(?:offset|misalign(?:ed|ment)?|crooked|askew|skewed|droop(?:s|ed|ing)?|sag(?:s|ged|ging)?|shifted|displaced|unseated|dislodged|loose(?:ned)?)\b/],
  ["wet", /\b(?:wet|damp|soaked|soggy|puddles?|boilover|spill(?:ed|age)?|condensation|moisture|moist|humid(?:ity)?|flood(?:ed)?)\b/],
  ["electrical", /\b(?:buzz(?:es|ing)?|arc(?:s|ing)?|scorch(?:ed)?|dimmer|breaker|fuse|tripped|gfci|rcd|brownout|wiring)\b/],
];

/** The cause families a text names (lower case), in CAUSE_FAMILIES order. */
export function causeFamilies(text: string): string[] {
  const t = text.toLowerCase();
  return CAUSE_FAMILIES.filter(([, re]) => re.test(t)).map(([name]) => name);
}

/**
 * A qualitative grade in `force_applied` ("moderate", "within Class B parameters", "high") says how hard
 * the agent pushed; entries give forces in newtons, so the grade is neither evidence for a failure mode
 * nor unexplained evidence against one. The direction (pull, push, lift, torque, grip) is kept.
 */
const FORCE_GRADE = /\b(?:within\s+)?class\s+[a-z0-9]+(?:\s+(?:parameters|limits?|range|rating))?\b|\b(?:very\s+|quite\s+|fairly\s+)?(?:low|light|gentle|slight|soft|moderate|medium|normal|nominal|standard|usual|rated|high|heavy|firm|strong|hard|maximum|max|minimum|min|considerable|excessive)\b/g;

/**
 * Instance identifiers in error output (URLs, host names, IP addresses, version numbers) → what they
 * are. Their parts ("api", "stagging", "example", "5", "3", "3") describe this one incident, not the
 * failure mode, and would otherwise count as unexplained evidence against every entry.
 */
const IDENTIFIER_RULES: Array<[RegExp, string]> = [
  [/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>()]+/g, " url "],
  [/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g, " ip address "],
  [/\b(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|ai|co|uk|de|fr|eu|example|local|localhost|internal|test|cloud|app|svc)\b/g, " host "],
  [/(?:\bv|@)\d+(?:\.\d+)+(?:-[a-z0-9.]+)?\b|\b\d+\.\d+\.\d+(?:\.\d+)?(?:-[a-z0-9.]+)?\b/g, " version "],
];

/** The canonical words of the outcome families (and of immobility): a concept holding one names an outcome. */
const OUTCOME_WORDS = new Set(["stuck", "immobile", ...OUTCOME_RULES.flatMap(([, rep]) => rep.split(" "))].filter((w) => /^[a-z]{2,}$/.test(w)));

/** Numbers with units → the quantity's name (plus the unit word as entries write it), number kept. */
const UNIT_RULES: Array<[RegExp, string]> = [
  [/(\d+(?:\.\d+)?)\s*(?:[kmgt]i?b|bytes?)\b/g, " $1 memory size "],
  [/(\d+(?:\.\d+)?)\s*(?:n[·.\s-]?m|nm|newton[- ]?met(?:er|re)s?)\b/g, " $1 nm n m torque "],
  [/(\d+(?:\.\d+)?)\s*(?:n|newtons?|kgf)\b/g, " $1 n force "],
  [/(\d+(?:\.\d+)?)\s*(?:mm|millimet(?:er|re)s?|cm|centimet(?:er|re)s?|inch(?:es)?)\b/g, " $1 mm displacement "],
  [/(-|−)?(\d+(?:\.\d+)?)\s*°?\s*(?:c|f|celsius|fahrenheit)\b(?!\w)/g, " $1$2 °c temperature "],
  [/(\d+(?:\.\d+)?)\s*%\s*(?:rh|relative humidity|humidity)\b/g, " $1 % humidity rh "],
  [/(\d+(?:\.\d+)?)\s*(?:°|deg(?:rees?)?)(?!\s*[cf]\b)/g, " $1 ° rotation angle "],
  [/(\d+(?:\.\d+)?)\s*(?:kg|g|grams?|kilograms?|lbs?)\b/g, " $1 kg weight load "],
  [/(\d+(?:\.\d+)?)\s*(?:v|volts?)\b/g, " $1 v voltage power "],
  [/(\d+(?:\.\d+)?)\s*(?:ml|l|litres?|liters?)\b/g, " $1 ml liquid flow "],
  [/(\d+(?:\.\d+)?)\s*(?:hz)\b/g, " $1 hz oscillation vibration "],
  [/(\d+(?:\.\d+)?)\s*(?:psi|bar|kpa|pa)\b/g, " $1 pressure "],
];

/** Error-output forms → the words entries use for them (the original token is kept). */
const ERROR_RULES: Array<[RegExp, string]> = [
  [/\bcommand not found\b|:\s*not found\b|\bexit(?:ed)?(?:\s+(?:code|status|with))?\s*127\b|\bexited 127\b/g, " command not found exit 127 missing tool path "],
  [/\benoent\b|no such file or directory/g, " enoent no such file directory missing "],
  [/\beaddrinuse\b|address already in use|port (?:is )?already in use/g, " eaddrinuse address already in use port listen "],
  [/\beconnrefused\b|connection refused/g, " econnrefused connection refused connect "],
  [/could not resolve host|\benotfound\b|\beai_again\b|name resolution|name or service not known|\bdns\b|getaddrinfo/g, " could not resolve host getaddrinfo enotfound name resolution dns "],
  [/\b429\b|too many requests|rate[- _]?limit(?:ed)?/g, " 429 too many requests rate limit exceeded retry after "],
  [/\b401\b|unauthori[sz]ed|invalid[_ ]token|token expired|bad credentials/g, " 401 unauthorized token expired credentials "],
  [/\b403\b|forbidden/g, " 403 forbidden scope "],
  [/\b413\b|payload too large|entity too large/g, " 413 too large request entity payload "],
  [/\b50[234]\b|bad gateway|gateway time-?out|service unavailable|overloaded/g, " 502 503 504 gateway overloaded server unavailable "],
  [/\beacces\b|\beperm\b|permission denied|operation not permitted|exit(?:ed)?(?:\s+(?:code|status|with))?\s*126\b/g, " eacces permission denied "],
  [/\benospc\b|no space left|disk (?:is )?full/g, " enospc no space left device disk "],
  [/\berofs\b|read-only file ?system/g, " erofs read-only file system "],
  [/\bemfile\b|too many open files/g, " emfile too many open files "],
  [/\betimedout\b|\besockettimedout\b|timed? ?out\b|time-?out\b|exit(?:ed)?(?:\s+(?:code|status|with))?\s*124\b/g, " timed out timeout etimedout time limit "],
  [/\bexit(?:ed)?(?:\s+(?:code|status|with))?\s*137\b|\bsigkill\b|\boom\b|out of memory|heap limit|\bkilled\b/g, " killed sigkill out of memory 137 heap "],
  [/certificate|\bssl\b|\btls\b|cert_|self[- ]signed/g, " ssl certificate tls "],
  [/cannot find module|module not found|modulenotfounderror|no module named|err_module_not_found/g, " cannot find module not found no module named "],
  [/\.lock\b|\block(?:ed)?\b.*\b(?:held|exists)|database is locked|sqlite_busy|could not get lock/g, " lock locked held "],
  [/\bsyntax ?error\b|unexpected token/g, " syntaxerror unexpected token "],
  [/\bgit\b|\brepo(?:sitory)?\b/g, " git "],
  [/\bnpm\b|\bpip\b|package manager|\bapt(?:-get)?\b|\bdpkg\b/g, " package install "],
];

/**
 * Telemetry forms of units the UNIT_RULES do not read: key=value humidity ("rh=82%"), small travel in
 * metres (a joint state of 0.001 m is 1 mm), milliseconds (also in seconds, as entries write times),
 * currents.
 */
const TELEMETRY_UNIT_RULES: Array<[RegExp, string | ((...m: string[]) => string)]> = [
  [/\b(?:rh|humidity|hygrometer|relative humidity)\s*[=:]?\s*(\d+(?:\.\d+)?)\s*%(?:\s*rh\b)?/g, " $1 % humidity rh "],
  [/(?<![\d.])(0?\.\d+)\s*m\b(?![a-z])/g, (_m, v) => (Number(v) < 0.05 ? ` ${+(Number(v) * 1000).toFixed(1)} mm ` : ` ${v} m `)],
  [/(\d+(?:\.\d+)?)\s*ms\b/g, (_m, v) => ` ${v} ms ${Math.max(1, Math.round(Number(v) / 1000))} s time `],
  [/<\s*(\d+(?:\.\d+)?)\s*s\b/g, " within $1 s "],
  [/(\d+(?:\.\d+)?)\s*ma\b/g, (_m, v) => ` ${+(Number(v) / 1000).toFixed(3)} a `],
  [/(\d+(?:\.\d+)?)\s*(?:a|amps?|amperes?)\b(?![a-z])/g, (_m, v) => (Number(v) === 0 ? ` ${v} a current no power unpowered ` : ` ${v} a current `)],
];

/** A unit's quantity, for the trend rules. */
const QUANTITY: Record<string, string> = { n: "force", nm: "torque", "n·m": "torque", "n m": "torque", a: "current", kpa: "pressure", mm: "displacement", "%": "percent" };
const TREND_UNIT = "(n·m|n m|nm|n|a|kpa|mm|%)";
/**
 * Trends in a series of readings ("10N->38N", "12 -> 40 N", "8, 16, 24, 33 N"): a rise to at least 1.5×
 * is named as the entries name it (force: resistance rises; current: a spike, stall, overload), a fall
 * to half or less as a sudden drop (force: slip or release; current: power cut). The readings are kept.
 */
function trendWords(values: number[], unit: string): string {
  const q = QUANTITY[unit] ?? "";
  const first = values[0], last = values[values.length - 1];
  const monotonicUp = values.every((v, i) => i === 0 || v >= values[i - 1]);
  if (first >= 0 && last >= 1.5 * Math.max(first, 1e-9) && monotonicUp) {
    if (q === "force") return " resistance rises smoothly force increasing ";
    if (q === "torque") return " torque rises ";
    if (q === "current") return " current spike stall overload ";
    return ` ${q} rises `;
  }
  if (Math.abs(last) <= 0.5 * Math.abs(first)) {
    if (q === "force") return " sudden drop releases slip ";
    if (q === "torque") return " torque drops suddenly ";
    if (q === "current") return " current drop ";
    return ` ${q} drops `;
  }
  return "";
}
const TREND_RULES: Array<[RegExp, (...m: string[]) => string]> = [
  [new RegExp(`(-?\\d+(?:\\.\\d+)?)\\s*${TREND_UNIT}?\\s*(?:->|→|=>|\\bto\\b)\\s*(-?\\d+(?:\\.\\d+)?)\\s*${TREND_UNIT}(?![a-z])`, "g"), (m, a, u1, b, u2) => `${m} ${(u1 ?? u2) === u2 || !u1 ? trendWords([Number(a), Number(b)], u2) : ""}`],
  [new RegExp(`(\\d+(?:\\.\\d+)?(?:\\s*,\\s*\\d+(?:\\.\\d+)?){2,})\\s*${TREND_UNIT}(?![a-z])`, "g"), (m, list, u) => `${m} ${trendWords(list.split(/\s*,\s*/).map(Number), u)}`],
];

/**
 * Humidity, temperature and comparison buckets, read from the normalised forms: the words entries use
 * for a humid room, a hot or a freezing part, and a reading against its expected value.
 */
const BUCKET_RULES: Array<[RegExp, string | ((...m: string[]) => string)]> = [
  [/(\d+(?:\.\d+)?) % humidity/g, (m, v) => (Number(v) >= 70 ? `${m} humid high humidity moisture ` : Number(v) <= 25 ? `${m} dry ` : m)],
  [/(-|−)?(\d+(?:\.\d+)?) °c temperature/g, (m, sign, v) => (sign ? `${m} below freezing frost ice ` : Number(v) >= 60 ? `${m} hot overheating ` : m)],
  [/\b(?:vs|versus|instead of|target|setpoint|set point|baseline|nominal|expected|calibrated|cal|usual|normally|reference)\b/g, "$& vs expected usual baseline target "],
];

const SOFTWARE_WORDS = /\b(?:exit|error|err|errno|enoent|eacces|eperm|eaddrinuse|econnrefused|enospc|emfile|etimedout|http|https|api|curl|npm|pip|python|node|git|bash|sh|shell|command|script|module|package|docker|container|ssl|certificate|token|server|port|dns|host|request|response|json|sql|database|stack|trace|traceback|build|deploy|install|fatal|timeout|proxy|sigkill|heap|file|directory|permission)\b|\b[1-5]\d\d\b/;
const PHYSICAL_WORDS = /\b(?:force|torque|displacement|temperature|humidity|gripper|grip|pull|pulled|push|pushed|lift|lifted|drawer|door|lid|jar|bolt|nut|screw|window|handle|latch|hinge|wrist|arm|robot|stuck|immobile|rotation|slip|wood|wooden|metal|liquid|container|bottle|cabinet|valve)\b/;

/** Words that one rule application put together (the reported form and its canonical words). */
type Link = (words: string[]) => void;

/** Replacement text with `$1`-style groups (a missing group becomes ""); `link` hears each replacement's words. */
function applyRules(s: string, rules: Array<[RegExp, string]>, link?: Link): string {
  for (const [re, rep] of rules) {
    s = s.replace(re, (...m: unknown[]) => {
      const groups = m.slice(0, -2).filter((x) => typeof x === "string" || x === undefined) as Array<string | undefined>;
      const out = rep.replace(/\$(&|\d)/g, (_, g: string) => (g === "&" ? groups[0] ?? "" : groups[Number(g)] ?? ""));
      link?.(tokenize(out));
      return out;
    });
  }
  return s;
}

/** Applies rules whose replacement may be a function; `link` hears each replacement's words. */
function applyFnRules(s: string, rules: Array<[RegExp, string | ((...m: string[]) => string)]>, link?: Link): string {
  for (const [re, rep] of rules) {
    s = s.replace(re, (...m: unknown[]) => {
      const groups = m.slice(0, -2).filter((x) => typeof x === "string" || x === undefined) as string[];
      const out = typeof rep === "function" ? rep(...groups) : rep.replace(/\$(&|\d)/g, (_, g: string) => (g === "&" ? groups[0] ?? "" : groups[Number(g)] ?? ""));
      link?.(tokenize(out));
      return out;
    });
  }
  return s;
}

/**
 * Identifiers as logs and topics write them: camelCase is split and kept whole too (roomHumidity →
 * "roomhumidity room humidity", one concept), snake_case and dotted names get their parts beside them
 * (joint_4.motor_temp → "joint_4.motor_temp joint 4 motor temp", see splitCompounds, after URLs and
 * versions were named) so the rules below read them as words; key=value separates.
 */
export function splitIdentifiers(raw: string, link?: Link): string {
  let s = raw.replace(/\b[A-Za-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b/g, (w) => {
    const parts = w.replace(/([a-z0-9])([A-Z])/g, "$1 $2");
    link?.(tokenize(`${w} ${parts}`.toLowerCase()));
    return `${w} ${parts}`;
  });
  return s;
}

/** snake_case and dotted names, after URLs, hosts and versions were named (lower-case text). */
function splitCompounds(s: string): string {
  s = s.replace(/\b(?=[a-z0-9]*[a-z])[a-z0-9]+(?:[_.][a-z0-9]+)+\b/g, (w) => (/^[\d.]+$/.test(w) || !/[_]|[a-z]\.[a-z]/.test(w) ? w : `${w} ${w.replace(/[_.]+/g, " ")}`));
  return s.replace(/([a-z0-9])=(?=\S)/g, "$1 = ");
}

/** Lower case, plain quotes and dashes, contractions spelt out ("won't" → "will not"). */
function clean(raw: string): string {
  return raw
    .toLowerCase()
    .normalize("NFKC")
    .replace(/[‘’`´]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[‐‑–—]/g, "-")
    .replace(/n·m/g, "n m ")
    .replace(/\bwon'?t\b/g, "will not")
    .replace(/\bcan'?t\b/g, "can not")
    .replace(/n't\b/g, " not")
    .replace(/\b(does|do|did|is|was|are|were|has|have|had|could|would|should)nt\b/g, "$1 not");
}

export function normalizeText(raw: string, link?: Link): string {
  let s = clean(splitIdentifiers(raw, link));
  s = applyRules(s, IDENTIFIER_RULES);
  s = splitCompounds(s);
  s = applyRules(s, ERROR_RULES, link);
  s = applyFnRules(s, TREND_RULES, link);
  s = applyFnRules(s, TELEMETRY_UNIT_RULES, link);
  s = applyRules(s, lexiconRules(), link);
  s = applyRules(s, UNIT_RULES, link);
  s = applyFnRules(s, BUCKET_RULES, link);
  s = applyRules(s, MOVEMENT_RULES, link);
  s = applyRules(s, OUTCOME_RULES, link);
  return s.replace(/\s+/g, " ").trim();
}

/** Words of a text suitable for a tsquery: letters and digits only, no stop words, de-duplicated. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const w of text.split(/[^a-z0-9]+/)) {
    if (!w || STOP.has(w) || seen.has(w)) continue;
    if (w.length < 2 && !/^\d$/.test(w)) continue;
    seen.add(w);
    out.push(w);
  }
  return out;
}

export function normalizeQuery(input: { observed_symptom: string; object_class?: string; force_applied?: string }): NormalizedQuery {
  // Union-find over words: every rule application joins its words into one concept. Numbers stay apart
  // (a measurement is its own evidence, whatever quantity it is).
  const parent = new Map<string, string>();
  const find = (w: string): string => {
    const p = parent.get(w) ?? w;
    if (p === w) return w;
    const r = find(p);
    parent.set(w, r);
    return r;
  };
  const link: Link = (words) => {
    const ws = words.filter((x) => !/^\d/.test(x));
    for (const x of ws.slice(1)) {
      const a = find(ws[0]), b = find(x);
      if (a !== b) parent.set(b, a);
    }
  };
  const symptomText = normalizeText(input.observed_symptom, link);
  const force = clean(input.force_applied ?? "").replace(FORCE_GRADE, " ");
  const extra = [input.object_class ?? "", force].map((x) => normalizeText(x.replace(/[_-]+/g, " "), link)).join(" ");
  const all = `${symptomText} ${extra}`;
  const terms = tokenize(all).slice(0, 64);
  const byRoot = new Map<string, string[]>();
  for (const t of terms) {
    const r = /^\d/.test(t) ? t : find(t);
    byRoot.set(r, [...(byRoot.get(r) ?? []), t]);
  }
  return {
    terms,
    concepts: [...byRoot.values()],
    symptom: clean(input.observed_symptom).replace(/\s+/g, " ").trim().slice(0, 1000),
    hints: { physical: PHYSICAL_WORDS.test(all), software: SOFTWARE_WORDS.test(all) },
    outcome: [...byRoot.values()].map((c) => c.some((w) => OUTCOME_WORDS.has(w))),
    causes: [...byRoot.values()].map((c) => causeFamilies(c.join(" "))),
  };
}

/** Context tokens (object class and environment) as library tags are written: lower-case, `_`/`-` split kept whole too. */
export function contextTokens(objectClass: string | undefined, env: string[] | string | undefined): string[] {
  const parts = [objectClass ?? "", ...(Array.isArray(env) ? env : env ? env.split(/[,;]/) : [])];
  const out = new Set<string>();
  for (const p of parts) {
    const t = p.trim().toLowerCase();
    if (!t) continue;
    out.add(t);
    for (const w of t.split(/[_\s-]+/)) if (w.length > 1) out.add(w);
  }
  return [...out].slice(0, 40);
}
