/**
 * Builds bench/diagnosis-corpus.jsonl: a labelled corpus of REAL tool failures.
 *
 * Every case is produced by actually doing something that fails, in a temporary sandbox, through
 * Faultline's own tools (runTool: shell, http, file) so the captured error is exactly what the
 * worker sees: missing binaries, permission bits (as root: executing a mode-644 file; real denials
 * through `su nobody`), timeouts, oversized output, loopback HTTP servers answering with realistic
 * provider error bodies, refused and unresolvable connections, syntax errors in several languages,
 * missing modules and environment variables, git and curl failures, unknown tools.
 *
 * The label is ground truth from what the generator did (it knows it asked a server for a 429, or
 * ran a binary that does not exist), never from the classifier.
 *
 * Run: node --import tsx scripts/diagnosis-corpus.ts [--out bench/diagnosis-corpus.jsonl]
 */
import { execFileSync } from "node:child_process";
import { promises as fs } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { inputContextFromToolError } from "../lib/diagnosis/from-tool-error";
import { freeLoopbackPort } from "../lib/net";
import type { ErrorType, InputContext } from "../lib/diagnosis/types";
import { runTool, type ToolContext } from "../lib/tools";

export interface CorpusCase {
  id: string;
  label: ErrorType;
  /** The Faultline tool that failed. */
  source: string;
  /** The ecosystem the failure comes from (shell, git, node, python, curl, http-api, llm-api, faultline). */
  ecosystem: string;
  /**
   * "tuning": the cases the classifier was developed against (bench splits them into train and a
   * held-out set); "unseen": families added after the rules were frozen, never tuned on.
   */
  batch: "tuning" | "unseen";
  input: InputContext;
}

const OUT = process.argv.includes("--out") ? process.argv[process.argv.indexOf("--out") + 1] : "bench/diagnosis-corpus.jsonl";
const TOOLS = ["shell", "http", "file"];
const BINARIES = ["bash", "sh", "dash", "node", "python3", "git", "curl", "wget", "env", "timeout", "xargs", "make", "npm", "perl", "sed", "awk", "ls", "cat", "grep", "sort", "date", "sleep", "head", "tar", "su", "chmod", "touch", "mkdir", "jq", "yes", "seq", "ssh", "nice", "nohup", "cp", "unzip", "java", "rustc", "javac"];
const PY = "/usr/bin/python3"; // the system interpreter, readable by `nobody`

// ---------------------------------------------------------------- sandbox and servers

let sandbox = "";
let base = "";
let closedPort = 0;
const cases: CorpusCase[] = [];
const skipped: string[] = [];

async function write(rel: string, content: string, mode = 0o644): Promise<string> {
  const abs = path.join(sandbox, rel);
  await fs.mkdir(path.dirname(abs), { recursive: true });
  await fs.writeFile(abs, content, { mode });
  await fs.chmod(abs, mode);
  return abs;
}

function ctx(overrides: Partial<ToolContext> = {}): ToolContext {
  return { workspace: sandbox, allowedBinaries: BINARIES, signal: new AbortController().signal, timeoutMs: 15_000, idempotencyKey: "corpus/agent/step/1", ...overrides };
}

