import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlmServer, type FakeLlmServer } from "../llm/test-server";
import { freeLoopbackPort } from "../net";
import { classify } from "./classify";
import { diagnose } from "./diagnose";
import { checkProposal, parseProposal, proposalSchema, reflectionRequest, reflectWithLlm, type DiagnosisProposal } from "./llm-reflection";
import { DIAGNOSED_TYPES, inputContextSchema, type InputContext, type InputContextInput } from "./types";

const NOW = Date.parse("2025-10-29T10:35:12.345Z");
const CFG = { temperature: 0.2, maxTokens: 1024 };

let srv: FakeLlmServer;
beforeAll(async () => {
  srv = await startFakeLlmServer({ slowMs: 1500 });
});
afterAll(async () => {
  await srv.close();
});

/** The failure, its deterministic diagnosis and its classification, as the caller has them. */
function failureCase(raw: InputContextInput) {
  const input: InputContext = inputContextSchema.parse(raw);
  return { input, det: diagnose(input, { now: NOW, id: "diag_test" }), cls: classify(input) };
}

const GIT_MISSING: InputContextInput = {
  failure: {
    tool: "shell",
    args: { command: "git", args: ["clone", "https://github.com/a/b"] },
    error: { message: "Command failed: exit code 127", code: 127, stderr: "sh: 1: git: not found\n" },
  },
  context: {
    iteration: 2,
    taskGoal: "Clone https://github.com/a/b and run its tests",
    availableTools: ["shell", "http", "file"],
    previousActions: [{ tool: "http", args: { url: "https://github.com/a/b" }, result: "200 OK", success: true }],
  },
};

const PY_SYNTAX: InputContextInput = {
  failure: {
    tool: "shell",
    args: { command: "python3", args: ["app/main.py"] },
    error: {
      message: '"python3" exited with code 1',
      code: 1,
      stderr: ['  File "/work/app/main.py", line 12', "    def run(:", "            ^", "SyntaxError: invalid syntax", ""].join("\n"),
    },
  },
};

function proposal(over: Partial<DiagnosisProposal> = {}): DiagnosisProposal {
  return {
    type: "command_not_found",
    rootCause: { category: "missing_binary", description: "git is not installed in the worker's image, so the shell cannot run it.", confidence: 0.9 },
    whyChain: ["git clone failed with exit code 127", "sh could not find git on PATH", "the image has no git", "the agent assumed git exists", "no capability check before cloning"],
    citedLines: ["sh: 1: git: not found"],
    recoveryStrategy: "curl_download_and_extract",
    ...over,
  };
}

const reply = (p: unknown) => JSON.stringify(p);

