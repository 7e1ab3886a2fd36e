import { describe, expect, it } from "vitest";
import { diagnosisSchema } from "../lib/diagnosis";
import { DIAGNOSE_EXIT, runDiagnoseCommand } from "./diagnose-command";

const input = (stderr: string, code = 1) => ({ failure: { tool: "shell", args: { command: "bash" }, error: { message: `exit ${code}`, code, stderr } } });

function run(text: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = runDiagnoseCommand(text, (l) => out.push(l), (l) => err.push(l));
  return { code, out: out.map((l) => diagnosisSchema.parse(JSON.parse(l))), err };
}

describe("faultline diagnose", () => {
  it("reads one pretty-printed Input Context and prints one diagnosis line", () => {
    const r = run(JSON.stringify(input("bash: line 1: helm: command not found", 127), null, 2));
    expect(r.code).toBe(DIAGNOSE_EXIT.OK);
    expect(r.err).toEqual([]);
    expect(r.out).toHaveLength(1);
    expect(r.out[0].errorClassification.type).toBe("command_not_found");
  });

  it("reads JSON Lines and answers in order", () => {
    const text = [input("bash: line 1: helm: command not found", 127), input("ModuleNotFoundError: No module named 'yaml'"), input("ls: unrecognized option '--x'", 2)].map((i) => JSON.stringify(i)).join("\n");
    const r = run(`${text}\n`);
    expect(r.code).toBe(0);
    expect(r.out.map((d) => d.errorClassification.type)).toEqual(["command_not_found", "environment_missing", "invalid_arguments"]);
  });

  it("reports a malformed line by its number and still diagnoses the others", () => {
    const good = JSON.stringify(input("bash: line 1: helm: command not found", 127));
    const r = run([good, "{not json", "", JSON.stringify({ failure: { tool: "shell" } }), good].join("\n"));
    expect(r.out).toHaveLength(2);
    expect(r.err[0]).toMatch(/^diagnose: line 2: not valid JSON/);
    expect(r.err[1]).toMatch(/^diagnose: line 4: not an input context: failure\.error: /);
    expect(r.err.at(-1)).toMatch(/2 of 4 inputs could not be read/);
    expect(r.code).toBe(DIAGNOSE_EXIT.OK);
  });

  it("a malformed first line does not hide the rest", () => {
    const r = run(["{oops", JSON.stringify(input("bash: line 1: helm: command not found", 127))].join("\n"));
    expect(r.err[0]).toMatch(/line 1/);
    expect(r.out).toHaveLength(1);
  });

  it("empty input is a usage error", () => {
    expect(run("  \n").code).toBe(DIAGNOSE_EXIT.USAGE);
  });
});
