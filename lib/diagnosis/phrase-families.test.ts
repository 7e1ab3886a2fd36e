import { describe, expect, it } from "vitest";
import { calibratedConfidence, UNKNOWN_PROBABILITY } from "./calibration";
import { classify } from "./classify";
import { HAND_WORDINGS, type HandWording } from "./hand-wordings";
import { inputContextSchema, type ErrorType } from "./types";

/**
 * The phrase families added for real-world outputs (issue 18), each exercised with wordings written by hand
 * (lib/diagnosis/hand-wordings.ts, also training cases of the lexical model), not taken from bench/diagnosis-world.jsonl:
 * a family must recognise the idea, not a sentence. The guards below are wordings a family must not read.
 */
function typeOf(tool: string, error: Record<string, unknown>, args: Record<string, unknown> = {}): string {
  return classify(inputContextSchema.parse({ failure: { tool, args, error } })).type;
}
const shell = (cmd: string, stderr: string, code = 1) => typeOf("shell", { message: `"${cmd}" exited with code ${code}`, code, stderr }, { command: cmd });
const framework = (tool: string, text: string) => typeOf(tool, { message: text, stderr: text });
/** A group of hand-written wordings as it.each rows: expected type, title, the diagnosed type. */
const asCases = (group: readonly HandWording[]): Array<[ErrorType, string, () => string]> => group.map((w) => [w.label, w.name, () => classify(w.input).type]);

const cases = asCases(HAND_WORDINGS.realWorld);

describe("phrase families for real-world failures", () => {
  it.each(cases)("%s: %s", (expected, _name, run) => {
    expect(run()).toBe(expected);
  });

  it("a tool that exists but is refused is never tool_not_found", () => {
    expect(framework("Bash", "Permission to use Bash has been denied by the administrator's settings")).toBe("permission_denied");
    expect(framework("exec_command", "exec_command rejected: blocked by the workspace policy")).toBe("permission_denied");
  });

  it("words next to 'tool' that are not about a missing tool stay out of the family", () => {
    expect(shell("npm", "npm ERR! Tool call error argument 'x' is invalid")).not.toBe("tool_not_found");
  });

  it("a file named with a directory or an extension is a path, not a program (batch 6)", () => {
    expect(shell("python3", "FileNotFoundError: [Errno 2] No such file or directory: 'config/settings.yaml'")).not.toBe("command_not_found");
  });

  it("an HTTP 404 is not a missing setting, and a malformed tool name in a request is not a missing tool (batch 6)", () => {
    expect(shell("curl", "HTTP/1.1 404 Not Found")).not.toBe("environment_missing");
    expect(framework("http", "Error: 400 Invalid 'tools[0].function.name': string does not match pattern")).not.toBe("tool_not_found");
  });

  it("PowerShell's CommandNotFoundException is a missing program, not a missing runner task", () => {
    expect(shell("pwsh", "terraformm : The term 'terraformm' is not recognized as the name of a cmdlet, function, script file, or operable program.\n    + CategoryInfo          : ObjectNotFound: (terraformm:String) [], CommandNotFoundException")).toBe("command_not_found");
  });

  it("an error field's key must be a word of its own: KeyError: 'REQUEST_TIMEOUT' names a variable, not a status", () => {
    expect(shell("python3", "Traceback (most recent call last):\n  File \"<frozen os>\", line 679, in __getitem__\nKeyError: 'RETRY_TIMEOUT'")).toBe("environment_missing");
  });

  it("running longer than a maximum time is a time limit, not a size limit", () => {
    expect(framework("ci_job", "The job ran longer than the maximum time allowed and was stopped.")).toBe("timeout");
    expect(shell("psql", "ERROR: canceling statement: it took longer than the maximum duration")).not.toBe("output_too_large");
  });

  it("cmd's 'not recognized as an internal or external command' stays a missing program, not an unrecognised tool", () => {
    expect(shell("node", "'node' is not recognized as an internal or external command,\noperable program or batch file.")).toBe("command_not_found");
  });

  it("a KeyError that is not a lookup in a tool table is not a missing tool", () => {
    expect(framework("summarise", "Traceback (most recent call last):\n  File \"s.py\", line 3, in run\n    v = row['title']\nKeyError: 'title'")).not.toBe("tool_not_found");
  });

  it("too many tokens for the context is a size limit; too many tokens per minute is a rate limit", () => {
    expect(framework("llm", "Request has too many tokens for the model's context window")).toBe("output_too_large");
    expect(framework("llm", "429: too many tokens per minute for this organisation")).toBe("rate_limited");
  });
});