/** Loopback responses: realistic error bodies of OpenAI, Anthropic, GitHub, FastAPI, nginx. */
type Reply = { status: number; headers?: Record<string, string>; body: string };
const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({ status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
const html = (status: number, title: string): Reply => ({ status, headers: { "content-type": "text/html" }, body: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n` });
const openaiError = (status: number, message: string, type: string, code: string | null, param: string | null = null, headers: Record<string, string> = {}) => json(status, { error: { message, type, param, code } }, headers);
const anthropicError = (status: number, type: string, message: string, headers: Record<string, string> = {}) => json(status, { type: "error", error: { type, message } }, { "request-id": "req_011CSHoEeqs5C35K2UUqR7Fy", ...headers });

const REPLIES: Record<string, { label: ErrorType; reply: Reply; api: "llm-api" | "http-api" }> = {
  openai_rate: { label: "rate_limited", api: "llm-api", reply: openaiError(429, "Rate limit reached for gpt-4o-mini in organization org-7Hq2 on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more.", "requests", "rate_limit_exceeded", null, { "retry-after": "20", "x-ratelimit-remaining-requests": "0" }) },
  openai_tpm: { label: "rate_limited", api: "llm-api", reply: openaiError(429, "Rate limit reached for gpt-4o in organization org-7Hq2 on tokens per min (TPM): Limit 30000, Used 29411, Requested 1712. Please try again in 2.246s.", "tokens", "rate_limit_exceeded") },
  anthropic_rate: { label: "rate_limited", api: "llm-api", reply: anthropicError(429, "rate_limit_error", "This request would exceed the rate limit for your organization of 50,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits.", { "retry-after": "7" }) },
  openai_quota: { label: "rate_limited", api: "llm-api", reply: openaiError(429, "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.", "insufficient_quota", "insufficient_quota") },
  github_rate: { label: "rate_limited", api: "http-api", reply: json(403, { message: "API rate limit exceeded for 127.0.0.1. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)", documentation_url: "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting" }, { "x-ratelimit-limit": "60", "x-ratelimit-remaining": "0" }) },
  plain_429: { label: "rate_limited", api: "http-api", reply: { status: 429, headers: { "content-type": "text/plain", "retry-after": "3" }, body: "Too Many Requests\n" } },
  drf_429: { label: "rate_limited", api: "http-api", reply: json(429, { detail: "Request was throttled. Expected available in 3 seconds." }) },

  openai_context: { label: "output_too_large", api: "llm-api", reply: openaiError(400, "This model's maximum context length is 8192 tokens. However, your messages resulted in 9017 tokens. Please reduce the length of the messages.", "invalid_request_error", "context_length_exceeded", "messages") },
  anthropic_too_long: { label: "output_too_large", api: "llm-api", reply: anthropicError(400, "invalid_request_error", "prompt is too long: 215037 tokens > 200000 maximum") },
  anthropic_413: { label: "output_too_large", api: "llm-api", reply: anthropicError(413, "request_too_large", "Request exceeds the maximum allowed number of bytes.") },
  nginx_413: { label: "output_too_large", api: "http-api", reply: html(413, "413 Request Entity Too Large") },

  openai_400: { label: "invalid_arguments", api: "llm-api", reply: openaiError(400, "'messages' is a required property", "invalid_request_error", null) },
  openai_400_param: { label: "invalid_arguments", api: "llm-api", reply: openaiError(400, "Invalid value for 'temperature': must be between 0 and 2.", "invalid_request_error", "invalid_value", "temperature") },
  openai_404_model: { label: "invalid_arguments", api: "llm-api", reply: openaiError(404, "The model `gpt-9-turbo` does not exist or you do not have access to it.", "invalid_request_error", "model_not_found") },
  anthropic_404: { label: "invalid_arguments", api: "llm-api", reply: anthropicError(404, "not_found_error", "model: claude-9-opus") },
  fastapi_422: { label: "invalid_arguments", api: "http-api", reply: json(422, { detail: [{ type: "missing", loc: ["body", "timeout"], msg: "Field required", input: { prompt: "hi" } }] }) },
  github_422: { label: "invalid_arguments", api: "http-api", reply: json(422, { message: "Validation Failed", errors: [{ resource: "Issue", code: "missing_field", field: "title" }], documentation_url: "https://docs.github.com/rest/issues/issues#create-an-issue" }) },
  nginx_404: { label: "invalid_arguments", api: "http-api", reply: html(404, "404 Not Found") },

  openai_401: { label: "permission_denied", api: "llm-api", reply: openaiError(401, "Incorrect API key provided: sk-test***1234. You can find your API key at https://platform.openai.com/account/api-keys.", "invalid_request_error", "invalid_api_key") },
  anthropic_401: { label: "permission_denied", api: "llm-api", reply: anthropicError(401, "authentication_error", "invalid x-api-key") },
  github_403: { label: "permission_denied", api: "http-api", reply: json(403, { message: "Resource not accessible by integration", documentation_url: "https://docs.github.com/rest/repos/contents#create-or-update-file-contents" }) },
  anthropic_403: { label: "permission_denied", api: "llm-api", reply: anthropicError(403, "permission_error", "Your API key does not have permission to use the specified resource.") },

  openai_401_missing: { label: "environment_missing", api: "llm-api", reply: openaiError(401, "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username. You can obtain an API key from https://platform.openai.com/account/api-keys.", "invalid_request_error", null) },
  anthropic_401_missing: { label: "environment_missing", api: "llm-api", reply: anthropicError(401, "authentication_error", "x-api-key header is required") },

  openai_500: { label: "network_error", api: "llm-api", reply: openaiError(500, "The server had an error while processing your request. Sorry about that!", "server_error", null) },
  anthropic_500: { label: "network_error", api: "llm-api", reply: anthropicError(500, "api_error", "Internal server error") },
  nginx_502: { label: "network_error", api: "http-api", reply: html(502, "502 Bad Gateway") },
  plain_503: { label: "network_error", api: "http-api", reply: { status: 503, headers: { "content-type": "text/plain" }, body: "upstream connect error or disconnect/reset before headers. reset reason: connection failure\n" } },

  slack_429: { label: "rate_limited", api: "http-api", reply: json(429, { ok: false, error: "ratelimited" }, { "retry-after": "30" }) },
  cloudflare_1015: { label: "rate_limited", api: "http-api", reply: { status: 429, headers: { "content-type": "text/html" }, body: "<!DOCTYPE html><html><head><title>Access denied | api.example.com used Cloudflare to restrict access</title></head><body><h1>Error 1015</h1><h2>You are being rate limited</h2><p>The owner of this website has banned you temporarily from accessing this website.</p></body></html>" } },
  github_secondary: { label: "rate_limited", api: "http-api", reply: json(403, { message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.", documentation_url: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api" }) },
  stripe_404: { label: "invalid_arguments", api: "http-api", reply: json(404, { error: { code: "resource_missing", message: "No such customer: 'cus_permission42'", param: "id", type: "invalid_request_error" } }) },
  method_405: { label: "invalid_arguments", api: "http-api", reply: json(405, { detail: 'Method "DELETE" not allowed.' }) },
  openai_max_length: { label: "output_too_large", api: "llm-api", reply: openaiError(400, "Invalid 'messages[0].content': string too long. Expected a string with maximum length 1048576, but got a string with length 2097152 instead.", "invalid_request_error", "string_above_max_length", "messages[0].content") },
  body_limit_413: { label: "output_too_large", api: "http-api", reply: json(413, { statusCode: 413, code: "FST_ERR_CTP_BODY_TOO_LARGE", error: "Payload Too Large", message: "Request body is too large" }) },
  vault_403: { label: "permission_denied", api: "http-api", reply: json(403, { errors: ["permission denied"] }) },
  keycloak_401: { label: "permission_denied", api: "http-api", reply: json(401, { error: "invalid_token", error_description: "Token verification failed" }) },
  gateway_504: { label: "timeout", api: "http-api", reply: html(504, "504 Gateway Time-out") },
  plain_408: { label: "timeout", api: "http-api", reply: json(408, { error: "Request Timeout", message: "The server timed out waiting for the request." }) },
};

const BIG = "x".repeat(64 * 1024);

async function startServer(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const [, kind, name] = url.pathname.split("/");
    req.resume();
    if (kind === "r" && REPLIES[name]) {
      const { reply } = REPLIES[name];
      res.writeHead(reply.status, { "content-length": Buffer.byteLength(reply.body), ...reply.headers });
      res.end(reply.body);
    } else if (kind === "slow") {
      setTimeout(() => res.end("late"), 10_000).unref();
    } else if (kind === "reset") {
      req.socket.destroy();
    } else if (kind === "big") {
      res.writeHead(200, { "content-type": "application/json", ...(name === "chunked" ? {} : { "content-length": String(BIG.length) }) });
      res.end(BIG);
    } else {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("ok\n");
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return server;
}

// ---------------------------------------------------------------- recording

let iteration = 0;
let batch: CorpusCase["batch"] = "tuning";

async function workspaceState() {
  const entries = await fs.readdir(sandbox, { withFileTypes: true });
  return { files: entries.filter((e) => e.isFile()).map((e) => e.name).slice(0, 20), directories: entries.filter((e) => e.isDirectory()).map((e) => e.name).slice(0, 20) };
}

async function record(id: string, label: ErrorType, ecosystem: string, tool: string, args: Record<string, unknown>, goal: string, toolCtx: ToolContext = ctx()): Promise<void> {
  const result = await runTool(tool, args, toolCtx);
  if (result.ok) {
    skipped.push(`${id}: unexpectedly succeeded`);
    return;
  }
  iteration = (iteration % 7) + 1;
  const input = inputContextFromToolError(
    { tool, args, error: result.error, data: result.data },
    { iteration, availableTools: TOOLS, taskGoal: goal, previousActions: [], workspaceState: await workspaceState() },
  );
  cases.push({ id, label, source: tool, ecosystem, batch, input });
}

const shell = (id: string, label: ErrorType, ecosystem: string, command: string, args: string[], goal: string, extra: Record<string, unknown> = {}, toolCtx?: ToolContext) =>
  record(id, label, ecosystem, "shell", { command, args, ...extra }, goal, toolCtx);
const sh = (id: string, label: ErrorType, ecosystem: string, script: string, goal: string, toolCtx?: ToolContext) => shell(id, label, ecosystem, "bash", ["-c", script], goal, {}, toolCtx);
const asNobody = (id: string, label: ErrorType, ecosystem: string, script: string, goal: string) => shell(id, label, ecosystem, "su", ["nobody", "-s", "/bin/sh", "-c", `cd / && ${script}`], goal);
const py = (id: string, label: ErrorType, code: string, goal: string, env?: Record<string, string>) => shell(id, label, "python", "python3", ["-c", code], goal, env ? { env } : {});
const node = (id: string, label: ErrorType, code: string, goal: string, env?: Record<string, string>) => shell(id, label, "node", "node", ["-e", code], goal, env ? { env } : {});

function exists(bin: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${bin}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- client programs for HTTP failures

/** A minimal LLM SDK in Python: raises the same exception classes and messages as openai-python. */
const PY_SDK = `
import json, sys, urllib.request, urllib.error
class APIStatusError(Exception):
    def __init__(self, message, status_code, body):
        super().__init__(message); self.status_code = status_code; self.body = body
class BadRequestError(APIStatusError): pass
class AuthenticationError(APIStatusError): pass
class PermissionDeniedError(APIStatusError): pass
class NotFoundError(APIStatusError): pass
class UnprocessableEntityError(APIStatusError): pass
class RateLimitError(APIStatusError): pass
class InternalServerError(APIStatusError): pass
CLASSES = {400: BadRequestError, 401: AuthenticationError, 403: PermissionDeniedError, 404: NotFoundError, 422: UnprocessableEntityError, 429: RateLimitError}
def create(url, payload):
    req = urllib.request.Request(url, data=json.dumps(payload).encode(), headers={"content-type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.load(r)
    except urllib.error.HTTPError as e:
        raw = e.read().decode()
        try: body = json.loads(raw)
        except ValueError: body = raw
        cls = CLASSES.get(e.code, InternalServerError if e.code >= 500 else APIStatusError)
        raise cls(f"Error code: {e.code} - {body}", e.code, body) from None
def main():
    out = create(sys.argv[1], {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Summarise the repository"}]})
    print(out)
if __name__ == "__main__":
    main()
`;

/** The same in Node, shaped like openai-node: \`\${status} \${message}\` on a named error class. */
const NODE_SDK = `
class APIError extends Error { constructor(status, body) { const m = body && body.error && (body.error.message || body.error) ; super(status + " " + (typeof m === "string" ? m : JSON.stringify(body))); this.status = status; this.error = body; } }
const NAMES = { 400: "BadRequestError", 401: "AuthenticationError", 403: "PermissionDeniedError", 404: "NotFoundError", 422: "UnprocessableEntityError", 429: "RateLimitError" };
async function create(url) {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "claude-sonnet-4", max_tokens: 64, messages: [{ role: "user", content: "hi" }] }) });
  const text = await res.text();
  if (!res.ok) {
    let body; try { body = JSON.parse(text); } catch { body = text; }
    const err = new APIError(res.status, body);
    err.name = NAMES[res.status] || (res.status >= 500 ? "InternalServerError" : "APIError");
    throw err;
  }
  return JSON.parse(text);
}
create(process.argv[2]).then((r) => console.log(r));
`;

type Client = "faultline" | "curl" | "py_sdk" | "node_sdk" | "py_urllib" | "wget" | "git";

async function httpFailure(name: string, client: Client): Promise<void> {
  const { label, api } = REPLIES[name];
  const url = `${base}/r/${name}`;
  const id = `${label}/${name}/${client}`;
  const goal = api === "llm-api" ? "Summarise the repository with the LLM API" : "Call the project's HTTP API";
  switch (client) {
    case "faultline":
      return record(id, label, api, "http", { url, method: api === "llm-api" ? "POST" : "GET", ...(api === "llm-api" ? { body: { model: "gpt-4o-mini", messages: [] } } : {}) }, goal);
    case "curl":
      return shell(id, label, "curl", "curl", ["-sS", "--fail-with-body", "-X", "POST", "-H", "content-type: application/json", "-d", '{"model":"gpt-4o-mini"}', url], goal);
    case "py_sdk":
      await write("llm_client.py", PY_SDK);
      return shell(id, label, "python", "python3", ["llm_client.py", url], goal);
    case "node_sdk":
      await write("llm_client.mjs", NODE_SDK);
      return shell(id, label, "node", "node", ["llm_client.mjs", url], goal);
    case "py_urllib":
      return py(id, label, `import urllib.request\nprint(urllib.request.urlopen(${JSON.stringify(url)}, timeout=10).read())`, goal);
    case "wget":
      return shell(id, label, "shell", "wget", ["-nv", "--tries=1", "-O", "-", url], goal);
    case "git":
      return shell(id, label, "git", "git", ["clone", `${url}/repo.git`, "repo"], "Clone the repository", { env: { GIT_TERMINAL_PROMPT: "0" } });
  }
}

// ---------------------------------------------------------------- the cases

async function httpStatusCases(): Promise<void> {
  const plan: Record<string, Client[]> = {
    openai_rate: ["faultline", "py_sdk", "node_sdk", "curl"],
    openai_tpm: ["faultline", "py_sdk"],
    anthropic_rate: ["faultline", "node_sdk", "py_sdk"],
    openai_quota: ["faultline", "py_sdk"],
    github_rate: ["faultline", "curl", "py_sdk"],
    plain_429: ["faultline", "curl", "wget", "git", "py_urllib"],
    drf_429: ["faultline", "node_sdk"],
    openai_context: ["faultline", "py_sdk", "node_sdk"],
    anthropic_too_long: ["faultline", "py_sdk", "node_sdk"],
    anthropic_413: ["faultline", "node_sdk"],
    nginx_413: ["faultline", "curl", "py_urllib", "wget"],
    openai_400: ["faultline", "py_sdk", "node_sdk"],
    openai_400_param: ["faultline", "py_sdk"],
    openai_404_model: ["faultline", "py_sdk", "node_sdk"],
    anthropic_404: ["faultline", "node_sdk"],
    fastapi_422: ["faultline", "curl", "py_sdk"],
    github_422: ["faultline", "node_sdk"],
    nginx_404: ["faultline", "curl", "wget", "py_urllib", "git"],
    openai_401: ["faultline", "py_sdk", "node_sdk"],
    anthropic_401: ["faultline", "node_sdk", "py_sdk"],
    github_403: ["faultline", "curl", "py_urllib"],
    anthropic_403: ["faultline", "py_sdk"],
    openai_401_missing: ["faultline", "py_sdk", "node_sdk", "curl"],
    anthropic_401_missing: ["faultline", "node_sdk", "py_sdk"],
    openai_500: ["faultline", "py_sdk", "node_sdk"],
    anthropic_500: ["faultline", "node_sdk"],
    nginx_502: ["faultline", "curl", "wget", "git"],
    plain_503: ["faultline", "curl", "py_urllib"],
    gateway_504: ["faultline", "curl", "py_urllib", "git"],
    plain_408: ["faultline", "curl", "node_sdk"],
  };
  for (const [name, clients] of Object.entries(plan)) for (const client of clients) await httpFailure(name, client);
}

async function networkCases(): Promise<void> {
  const refused = `http://127.0.0.1:${closedPort}/v1/chat/completions`;
  const unresolvable = "http://api.llm-gateway.invalid/v1/models";
  const goal = "Fetch the model list from the gateway";
  for (const [kind, url] of [["refused", refused], ["dns", unresolvable], ["reset", `${base}/reset/x`]] as const) {
    await record(`network_error/${kind}/faultline`, "network_error", "http-api", "http", { url }, goal);
    await shell(`network_error/${kind}/curl`, "network_error", "curl", "curl", ["-sS", url], goal);
    await py(`network_error/${kind}/py_urllib`, "network_error", `import urllib.request\nurllib.request.urlopen(${JSON.stringify(url)}, timeout=5)`, goal);
    await py(`network_error/${kind}/py_requests`, "network_error", `import requests\nrequests.get(${JSON.stringify(url)}, timeout=5).raise_for_status()`, goal);
    await node(`network_error/${kind}/node_fetch`, "network_error", `fetch(${JSON.stringify(url)}).then(r => r.text()).then(console.log)`, goal);
    await node(`network_error/${kind}/node_http`, "network_error", `require("http").get(${JSON.stringify(url)}, (r) => r.resume())`, goal);
  }
  await shell("network_error/refused/git", "network_error", "git", "git", ["clone", `http://127.0.0.1:${closedPort}/org/repo.git`], "Clone the repository", { env: { GIT_TERMINAL_PROMPT: "0" } });
  await shell("network_error/dns/git", "network_error", "git", "git", ["clone", "https://git.forge.invalid/org/repo.git"], "Clone the repository", { env: { GIT_TERMINAL_PROMPT: "0" } });
  await shell("network_error/refused/wget", "network_error", "shell", "wget", ["-nv", "--tries=1", refused], goal);
  await shell("network_error/dns/wget", "network_error", "shell", "wget", ["-nv", "--tries=1", unresolvable], goal);
  await shell("network_error/refused/npm", "network_error", "node", "npm", ["view", "left-pad", "version", `--registry=http://127.0.0.1:${closedPort}/`, "--fetch-retries=0", "--cache", path.join(sandbox, ".npm")], "Check the latest left-pad version");
  await shell("network_error/dns/ssh", "network_error", "shell", "ssh", ["-o", "BatchMode=yes", "-o", "ConnectTimeout=3", "deploy@build.farm.invalid", "true"], "Deploy over ssh");
  await shell("network_error/refused/ssh", "network_error", "shell", "ssh", ["-o", "BatchMode=yes", "-p", String(closedPort), "deploy@127.0.0.1", "true"], "Deploy over ssh");
  await py("network_error/refused/py_socket", "network_error", `import socket\nsocket.create_connection(("127.0.0.1", ${closedPort}), timeout=3)`, "Connect to the database port");
}

async function timeoutCases(): Promise<void> {
  const slow = `${base}/slow/x`;
  const goal = "Fetch the report from the slow service";
  await record("timeout/http/faultline", "timeout", "http-api", "http", { url: slow }, goal, ctx({ timeoutMs: 300 }));
  await record("timeout/http/faultline_post", "timeout", "llm-api", "http", { url: slow, method: "POST", body: { model: "gpt-4o", messages: [] } }, "Ask the LLM for a summary", ctx({ timeoutMs: 300 }));
  await shell("timeout/http/curl", "timeout", "curl", "curl", ["-sS", "--max-time", "0.3", slow], goal);
  await py("timeout/http/py_urllib", "timeout", `import urllib.request\nurllib.request.urlopen(${JSON.stringify(slow)}, timeout=0.3).read()`, goal);
  await py("timeout/http/py_requests", "timeout", `import requests\nrequests.get(${JSON.stringify(slow)}, timeout=0.3)`, goal);
  await node("timeout/http/node_fetch", "timeout", `fetch(${JSON.stringify(slow)}, { signal: AbortSignal.timeout(300) }).then(r => r.text())`, goal);
  await node("timeout/http/node_http", "timeout", `const req = require("http").get(${JSON.stringify(slow)}, { timeout: 300 }, (r) => r.resume()); req.on("timeout", () => req.destroy(Object.assign(new Error("Request timed out after 300 ms"), { code: "ETIMEDOUT" })));`, goal);
  await shell("timeout/process/coreutils", "timeout", "shell", "timeout", ["0.2", "sleep", "5"], "Wait for the build");
  await shell("timeout/process/coreutils_loop", "timeout", "shell", "timeout", ["0.2", "bash", "-c", "while :; do :; done"], "Run the simulation");
  await shell("timeout/process/coreutils_kill", "timeout", "shell", "timeout", ["-s", "KILL", "0.2", "sleep", "5"], "Wait for the build");
  await shell("timeout/process/faultline_sleep", "timeout", "shell", "sleep", ["5"], "Wait for the build", {}, ctx({ timeoutMs: 300 }));
  await shell("timeout/process/faultline_node", "timeout", "node", "node", ["-e", "console.log('indexing…'); setInterval(() => {}, 1000)"], "Index the repository", {}, ctx({ timeoutMs: 400 }));
  await shell("timeout/process/faultline_python", "timeout", "python", "python3", ["-c", "import time\nprint('training epoch 1', flush=True)\ntime.sleep(5)"], "Train the model", {}, ctx({ timeoutMs: 400 }));
  await py("timeout/process/py_subprocess", "timeout", `import subprocess\nsubprocess.run(["sleep", "5"], timeout=0.2, check=True)`, "Run the test suite");
  await node("timeout/process/node_execsync", "timeout", `require("child_process").execSync("sleep 5", { timeout: 200 })`, "Run the test suite");
}

async function outputCases(): Promise<void> {
  const goal = "Inspect the build output";
  await shell("output_too_large/shell/yes", "output_too_large", "shell", "yes", [], goal, { maxOutputBytes: 4096 });
  await shell("output_too_large/shell/seq", "output_too_large", "shell", "seq", ["1", "1000000"], "List all record ids", { maxOutputBytes: 8192 });
  await shell("output_too_large/shell/stderr_flood", "output_too_large", "shell", "bash", ["-c", "for i in $(seq 1 5000); do echo \"warning: deprecated call at line $i\" >&2; done"], "Compile the project", { maxOutputBytes: 4096 });
  await write("big.log", "2024-01-01 INFO request served in 12ms\n".repeat(3000));
  await shell("output_too_large/shell/cat", "output_too_large", "shell", "cat", ["big.log"], "Read the server log", { maxOutputBytes: 16_384 });
  await shell("output_too_large/node/json_dump", "output_too_large", "node", "node", ["-e", "console.log(JSON.stringify(Array.from({length: 50000}, (_, i) => ({ id: i, name: 'item' + i }))))"], "Export the catalogue as JSON", { maxOutputBytes: 65_536 });
  await shell("output_too_large/python/print", "output_too_large", "python", "python3", ["-c", "for i in range(200000): print(f'row {i}: ' + 'x' * 40)"], "Print the dataset", { maxOutputBytes: 65_536 });
  await shell("output_too_large/git/log", "output_too_large", "git", "git", ["log", "--all", "-p"], "Review the history", { maxOutputBytes: 200, cwd: "repo-small" });
  await record("output_too_large/http/declared", "output_too_large", "http-api", "http", { url: `${base}/big/declared`, maxResponseBytes: 4096 }, "Download the catalogue");
  await record("output_too_large/http/chunked", "output_too_large", "http-api", "http", { url: `${base}/big/chunked`, maxResponseBytes: 4096 }, "Download the catalogue");
  await node("output_too_large/node/enobufs", "output_too_large", `require("child_process").execSync("seq 1 100000", { maxBuffer: 1024 })`, "Collect the ids");
  await node("output_too_large/node/maxbuffer", "output_too_large", `require("child_process").execFile("seq", ["1", "100000"], { maxBuffer: 1024 }, (err) => { if (err) throw err; })`, "Collect the ids");
  await node("output_too_large/node/string_length", "output_too_large", `const chunk = "x".repeat(2 ** 28); const all = chunk + chunk + chunk;`, "Concatenate the exports");
  await shell("output_too_large/curl/max_filesize", "output_too_large", "curl", "curl", ["-sS", "--max-filesize", "1000", `${base}/big/declared`], "Download the catalogue");
}

async function commandNotFoundCases(): Promise<void> {
  const missing = ["kubectl", "terraform", "helm", "gh", "aws", "gcloud", "deno", "bun", "docker", "yq", "rg", "pnpm"].filter((b) => !exists(b));
  const goal = "Deploy the service to the cluster";
  for (const bin of missing.slice(0, 5)) await sh(`command_not_found/bash/${bin}`, "command_not_found", "shell", `${bin} version`, goal);
  for (const bin of missing.slice(5, 8)) await shell(`command_not_found/sh/${bin}`, "command_not_found", "shell", "sh", ["-c", `${bin} --help`], goal);
  for (const bin of missing.slice(0, 3)) {
    await record(`command_not_found/spawn/${bin}`, "command_not_found", "faultline", "shell", { command: bin, args: ["version"] }, goal, ctx({ allowedBinaries: [...BINARIES, bin] }));
  }
  await shell(`command_not_found/env/${missing[3]}`, "command_not_found", "shell", "env", [missing[3], "--version"], goal);
  await shell(`command_not_found/timeout/${missing[4]}`, "command_not_found", "shell", "timeout", ["30", missing[4], "apply"], goal);
  await shell(`command_not_found/xargs/${missing[5]}`, "command_not_found", "shell", "xargs", [missing[5]], goal, { input: "manifests/app.yaml\n" });
  await sh("command_not_found/bash/git_restricted_path", "command_not_found", "git", "PATH=/nonexistent; git clone https://github.com/gatewaybuddy/forgekeeper", "Clone https://github.com/gatewaybuddy/forgekeeper");
  await sh("command_not_found/bash/missing_script", "command_not_found", "shell", "./scripts/deploy.sh --prod", goal);
  await node("command_not_found/node/spawnsync", "command_not_found", `require("child_process").execFileSync(${JSON.stringify(missing[0])}, ["get", "pods"], { stdio: "pipe" })`, goal);
  await node("command_not_found/node/spawn", "command_not_found", `const p = require("child_process").spawn(${JSON.stringify(missing[1])}, ["plan"]); p.on("exit", (c) => process.exit(c));`, goal);
  await py("command_not_found/python/subprocess", "command_not_found", `import subprocess\nsubprocess.run([${JSON.stringify(missing[2])}, "install", "app"], check=True)`, goal);
  await py("command_not_found/python/subprocess_shell", "command_not_found", `import subprocess\nsubprocess.run(${JSON.stringify(`${missing[3]} build .`)}, shell=True, check=True)`, goal);
  await write("Makefile", `deploy:\n\t${missing[0]} apply -f k8s/\n`);
  await shell("command_not_found/make/recipe", "command_not_found", "shell", "make", ["deploy"], goal);
  await write("package.json", JSON.stringify({ name: "app", version: "1.0.0", scripts: { lint: `${missing[6] ?? "eslintx"} .`, deploy: `${missing[1]} apply` } }, null, 2));
  await shell("command_not_found/npm/run_lint", "command_not_found", "node", "npm", ["run", "lint"], "Lint the code");
  await shell("command_not_found/npm/run_deploy", "command_not_found", "node", "npm", ["run", "deploy"], goal);
  await fs.rm(path.join(sandbox, "package.json"));
}

async function toolNotFoundCases(): Promise<void> {
  for (const name of ["repo_browser", "read_file", "run_bash", "web_search", "python", "write_file", "git", "browser"]) {
    await record(`tool_not_found/unknown/${name}`, "tool_not_found", "faultline", name, name === "read_file" ? { path: "README.md" } : name === "run_bash" ? { command: "ls -la" } : name === "repo_browser" ? { url: "https://github.com/gatewaybuddy/forgekeeper" } : { query: "faultline" }, "Clone https://github.com/gatewaybuddy/forgekeeper and read its README");
  }
  // A runner's subcommand that does not exist: the program has no such tool (docs/diagnosis-benchmark.md).
  await shell("tool_not_found/git/unknown_subcommand", "tool_not_found", "git", "git", ["frobnicate"], "Prepare the release");
  const allowed = ["sh", "node", "git"];
  for (const [bin, args] of [["curl", ["-L", "https://example.com"]], ["wget", ["https://example.com"]], ["python3", ["-c", "print(1)"]], ["rm", ["-rf", "build"]], ["docker", ["ps"]], ["ssh", ["deploy@host"]]] as const) {
    await record(`permission_denied/not_allowed/${bin}`, "permission_denied", "faultline", "shell", { command: bin, args: [...args] }, "Download the release", ctx({ allowedBinaries: allowed }));
  }
}

async function permissionCases(): Promise<void> {
  await write("scripts/build.sh", "#!/bin/sh\necho building\n", 0o644);
  await write("bin/timeout-check", "#!/bin/sh\necho ok\n", 0o644);
  await record("permission_denied/spawn/not_executable", "permission_denied", "faultline", "shell", { command: "./scripts/build.sh", args: [] }, "Build the project", ctx({ allowedBinaries: [...BINARIES, "build.sh"] }));
  await record("permission_denied/spawn/not_executable_misleading", "permission_denied", "faultline", "shell", { command: "./bin/timeout-check", args: [] }, "Check the timeouts", ctx({ allowedBinaries: [...BINARIES, "timeout-check"] }));
  await sh("permission_denied/bash/not_executable", "permission_denied", "shell", "./scripts/build.sh", "Build the project");
  await sh("permission_denied/bash/dir_exec", "permission_denied", "shell", "./scripts", "Build the project");
  await fs.mkdir(path.join(sandbox, "locked"), { mode: 0o755 });
  await write("locked/secrets.env", "API_KEY=sk-test\n", 0o600);
  await fs.chmod(sandbox, 0o755);
  const locked = path.join(sandbox, "locked");
  await asNobody("permission_denied/nobody/touch", "permission_denied", "shell", `touch ${locked}/report.txt`, "Write the report");
  await asNobody("permission_denied/nobody/cat", "permission_denied", "shell", `cat ${locked}/secrets.env`, "Read the configuration");
  await asNobody("permission_denied/nobody/mkdir", "permission_denied", "shell", `mkdir ${locked}/cache`, "Prepare the cache");
  await asNobody("permission_denied/nobody/redirect", "permission_denied", "shell", `echo done > ${locked}/timeout_status.txt`, "Record the status");
  await asNobody("permission_denied/nobody/python", "permission_denied", "python", `${PY} -c "open('${locked}/out.json', 'w').write('{}')"`, "Save the results");
  await asNobody("permission_denied/nobody/python_read", "permission_denied", "python", `${PY} -c "import json; json.load(open('${locked}/secrets.env'))"`, "Load the configuration");
  await asNobody("permission_denied/nobody/node", "permission_denied", "node", `/usr/bin/node -e "require('fs').writeFileSync('${locked}/out.json', '{}')"`, "Save the results");
  await asNobody("permission_denied/nobody/git_clone", "permission_denied", "git", `git clone ${sandbox}/repo-small ${locked}/clone`, "Clone the repository");
  await asNobody("permission_denied/nobody/kill", "permission_denied", "shell", "kill -TERM 1", "Restart the service");
  await asNobody("permission_denied/nobody/chown", "permission_denied", "shell", `chown nobody ${locked}/secrets.env`, "Fix the file owner");
  await asNobody("permission_denied/nobody/ls", "permission_denied", "shell", "ls /root", "List the home directory");
  await record("permission_denied/file/escape_dotdot", "permission_denied", "faultline", "file", { op: "read", path: "../../etc/passwd" }, "Read the user list");
  await record("permission_denied/file/escape_absolute", "permission_denied", "faultline", "file", { op: "write", path: "/etc/faultline.conf", content: "x" }, "Write the configuration");
  await record("permission_denied/shell/cwd_escape", "permission_denied", "faultline", "shell", { command: "ls", args: [], cwd: "../.." }, "List the parent project");
}

async function invalidArgumentCases(): Promise<void> {
  await record("invalid_arguments/tool/shell_missing_command", "invalid_arguments", "faultline", "shell", { args: ["-la"] }, "List the files");
  await record("invalid_arguments/tool/shell_args_type", "invalid_arguments", "faultline", "shell", { command: "ls", args: "-la" }, "List the files");
  await record("invalid_arguments/tool/http_bad_url", "invalid_arguments", "faultline", "http", { url: "api.example.com/v1/items" }, "Fetch the items");
  await record("invalid_arguments/tool/http_get_body", "invalid_arguments", "faultline", "http", { url: `${base}/ok`, method: "GET", body: { timeout: 5 } }, "Fetch the items");
  await record("invalid_arguments/tool/file_bad_op", "invalid_arguments", "faultline", "file", { op: "delete", path: "build" }, "Clean the build");
  await record("invalid_arguments/file/missing", "invalid_arguments", "faultline", "file", { op: "read", path: "docs/permission_matrix.md" }, "Read the permission matrix");
  await record("invalid_arguments/file/is_directory", "invalid_arguments", "faultline", "file", { op: "read", path: "scripts" }, "Read the scripts");
  await record("invalid_arguments/shell/missing_cwd", "invalid_arguments", "faultline", "shell", { command: "ls", args: [], cwd: "build/output" }, "List the build output");
  const goal = "Prepare the release";
  await shell("invalid_arguments/coreutils/ls_option", "invalid_arguments", "shell", "ls", ["--frobnicate"], goal);
  await shell("invalid_arguments/coreutils/grep_option", "invalid_arguments", "shell", "grep", ["--timeout=5", "TODO", "."], "Find the TODOs");
  await shell("invalid_arguments/coreutils/sort_key", "invalid_arguments", "shell", "sort", ["-k", "x", "big.log"], goal);
  await shell("invalid_arguments/coreutils/date", "invalid_arguments", "shell", "date", ["-d", "next blursday"], goal);
  await shell("invalid_arguments/coreutils/sleep", "invalid_arguments", "shell", "sleep", ["five"], goal);
  await shell("invalid_arguments/coreutils/head", "invalid_arguments", "shell", "head", ["-n", "ten", "big.log"], goal);
  await shell("invalid_arguments/coreutils/cat_missing", "invalid_arguments", "shell", "cat", ["reports/permission_denied_summary.txt"], "Read the summary");
  await shell("invalid_arguments/coreutils/tar_missing", "invalid_arguments", "shell", "tar", ["-xzf", "release-timeout-fix.tar.gz"], goal);
  await shell("invalid_arguments/git/bad_dir", "invalid_arguments", "git", "git", ["-C", "/nonexistent/checkout", "status"], goal);
  await shell("invalid_arguments/git/clone_missing", "invalid_arguments", "git", "git", ["clone", "/nonexistent/repo", "copy"], "Clone the repository");
  await shell("invalid_arguments/git/checkout_branch", "invalid_arguments", "git", "git", ["checkout", "release/timeout-fix"], goal, { cwd: "repo-small" });
  await shell("invalid_arguments/git/bad_revision", "invalid_arguments", "git", "git", ["log", "v9.9.9..HEAD"], goal, { cwd: "repo-small" });
  await shell("invalid_arguments/git/bad_option", "invalid_arguments", "git", "git", ["commit", "--permission", "-m", "x"], goal, { cwd: "repo-small" });
  await shell("invalid_arguments/curl/malformed_url", "invalid_arguments", "curl", "curl", ["-sS", "http://[::1"], goal);
  await shell("invalid_arguments/curl/bad_option", "invalid_arguments", "curl", "curl", ["--timeout", "5", `${base}/ok`], goal);
  await shell("invalid_arguments/python/missing_script", "invalid_arguments", "python", "python3", ["tools/migrate.py"], "Migrate the database");
  await write("cli.py", "import argparse\np = argparse.ArgumentParser(prog='cli.py')\np.add_argument('--limit', type=int)\np.parse_args()\n");
  await shell("invalid_arguments/python/argparse_unknown", "invalid_arguments", "python", "python3", ["cli.py", "--timeout", "5"], goal);
  await shell("invalid_arguments/python/argparse_type", "invalid_arguments", "python", "python3", ["cli.py", "--limit", "many"], goal);
  await py("invalid_arguments/python/unexpected_kwarg", "invalid_arguments", "import json\njson.dumps({'a': 1}, timeout=5)", goal);
  await py("invalid_arguments/python/missing_positional", "invalid_arguments", "def fetch(url, retries):\n    return url\nfetch('http://x')", goal);
  await shell("invalid_arguments/node/missing_script", "invalid_arguments", "node", "node", ["scripts/seed-permissions.js"], "Seed the permissions");
  await node("invalid_arguments/node/invalid_arg_type", "invalid_arguments", "require('fs').readFileSync({ path: 'config.json' })", goal);
  await node("invalid_arguments/node/parse_args", "invalid_arguments", "require('util').parseArgs({ args: ['--timeout', '5'], options: { limit: { type: 'string' } } })", goal);
  await node("invalid_arguments/node/invalid_url", "invalid_arguments", "new URL('api.example.com/v1')", goal);
  await shell("invalid_arguments/jq/bad_file", "invalid_arguments", "shell", "jq", [".", "missing-config.json"], "Read the config");
}

async function syntaxCases(): Promise<void> {
  const goal = "Run the generated script";
  await node("syntax_error/node/missing_operand", "syntax_error", "const total = ;\nconsole.log(total)", goal);
  await node("syntax_error/node/timeout_object", "syntax_error", "fetch('http://localhost', { timeout: 5 )", goal);
  await write("gen/report.js", "function report(items) {\n  for (const item of items {\n    console.log(item)\n  }\n}\n");
  await shell("syntax_error/node/file", "syntax_error", "node", "node", ["gen/report.js"], goal);
  await write("gen/server.mjs", "import http from 'node:http'\nconst permissions = {\n  admin: ['read', 'write']\n  user: ['read']\n}\n");
  await shell("syntax_error/node/esm_file", "syntax_error", "node", "node", ["gen/server.mjs"], goal);
  await node("syntax_error/node/json_parse", "syntax_error", "JSON.parse(\"{'timeout': 30}\")", "Load the settings");
  await write("settings.json", '{\n  "retries": 3,\n  "timeout": 30,\n}\n');
  await node("syntax_error/node/json_file", "syntax_error", "JSON.parse(require('fs').readFileSync('settings.json', 'utf8'))", "Load the settings");
  await write("gen/check.ts", "const limit: number = \nexport default limit\ninterface {\n");
  await shell("syntax_error/node/tsx", "syntax_error", "node", "node", ["--import", path.resolve("node_modules/tsx/dist/esm/index.mjs"), "gen/check.ts"], goal);
  await py("syntax_error/python/def", "syntax_error", "def fetch(url, timeout=):\n    return url", goal);
  await py("syntax_error/python/print", "syntax_error", 'print "permission granted"', goal);
  await write("gen/etl.py", "import json\n\ndef load(path):\n    with open(path) as f:\n        data = json.load(f)\n      return data\n");
  await shell("syntax_error/python/indentation", "syntax_error", "python", "python3", ["gen/etl.py"], goal);
  await write("gen/app.py", "import os\n\nclass Config:\n    def __init__(self):\n        self.items = [1, 2, 3\n\nprint(Config())\n");
  await shell("syntax_error/python/unclosed", "syntax_error", "python", "python3", ["gen/app.py"], goal);
  await py("syntax_error/python/json_loads", "syntax_error", "import json\njson.loads(open('settings.json').read())", "Load the settings");
  await py("syntax_error/python/json_module", "syntax_error", "import json\njson.loads('{\"timeout\": 30')", "Load the settings");
  await sh("syntax_error/bash/if_then", "syntax_error", "shell", "if then echo ok; fi", goal);
  await write("gen/deploy.sh", "#!/bin/bash\necho \"deploying\nif [ -f app ]; then\n  echo ok\nfi\n", 0o755);
  await shell("syntax_error/bash/unterminated_quote", "syntax_error", "shell", "bash", ["gen/deploy.sh"], goal);
  await shell("syntax_error/bash/n_check", "syntax_error", "shell", "bash", ["-n", "gen/deploy.sh"], "Check the deploy script");
  await shell("syntax_error/dash/paren", "syntax_error", "shell", "sh", ["-c", "for f in *; do (echo $f; done"], goal);
  await shell("syntax_error/perl/terminator", "syntax_error", "shell", "perl", ["-e", 'print "timeout reached;'], goal);
  await shell("syntax_error/perl/syntax", "syntax_error", "shell", "perl", ["-e", "my $x = ; print $x"], goal);
  await shell("syntax_error/sed/unterminated", "syntax_error", "shell", "sed", ["-e", "s/permission/access/", "-e", "s/timeout/"], "Rewrite the config", { input: "timeout=5\n" });
  await shell("syntax_error/awk/syntax", "syntax_error", "shell", "awk", ["{ print $1 "], "Summarise the log", { input: "a b\n" });
  await shell("syntax_error/jq/filter", "syntax_error", "shell", "jq", [".items[] | select(.timeout > )"], "Filter the items", { input: "{}" });
  await shell("syntax_error/jq/input", "syntax_error", "shell", "jq", [".timeout"], "Read the timeout", { input: "{timeout: 30}" });
  await write("repo-bad/.git/config", "[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote \"origin\"\n\turl = x\n");
  await write("repo-bad/.git/HEAD", "ref: refs/heads/main\n");
  await fs.mkdir(path.join(sandbox, "repo-bad/.git/objects"), { recursive: true });
  await fs.mkdir(path.join(sandbox, "repo-bad/.git/refs"), { recursive: true });
  await shell("syntax_error/git/bad_config", "syntax_error", "git", "git", ["status"], "Check the repository", { cwd: "repo-bad" });
}

async function environmentCases(): Promise<void> {
  const goal = "Run the summariser";
  await py("environment_missing/python/module", "environment_missing", "import yaml_timeout_utils\nprint('ok')", goal);
  await write("app/helpers.py", "import os\nimport snowflake.connector\n\ndef client():\n    return snowflake.connector.connect()\n");
  await write("app/__init__.py", "");
  await write("app/main.py", "from app.helpers import client\n\ndef run():\n    return client()\n\nif __name__ == '__main__':\n    run()\n");
  await shell("environment_missing/python/nested_module", "environment_missing", "python", "python3", ["-m", "app.main"], goal);
  await py("environment_missing/python/import_name", "environment_missing", "from permission_utils import check\ncheck()", goal);
  await write("app/settings.py", "import os\n\ndef api_key():\n    return os.environ['OPENAI_API_KEY']\n\ndef timeout():\n    return int(os.environ.get('REQUEST_TIMEOUT', '30'))\n");
  await write("app/summarise.py", "from app.settings import api_key, timeout\n\ndef main():\n    key = api_key()\n    print(key[:4], timeout())\n\nif __name__ == '__main__':\n    main()\n");
  await shell("environment_missing/python/environ_key", "environment_missing", "python", "python3", ["-m", "app.summarise"], goal);
  await py("environment_missing/python/environ_timeout", "environment_missing", "import os\nTIMEOUT = int(os.environ['REQUEST_TIMEOUT'])", goal);
  await py("environment_missing/python/sdk_key", "environment_missing", "import os\nclass OpenAIError(Exception): pass\nclass OpenAI:\n    def __init__(self, api_key=None):\n        api_key = api_key or os.environ.get('OPENAI_API_KEY')\n        if api_key is None:\n            raise OpenAIError('The api_key client option must be set either by passing api_key to the client or by setting the OPENAI_API_KEY environment variable')\nOpenAI()", goal);
  await node("environment_missing/node/require", "environment_missing", "const leftPad = require('left-pad'); console.log(leftPad('x', 3))", goal);
  await write("src/index.js", "const cfg = require('./config');\nmodule.exports = cfg;\n");
  await write("src/config.js", "const dotenv = require('dotenv');\ndotenv.config();\nmodule.exports = { timeout: 30 };\n");
  await shell("environment_missing/node/nested_require", "environment_missing", "node", "node", ["src/index.js"], goal);
  await write("src/esm.mjs", "import { z } from 'zod-permissions';\nconsole.log(z);\n");
  await shell("environment_missing/node/esm_import", "environment_missing", "node", "node", ["src/esm.mjs"], goal);
  await node("environment_missing/node/env_throw", "environment_missing", "function requireEnv(name) { const v = process.env[name]; if (!v) throw new Error(`Missing required environment variable ${name}`); return v; }\nrequireEnv('DATABASE_URL')", "Migrate the database");
  await node("environment_missing/node/env_not_set", "environment_missing", "if (!process.env.GITHUB_TOKEN) { console.error('error: GITHUB_TOKEN is not set; export it before running the release'); process.exit(1) }", "Publish the release");
  await sh("environment_missing/bash/unbound", "environment_missing", "shell", "set -u; echo \"deploying to $DEPLOY_TARGET\"", "Deploy");
  await sh("environment_missing/bash/param_unset", "environment_missing", "shell", ': "${AWS_REGION:?AWS_REGION must be set}"; aws s3 ls', "Sync the bucket");
  await sh("environment_missing/bash/param_empty", "environment_missing", "shell", 'echo "${OPENAI_API_KEY:?}" >/dev/null', "Call the LLM");
  await fs.mkdir(path.join(sandbox, "plain-dir"), { recursive: true });
  await shell("environment_missing/git/not_a_repo", "environment_missing", "git", "git", ["status"], "Check the repository", { cwd: "plain-dir" });
  await shell("environment_missing/git/log_not_a_repo", "environment_missing", "git", "git", ["log", "--oneline", "-5"], "Review the history", { cwd: "plain-dir" });
  await write("repo-noid/file.txt", "x\n");
  execFileSync("git", ["init", "-q", path.join(sandbox, "repo-noid")]);
  execFileSync("git", ["-C", path.join(sandbox, "repo-noid"), "add", "."]);
  await shell("environment_missing/git/identity", "environment_missing", "git", "git", ["commit", "-m", "initial"], "Commit the changes", { cwd: "repo-noid", env: { HOME: path.join(sandbox, "empty-home"), GIT_CONFIG_NOSYSTEM: "1", EMAIL: "", GIT_AUTHOR_NAME: "", GIT_COMMITTER_NAME: "" } });
  await shell("environment_missing/npm/no_package_json", "environment_missing", "node", "npm", ["run", "build"], "Build the project", { cwd: "plain-dir" });
}

/**
 * Families added after the classifier's rules were frozen: other tools and ecosystems (rustc,
 * javac, perl modules, make, Slack/Stripe/Cloudflare/Vault bodies, …). Never tuned on.
 */
async function unseenCases(): Promise<void> {
  batch = "unseen";
  const available = ["kubectl", "terraform", "helm", "gh", "aws", "gcloud", "deno", "bun", "docker", "yq"].filter((b) => !exists(b));
  const missing = Array.from({ length: 8 }, (_, i) => available[i % available.length]);
  const goal = "Ship the release";
  // command_not_found
  await shell("command_not_found/unseen/nice", "command_not_found", "shell", "nice", [missing[0], "apply"], goal);
  await shell("command_not_found/unseen/nohup", "command_not_found", "shell", "nohup", [missing[1], "serve"], goal);
  await sh("command_not_found/unseen/exec", "command_not_found", "shell", `exec ${missing[2]} --version`, goal);
  await py("command_not_found/unseen/execvp", "command_not_found", `import os\nos.execvp(${JSON.stringify(missing[3])}, [${JSON.stringify(missing[3])}, "status"])`, goal);
  await node("command_not_found/unseen/execsync_shell", "command_not_found", `require("child_process").execSync(${JSON.stringify(`${missing[4]} deploy`)}, { stdio: "pipe" })`, goal);
  await shell("command_not_found/unseen/perl_exec", "command_not_found", "shell", "perl", ["-e", `exec("${missing[5]}", "login") or die "cannot exec ${missing[5]}: $!\n"`], goal);
  // permission_denied
  await asNobody("permission_denied/unseen/py_bind_80", "permission_denied", "python", `${PY} -m http.server 80`, "Serve the docs");
  await asNobody("permission_denied/unseen/node_listen_80", "permission_denied", "node", `/usr/bin/node -e "require('http').createServer().listen(80)"`, "Serve the app");
  await asNobody("permission_denied/unseen/cp_etc", "permission_denied", "shell", "cp /etc/hostname /etc/hostname.timeout-backup", "Back up the host name");
  await asNobody("permission_denied/unseen/git_init_root", "permission_denied", "git", "git init /root/syntax-repo", "Create the repository");
  await record("permission_denied/unseen/vault_403", "permission_denied", "http-api", "http", { url: `${base}/r/vault_403` }, "Read the secret");
  await record("permission_denied/unseen/keycloak_401", "permission_denied", "http-api", "http", { url: `${base}/r/keycloak_401` }, "Call the admin API");
  // invalid_arguments
  await shell("invalid_arguments/unseen/cp_operand", "invalid_arguments", "shell", "cp", ["big.log"], goal);
  await shell("invalid_arguments/unseen/chmod_mode", "invalid_arguments", "shell", "chmod", ["999", "big.log"], goal);
  await shell("invalid_arguments/unseen/unzip_missing", "invalid_arguments", "shell", "unzip", ["release-permissions.zip"], goal);
  await shell("invalid_arguments/unseen/git_push_remote", "invalid_arguments", "git", "git", ["push", "upstream-timeout", "HEAD"], goal, { cwd: "repo-small", env: { GIT_TERMINAL_PROMPT: "0" } });
  await shell("invalid_arguments/unseen/node_bad_flag", "invalid_arguments", "node", "node", ["--no-such-flag", "index.js"], goal);
  await shell("invalid_arguments/unseen/java_flag", "invalid_arguments", "shell", "java", ["-badflag", "-version"], goal);
  await shell("invalid_arguments/unseen/rustc_flag", "invalid_arguments", "shell", "rustc", ["--bogus"], goal);
  await record("invalid_arguments/unseen/stripe_404", "invalid_arguments", "http-api", "http", { url: `${base}/r/stripe_404` }, "Look up the customer");
  await record("invalid_arguments/unseen/method_405", "invalid_arguments", "http-api", "http", { url: `${base}/r/method_405`, method: "DELETE" }, "Delete the record");
  // timeout
  await shell("timeout/unseen/perl_alarm", "timeout", "shell", "perl", ["-e", "alarm 1; sleep 5"], "Wait for the lock");
  await shell("timeout/unseen/timeout_python", "timeout", "python", "timeout", ["0.3", "python3", "-c", "while True: pass"], "Run the solver");
  await py("timeout/unseen/asyncio", "timeout", "import asyncio\nasync def main():\n    await asyncio.wait_for(asyncio.sleep(5), timeout=0.2)\nasyncio.run(main())", "Wait for the queue");
  await shell("timeout/unseen/faultline_find", "timeout", "shell", "bash", ["-c", "while true; do sleep 0.05; done"], "Watch the directory", {}, ctx({ timeoutMs: 300 }));
  await shell("timeout/unseen/wget_slow", "timeout", "shell", "wget", ["-nv", "--tries=1", "--read-timeout=0.5", `${base}/slow/y`], "Download the report");
  // output_too_large
  await shell("output_too_large/unseen/base64", "output_too_large", "shell", "bash", ["-c", "head -c 300000 /dev/zero | base64"], "Encode the artefact", { maxOutputBytes: 16_384 });
  await shell("output_too_large/unseen/find", "output_too_large", "shell", "bash", ["-c", "find / -xdev 2>/dev/null"], "Find the config files", { maxOutputBytes: 8192 });
  await record("output_too_large/unseen/openai_max_length", "output_too_large", "llm-api", "http", { url: `${base}/r/openai_max_length`, method: "POST", body: { model: "gpt-4o" } }, "Summarise the document");
  await record("output_too_large/unseen/body_limit_413", "output_too_large", "http-api", "http", { url: `${base}/r/body_limit_413`, method: "POST", body: { data: "…" } }, "Upload the dataset");
  await shell("output_too_large/unseen/wget_413", "output_too_large", "shell", "wget", ["-nv", "--tries=1", `${base}/r/body_limit_413`], "Upload the dataset");
  // rate_limited
  await record("rate_limited/unseen/slack", "rate_limited", "http-api", "http", { url: `${base}/r/slack_429`, method: "POST", body: { text: "hi" } }, "Post to Slack");
  await record("rate_limited/unseen/cloudflare", "rate_limited", "http-api", "http", { url: `${base}/r/cloudflare_1015` }, "Scrape the status page");
  await record("rate_limited/unseen/github_secondary", "rate_limited", "http-api", "http", { url: `${base}/r/github_secondary`, method: "POST", body: { title: "x" } }, "Open the issues");
  await shell("rate_limited/unseen/wget_429", "rate_limited", "shell", "wget", ["-nv", "--tries=1", `${base}/r/slack_429`], "Post to Slack");
  // network_error
  await shell("network_error/unseen/git_ls_remote", "network_error", "git", "git", ["ls-remote", `http://127.0.0.1:${closedPort}/org/repo.git`], "List the branches", { env: { GIT_TERMINAL_PROMPT: "0" } });
  await py("network_error/unseen/smtp", "network_error", `import smtplib\nsmtplib.SMTP("127.0.0.1", ${closedPort}, timeout=3)`, "Send the report email");
  await node("network_error/unseen/net_connect", "network_error", `require("net").connect(${closedPort}, "127.0.0.1")`, "Connect to Redis");
  await py("network_error/unseen/gaierror", "network_error", `import socket\nsocket.getaddrinfo("db.internal.invalid", 5432)`, "Connect to the database");
  await shell("network_error/unseen/curl_https_refused", "network_error", "curl", "curl", ["-sS", `https://127.0.0.1:${closedPort}/health`], "Check the health endpoint");
  // syntax_error
  await write("gen/main.rs", "fn main() {\n    let timeout = 5\n    println!(\"{}\", timeout);\n}\n");
  await shell("syntax_error/unseen/rustc", "syntax_error", "shell", "rustc", ["--edition", "2021", "gen/main.rs", "-o", "gen/main"], "Build the tool");
  await write("gen/Main.java", "public class Main {\n  public static void main(String[] args) {\n    System.out.println(\"permission\")\n  }\n}\n");
  await shell("syntax_error/unseen/javac", "syntax_error", "shell", "javac", ["-d", "gen", "gen/Main.java"], "Build the tool");
  await write("gen/Makefile", "build:\n    echo building\n");
  await shell("syntax_error/unseen/makefile", "syntax_error", "shell", "make", ["-f", "gen/Makefile"], "Build the tool");
  await py("syntax_error/unseen/yaml", "syntax_error", "import yaml\nyaml.safe_load('retries: 3\\ntimeout: 30: 40\\n')", "Load the settings");
  await node("syntax_error/unseen/new_function", "syntax_error", "new Function('return { timeout: ')()", "Evaluate the template");
  await shell("syntax_error/unseen/perl_c", "syntax_error", "shell", "perl", ["-c", "-e", "if ($x { print 1 }"], "Check the script");
  // environment_missing
  await shell("environment_missing/unseen/perl_module", "environment_missing", "shell", "perl", ["-MJSON::XS", "-e", "print 1"], "Parse the JSON");
  await write("gen/uses.rs", "use serde::Deserialize;\nfn main() {}\n");
  await shell("environment_missing/unseen/rustc_crate", "environment_missing", "shell", "rustc", ["--edition", "2021", "gen/uses.rs", "-o", "gen/uses"], "Build the tool");
  await shell("environment_missing/unseen/make_no_makefile", "environment_missing", "shell", "make", [], "Build the project", { cwd: "plain-dir" });
  await shell("environment_missing/unseen/git_push_no_remote", "environment_missing", "git", "git", ["push"], "Publish the branch", { cwd: "repo-small", env: { GIT_TERMINAL_PROMPT: "0" } });
  await py("environment_missing/unseen/environ_webhook", "environment_missing", "import os\nurl = os.environ['SLACK_WEBHOOK_URL']", "Notify the channel");
  await write("src/chalk.mjs", "import chalk from 'chalk';\nconsole.log(chalk.red('x'));\n");
  await shell("environment_missing/unseen/esm_chalk", "environment_missing", "node", "node", ["src/chalk.mjs"], "Print the report");
  // tool_not_found (and a binary refused by the allowlist: permission_denied, a refusal by policy)
  for (const name of ["edit_file", "search_code", "fetch_url"]) await record(`tool_not_found/unseen/${name}`, "tool_not_found", "faultline", name, { path: "src" }, "Refactor the module");
  await record("permission_denied/unseen/not_allowed_make", "permission_denied", "faultline", "shell", { command: "make", args: ["build"] }, "Build the project", ctx({ allowedBinaries: ["git", "node"] }));
}

async function main(): Promise<void> {
  sandbox = await fs.mkdtemp(path.join(os.tmpdir(), "faultline-corpus-"));
  await fs.mkdir(path.join(sandbox, "empty-home"));
  const repo = path.join(sandbox, "repo-small");
  execFileSync("git", ["init", "-q", repo]);
  await fs.writeFile(path.join(repo, "README.md"), "hello\n".repeat(50));
  execFileSync("git", ["-C", repo, "-c", "user.email=a@b.c", "-c", "user.name=a", "add", "."]);
  execFileSync("git", ["-C", repo, "-c", "user.email=a@b.c", "-c", "user.name=a", "commit", "-qm", "init"]);
  const server = await startServer();
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closedPort = await freeLoopbackPort();
  try {
    await httpStatusCases();
    await networkCases();
    await timeoutCases();
    await outputCases();
    await commandNotFoundCases();
    await toolNotFoundCases();
    await permissionCases();
    await invalidArgumentCases();
    await syntaxCases();
    await environmentCases();
    await unseenCases();
  } finally {
    server.closeAllConnections();
    server.close();
    await fs.rm(sandbox, { recursive: true, force: true });
  }
  const seen = new Set<string>();
  for (const c of cases) {
    if (seen.has(c.id)) throw new Error(`duplicate case id ${c.id}`);
    seen.add(c.id);
  }
  // The sandbox path and ports differ per run: normalise them so the committed file is stable.
  const text = cases.map((c) => JSON.stringify(c)).join("\n").replaceAll(sandbox, "/tmp/sandbox").replaceAll(base, "http://127.0.0.1:41234").replaceAll(base.split(":").at(-1)!, "41234").replaceAll(String(closedPort), "41999");
  await fs.mkdir(path.dirname(OUT), { recursive: true });
  await fs.writeFile(OUT, `${text}\n`);
  const byLabel = new Map<string, number>();
  for (const c of cases) byLabel.set(c.label, (byLabel.get(c.label) ?? 0) + 1);
  console.log(`batches: ${cases.filter((c) => c.batch === "tuning").length} tuning, ${cases.filter((c) => c.batch === "unseen").length} unseen`);
  console.log(`${cases.length} cases → ${OUT}`);
  for (const [label, n] of [...byLabel].sort()) console.log(`  ${label.padEnd(20)} ${n}`);
  if (skipped.length) console.log(`skipped (did not fail):\n  ${skipped.join("\n  ")}`);
}

await main();