describe("proposalSchema and parseProposal", () => {
  it("accepts a plain JSON proposal", () => {
    const r = parseProposal(reply(proposal()));
    expect(r).toEqual({ ok: true, proposal: proposal() });
  });

  it("tolerates a ```json fenced block with prose around it", () => {
    const text = `Here is my diagnosis:\n\n\`\`\`json\n${JSON.stringify(proposal(), null, 2)}\n\`\`\`\nHope this helps.`;
    const r = parseProposal(text);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.proposal.type).toBe("command_not_found");
    // a fence without a language tag too
    expect(parseProposal(`\`\`\`\n${reply(proposal())}\n\`\`\``).ok).toBe(true);
  });

  it("tolerates text around a single JSON object (braces inside strings do not confuse it)", () => {
    const p = proposal({ whyChain: ["the shell printed {not a brace problem}"] });
    const r = parseProposal(`Diagnosis follows. ${reply(p)} -- end`);
    expect(r).toEqual({ ok: true, proposal: p });
  });

  it("says 'not JSON' when there is no object, or more than one", () => {
    const a = parseProposal("The failure is a missing git binary.");
    expect(a).toMatchObject({ ok: false, reason: expect.stringMatching(/^not JSON: .*no JSON object found/) });
    const b = parseProposal(`${reply(proposal())}\n${reply(proposal({ type: "timeout" }))}`);
    expect(b).toMatchObject({ ok: false, reason: expect.stringMatching(/^not JSON: .*2 JSON objects/) });
    expect(parseProposal("   ")).toEqual({ ok: false, reason: "not JSON: the reply is empty" });
    expect(parseProposal("```json\n{\"type\": \n```")).toMatchObject({ ok: false, reason: expect.stringMatching(/^not JSON: the fenced block does not parse/) });
    expect(parseProposal("[1,2]")).toMatchObject({ ok: false, reason: "not a JSON object: the reply is an array" });
  });

  it("names the field of every schema problem with its path", () => {
    const { whyChain: _w, ...noWhys } = proposal();
    expect(parseProposal(reply(noWhys))).toMatchObject({ ok: false, reason: expect.stringMatching(/^field whyChain: /) });
    const r = parseProposal(reply({ ...proposal(), type: "disk_full", rootCause: { ...proposal().rootCause, confidence: 1.5 }, citedLines: ["x".repeat(301)] }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.reason).toContain("field type: ");
    expect(r.reason).toContain("field rootCause.confidence: ");
    expect(r.reason).toContain("field citedLines[0]: ");
    expect(parseProposal(reply({ ...proposal(), whyChain: [] }))).toMatchObject({ ok: false, reason: expect.stringMatching(/^field whyChain: /) });
    expect(parseProposal(reply({ ...proposal(), citedLines: ["a", "b", "c", "d", "e", "f"] }))).toMatchObject({ ok: false, reason: expect.stringMatching(/^field citedLines: /) });
  });

  it("allows every diagnosed type, recoveryStrategy optional", () => {
    for (const t of DIAGNOSED_TYPES) expect(proposalSchema.safeParse({ ...proposal({ type: t }) }).success).toBe(true);
    const { recoveryStrategy: _r, ...noStrategy } = proposal();
    expect(proposalSchema.safeParse(noStrategy).success).toBe(true);
  });
});