describe("families written from batch 7's tuning half (hand-written wordings)", () => {
  const batch7 = asCases(HAND_WORDINGS.batch7);
  it.each(batch7)("%s: %s", (expected, _name, run) => {
    expect(run()).toBe(expected);
  });

  it("a data file named in the arguments that does not exist stays a wrong argument", () => {
    expect(typeOf("shell", { message: "\"node\" exited with code 1", code: 1, stderr: "Error: ENOENT: no such file or directory, open 'config.json'" }, { command: "node", args: ["load.js", "config.json"] })).toBe("invalid_arguments");
  });

  it("a weak wrong-argument answer yields to the words when they clearly name another type", () => {
    // make runs a compose binary that is not there: the path in the output is not one the call named
    const input = { command: "make", args: ["up"] };
    const text = "docker-compose: /usr/local/bin/docker-compose: No such file or directory";
    expect(classify(inputContextSchema.parse({ failure: { tool: "shell", args: input, error: { message: '"make" exited with code 1', code: 1, stderr: text } } }), { lexical: false }).type).toBe("invalid_arguments");
    const withWords = classify(inputContextSchema.parse({ failure: { tool: "shell", args: input, error: { message: '"make" exited with code 1', code: 1, stderr: text } } }));
    expect(withWords.type).toBe("command_not_found");
    expect(withWords.evidence[0].source).toBe("lexical");
  });

  it("but not against a 404 answered to the call's address, nor a path the call names", () => {
    const stderr = "Traceback (most recent call last):\n  File \"<string>\", line 2, in <module>\n    return opener.open(url, data, timeout)\nurllib.error.HTTPError: HTTP Error 404: Not Found";
    expect(typeOf("shell", { message: "\"python3\" exited with code 1", code: 1, stderr }, { command: "python3", args: ["-c", "urllib.request.urlopen(url, timeout=10)"] })).toBe("invalid_arguments");
    expect(typeOf("shell", { message: "\"git\" exited with code 128", code: 128, stderr: "fatal: repository '/srv/repos/nope' does not exist" }, { command: "git", args: ["clone", "/srv/repos/nope"] })).toBe("invalid_arguments");
  });

  it("a library named 'not found, install' is not a missing program", () => {
    expect(shell("python", "libsndfile not found. Please install libsndfile")).not.toBe("command_not_found");
  });
});

describe("families written from batch 8's tuning half (hand-written wordings)", () => {
  const batch8 = asCases(HAND_WORDINGS.batch8);
  it.each(batch8)("%s: %s", (expected, _name, run) => {
    expect(run()).toBe(expected);
  });

  it("a language rule that something is not allowed in a place is not a policy refusal", () => {
    expect(shell("node", "SyntaxError: 'await' is not allowed in this context")).not.toBe("permission_denied");
    expect(shell("tsc", "error TS1308: 'await' expressions are only allowed within async functions")).not.toBe("permission_denied");
  });

  it("a value that is empty, said without a field path, is not read as a request field", () => {
    const r = classify(inputContextSchema.parse({ failure: { tool: "summarize", args: {}, error: { message: "the value is empty, nothing to summarize" } } }), { lexical: false });
    expect(r.type).toBe("unknown");
  });
});

describe("calibratedConfidence", () => {
  it("is monotone, capped, and leaves unknown low", () => {
    const xs = [0, 0.1, 0.3, 0.5, 0.7, 0.9, 1];
    const ys = xs.map((x) => calibratedConfidence(x));
    for (let i = 1; i < ys.length; i++) expect(ys[i]).toBeGreaterThanOrEqual(ys[i - 1]);
    expect(Math.max(...ys)).toBeLessThanOrEqual(0.97);
    expect(calibratedConfidence(0.2, true)).toBe(UNKNOWN_PROBABILITY);
    expect(UNKNOWN_PROBABILITY).toBeLessThan(0.05);
  });
});

