import { promises as fs } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import type { EvidenceCheck, StepDefinition, ToolName } from "../mission/definition";
import { resolveInWorkspace } from "./file";
import type { ToolResult } from "./result";
import { safeRegExp } from "../regexp";

/**
 * Evidence (RFC 001 §3.3): what proves a step worked. Each declared check becomes one record;
 * a step without declared evidence gets its tool's default check.
 */

export interface EvidenceRecord {
  /** exit_code | file_exists | output_matches | http_status | json_path | completed */
  check: string;
  expected: unknown;
  actual: unknown;
  passed: boolean;
  /** For a failed check: "expected … but …", readable after the check name. */
  detail?: string;
}

type Data = Record<string, unknown> | null;

const EXCERPT_CHARS = 200;

// ---------- formatting ----------

function excerptTail(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > EXCERPT_CHARS ? `…${flat.slice(-EXCERPT_CHARS)}` : flat;
}

function show(value: unknown): string {
  if (value === undefined) return "undefined";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

function record(check: string, expected: unknown, actual: unknown, passed: boolean, detail: () => string): EvidenceRecord {
  return passed ? { check, expected, actual, passed } : { check, expected, actual, passed, detail: detail() };
}

/** Why a value is missing from the result: the tool failed early, or it does not report that value. */
function missing(what: string, tool: ToolName, result: ToolResult): string {
  if (result.data === null && !result.ok) return `the ${tool} tool failed before producing ${what} (${result.error.message})`;
  return `the ${tool} tool did not report ${what}`;
}

// ---------- reading the result ----------

function numberField(data: Data, key: string): number | null {
  const v = data?.[key];
  return typeof v === "number" ? v : null;
}

function stringField(data: Data, key: string): string | null {
  const v = data?.[key];
  return typeof v === "string" ? v : null;
}

/** The text `output_matches` looks at: shell stdout+stderr, http body, llm content, file content (or a listing's names). */
export function outputText(tool: ToolName, data: Data): string | null {
  if (!data) return null;
  if (tool === "shell") {
    const parts = [stringField(data, "stdout"), stringField(data, "stderr")].filter((p): p is string => p !== null && p !== "");
    return parts.join("\n");
  }
  if (tool === "http") return stringField(data, "body");
  if (tool === "llm") return stringField(data, "content");
  const content = stringField(data, "content");
  if (content !== null) return content;
  const entries = data.entries;
  return Array.isArray(entries) ? entries.map((e) => String((e as { name?: unknown }).name)).join("\n") : null;
}

function parseJson(text: string | null): { ok: true; value: unknown } | { ok: false } {
  if (text === null) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** The JSON document `json_path` looks at: data.json (http; llm with expectJson), else stdout / body / content parsed as JSON. */
function jsonDocument(data: Data): { ok: true; value: unknown } | { ok: false } {
  if (!data) return { ok: false };
  if (data.json !== undefined && data.json !== null) return { ok: true, value: data.json };
  for (const key of ["stdout", "body", "content"]) {
    const parsed = parseJson(stringField(data, key));
    if (parsed.ok) return parsed;
  }
  return { ok: false };
}

type Lookup = { exists: boolean; value: unknown };
const ABSENT: Lookup = { exists: false, value: undefined };

function childOf(value: unknown, key: string | number): Lookup {
  if (typeof key === "number") return Array.isArray(value) && key < value.length ? { exists: true, value: value[key] } : ABSENT;
  const isObject = value !== null && typeof value === "object" && !Array.isArray(value);
  return isObject && Object.hasOwn(value, key) ? { exists: true, value: (value as Record<string, unknown>)[key] } : ABSENT;
}

/** Follow `$.a.b[0]` through a JSON value. */
export function readJsonPath(doc: unknown, jsonPath: string): Lookup {
  const keys = [...jsonPath.matchAll(/\.([A-Za-z0-9_-]+)|\[(\d+)\]/g)].map((m) => (m[2] !== undefined ? Number(m[2]) : m[1]));
  return keys.reduce<Lookup>((found, key) => (found.exists ? childOf(found.value, key) : ABSENT), { exists: true, value: doc });
}

// ---------- checks ----------

function exitCodeCheck(expected: number, tool: ToolName, result: ToolResult): EvidenceRecord {
  const actual = numberField(result.data, "exitCode");
  return record("exit_code", expected, actual, actual === expected, () =>
    actual === null ? `expected ${expected} but ${missing("an exit code", tool, result)}` : `expected ${expected} but the exit code was ${actual}`,
  );
}

function statusCheck(expected: unknown, accepts: (status: number) => boolean, wanted: string, tool: ToolName, result: ToolResult): EvidenceRecord {
  const actual = numberField(result.data, "status") ?? (result.ok ? null : (result.error.status ?? null));
  return record("http_status", expected, actual, actual !== null && accepts(actual), () =>
    actual === null ? `expected ${wanted} but ${missing("an HTTP status", tool, result)}` : `expected ${wanted} but the status was ${actual}`,
  );
}

function outputMatchesCheck(pattern: string, tool: ToolName, result: ToolResult): EvidenceRecord {
  const text = outputText(tool, result.data);
  const regex = safeRegExp(pattern, "m");
  const passed = text !== null && regex !== null && regex.test(text);
  const actual = text === null ? null : excerptTail(text);
  return record("output_matches", `/${pattern}/`, actual, passed, () => {
    if (regex === null) return `expected /${pattern}/ but that is not a valid regular expression`;
    if (text === null) return `expected /${pattern}/ but ${missing("any output", tool, result)}`;
    return text.trim() ? `expected /${pattern}/ but the output was "${actual}"` : `expected /${pattern}/ but the output was empty`;
  });
}

function jsonPathCheck(jsonPath: string, equals: unknown, tool: ToolName, result: ToolResult): EvidenceRecord {
  const wantsValue = equals !== undefined;
  const expected = wantsValue ? { path: jsonPath, equals } : { path: jsonPath };
  const want = wantsValue ? `${jsonPath} to equal ${show(equals)}` : `${jsonPath} to exist and not be null`;
  const doc = jsonDocument(result.data);
  if (!doc.ok) {
    return record("json_path", expected, null, false, () =>
      result.data === null ? `expected ${want} but ${missing("any output", tool, result)}` : `expected ${want} but the output is not JSON`,
    );
  }
  const found = readJsonPath(doc.value, jsonPath);
  const passed = found.exists && (wantsValue ? isDeepStrictEqual(found.value, equals) : found.value !== null);
  return record("json_path", expected, found.value, passed, () => (found.exists ? `expected ${want} but it was ${show(found.value)}` : `expected ${want} but ${jsonPath} does not exist`));
}

async function fileExistsCheck(relPath: string, workspace: string): Promise<EvidenceRecord> {
  const target = await resolveInWorkspace(workspace, relPath);
  if (!target.ok) return record("file_exists", relPath, false, false, () => `expected "${relPath}" to exist but it cannot be checked: ${target.error.message}`);
  const exists = await fs.stat(target.absolute).then(
    () => true,
    () => false,
  );
  return record("file_exists", relPath, exists, exists, () => `expected "${relPath}" to exist in the workspace but it does not`);
}

function evaluateCheck(check: EvidenceCheck, tool: ToolName, result: ToolResult, workspace: string): EvidenceRecord | Promise<EvidenceRecord> {
  if ("exit_code" in check) return exitCodeCheck(check.exit_code, tool, result);
  if ("file_exists" in check) return fileExistsCheck(check.file_exists, workspace);
  if ("output_matches" in check) return outputMatchesCheck(check.output_matches, tool, result);
  if ("http_status" in check) {
    const wanted = Array.isArray(check.http_status) ? check.http_status : [check.http_status];
    return statusCheck(check.http_status, (s) => wanted.includes(s), wanted.length === 1 ? String(wanted[0]) : `one of ${wanted.join(", ")}`, tool, result);
  }
  return jsonPathCheck(check.json_path, check.equals, tool, result);
}

/** A check that reads only the result (not the workspace: no file_exists), e.g. against an external agent's reported result. */
export function evaluateResultCheck(check: Exclude<EvidenceCheck, { file_exists: string }>, tool: ToolName, result: ToolResult): EvidenceRecord {
  return evaluateCheck(check, tool, result, "") as EvidenceRecord;
}

/** The check a tool gets when its step declares no evidence. */
function defaultEvidence(tool: ToolName, result: ToolResult): EvidenceRecord {
  switch (tool) {
    case "shell":
      return exitCodeCheck(0, tool, result);
    case "http":
      return statusCheck("200-299", (s) => s >= 200 && s <= 299, "a 2xx status", tool, result);
    case "file":
      return record("completed", true, result.ok, result.ok, () => `expected the file operation to complete but it failed: ${result.ok ? "" : result.error.message}`);
    case "llm":
      return record("completed", true, result.ok, result.ok, () => `expected the LLM call to complete but it failed: ${result.ok ? "" : result.error.message}`);
  }
}

/** Evaluate the step's evidence (or its tool's default check) against a tool result. Never throws for a failed check. */
export async function evaluateEvidence(step: Pick<StepDefinition, "tool" | "evidence">, result: ToolResult, ctx: { workspace: string }): Promise<EvidenceRecord[]> {
  if (!step.evidence?.length) return [defaultEvidence(step.tool, result)];
  return Promise.all(step.evidence.map((check) => evaluateCheck(check, step.tool, result, ctx.workspace)));
}

/** True when there is evidence and every check passed. */
export function evidencePassed(records: readonly EvidenceRecord[]): boolean {
  return records.length > 0 && records.every((r) => r.passed);
}

function describeOne(r: EvidenceRecord): string {
  return `${r.check} ${r.detail ?? `expected ${show(r.expected)} but got ${show(r.actual)}`}`;
}

/** One sentence explaining which evidence failed, e.g. 'Evidence check failed: output_matches expected /^ready/ but the output was "booting…"'. */
export function describeFailedEvidence(records: readonly EvidenceRecord[]): string {
  if (records.length === 0) return "No evidence was recorded for this step, so it cannot count as done.";
  const failed = records.filter((r) => !r.passed);
  if (failed.length === 0) return "All evidence checks passed.";
  if (failed.length === 1) return `Evidence check failed: ${describeOne(failed[0])}`;
  return `${failed.length} evidence checks failed: ${failed.map(describeOne).join("; ")}`;
}
