/**
 * Reading tool output the way a person does: skip stack frames and source excerpts, find the line
 * that decides (the LAST error line, under the stack), and do not be fooled by words that only
 * appear inside identifiers, quoted names or paths.
 */

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

/** Lines that never explain a failure by themselves: stack frames, banners, carets, brackets. */
const NOISE: readonly RegExp[] = [
  /^\s+at\s/, // Node / Java frame
  /^\s*File ".*", line \d+/, // Python frame
  /^Traceback \(most recent call last\):?$/,
  /^During handling of the above exception/,
  /^The above exception was the direct cause/,
  /^\s*[\^~]+\s*$/, // caret markers
  /^Node\.js v\d/,
  /^Require stack:$/,
  /^- \//, // require stack entries
  /^\s*[{}[\](),]+;?$/,
  /^(?:file:\/\/)?\/\S+:\d+$/, // "file.js:12" header above a source excerpt
  /^hint:/, // git advice
  /^\s*\.\.\.\s*\d* (?:more|lines)/,
  /^npm (?:error|ERR!) A complete log of this run/,
  /^\s*(?:code|errno|syscall|path|requireStack|spawnargs|cause|status|signal|output|pid|stdout|stderr):/, // Node error object dump
];
/** "Something: …" or "fatal: …" — a line that reports an error, as opposed to progress or data. */
const ERROR_LINE = /\b(?:error|errno|fatal|failed|failure|exception|denied|not found|no such|cannot|can't|could not|couldn't|unable|invalid|refused|timed out|unbound|not set|too large|exceeded|unexpected|forbidden|unauthorized|rate limit)\b|^\w*(?:Error|Exception)\b|^\w[\w.-]*: /i;

/**
 * A line that only counts the errors reported above it ("Validation Error Count: 1", "Found 3 errors.",
 * "error: aborting due to 2 previous errors"): it closes the report, it does not say what failed.
 */
const ERROR_COUNT_LINE = /^(?:[\w-]+ )*errors? count:? \d+\.?$|^(?:found |there (?:were|are) )?\d+ (?:errors?|problems?)(?: and \d+ warnings?)?(?: (?:found|generated|occurred|detected|reported))?[.!]?$|\bdue to (?:\d+ )?previous errors?\b|^compilation terminated\.?$/i;

export interface TextLine {
  /** The line as printed (trimmed). */
  text: string;
  /** The same line with quoted names and paths blanked out (same length), for matching words. */
  masked: string;
  /** How much the line counts: 1 for the decisive line of its stream, less for the others. */
  weight: number;
}