describe("families found by probing the rules with wordings written for it (issue 18, after batch 8)", () => {
  // Written by hand to test whether the rules carry the idea; none comes from bench/diagnosis-world.jsonl.
  const probes = asCases(HAND_WORDINGS.probingRules);
  it.each(probes)("%s: %s", (expected, _name, run) => {
    expect(run()).toBe(expected);
  });

  const rules = (tool: string, text: string) =>
    classify(inputContextSchema.parse({ failure: { tool, args: {}, error: { message: text, stderr: text } } }), { lexical: false });

  it("a call refused by a server, a network or a mailbox is not a person's refusal", () => {
    for (const text of ["Connection refused by the server at 10.0.0.4:5432", "message rejected by the recipient's mailbox: over quota", "packet blocked by the user's firewall"]) {
      expect(rules("client", text).evidence.map((e) => e.rule)).not.toContain("refused_by_person");
    }
  });

  it("JavaScript's 'is not a function' is a bug in code, not a missing tool", () => {
    const r = rules("node", "TypeError: items.map is not a function");
    expect(r.type).not.toBe("tool_not_found");
    expect(r.evidence.map((e) => e.rule)).not.toContain("not_a_tool_of");
  });

  it("a program, tool or module named in quotes and not found is not an API object", () => {
    for (const text of ["bash: command 'kubectl' not found", "tool 'calc' not found", "module 'yaml' not found"]) {
      expect(rules("shell", text).evidence.map((e) => e.rule)).not.toContain("named_object_not_found");
    }
  });

  it("a file that does not contain a value is not a runner without a task", () => {
    expect(rules("shell", "error: config.yaml does not contain a valid version field").evidence.map((e) => e.rule)).not.toContain("runner_file_lacks_task");
  });
});

describe("families written from batch 9's tuning half (hand-written wordings, other products)", () => {
  const cases = asCases(HAND_WORDINGS.batch9);
  it.each(cases)("%s: %s", (expected, _name, run) => {
    expect(run()).toBe(expected);
  });

  const rules = (tool: string, text: string) =>
    classify(inputContextSchema.parse({ failure: { tool, args: {}, error: { message: text, stderr: text } } }), { lexical: false });

  it("a GraphQL schema's unknown directive is not a server's configuration", () => {
    const ids = rules("graphql", 'Unknown directive "@cached".').evidence.map((e) => e.rule);
    expect(ids).not.toContain("directive_module_missing");
    expect(ids).not.toContain("directive_not_configuration");
  });

  it("HTTP's Method Not Allowed is not a server without the method", () => {
    expect(rules("web", "405 Method Not Allowed").evidence.map((e) => e.rule)).not.toContain("rpc_method_not_found");
  });

  it("a program's repository or image not found is not the program missing", () => {
    for (const text of ["Error: could not find docker image 'web:1'", "fatal: could not find git repository at /srv/x"]) {
      expect(rules("shell", text).evidence.map((e) => e.rule)).not.toContain("known_program_not_installed");
    }
  });
});