describe("reflectionRequest", () => {
  it("states the taxonomy and the JSON shape, shows the failure and context, not the deterministic diagnosis", () => {
    const { input, det } = failureCase(GIT_MISSING);
    const req = reflectionRequest(input, det, { temperature: 0.3, maxTokens: 700 });
    expect(req).toMatchObject({ temperature: 0.3, maxTokens: 700, json: true });
    const [system, user] = req.messages;
    expect(system.role).toBe("system");
    for (const t of DIAGNOSED_TYPES) expect(system.content).toContain(`- ${t}: `);
    expect(system.content).toMatch(/quote decisive lines verbatim/i);
    for (const field of ['"type"', '"rootCause"', '"category"', '"confidence"', '"whyChain"', '"citedLines"', '"recoveryStrategy"']) expect(system.content).toContain(field);
    expect(user.role).toBe("user");
    expect(user.content).toContain("tool: shell");
    expect(user.content).toContain('"clone","https://github.com/a/b"');
    expect(user.content).toContain("Command failed: exit code 127");
    expect(user.content).toContain("exit code: 127");
    expect(user.content).toContain("signal: (none)");
    expect(user.content).toContain("sh: 1: git: not found");
    expect(user.content).toContain("goal: Clone https://github.com/a/b and run its tests");
    expect(user.content).toContain("iteration: 2");
    expect(user.content).toMatch(/- http \{"url":"https:\/\/github.com\/a\/b"\} → succeeded: 200 OK/);
    // independent judgement: none of the deterministic conclusions is shown
    const all = req.messages.map((m) => m.content).join("\n");
    expect(all).not.toContain(det.recoveryPlan.strategy);
    expect(all).not.toContain(det.whyChain.why2);
    expect(all).not.toContain(det.rootCause.category);
  });

  it("stays under 6,000 characters for large outputs, keeping the end of stderr and stdout", () => {
    const stderr = Array.from({ length: 5000 }, (_, i) => `npm error line ${i}: ${"x".repeat(i % 7 === 0 ? 900 : 80)}`).join("\n") + "\nnpm error code ENOSPC\n";
    const stdout = Array.from({ length: 3000 }, (_, i) => `progress ${i} ${"y".repeat(120)}`).join("\n");
    const { input, det } = failureCase({
      failure: { tool: "shell", args: { command: "npm", args: ["install", ..."abcdefghij".repeat(80).split("")] }, error: { message: `Command failed: npm install\n${"z".repeat(5000)}`, code: 1, stderr, stdout } },
      context: { taskGoal: "g".repeat(5000), previousActions: Array.from({ length: 20 }, (_, i) => ({ tool: "shell", args: { command: "npm", n: i, pad: "p".repeat(500) }, result: "r".repeat(2000), success: false })) },
    });
    const req = reflectionRequest(input, det, CFG);
    const total = req.messages.reduce((n, m) => n + (m.content?.length ?? 0), 0);
    expect(total).toBeLessThan(6000);
    const user = req.messages[1].content ?? "";
    expect(user).toContain("npm error code ENOSPC");
    expect(user).toContain("progress 2999 ");
    expect(user).not.toContain("npm error line 0:");
    expect(user).toMatch(/\[… \d+ earlier lines not shown\]/);
    expect((user.match(/^- shell /gm) ?? []).length).toBe(3); // the last three actions

    // pathological: every field at its longest
    const long = (c: string) => c.repeat(3000);
    const worst = failureCase({
      failure: { tool: long("t"), args: { a: long("a") }, error: { message: Array(50).fill(long("m")).join("\n"), code: 1, signal: long("S"), errno: `E${long("X")}`, toolCode: long("C"), status: 500, stderr: Array(200).fill(long("e")).join("\n"), stdout: Array(200).fill(long("o")).join("\n") } },
      context: { taskGoal: long("g"), previousActions: Array.from({ length: 5 }, () => ({ tool: long("u"), args: { b: long("b") }, result: long("r"), success: false })) },
    });
    const worstReq = reflectionRequest(worst.input, worst.det, CFG);
    expect(worstReq.messages.reduce((n, m) => n + (m.content?.length ?? 0), 0)).toBeLessThanOrEqual(6000);
  });
});

