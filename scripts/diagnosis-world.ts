/**
 * Builds bench/diagnosis-world.jsonl: REAL error outputs quoted verbatim in public sources (issue
 * threads, Q&A pages, documentation), each dressed as the Input Context Faultline's tools would
 * produce for it. Nobody here wrote the outputs; only the label, the one line of why and the
 * plausible command around them are ours.
 *
 * To add a case, append ONE line in the short form to bench/diagnosis-world.jsonl and run
 * `npm run corpus:world`; the line is expanded in place (id, half, input) and the rest is untouched:
 *
 *   {"label":"network_error","source":"https://github.com/o/r/issues/1","ecosystem":"npm","why":"…",
 *    "cmd":"npm install","code":1,"out":"npm ERR! code ECONNREFUSED\n…"}
 *
 * Short-form fields: `out` (the verbatim output, required), `cmd` (shell command line, default tool
 * shell), `code` (exit code, default 1), `stream` ("stderr" default, or "stdout"); for an HTTP
 * response `tool: "http"`, `url`, `method`, `status` (only when the quote shows it) and `out` as the
 * body; for an agent framework `tool: "<the tool the model called or the framework's tool>"`,
 * `args` and `out` as the exception text. No toolCode/errno extras: only what the quote says.
 *
 * The half (tuning | heldout) is a hash of the SOURCE address, so every case of one page lands in
 * the same half. Tune rules on the tuning half only (`--corpus world --split tuning --errors`).
 *
 * Run: node --import tsx scripts/diagnosis-world.ts [--file bench/diagnosis-world.jsonl] [--check]
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { classify } from "../lib/diagnosis/classify";
import { ERROR_TYPES, inputContextSchema, type DiagnosedType, type ErrorType, type InputContext } from "../lib/diagnosis/types";
import { interpretResponse } from "../lib/tools/http";
import { mostInformativeLine } from "../lib/tools/shell";

export interface WorldCase {
  id: string;
  label: ErrorType;
  /** Where the output is quoted (URL). */
  source: string;
  ecosystem: string;
  /** One line: why this label. */
  why: string;
  half: "tuning" | "heldout";
  /** Collection round: 1 (the first 401 cases), 2 (gathered by other hands, measured before any rule saw it), … */
  batch?: number;
  /**
   * What the diagnosis said when the case was collected, before any rule was written for it: the rules'
   * type alone, the type it stated (the lexical model may have answered where rules did not), and its
   * stated confidence. Never updated. Batches 1 and 2 were backfilled by running the classifier of the
   * commits that collected them (e89d323, d66aadd). The lexical model is cross-validated on the tuning
   * cases the rules did not know: the failures it will meet are of that kind. `grounded` (when the rules named a
   * type): whether a specific statement carried their answer (Classification.grounded); backfilled for batches 2–7
   * by running, rules only, the classifier of each batch's collecting commit. The weak calibration map is fitted on it.
   */
  firstSeen?: { rules: DiagnosedType; said: DiagnosedType; confidence: number; grounded?: boolean };
  input: InputContext;
}

interface ShortCase {
  label: ErrorType;
  source: string;
  ecosystem: string;
  why: string;
  out: string;
  tool?: string;
  cmd?: string;
  code?: number;
  stream?: "stderr" | "stdout";
  url?: string;
  method?: string;
  status?: number;
  statusText?: string;
  args?: Record<string, unknown>;
  batch?: number;
}

/** FNV-1a, as bench/diagnosis.ts. */
export function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (const ch of s) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