describe("families found by probing the weak types with hand-written wordings (issue 18, after batch 9)", () => {
  // Written by hand for environment_missing, tool_not_found, command_not_found, invalid_arguments, output_too_large, syntax_error
  // and their neighbours; none comes from bench/diagnosis-world.jsonl. Round 1 was written before the rules it led to, round 2 after
  // them as a check (docs/diagnosis-benchmark.md, "Probing the weak types").
  const withArgs = (cmd: string, args: string[], stderr: string, code = 1) =>
    typeOf("shell", { message: `"${cmd}" exited with code ${code}: ${stderr.split("\n").pop()}`, code, stderr }, { command: cmd, args });
  const round1 = asCases(HAND_WORDINGS.probeRound1);
  const round2 = asCases(HAND_WORDINGS.probeRound2);
  // Round 3: written after the rules of rounds 1 and 2 (b2129a5), before the rules it led to.
  const round3 = asCases(HAND_WORDINGS.probeRound3);
  // Round 4: written after round 3's rules (b1dcc95), before the rules it led to; the four it still misses are listed in the docs.
  const round4 = asCases(HAND_WORDINGS.probeRound4);
  // Round 5: near neighbours (where a rule of the next type could fire), written after c4d81a5.
  const round5 = asCases(HAND_WORDINGS.probeRound5);
  it.each(round1)("round 1, %s: %s", (expected, _name, run) => {
    expect(run()).toBe(expected);
  });
  it.each(round2)("round 2, %s: %s", (expected, _name, run) => {
    expect(run()).toBe(expected);
  });
  it.each(round3)("round 3, %s: %s", (expected, _name, run) => {
    expect(run()).toBe(expected);
  });
  it.each(round4)("round 4, %s: %s", (expected, _name, run) => {
    expect(run()).toBe(expected);
  });
  it.each(round5)("round 5, %s: %s", (expected, _name, run) => {
    expect(run()).toBe(expected);
  });
  it.each(asCases(HAND_WORDINGS.probeRound6))("round 6, %s: %s", (expected, _name, run) => {
    expect(run()).toBe(expected);
  });

  it("a configuration file the call itself names stays a wrong argument", () => {
    expect(withArgs("app", ["--config", "config/staging.json"], "Error: ENOENT: no such file or directory, open 'config/staging.json'")).toBe("invalid_arguments");
  });

  const rules = (tool: string, text: string) =>
    classify(inputContextSchema.parse({ failure: { tool, args: {}, error: { message: text, stderr: text } } }), { lexical: false });
  const ruleIds = (text: string) => rules("shell", text).evidence.map((e) => e.rule);

  it("a tool off an allowlist is refused, not missing, whatever sits between 'allowed' and 'list'", () => {
    const r = rules("Bash", "Tool 'Bash' is not in the allowed tools list for this session");
    expect(r.type).toBe("permission_denied");
    expect(r.evidence.map((e) => e.rule)).not.toContain("not_among_holder_tools");
  });

  it("a code's undefined upper-case name is not a missing setting", () => {
    expect(ruleIds("ReferenceError: API_URL is not defined")).not.toContain("setting_name_empty");
  });

  it("a per-minute token budget and a time are not stated sizes", () => {
    expect(rules("llm", "Error 429: Request exceeded 30000 tokens per minute for this organization").type).toBe("rate_limited");
    expect(ruleIds("Failed: the test ran longer than 300 seconds")).not.toContain("stated_size_exceeded");
  });

  it("failing to download a model is the network's failure, not a download never done", () => {
    expect(ruleIds("requests.exceptions.ConnectionError: failed to download the model weights: Connection refused")).not.toContain("download_never_done");
  });

  it("a value outside a set stays an argument; a parser's expected punctuation is syntax", () => {
    expect(ruleIds("error: expected one of: json, yaml; found 'xml'")).not.toContain("parser_expected_found");
    expect(ruleIds("error: expected one of `,`, `:`, or `}`, found `=`")).not.toContain("value_not_in_set");
  });

  it("a shell test's 'too many arguments' is not an argument parser's complaint", () => {
    expect(ruleIds("deploy.sh: line 4: [: too many arguments")).not.toContain("parser_argument_error");
  });

  it("a count of rows with no limit stated is not a size limit, and too many open files is not output", () => {
    expect(ruleIds("imported over 10000 rows in 3 s")).not.toContain("stated_size_exceeded");
    expect(ruleIds("OSError: [Errno 24] Too many open files")).not.toContain("stated_size_exceeded");
  });

  it("a runner's own command without an install hint stays a missing task", () => {
    expect(rules("console", 'Error: Command "cache:warm-all" not found').type).toBe("tool_not_found");
  });

  it("a field's value that does not parse is an argument; a file that does not parse stays syntax", () => {
    expect(ruleIds("failed to parse field [age] of type [long]")).not.toContain("parse_failed");
    expect(ruleIds("Error: failed to parse the config file: unexpected '}'")).toContain("parse_failed");
  });

  it("a size that must lie between bounds is a size limit, any other value between bounds an argument", () => {
    expect(ruleIds("Size must be between 0 and 16793600")).not.toContain("value_out_of_range");
    expect(ruleIds("temperature must be between 0 and 2")).toContain("value_out_of_range");
  });

  it("a package or library named after a program is not the program missing", () => {
    expect(ruleIds("Package openssl was not found in the pkg-config search path.")).not.toContain("known_program_not_installed");
  });
  it("round 6's families stay out of their neighbours' wordings", () => {
    // a data format, a credential or a terminal is no identifier of a kind
    for (const text of ["Invalid JSON: unexpected end of input", "Invalid API key: check your settings", "the input device is not a TTY"]) {
      expect(ruleIds(text)).not.toContain("malformed_identifier");
    }
    // sizes stay sizes
    for (const text of ["payload exceeds the maximum of 100 MB", "prompt exceeds the maximum 4096 tokens"]) {
      expect(ruleIds(text)).not.toContain("quantity_beyond_limit");
    }
    // requests and open files are rate limits and resources, not a count setting
    for (const text of ["429 Too Many Requests: max_request_count reached", "too many open files (max files count 1024)"]) {
      expect(ruleIds(text)).not.toContain("count_setting_exceeded");
    }
    // a library or a package not found on a path is no program
    for (const text of ["libcuda.so is not found in the library path", "Package foo was not found in the pkg-config search path", "opencv_java is not found in the library path"]) {
      expect(ruleIds(text)).not.toContain("program_cannot_start");
    }
    // Erlang's :enoent of a file read is no program
    expect(ruleIds("** (File.Error) could not read file \"config.json\": no such file or directory\n    (elixir) lib/file.ex:358: File.read!/1 :enoent")).not.toContain("erlang_spawn_enoent");
    expect(ruleIds("could not find an option for this platform")).not.toContain("option_not_found");
  });
});

