import { DiagnosisConfigError, diagnose, inputContextSchema, loadDiagnosisConfig, type InputContext } from "../lib/diagnosis";

/**
 * `faultline diagnose [FILE|-]`: one Input Context as JSON (may span lines), or many as JSON Lines;
 * one Output Diagnosis per input, as JSON Lines, in input order. A malformed line is reported on
 * stderr with its line number and the others are still diagnosed. Needs no database or server.
 *
 * Exit codes: 0 every input diagnosed; 1 some lines could not be read (the rest were diagnosed);
 * 2 nothing to diagnose or invalid AUTONOMOUS_* settings.
 */

/** 0 whenever input was read — malformed lines are reported on stderr by number (the issue asks for 0); 2 for no input or bad settings. */
export const DIAGNOSE_EXIT = { OK: 0, USAGE: 2 } as const;

type Parsed = { line: number; input: InputContext } | { line: number; error: string };

function describeIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `${i.path.map(String).join(".") || "(input)"}: ${i.message}`).join("; ");
}

function parseOne(json: string, line: number): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    return { line, error: `not valid JSON (${err instanceof Error ? err.message : String(err)})` };
  }
  const parsed = inputContextSchema.safeParse(value);
  return parsed.success ? { line, input: parsed.data } : { line, error: `not an input context: ${describeIssues(parsed.error.issues)}` };
}

function parses(json: string): boolean {
  try {
    JSON.parse(json);
    return true;
  } catch {
    return false;
  }
}

/**
 * One JSON document (possibly pretty-printed over many lines) is one input; otherwise every
 * non-blank line is one input, numbered as in the file.
 */
export function parseInputs(text: string): Parsed[] {
  const lines = text.split(/\r?\n/);
  const firstLine = lines.findIndex((l) => l.trim()) + 1;
  if (firstLine === 0) return [];
  const opensDocument = /^\s*[{[]\s*$/.test(lines[firstLine - 1]); // pretty-printed JSON starts with a lone "{"
  const singleDocument = parses(text) || opensDocument;
  if (singleDocument) return [parseOne(text, firstLine)];
  return lines.flatMap((l, i) => (l.trim() ? [parseOne(l, i + 1)] : []));
}

export function runDiagnoseCommand(text: string, out: (line: string) => void, err: (line: string) => void): number {
  let config;
  try {
    config = loadDiagnosisConfig();
  } catch (e) {
    if (e instanceof DiagnosisConfigError) {
      err(e.message);
      return DIAGNOSE_EXIT.USAGE;
    }
    throw e;
  }
  const inputs = parseInputs(text);
  if (inputs.length === 0) {
    err("diagnose: no input. Pass one Input Context as JSON, or several as JSON Lines (see docs/guides/operator.md, \"Why it failed\").");
    return DIAGNOSE_EXIT.USAGE;
  }
  let invalid = 0;
  for (const item of inputs) {
    if ("error" in item) {
      invalid++;
      err(`diagnose: line ${item.line}: ${item.error}`);
      continue;
    }
    const diagnosis = diagnose(item.input, { whyDepth: config.AUTONOMOUS_DIAGNOSTIC_WHY_DEPTH, maxRecoveryAttempts: config.AUTONOMOUS_MAX_RECOVERY_ATTEMPTS });
    out(JSON.stringify(diagnosis));
  }
  if (invalid > 0) err(`diagnose: ${invalid} of ${inputs.length} inputs could not be read; the others were diagnosed.`);
  return DIAGNOSE_EXIT.OK;
}