/** The half of a source address: stable, independent of order and of the other cases. */
export function halfOf(source: string): "tuning" | "heldout" {
  return fnv(source.trim().replace(/[#?].*$/, "").replace(/\/+$/, "")) % 2 === 0 ? "tuning" : "heldout";
}

/** "npm install --global x" → { command: "npm", args: ["install", "--global", "x"] }. */
function splitCommand(cmd: string): { command: string; args: string[] } {
  const tokens = cmd.match(/"[^"]*"|'[^']*'|\S+/g) ?? [cmd];
  return { command: tokens[0], args: tokens.slice(1).map((t) => t.replace(/^(["'])(.*)\1$/, "$2")) };
}

function inputOf(s: ShortCase): InputContext {
  const tool = s.tool ?? "shell";
  let failure: Record<string, unknown>;
  if (tool === "shell" && s.cmd) {
    const { command, args } = splitCommand(s.cmd);
    const code = s.code ?? 1;
    const stream = s.stream ?? "stderr";
    const line = mostInformativeLine(s.out);
    const said = line ? `: ${line}` : " and printed nothing";
    const message =
      code === 127
        ? `"${command}" exited with code 127 (a command it ran was not found)${said}`
        : code === 126
          ? `"${command}" exited with code 126 (a command it ran could not be executed)${said}`
          : `"${command}" exited with code ${code}${said}`;
    failure = { tool, args: { command, args }, error: { message, code, [stream]: s.out, signal: null } };
  } else if (tool === "http" && s.status !== undefined) {
    if (!s.url) throw new Error(`http case needs a url: ${s.source}`);
    const method = s.method ?? "POST";
    const r = interpretResponse(`${method} ${s.url}`, { status: s.status, statusText: s.statusText ?? "", headers: { "content-type": "application/json" }, durationMs: 0 }, { text: s.out, bytes: Buffer.byteLength(s.out), tooLarge: false }, {
      maxResponseBytes: 1 << 20,
    });
    if (r.ok) throw new Error(`status ${s.status} is not a failure: ${s.source}`);
    failure = { tool, args: { url: s.url, method }, error: { message: r.error.message, stdout: s.out, signal: null, status: s.status } };
  } else {
    // An agent framework's own tool, a shell tool quoted without a command line, or an HTTP client's
    // error quoted without its status: the exception text is the message.
    if (tool === "shell" && !s.args) throw new Error(`shell case without cmd or args: ${s.source}`);
    const first = s.out.split(/\r?\n/).map((l) => l.trim()).find(Boolean) ?? s.out.trim();
    const line = first.length > 300 ? `${first.slice(0, 300)}…` : first;
    failure = { tool, args: s.args ?? {}, error: { message: line, stderr: s.out, signal: null } };
  }
  return inputContextSchema.parse({ failure });
}

function expand(s: ShortCase): WorldCase {
  if (!ERROR_TYPES.includes(s.label)) throw new Error(`unknown label ${s.label}: ${s.source}`);
  for (const k of ["source", "ecosystem", "why", "out"] as const) if (!s[k]) throw new Error(`missing ${k}: ${JSON.stringify(s).slice(0, 200)}`);
  const id = `${s.label}/${s.ecosystem}/${fnv(`${s.source}\n${s.out}`).toString(36)}`;
  const input = inputOf(s);
  const said = classify(input);
  const rules = classify(input, { lexical: false });
  const firstSeen = { rules: rules.type, said: said.type, confidence: said.probability, ...(rules.type === "unknown" ? {} : { grounded: rules.grounded }) };
  return { id, label: s.label, source: s.source, ecosystem: s.ecosystem, why: s.why, half: halfOf(s.source), ...(s.batch ? { batch: s.batch } : {}), firstSeen, input };
}

export function readWorld(file: string): WorldCase[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as WorldCase);
}

function main(): void {
  const argv = process.argv.slice(2);
  const file = argv.includes("--file") ? argv[argv.indexOf("--file") + 1] : path.join(import.meta.dirname, "..", "bench", "diagnosis-world.jsonl");
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim());
  const out: WorldCase[] = [];
  const seen = new Set<string>();
  let expanded = 0;
  for (const l of lines) {
    const raw = JSON.parse(l) as WorldCase | ShortCase;
    const c = "input" in raw ? { ...raw, half: halfOf(raw.source) } : (expanded++, expand(raw as ShortCase));
    if (seen.has(c.id)) {
      console.warn(`duplicate dropped: ${c.id}`);
      continue;
    }
    seen.add(c.id);
    out.push(c);
  }
  const byType = Object.fromEntries(ERROR_TYPES.map((t) => [t, out.filter((c) => c.label === t).length]));
  const halves = { tuning: out.filter((c) => c.half === "tuning").length, heldout: out.filter((c) => c.half === "heldout").length };
  const sources = new Set(out.map((c) => c.source)).size;
  if (!argv.includes("--check")) writeFileSync(file, out.map((c) => JSON.stringify(c)).join("\n") + "\n");
  console.log(`${out.length} cases from ${sources} sources (${expanded} expanded); halves ${JSON.stringify(halves)}`);
  console.log(byType);
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) main();