describe("codes defined by a standard (lib/diagnosis/standard-codes.ts)", () => {
  it.each(asCases(HAND_WORDINGS.standardCodes))("%s: %s", (expected, _name, diagnose) => {
    expect(diagnose()).toBe(expected);
  });
});

describe("'not a valid' and 'malformed' alone do not decide (first sight, batches 2–9)", () => {
  it.each(asCases(HAND_WORDINGS.adjectiveOnly))("%s: %s", (expected, _name, diagnose) => {
    expect(diagnose()).toBe(expected);
  });

  it("the adjective alone is a weak answer; with an argument's noun it is grounded", () => {
    const read = (text: string) => classify(inputContextSchema.parse({ failure: { tool: "cli", args: {}, error: { message: text, stderr: text } } }), { lexical: false });
    const alone = read("error: the manifest is malformed");
    expect(alone.type).toBe("invalid_arguments");
    expect(alone.grounded).toBe(false);
    expect(read("error: 'abc' is not a valid port number").grounded).toBe(true);
  });
});

describe("families written from batch 10's tuning half", () => {
  it.each(asCases(HAND_WORDINGS.batch10))("%s: %s", (expected, _name, diagnose) => {
    expect(diagnose()).toBe(expected);
  });

  it("a syntax error elsewhere does not make a subcommand or a tool missing, and 'no approval required' is no refusal", () => {
    const read = (text: string) => classify(inputContextSchema.parse({ failure: { tool: "cli", args: {}, error: { message: text, stderr: text } } }), { lexical: false });
    // only a runner's missing task gives way to a syntax error; the subcommand's evidence keeps its weight
    expect(read("error: unexpected argument 'publish' found\n\nUsage: tool [OPTIONS] <COMMAND>\nSyntaxError: Unexpected token").scores.tool_not_found).toBeGreaterThanOrEqual(0.9);
    expect(read("info: no approval required for this change; merged").evidence.map((e) => e.rule)).not.toContain("approval_required");
    expect(read("could not find a runtime config file at ./runtimeconfig.json").evidence.map((e) => e.rule)).not.toContain("runtime_unavailable");
  });
});

describe("a program of any name, called a program, is not installed (2026-11-28)", () => {
  it.each(asCases(HAND_WORDINGS.programNotInstalled))("%s: %s", (expected, _name, diagnose) => {
    expect(diagnose()).toBe(expected);
  });

  it("a module, package, library, plugin or browser, and a bare 'is not installed', are not a program missing", () => {
    const ids = (text: string) => classify(inputContextSchema.parse({ failure: { tool: "cli", args: {}, error: { message: text, stderr: text } } }), { lexical: false }).evidence.map((e) => e.rule);
    for (const text of [
      "ImportError: the module pandas is not installed",
      "the numpy package is not installed in this environment",
      "Error: libxml2 library is not installed",
      "the docker-compose plugin is not installed",
      "the firefox executable is not installed",
      "the executable is not installed",
      "ruby 3.3.0 is not installed",
    ]) {
      expect(ids(text)).not.toContain("program_missing_named");
      expect(ids(text)).not.toContain("known_program_not_installed");
    }
  });
});

