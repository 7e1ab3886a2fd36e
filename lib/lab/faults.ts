import type { ErrorType } from "../diagnosis/types";
import type { ToolError } from "../tools/result";

/**
 * The faults a lab scenario injects, one per error type of ADR-0003's taxonomy (seed 003). Each is the
 * ToolError the real tool reports for that failure, worded as lib/tools words it (a refused binary, an
 * exit 127, EACCES, a 429 with Retry-After…), with the step's own command, URL or path in it: the
 * diagnosis reads it like any other failure and never sees the injected type, which is kept apart as
 * the ground truth that root-cause accuracy is measured against.
 */

export interface FaultCall {
  tool: string;
  args: Record<string, unknown>;
}

const str = (v: unknown, fallback: string) => (typeof v === "string" && v.trim() ? v : fallback);

/** What the call is, as the tools name it in their messages. */
function labelOf(call: FaultCall): { binary: string; label: string; target: string } {
  const a = call.args;
  if (call.tool === "shell") {
    const binary = str(a.command, "sh");
    const args = Array.isArray(a.args) ? a.args.map(String) : [];
    return { binary, label: `"${binary}"`, target: args.find((x) => !x.startsWith("-")) ?? "input.txt" };
  }
  if (call.tool === "http") {
    const url = str(a.url, "http://127.0.0.1:8080/");
    return { binary: "curl", label: `${str(a.method, "GET").toUpperCase()} ${url}`, target: url };
  }
  if (call.tool === "file") {
    const p = str(a.path, "data.txt");
    return { binary: "cat", label: `file ${str(a.op, "read")} ${p}`, target: p };
  }
  return { binary: call.tool, label: `the ${call.tool} call`, target: call.tool };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || "127.0.0.1:8080";
  } catch {
    return "127.0.0.1:8080";
  }
}

/** The ToolError of an injected fault of `type` on this call. `timeoutMs`: the call's time limit. */
export function faultError(type: ErrorType, call: FaultCall, timeoutMs: number): ToolError {
  const { binary, label, target } = labelOf(call);
  switch (type) {
    case "tool_not_found":
      return call.tool === "shell"
        ? { code: "NOT_ALLOWED", message: `"${binary}" is not on this mission's allowlist (allowed: none). Add it to allowedBinaries in the definition to let agents run it.`, details: { binary } }
        : { code: "UNKNOWN_TOOL", message: `There is no tool named "${call.tool}_browser". Available tools: shell, http, file, llm.` };
    case "command_not_found":
      return { code: "COMMAND_NOT_FOUND", exitCode: 127, errno: "ENOENT", stderr: `sh: 1: ${binary}: not found\n`, message: `"${binary}" was not found: it is not installed or not on PATH. Install it on the worker or fix the command name.` };
    case "permission_denied":
      return call.tool === "http"
        ? { code: "HTTP_ERROR", status: 403, message: `${label} returned 403 Forbidden (expected 2xx): permission denied for this resource.` }
        : { code: "PERMISSION_DENIED", errno: "EACCES", exitCode: call.tool === "shell" ? 1 : undefined, stderr: call.tool === "shell" ? `${binary}: ${target}: Permission denied\n` : undefined, message: `EACCES: permission denied, open '${target}'` };
    case "invalid_arguments":
      return call.tool === "shell"
        ? { code: "EXIT_NONZERO", exitCode: 2, stderr: `${binary}: unrecognized option '--frobnicate'\nUsage: ${binary} [OPTION]... FILE\nTry '${binary} --help' for more information.\n`, message: `"${binary}" exited with code 2: ${binary}: unrecognized option '--frobnicate'` }
        : { code: "INVALID_ARGS", message: `Invalid arguments for the ${call.tool} tool: ${call.tool === "http" ? "url: Invalid URL" : "op: Invalid option: expected one of \"read\"|\"write\"|\"list\""}. Fix the step's args in the mission definition.` };
    case "timeout":
      return call.tool === "shell"
        ? { code: "TIMEOUT", signal: "SIGTERM", message: `"${binary}" did not finish within ${timeoutMs} ms and was stopped. Raise the step's timeoutMs or make the command finish sooner.` }
        : { code: "TIMEOUT", message: `${label} did not complete within ${timeoutMs} ms. The server may be slow or unreachable; raise the step's timeoutMs or check the service.` };
    case "output_too_large":
      return call.tool === "http"
        ? { code: "OUTPUT_TOO_LARGE", message: `${label} returned a body larger than 1048576 bytes (status 200 OK), so reading stopped. Raise maxResponseBytes or request less data (pagination, filters).` }
        : { code: "OUTPUT_TOO_LARGE", message: `"${binary}" wrote more than 1048576 bytes to stdout and was stopped. Make it quieter (a quiet flag, or redirect to a file) or raise maxOutputBytes.` };
    case "rate_limited":
      return call.tool === "http"
        ? { code: "RATE_LIMITED", status: 429, retryAfterMs: 1000, message: `${label} was rate limited (429); the server asks to retry after 1 s.` }
        : { code: "EXIT_NONZERO", exitCode: 22, stderr: `curl: (22) The requested URL returned error: 429 Too Many Requests\n`, message: `"${binary}" exited with code 22: curl: (22) The requested URL returned error: 429` };
    case "network_error":
      return call.tool === "http"
        ? { code: "CONNECTION_REFUSED", errno: "ECONNREFUSED", message: `${label} failed: connection refused (ECONNREFUSED). Is the service running and listening on that host and port?` }
        : { code: "EXIT_NONZERO", exitCode: 7, stderr: `curl: (7) Failed to connect to ${hostOf(target)}: Connection refused\n`, message: `"${binary}" exited with code 7: curl: (7) Failed to connect: Connection refused` };
    case "syntax_error":
      return { code: "EXIT_NONZERO", exitCode: 1, stderr: `${target}:3\n  if (ready {\n            ^\n\nSyntaxError: Unexpected token '{'\n    at wrapSafe (node:internal/modules/cjs/loader:1469:18)\n`, message: `"${call.tool === "shell" ? binary : "node"}" exited with code 1: SyntaxError: Unexpected token '{'` };
    case "environment_missing":
      return { code: "EXIT_NONZERO", exitCode: 1, stderr: `node:internal/modules/cjs/loader:1228\n  throw err;\n  ^\n\nError: Cannot find module 'left-pad'\nRequire stack:\n- ${target}\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15) {\n  code: 'MODULE_NOT_FOUND'\n}\n`, message: `"${call.tool === "shell" ? binary : "node"}" exited with code 1: Error: Cannot find module 'left-pad'` };
  }
}

/** An infrastructure outage as a tool sees it: the service it calls is not there. */
export function outageError(call: FaultCall, service: string): ToolError {
  const { label, binary } = labelOf(call);
  return call.tool === "http"
    ? { code: "CONNECTION_REFUSED", errno: "ECONNREFUSED", message: `${label} failed: connection refused (ECONNREFUSED). Is the service running and listening on that host and port?` }
    : { code: "EXIT_NONZERO", exitCode: 7, stderr: `${binary}: could not connect to ${service}: Connection refused\n`, message: `"${binary}" exited with code 7: could not connect to ${service}: Connection refused` };
}
