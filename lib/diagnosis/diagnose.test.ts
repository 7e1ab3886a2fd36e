import { describe, expect, it } from "vitest";
import { analyseFailure, diagnose, patternTrigger, recoveryCandidates } from "./diagnose";
import { RECOVERY_TEMPLATES } from "./templates";
import { DIAGNOSED_TYPES, diagnosisSchema, type InputContextInput } from "./types";

const NOW = Date.parse("2025-10-29T10:35:12.345Z");

function failure(tool: string, args: Record<string, unknown>, error: InputContextInput["failure"]["error"], context: InputContextInput["context"] = {}): InputContextInput {
  return { failure: { tool, args, error }, context: { iteration: 2, availableTools: ["shell", "http", "file"], ...context } };
}

const PYTHON_TRACEBACK = `Traceback (most recent call last):
  File "/work/app/main.py", line 41, in <module>
    run(timeout=30, permission="read")
  File "/work/app/main.py", line 37, in run
    client = make_client()
  File "/work/app/client.py", line 12, in make_client
    key = os.environ["API_KEY"]
          ~~~~~~~~~~^^^^^^^^^^^
  File "<frozen os>", line 679, in __getitem__
KeyError: 'API_KEY'`;

describe("diagnose", () => {
  it("exit 127 is command_not_found, with the missing binary named in why1 and why2", () => {
    const d = diagnose(
      failure("shell", { command: "bash", args: ["-c", "git clone https://github.com/gatewaybuddy/forgekeeper"] }, { message: "Command failed: exit code 127", code: 127, stderr: "bash: line 1: git: command not found\n" }, { taskGoal: "Clone https://github.com/gatewaybuddy/forgekeeper" }),
      { now: NOW },
    );
    expect(d.errorClassification).toEqual({ type: "command_not_found", severity: "recoverable", canRecover: true });
    expect(d.whyChain.why1).toContain("exit code 127");
    expect(d.whyChain.why1).toContain("git clone");
    expect(d.whyChain.why2).toContain("'git'");
    expect(d.rootCause.category).toBe("missing_binary");
    expect(d.recoveryPlan.strategy).toBe("curl_download_and_extract");
    expect(d.recoveryPlan.steps[0]).toMatchObject({ tool: "shell", args: { command: "curl" } });
  });

  it("a buried Python traceback is decided by its last line, not by words in the frames above it", () => {
    const d = diagnose(failure("shell", { command: "python3", args: ["app/main.py"] }, { message: '"python3" exited with code 1', code: 1, stderr: PYTHON_TRACEBACK }), { now: NOW });
    expect(d.errorClassification.type).toBe("environment_missing");
    expect(d.rootCause.category).toBe("missing_env_var");
    expect(d.whyChain.why2).toContain("API_KEY");
    expect(d.errorClassification.severity).toBe("user_action_required");
  });

  it("a 429 with Retry-After is rate_limited and recoverable, and the plan waits as asked", () => {
    const d = diagnose(
      failure("http", { url: "https://api.openai.com/v1/chat/completions", method: "POST" }, {
        message: "POST https://api.openai.com/v1/chat/completions was rate limited (429); the server asks to retry after 20 s.",
        stdout: '{"error":{"message":"Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3, Used 3, Requested 1.","type":"requests","param":null,"code":"rate_limit_exceeded"}}',
        retryAfterMs: 20_000,
      }),
      { now: NOW },
    );
    expect(d.errorClassification).toEqual({ type: "rate_limited", severity: "recoverable", canRecover: true });
    expect(d.recoveryPlan.strategy).toBe("wait_and_retry_after");
    expect(d.recoveryPlan.steps[0]).toMatchObject({ tool: "shell", args: { command: "sleep", args: ["20"] } });
  });

  it("works from raw output alone: the same 429 without status, tool code or Retry-After field", () => {
    const d = diagnose(failure("shell", { command: "curl", args: ["-sS", "--fail-with-body", "https://api.example.com/v1/items"] }, { message: "exit 22", code: 22, stderr: "curl: (22) The requested URL returned error: 429\n" }), { now: NOW });
    expect(d.errorClassification.type).toBe("rate_limited");
  });

  it("is not fooled by misleading words in names: 'timeout' as an argument of a syntax error", () => {
    const stderr = `[eval]:1\nfetch('http://localhost', { timeout: 5 )\n                                      ^\n\nSyntaxError: missing } after property list\n    at makeContextifyScript (node:internal/vm:185:14)\n\nNode.js v20.20.2\n`;
    const d = diagnose(failure("shell", { command: "node", args: ["-e", "fetch('http://localhost', { timeout: 5 )"] }, { message: "exit 1", code: 1, stderr }), { now: NOW });
    expect(d.errorClassification.type).toBe("syntax_error");
  });

  it("is not fooled by 'permission' in a file name", () => {
    const d = diagnose(failure("shell", { command: "cat", args: ["reports/permission_denied_summary.txt"] }, { message: "exit 1", code: 1, stderr: "cat: reports/permission_denied_summary.txt: No such file or directory\n" }), { now: NOW });
    expect(d.errorClassification.type).toBe("invalid_arguments");
  });

  it("a specific statement beats a coarse channel: a 403 whose body says rate limit is rate_limited", () => {
    const d = diagnose(failure("http", { url: "https://api.github.com/repos/o/r" }, { message: "GET … returned 403 Forbidden", status: 403, stdout: '{"message":"API rate limit exceeded for 10.0.0.1."}' }), { now: NOW });
    expect(d.errorClassification.type).toBe("rate_limited");
  });

  it("nothing recognisable is unknown, with low confidence, still with a plan", () => {
    const d = diagnose(failure("shell", { command: "frob" }, { message: "it broke" }), { now: NOW });
    expect(d.errorClassification.type).toBe("unknown");
    expect(d.rootCause.confidence).toBeLessThan(0.5);
    expect(d.alternatives.length).toBeGreaterThanOrEqual(3);
  });

  it.each([1, 3, 5, 7])("the why-chain has exactly whyDepth = %i entries, why1 … whyN", (whyDepth) => {
    const d = diagnose(failure("shell", { command: "gitx" }, { message: "spawn gitx ENOENT", code: 127 }), { now: NOW, whyDepth });
    expect(Object.keys(d.whyChain)).toEqual(Array.from({ length: whyDepth }, (_, i) => `why${i + 1}`));
    expect(new Set(Object.values(d.whyChain)).size).toBe(whyDepth);
  });

  it("is deterministic for the same input, time and id, and satisfies the output schema", () => {
    const input = failure("shell", { command: "gitx" }, { message: "spawn gitx ENOENT", code: 127 });
    const a = diagnose(input, { now: NOW, id: "diag_x" });
    expect(diagnose(input, { now: NOW, id: "diag_x" })).toEqual(a);
    expect(diagnosisSchema.parse(a)).toEqual(a);
    expect(a.timestamp).toBe("2025-10-29T10:35:12.345Z");
    expect(diagnose(input, { now: NOW }).id).toMatch(/^diag_[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it("a failing action repeated beyond AUTONOMOUS_MAX_RECOVERY_ATTEMPTS needs the user", () => {
    const args = { command: "bash", args: ["-c", "helm install app"] };
    const previous = Array.from({ length: 2 }, () => ({ tool: "shell", args, result: "exit 127", success: false }));
    const d = diagnose(failure("shell", args, { message: "exit 127", code: 127, stderr: "bash: line 1: helm: command not found" }, { previousActions: previous }), { now: NOW, maxRecoveryAttempts: 2 });
    expect(d.errorClassification.severity).toBe("user_action_required");
    expect(d.recoveryPlan.strategy).toBe("request_user_setup");
    expect(d.whyChain.why3).toMatch(/repeated/);
  });
});

describe("recovery templates", () => {
  it("every type (and unknown) has a template in the document's form", () => {
    for (const type of DIAGNOSED_TYPES) {
      const t = RECOVERY_TEMPLATES[type];
      expect(t.when, type).toBeTruthy();
      expect(t.then.length, type).toBeGreaterThanOrEqual(3);
    }
  });

  it.each(DIAGNOSED_TYPES)("%s yields at least 3 alternatives and a plan whose steps use real tools", (type) => {
    // Drive each type through evidence that selects it, over every variant a template distinguishes.
    const inputs: Record<string, InputContextInput[]> = {
      tool_not_found: [failure("repo_browser", {}, { message: 'There is no tool named "repo_browser".' }), failure("lookup_weather", {}, { message: "Model tried to call unavailable tool 'lookup_weather'. Available tools: shell, http." })],
      command_not_found: [failure("shell", { command: "helm" }, { message: "spawn helm ENOENT", code: 127 })],
      permission_denied: [
        failure("shell", { command: "touch", args: ["/etc/x"] }, { message: "exit 1", code: 1, stderr: "touch: cannot touch '/etc/x': Permission denied" }),
        failure("shell", { command: "./run.sh" }, { message: "exit 126", code: 126, stderr: "bash: ./run.sh: Permission denied" }),
        failure("http", { url: "https://api.x.dev/v1/a" }, { message: "401", status: 401, stdout: '{"error":{"code":"invalid_api_key","message":"Incorrect API key provided"}}' }),
        failure("file", { op: "read", path: "../x" }, { message: 'The path "../x" escapes the workspace' }),
        failure("shell", { command: "curl" }, { message: '"curl" is not on this mission\'s allowlist (allowed: sh, wget).' }),
        failure("exec", { cmd: "rm -rf build" }, { message: "rm -rf build was rejected: blocked by the sandbox policy" }),
      ],
      invalid_arguments: [failure("shell", { command: "ls", args: ["--nope"] }, { message: "exit 2", code: 2, stderr: "ls: unrecognized option '--nope'" })],
      timeout: [failure("shell", { command: "timeout", args: ["1", "sleep", "9"] }, { message: "exit 124", code: 124 })],
      output_too_large: [
        failure("shell", { command: "yes" }, { message: '"yes" wrote more than 4096 bytes to stdout and was stopped.' }),
        failure("http", { url: "https://api.x.dev/v1/chat", method: "POST" }, { message: "400", status: 400, stdout: '{"error":{"code":"context_length_exceeded","message":"This model\'s maximum context length is 8192 tokens."}}' }),
      ],
      rate_limited: [failure("http", { url: "https://api.x.dev/v1/a" }, { message: "429", status: 429 }), failure("http", { url: "https://api.x.dev/v1/a" }, { message: "429", status: 429, stdout: '{"error":{"code":"insufficient_quota"}}' })],
      network_error: [failure("http", { url: "http://127.0.0.1:9/" }, { message: "connect ECONNREFUSED 127.0.0.1:9" }), failure("http", { url: "https://x.invalid/" }, { message: "getaddrinfo ENOTFOUND x.invalid" })],
      syntax_error: [failure("shell", { command: "python3", args: ["a.py"] }, { message: "exit 1", code: 1, stderr: "  File \"a.py\", line 1\n    def f(:\n          ^\nSyntaxError: invalid syntax" })],
      environment_missing: [
        failure("shell", { command: "python3", args: ["a.py"] }, { message: "exit 1", code: 1, stderr: "ModuleNotFoundError: No module named 'requests'" }),
        failure("shell", { command: "git", args: ["status"] }, { message: "exit 128", code: 128, stderr: "fatal: not a git repository (or any of the parent directories): .git" }),
        failure("shell", { command: "bash", args: ["-c", "echo $X"] }, { message: "exit 1", code: 1, stderr: "bash: line 1: DEPLOY_TARGET: unbound variable" }),
      ],
      unknown: [failure("shell", { command: "frob" }, { message: "it broke" })],
    };
    for (const input of inputs[type]) {
      const d = diagnose(input, { now: NOW });
      expect(d.errorClassification.type).toBe(type);
      expect(d.alternatives.length).toBeGreaterThanOrEqual(3);
      expect(d.recoveryPlan.strategy).toBe(d.alternatives[0].strategy);
      expect(d.recoveryPlan.fallbackChain).toEqual(d.alternatives.slice(1).map((a) => a.strategy));
      for (const step of d.recoveryPlan.steps) expect(["shell", "http", "file", "gate", "retry"]).toContain(step.tool);
      expect(diagnosisSchema.safeParse(d).success).toBe(true);
    }
  });
});

describe("planning for recovery", () => {
  const rateLimited = {
    failure: { tool: "http", args: { url: "http://127.0.0.1:8080/v1/items", method: "GET" }, error: { message: "GET http://127.0.0.1:8080/v1/items was rate limited (429); the server asks to retry after 1 s.", status: 429, retryAfterMs: 1000, toolCode: "RATE_LIMITED" } },
  };

  it("plans a strategy not tried yet, and keeps the tried one among the alternatives", () => {
    const first = diagnose(rateLimited, { now: NOW });
    expect(first.recoveryPlan.strategy).toBe("wait_and_retry_after");
    expect(first.recoveryPlan.steps.map((s) => s.tool)).toEqual(["shell", "retry"]);
    const second = diagnose(rateLimited, { now: NOW, exclude: ["wait_and_retry_after"] });
    expect(second.recoveryPlan.strategy).not.toBe("wait_and_retry_after");
    expect(second.recoveryPlan.fallbackChain).not.toContain("wait_and_retry_after");
    expect(second.alternatives.map((a) => a.strategy)).toContain("wait_and_retry_after");
  });

  it("plans a learned pattern's strategy first when it applies, and ignores one that does not", () => {
    expect(diagnose(rateLimited, { now: NOW, prefer: "reduce_request_rate" }).recoveryPlan.strategy).toBe("reduce_request_rate");
    expect(diagnose(rateLimited, { now: NOW, prefer: "curl_download_and_extract" }).recoveryPlan.strategy).toBe("wait_and_retry_after");
  });

  it("lists candidates with their steps and which ones the orchestrator may apply alone", () => {
    const c = recoveryCandidates(rateLimited);
    expect(c.find((x) => x.strategy === "wait_and_retry_after")).toMatchObject({ auto: true, steps: [{ tool: "shell", args: { command: "sleep", args: ["1"] } }, { tool: "retry" }] });
    expect(c.find((x) => x.strategy === "request_quota_increase")?.auto).toBe(false);
  });

  it("a failure analysed once gives the same diagnoses and candidates as its raw input, and is classified again for other settings", () => {
    const raw = failure("shell", { command: "jq", args: [".a", "x.json"] }, { message: "Command failed: exit code 127", code: 127, stderr: "bash: jq: command not found\n" });
    const once = analyseFailure(raw, { maxRecoveryAttempts: 2 });
    expect(diagnose(once, { now: NOW, id: "diag_x", maxRecoveryAttempts: 2 })).toEqual(diagnose(raw, { now: NOW, id: "diag_x", maxRecoveryAttempts: 2 }));
    const plan = recoveryCandidates(once, { maxRecoveryAttempts: 2 });
    expect(plan).toEqual(recoveryCandidates(raw, { maxRecoveryAttempts: 2 }));
    const other = plan.find((a) => a.strategy !== diagnose(once, { now: NOW, maxRecoveryAttempts: 2 }).recoveryPlan.strategy)!.strategy;
    expect(diagnose(once, { now: NOW, id: "diag_y", maxRecoveryAttempts: 2, prefer: other })).toEqual(diagnose(raw, { now: NOW, id: "diag_y", maxRecoveryAttempts: 2, prefer: other }));
    // Made with other settings: the analysis is not reused, the input is classified again with these.
    expect(diagnose(once, { now: NOW, id: "diag_z", maxRecoveryAttempts: 0 })).toEqual(diagnose(raw, { now: NOW, id: "diag_z", maxRecoveryAttempts: 0 }));
  });

  it("names the learned-pattern trigger without the strategy", () => {
    const d = diagnose(rateLimited, { now: NOW });
    expect(patternTrigger(d)).not.toContain("wait_and_retry_after");
    expect(d.learningOpportunity.pattern).toBe(`${patternTrigger(d)}_use_wait_and_retry_after`);
  });
});