describe("tried as a user, beyond the corpus (2026-11-28): a target that names many things, a daemon one cannot connect to", () => {
  it("a locator or single-row query that matched more than one thing is a wrong argument, whatever the library", () => {
    expect(framework("playwright", "Error: locator.click: Error: strict mode violation: getByRole('button', { name: 'Save' }) resolved to 2 elements:")).toBe("invalid_arguments");
    expect(framework("jest", "TestingLibraryElementError: Found multiple elements with the role \"button\" and name `Submit`")).toBe("invalid_arguments");
    expect(framework("cypress", "CypressError: `cy.click()` can only be called on a single element. Your subject contained 3 elements.")).toBe("invalid_arguments");
    expect(framework("django_shell", "users.models.User.MultipleObjectsReturned: get() returned more than one User -- it returned 2!")).toBe("invalid_arguments");
    expect(framework("python", "sqlalchemy.exc.MultipleResultsFound: Multiple rows were found when exactly one was required")).toBe("invalid_arguments");
  });

  it("'cannot / unable to connect' is a connection that failed; a display one cannot connect to stays a missing display", () => {
    expect(shell("docker", "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?")).toBe("network_error");
    expect(shell("redis-cli", "Could not connect to Redis at 127.0.0.1:6379: Connection refused")).toBe("network_error");
    expect(framework("mongo", "Unable to connect to the MongoDB server at 10.0.0.9:27017")).toBe("network_error");
    expect(shell("xclock", "Error: Can't connect to display :0")).toBe("environment_missing");
  });

  it("an agent's edit tool that cannot apply the edit its arguments describe is a wrong argument, never a missing tool", () => {
    expect(framework("Edit", "<tool_use_error>String to replace not found in file.\nString: const x = 1;</tool_use_error>")).toBe("invalid_arguments");
    expect(framework("Write", "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>")).toBe("invalid_arguments");
    expect(framework("str_replace_based_edit_tool", "No replacement was performed, old_str `foo()` did not appear verbatim in /repo/app.py.")).toBe("invalid_arguments");
    expect(framework("str_replace_based_edit_tool", "No replacement was performed. Multiple occurrences of old_str `return x` in lines [12, 40]. Please ensure it is unique")).toBe("invalid_arguments");
    expect(framework("apply_patch", 'Failed to find expected lines ["def main():"] in src/app.py')).toBe("invalid_arguments");
    expect(framework("aider", "SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in src/app.py")).toBe("invalid_arguments");
    expect(shell("git", "error: patch failed: src/app.py:12\nerror: src/app.py: patch does not apply")).toBe("invalid_arguments");
    // a patch that is not in the format the tool reads is malformed input, as invalid JSON input is
    expect(framework("apply_patch", "Invalid patch: The first line of the patch must be '*** Begin Patch'")).toBe("syntax_error");
    expect(framework("cursor", "Error: The file /src/x.ts could not be found in the workspace")).toBe("invalid_arguments");
  });

  it("an HTTP status in parentheses is read as the status ('Non-200 status code (502)')", () => {
    expect(framework("mcp", "Error: SSE error: Non-200 status code (502)")).toBe("network_error");
    expect(framework("mcp", "Error: SSE error: Non-200 status code (401)")).toBe("permission_denied");
  });

  it("a compiler that expected a punctuation token is a syntax error, in C#, TypeScript, Java and GCC words", () => {
    expect(shell("dotnet", "Program.cs(12,5): error CS1002: ; expected")).toBe("syntax_error");
    expect(shell("dotnet", "Program.cs(30,1): error CS1513: } expected")).toBe("syntax_error");
    expect(shell("tsc", "src/app.ts(4,10): error TS1005: ';' expected.")).toBe("syntax_error");
    expect(shell("gcc", "main.c:5:1: error: expected ';' before '}' token")).toBe("syntax_error");
  });

  it("guards: one element, one row, a found match, and 'cannot connect' to something that is not a service", () => {
    const read = (text: string) => classify(inputContextSchema.parse({ failure: { tool: "cli", args: {}, error: { message: text, stderr: text } } }), { lexical: false });
    for (const text of ["locator resolved to 1 element", "query returned one row", "found 3 matches in 2 files"]) {
      expect(read(text).evidence.map((e) => e.rule), text).not.toContain("edit_not_applicable");
      expect(read(text).evidence.map((e) => e.rule), text).not.toContain("ambiguous_target");
    }
  });
});