describe("checkProposal", () => {
  it("accepts a proposal that agrees with the deterministic type and cites a real line", () => {
    const { input, det, cls } = failureCase(GIT_MISSING);
    expect(cls.type).toBe("command_not_found");
    expect(checkProposal(proposal(), input, det, cls)).toEqual({ verdict: "accepted", reasons: ["agrees with the deterministic type command_not_found; 1 cited line found"] });
  });

  it("matches cited lines after trimming and collapsing whitespace; a part of a line needs ≥ 12 characters", () => {
    const { input, det, cls } = failureCase(GIT_MISSING);
    expect(checkProposal(proposal({ citedLines: ["  sh: 1:   git:\tnot found  "] }), input, det, cls).verdict).toBe("accepted");
    expect(checkProposal(proposal({ citedLines: ["git: not found"] }), input, det, cls).verdict).toBe("accepted"); // 14 characters of a line
    expect(checkProposal(proposal({ citedLines: ["exit code 127"] }), input, det, cls).verdict).toBe("accepted"); // from the message
    const short = checkProposal(proposal({ citedLines: ["not found"] }), input, det, cls); // 9 characters: too short to count as a part
    expect(short.verdict).toBe("rejected");
    expect(short.reasons[0]).toContain('"not found"');
  });

  it("rejects a cited line that is not in the output, quoting it", () => {
    const { input, det, cls } = failureCase(GIT_MISSING);
    const r = checkProposal(proposal({ citedLines: ["sh: 1: git: not found", "fatal: unable to access 'https://github.com/a/b/': Could not resolve host"] }), input, det, cls);
    expect(r.verdict).toBe("rejected");
    expect(r.reasons).toEqual([`cited line not found in the failure's message, stdout or stderr: "fatal: unable to access 'https://github.com/a/b/': Could not resolve host"`]);
  });

  it("rejects a type that contradicts a confident deterministic type, naming the deciding evidence", () => {
    const { input, det, cls } = failureCase(GIT_MISSING);
    const r = checkProposal(proposal({ type: "permission_denied" }), input, det, cls);
    expect(r.verdict).toBe("rejected");
    expect(r.reasons).toEqual([`the line "${cls.evidence[0].detail}" decides command_not_found (c=${cls.confidence} ≥ 0.6); it cannot be a permission problem (permission_denied)`]);
  });

  it("hard rules hold whatever the confidence", () => {
    const rate = failureCase({ failure: { tool: "http", args: { url: "https://api.example.com/v1/items" }, error: { message: "GET https://api.example.com/v1/items returned 429", status: 429 } } });
    const r429 = checkProposal(proposal({ type: "network_error", citedLines: [] }), rate.input, rate.det, rate.cls);
    expect(r429.verdict).toBe("rejected");
    expect(r429.reasons).toContain("HTTP 429 (Too Many Requests) must be rate_limited, not network_error");

    const big = failureCase({ failure: { tool: "http", args: { url: "https://api.example.com/upload", method: "POST" }, error: { message: "POST https://api.example.com/upload returned 413", status: 413 } } });
    expect(checkProposal(proposal({ type: "timeout", citedLines: [] }), big.input, big.det, big.cls).reasons).toContain("HTTP 413 (Content Too Large) must be output_too_large or invalid_arguments, not timeout");
    expect(checkProposal(proposal({ type: "output_too_large", citedLines: [] }), big.input, big.det, big.cls).verdict).toBe("accepted");

    const killed = failureCase({ failure: { tool: "shell", args: { command: "npm", args: ["test"] }, error: { message: "npm test timed out after 120000 ms and was killed", code: null, signal: "SIGKILL", toolCode: "TIMEOUT" } } });
    expect(killed.cls.type).toBe("timeout");
    expect(checkProposal(proposal({ type: "output_too_large", citedLines: [] }), killed.input, killed.det, killed.cls).reasons).toContain("SIGKILL with a timeout note must be timeout, not output_too_large");

    const t124 = failureCase({ failure: { tool: "shell", args: { command: "timeout", args: ["5", "make"] }, error: { message: "Command failed: exit code 124", code: 124 } } });
    expect(checkProposal(proposal({ type: "unknown", citedLines: [] }), t124.input, t124.det, t124.cls).reasons).toContain("exit code 124 (stopped by timeout) must be timeout, not unknown");
  });

  it("a different type wins over a low-confidence deterministic type only with a cited line that shows it", () => {
    const { input, det, cls } = failureCase({
      failure: { tool: "shell", args: { command: "node", args: ["sync.js"] }, error: { message: "Command failed: exit code 1", code: 1, stdout: "fetch failed\n", stderr: "Error: not found\n" } },
    });
    expect(cls.confidence).toBeLessThan(0.6);
    const other = cls.type === "invalid_arguments" ? "network_error" : "invalid_arguments";
    const line = other === "invalid_arguments" ? "Error: not found" : "fetch failed";
    const ok = checkProposal(proposal({ type: other, citedLines: [line] }), input, det, cls);
    expect(ok.verdict).toBe("accepted");
    expect(ok.reasons[0]).toMatch(new RegExp(`^accepted over a low-confidence deterministic type ${cls.type} \\(c=${cls.confidence}\\)`));

    const noLine = checkProposal(proposal({ type: other, citedLines: [] }), input, det, cls);
    expect(noLine).toEqual({ verdict: "rejected", reasons: [`${other} differs from the low-confidence deterministic type ${cls.type} (c=${cls.confidence}) and no cited line in the output supports it`] });

    const unsupported = checkProposal(proposal({ type: "syntax_error", citedLines: ["Error: not found"] }), input, det, cls);
    expect(unsupported.verdict).toBe("rejected");
    expect(unsupported.reasons[0]).toContain("none of the cited lines shows a syntax error");
  });
});