/** The key of an error's code/status/reason field just before a quoted value (JSON, Python dicts, escaped JSON). */
const CODE_FIELD_BEFORE = /\b(?:code|status|reason|error|type|codeName|errorCode|error_code|__type|errorType|error_type)\\?["']?\s*[:=]\s*\\?$/i;

const QUOTE_PAIRS: Record<string, string> = { "'": "'", '"': '"', "`": "`'", "‘": "’", "“": "”" };
const MASK = "x";

/**
 * Blank out identifier-like quoted strings ('timeout', "API_KEY", `then') and path tokens
 * (/tmp/permission_denied.txt), keeping the string length so match positions stay valid.
 * Quoted text with spaces is prose (an error message inside a JSON body) and stays readable.
 */
export function maskNames(line: string): string {
  const out = line.split("");
  const isWord = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_]/u.test(c);
  for (let i = 0; i < line.length; i++) {
    const closers = QUOTE_PAIRS[line[i]];
    if (!closers || isWord(line[i - 1])) continue;
    let j = i + 1;
    while (j < line.length && !(closers.includes(line[j]) && !isWord(line[j + 1]))) j++;
    if (j >= line.length) continue;
    const inner = line.slice(i + 1, j);
    // A name is masked; punctuation ('-', '}') is what a parser talks about, and the value of an error's
    // code, status or reason field ("status": "RESOURCE_EXHAUSTED", codeName: 'Unauthorized') is the statement.
    const isStatement = !/[\p{L}\p{N}]/u.test(inner) || CODE_FIELD_BEFORE.test(line.slice(Math.max(0, i - 40), i));
    if (inner.length > 0 && !/\s/.test(inner) && !isStatement) for (let k = i + 1; k < j; k++) out[k] = MASK;
    i = j;
  }
  for (const m of line.matchAll(/(?<![\w:])(?:\.{0,2}\/|~\/|[\w.-]+\/)[^\s'"`,;()]*/g)) {
    if (/^https?:|^HTTP\//i.test(m[0])) continue; // URLs and status lines are matched on purpose
    if (/^[A-Za-z0-9]{1,8}\/[A-Za-z]{1,8}$/.test(m[0])) continue; // "i/o", "module/action", "203/EXEC": words, not a path
    const token = m[0].replace(/[:.]+$/, ""); // "/bin/sh: 1: …" — the colon is the message's, not the path's
    for (let k = m.index; k < m.index + token.length; k++) out[k] = MASK;
  }
  return out.join("");
}

/** Meaningful lines of one stream, each with its weight: the last error line decides. */
export function meaningfulLines(text: string | undefined, streamWeight: number): TextLine[] {
  if (!text) return [];
  const raw = text.replace(ANSI, "").split(/\r?\n/);
  const kept: string[] = [];
  let inPythonFrame = false;
  for (let i = 0; i < raw.length; i++) {
    const line = raw[i];
    const trimmed = line.trim();
    if (/^\s*File ".*", line \d+/.test(line)) {
      inPythonFrame = true;
      continue;
    }
    if (inPythonFrame && /^\s{4,}/.test(line)) continue; // the source line echoed under a frame
    inPythonFrame = false;
    if (!trimmed || NOISE.some((re) => re.test(line))) continue;
    if (/^\s*[\^~]+\s*$/.test(raw[i + 1] ?? "")) continue; // a source excerpt above a caret marker
    kept.push(trimmed.length > 2000 ? `${trimmed.slice(0, 2000)}…` : trimmed);
  }
  const decisive = kept.findLastIndex((l) => ERROR_LINE.test(l) && !ERROR_COUNT_LINE.test(l));
  const last = decisive >= 0 ? decisive : kept.length - 1;
  // Loggers that prefix every line ("npm error …", "error: …") report one failure over several
  // lines: the contiguous block with the decisive line's prefix decides together.
  const prefix = /^([\w.-]+(?: [a-z]+)?:?) /.exec(kept[last] ?? "")?.[1];
  let blockStart = last;
  while (prefix && blockStart > 0 && kept[blockStart - 1].startsWith(`${prefix} `)) blockStart--;
  return kept.map((t, i) => ({
    text: t,
    masked: maskNames(t),
    weight: streamWeight * (i >= blockStart && i <= last ? 1 : i >= blockStart - 2 && i < blockStart ? 0.8 : 0.6),
  }));
}

/** The text a failure gives us to read, most telling first: stderr, stdout, then the tool's own message. */
export function failureLines(streams: { stderr?: string; stdout?: string; message: string }): TextLine[] {
  return [...meaningfulLines(streams.stderr, 1), ...meaningfulLines(streams.stdout, 0.9), ...meaningfulLines(streams.message, 0.9)];
}

/** Text inside the first capture group of `m`, read from the unmasked `original`. */
export function groupText(m: RegExpExecArray, original: string, group = 1): string | undefined {
  const at = m.indices?.[group];
  return at ? original.slice(at[0], at[1]) : undefined;
}

/** The decisive line: the highest-weighted error line (stderr before stdout before the message). */
export function decisiveLine(lines: readonly TextLine[]): string | undefined {
  let best: TextLine | undefined;
  for (const l of lines) if (!best || l.weight > best.weight) best = l;
  return best?.text;
}