describe("reflectWithLlm against a real OpenAI-compatible server", () => {
  it("a correct proposal is accepted; temperature, max_tokens and JSON mode are sent as configured", async () => {
    const { input, det, cls } = failureCase(GIT_MISSING);
    srv.reply("good", reply(proposal()));
    const r = await reflectWithLlm(input, det, cls, { providers: [srv.provider("good")], temperature: 0.15, maxTokens: 640 });
    expect(r).toEqual({
      status: "accepted",
      proposal: proposal(),
      reasons: ["agrees with the deterministic type command_not_found; 1 cited line found"],
      provider: "good",
      model: "good-model",
      elapsedMs: expect.any(Number),
    });
    const sent = srv.requests.filter((x) => x.mode === "good").at(-1)!;
    expect(sent.body).toMatchObject({ model: "good-model", temperature: 0.15, max_tokens: 640, response_format: { type: "json_object" } });
    const messages = (sent.body as { messages: { role: string; content: string }[] }).messages;
    expect(messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(messages[1].content).toContain("sh: 1: git: not found");
  });

  it("a proposal claiming timeout for exit 127 is rejected, and the reason names 127", async () => {
    const { input, det, cls } = failureCase(GIT_MISSING);
    srv.reply("claims-timeout", reply(proposal({ type: "timeout", rootCause: { category: "time_limit_exceeded", description: "git clone took too long", confidence: 0.7 } })));
    const r = await reflectWithLlm(input, det, cls, { providers: [srv.provider("claims-timeout")], ...CFG });
    expect(r.status).toBe("rejected");
    expect(r.proposal?.type).toBe("timeout");
    expect(r.reasons).toContain("exit code 127 (command not found) cannot be a timeout");
    expect(r.reasons.some((x) => /decides command_not_found .*it cannot be a timeout/.test(x))).toBe(true);
  });

  it("a proposal citing a line that is not in the output is rejected, naming that line", async () => {
    const { input, det, cls } = failureCase(GIT_MISSING);
    srv.reply("invents", reply(proposal({ citedLines: ["bash: git: command not found in /usr/local/bin"] })));
    const r = await reflectWithLlm(input, det, cls, { providers: [srv.provider("invents")], ...CFG });
    expect(r.status).toBe("rejected");
    expect(r.reasons).toEqual([`cited line not found in the failure's message, stdout or stderr: "bash: git: command not found in /usr/local/bin"`]);
  });

  it("a reply that is not JSON, or misses fields, is invalid with the reason", async () => {
    const { input, det, cls } = failureCase(GIT_MISSING);
    srv.reply("prose", "git is missing from the container; install it or download a tarball.");
    const a = await reflectWithLlm(input, det, cls, { providers: [srv.provider("prose")], ...CFG });
    expect(a).toMatchObject({ status: "invalid", proposal: null, provider: "prose", model: "prose-model" });
    expect(a.reasons[0]).toMatch(/^not JSON: /);

    const { rootCause: _rc, ...partial } = proposal();
    srv.reply("partial", reply({ ...partial, rootCause: { category: "missing_binary", description: "git missing" } }));
    const b = await reflectWithLlm(input, det, cls, { providers: [srv.provider("partial")], ...CFG });
    expect(b.status).toBe("invalid");
    expect(b.reasons).toEqual([expect.stringMatching(/^field rootCause\.confidence: /)]);
  });

  it("a fenced answer is read like a plain one", async () => {
    const { input, det, cls } = failureCase(GIT_MISSING);
    srv.reply("fenced", `\`\`\`json\n${JSON.stringify(proposal(), null, 2)}\n\`\`\``);
    const r = await reflectWithLlm(input, det, cls, { providers: [srv.provider("fenced")], ...CFG });
    expect(r.status).toBe("accepted");
  });

  it("a provider answering 500 or a closed port → unavailable, each provider's error listed, no throw", async () => {
    const { input, det, cls } = failureCase(GIT_MISSING);
    const port = await freeLoopbackPort();
    const gone = { name: "gone", baseUrl: `http://127.0.0.1:${port}/v1`, model: "m", timeoutMs: 2000 };
    const r = await reflectWithLlm(input, det, cls, { providers: [srv.provider("fail500"), gone], ...CFG });
    expect(r).toMatchObject({ status: "unavailable", proposal: null, provider: null, model: null });
    expect(r.reasons).toHaveLength(2);
    expect(r.reasons[0]).toMatch(/^fail500: .*500.*"upstream exploded"/);
    expect(r.reasons[1]).toMatch(/^gone: .*ECONNREFUSED/);

    const none = await reflectWithLlm(input, det, cls, { providers: [], ...CFG });
    expect(none.status).toBe("unavailable");
    expect(none.reasons[0]).toMatch(/No LLM provider is configured/);
  });

  it("falls back to the next provider, and reports the one that answered", async () => {
    const { input, det, cls } = failureCase(GIT_MISSING);
    srv.reply("backup", reply(proposal()));
    const r = await reflectWithLlm(input, det, cls, { providers: [srv.provider("rate429"), srv.provider("backup")], ...CFG });
    expect(r).toMatchObject({ status: "accepted", provider: "backup", model: "backup-model" });
  });

  it("the reflection's own time limit and the caller's signal end it as unavailable", async () => {
    const { input, det, cls } = failureCase(GIT_MISSING);
    const started = Date.now();
    const r = await reflectWithLlm(input, det, cls, { providers: [srv.provider("slow")], ...CFG, timeoutMs: 200 });
    expect(Date.now() - started).toBeLessThan(1200);
    expect(r.status).toBe("unavailable");
    expect(r.reasons[0]).toContain("time limit of 200 ms");

    const c = new AbortController();
    c.abort(new Error("lease lost"));
    const cancelled = await reflectWithLlm(input, det, cls, { providers: [srv.provider("slow")], ...CFG, signal: c.signal });
    expect(cancelled.status).toBe("unavailable");
    expect(cancelled.reasons[0]).toContain("lease lost");
  });

  it("measures elapsed time with the injected clock", async () => {
    const { input, det, cls } = failureCase(GIT_MISSING);
    srv.reply("timed", reply(proposal()));
    const ticks = [1_000, 1_250];
    const r = await reflectWithLlm(input, det, cls, { providers: [srv.provider("timed")], ...CFG, now: () => ticks.shift() ?? 1_250 });
    expect(r.elapsedMs).toBe(250);
  });

  it("a Python traceback: deterministic syntax_error, an agreeing proposal is accepted", async () => {
    const { input, det, cls } = failureCase(PY_SYNTAX);
    expect(det.errorClassification.type).toBe("syntax_error");
    srv.reply(
      "python",
      reply({
        type: "syntax_error",
        rootCause: { category: "syntax_invalid", description: "main.py line 12 has an unclosed parameter list in `def run(:`.", confidence: 0.95 },
        whyChain: ["python3 app/main.py exited with code 1", "Python could not parse main.py", "line 12 has `def run(:`", "the file was edited without running it"],
        citedLines: ["SyntaxError: invalid syntax", "def run(:"],
        recoveryStrategy: "fix_syntax_and_rerun",
      }),
    );
    const r = await reflectWithLlm(input, det, cls, { providers: [srv.provider("python")], ...CFG });
    expect(r.status).toBe("accepted");
    expect(r.reasons).toEqual(["agrees with the deterministic type syntax_error; 2 cited lines found"]);
  });
});
