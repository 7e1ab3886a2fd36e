import type { Classification, Facts } from "./classify";
import type { DiagnosedType, InputContext, RecoveryStep } from "./types";

/**
 * Recovery strategy templates, one per type of the taxonomy (and `unknown`), in the form of the
 * ADR's four ("If: … Then: 1. … 2. … 3. …"), plus what the template knows to explain and fix it:
 * the causal sentences of the why-chain (why2 onwards), the strategies with concrete steps on
 * Faultline's tools, and the pattern worth learning.
 *
 * Steps use Faultline's tools — `shell` ({command, args}: one binary, no shell, so shell syntax goes
 * through `sh -c`), `http` ({url, method}), `file` ({op, path}) — and two pseudo-tools: `gate`
 * ({question}) for a step only a person can do (the orchestrator turns it into a gate), and `retry`
 * (args: the changes to the failed call's arguments; `timeoutFactor` scales the step's time limit)
 * for re-running the failed call itself, whose own evidence then says whether the recovery worked.
 */

export interface TemplateContext {
  input: InputContext;
  cls: Classification;
  f: Facts;
}

export interface StrategyTemplate {
  strategy: string;
  /** Faultline tools the steps use ("gate" = ask the operator). */
  tools: string[];
  /** Prior confidence that this strategy recovers, before weighing the classification's own confidence. */
  confidence: number | ((c: TemplateContext) => number);
  estimatedIterations: number;
  /**
   * The orchestrator may apply this strategy without a person (`recovery: auto`): its steps are concrete,
   * they change what the failed call meets (time passes, a limit grows, a dependency is installed), and
   * it ends by re-running the failed call, so its success is decided by that call's own evidence.
   */
  auto?: boolean;
  /** When absent, the strategy always applies. */
  applies?: (c: TemplateContext) => boolean;
  describe: (c: TemplateContext) => string;
  steps: (c: TemplateContext) => RecoveryStep[];
}

export interface RecoveryTemplate {
  /** The ADR's "If:" line. */
  when: string;
  /** The ADR's numbered "Then:" lines. */
  then: string[];
  /** why2: the direct cause, from the evidence. */
  cause: (c: TemplateContext) => string;
  /** why3…why5: the assumption, the missing safeguard, the systemic gap. */
  deeper: (c: TemplateContext) => [string, string, string];
  strategies: StrategyTemplate[];
  learning: (c: TemplateContext) => { trigger: string; generalizability: number };
}

// ---------------------------------------------------------------- step builders

export function shellStep(action: string, command: string, args: string[], expectedOutcome: string): RecoveryStep {
  return { action, tool: "shell", args: { command, args }, expectedOutcome };
}
/** A step that needs shell syntax (pipes, ||, builtins): run through sh -c. */
export function shStep(action: string, script: string, expectedOutcome: string): RecoveryStep {
  return shellStep(action, "sh", ["-c", script], expectedOutcome);
}
export function httpStep(action: string, url: string, method: string, expectedOutcome: string): RecoveryStep {
  return { action, tool: "http", args: { url, method }, expectedOutcome };
}
export function fileStep(action: string, op: "read" | "write" | "list", path: string, expectedOutcome: string): RecoveryStep {
  return { action, tool: "file", args: { op, path }, expectedOutcome };
}
export function askStep(question: string, expectedOutcome: string): RecoveryStep {
  return { action: question, tool: "gate", args: { question }, expectedOutcome };
}
/** Re-run the failed call, with these changes to its arguments (the `retry` pseudo-tool). */
function retryStep(_c: TemplateContext, action: string, argsPatch: Record<string, unknown>, expectedOutcome: string): RecoveryStep {
  return { action, tool: "retry", args: argsPatch, expectedOutcome };
}

// ---------------------------------------------------------------- wording helpers

const q = (s: string | undefined, fallback: string) => (s ? `'${s}'` : fallback);
const quote = (line: string | undefined) => (line ? ` ("${line.length > 160 ? `${line.slice(0, 160)}…` : line}")` : "");
const dirOf = (p: string) => (p.includes("/") ? p.slice(0, p.lastIndexOf("/")) || "/" : ".");
const baseOf = (p: string) => p.split("/").filter(Boolean).at(-1) ?? p;
/** Shell-quote one word for sh -c. */
const shq = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** Well-known stand-ins for a missing or forbidden binary. */
const EQUIVALENTS: Record<string, string[]> = {
  wget: ["curl"],
  curl: ["wget"],
  git: ["curl", "wget"],
  unzip: ["bsdtar", "python3"],
  tar: ["bsdtar", "python3"],
  python: ["python3"],
  python3: ["python"],
  pip: ["pip3", "python3"],
  pip3: ["pip", "python3"],
  node: ["nodejs", "deno", "bun"],
  npm: ["pnpm", "yarn"],
  yarn: ["npm", "pnpm"],
  pnpm: ["npm", "yarn"],
  jq: ["python3", "node"],
  rg: ["grep"],
  ripgrep: ["grep"],
  fd: ["find"],
  vim: ["sed"],
  nc: ["curl"],
  docker: ["podman"],
  podman: ["docker"],
};

function missingBinary(f: Facts): string | undefined {
  return f.missingCommand ?? f.binary;
}

function equivalentsOf(bin: string | undefined): string[] {
  return (bin && EQUIVALENTS[bin.toLowerCase()]) || [];
}

/** A tarball URL for a GitHub repository mentioned in the args or the goal. */
function repoTarball(c: TemplateContext): { url: string; dir: string } | undefined {
  const text = `${JSON.stringify(c.input.failure.args)} ${c.input.context.taskGoal}`;
  const m = /https?:\/\/github\.com\/([\w.-]+)\/([\w.-]+?)(?:\.git)?(?=[\s"'/]|$)/.exec(text);
  return m ? { url: `https://github.com/${m[1]}/${m[2]}/archive/refs/heads/main.tar.gz`, dir: `${m[2]}-main` } : undefined;
}

function languageOf(f: Facts): "node" | "python" | "bash" | "json" | undefined {
  const hay = `${f.binary ?? ""} ${f.commandLine ?? ""} ${f.path ?? ""} ${f.exception ?? ""} ${f.decisiveLine ?? ""}`;
  if (/JSON|\.json\b/.test(hay)) return "json";
  if (/python|\.py\b|IndentationError|TabError/.test(hay)) return "python";
  if (/\bnode\b|\.m?js\b|\.ts\b|tsx|npm/.test(hay)) return "node";
  if (/\b(?:ba|da|z)?sh\b|\.sh\b/.test(hay)) return "bash";
  return undefined;
}

function scriptPath(c: TemplateContext): string | undefined {
  const fromArgs = (Array.isArray(c.input.failure.args.args) ? c.input.failure.args.args : []).map(String).find((a) => /\.(?:m?js|cjs|ts|py|sh|json)$/.test(a));
  return fromArgs ?? (c.f.path && /\.\w{1,5}$/.test(c.f.path) ? c.f.path : undefined);
}

/** A runner's own verb is missing (a subcommand, task or script of git, docker, cargo, npm…), not one of the agent's tools. */
function isRunnerVerb(category: string): boolean {
  return category === "unknown_subcommand" || category === "unknown_task";
}

/** Another binary that is on the allowlist and does the same job (refused or missing binaries). */
const USE_ALLOWLISTED_BINARY: StrategyTemplate = {
  strategy: "use_allowlisted_binary",
  tools: ["shell"],
  confidence: (c) => (equivalentsOf(c.f.binary).some((b) => c.f.allowedBinaries?.includes(b)) ? 0.85 : 0.5),
  estimatedIterations: 2,
  applies: (c) => c.cls.category === "binary_not_allowlisted",
  describe: (c) => {
    const alt = equivalentsOf(c.f.binary).find((b) => c.f.allowedBinaries?.includes(b));
    return alt ? `Use the allowlisted '${alt}' instead of '${c.f.binary}'` : `Pick an allowlisted binary (${c.f.allowedBinaries?.join(", ") ?? "see the definition"}) that can do what '${c.f.binary ?? "the binary"}' was meant to do`;
  },
  steps: (c) => {
    const alt = equivalentsOf(c.f.binary).find((b) => c.f.allowedBinaries?.includes(b)) ?? c.f.allowedBinaries?.[0] ?? "sh";
    return [shellStep(`Check that '${alt}' works`, alt, ["--version"], `'${alt}' prints its version`), shellStep(`Redo the step with '${alt}'`, alt, [], "The step's goal is reached with an allowed binary")];
  },
};

/** Fetch with Faultline's own http tool instead of a binary (curl, wget, git). */
function useHttpTool(applies?: StrategyTemplate["applies"]): StrategyTemplate {
  return {
    strategy: "use_http_tool",
    tools: ["http"],
    confidence: (c) => (/curl|wget|git|fetch/.test(c.f.binary ?? c.input.failure.tool) ? 0.75 : 0.35),
    estimatedIterations: 2,
    ...(applies ? { applies } : {}),
    describe: () => "Fetch what is needed with Faultline's http tool, which needs no binary",
    steps: (c) => [httpStep("Download with the http tool", repoTarball(c)?.url ?? (typeof c.input.failure.args.url === "string" ? c.input.failure.args.url : "https://example.invalid/"), "GET", "A 2xx response with the content")],
  };
}

/** The failed call described for a sentence: "shell command 'git clone …'", "HTTP GET …", "file read of 'x'". */
export function describeCall(c: Pick<TemplateContext, "input" | "f">): string {
  const { f } = c;
  if (f.commandLine) return `Shell command '${f.commandLine.length > 120 ? `${f.commandLine.slice(0, 120)}…` : f.commandLine}'`;
  if (f.url) return `HTTP ${f.method ?? "GET"} ${f.url}`;
  const op = c.input.failure.args.op;
  if (typeof op === "string" && f.path) return `File ${op} of '${f.path}'`;
  return `Tool '${c.input.failure.tool}'`;
}

function isLlmCall(c: TemplateContext): boolean {
  return !!c.f.providerCode || /\b(?:openai|anthropic|chat\/completions|\/v1\/messages|completions|model)\b/i.test(`${c.f.url ?? ""} ${c.f.decisiveLine ?? ""}`);
}

function askUser(strategy: string, confidence: StrategyTemplate["confidence"], question: (c: TemplateContext) => string): StrategyTemplate {
  return {
    strategy,
    tools: ["gate"],
    confidence,
    estimatedIterations: 1,
    describe: (c) => question(c),
    steps: (c) => [askStep(question(c), "The operator answers at a gate (fix applied, alternative given, or abort)")],
  };
}

// ---------------------------------------------------------------- the templates

/** Faultline tool that covers the purpose a missing tool's name suggests. */
export function toolForPurpose(name: string, available: readonly string[]): string | undefined {
  const n = name.toLowerCase();
  const wanted = /read|write|file|dir|fs|ls|cat|edit|save/.test(n)
    ? "file"
    : /http|fetch|url|web|request|api|curl|download|browse|search|get/.test(n)
      ? "http"
      : /bash|shell|exec|run|cmd|command|terminal|git|repo|python|node|script/.test(n)
        ? "shell"
        : undefined;
  const pool = available.length ? available : ["shell", "http", "file"];
  return wanted && pool.includes(wanted) ? wanted : undefined;
}

export const RECOVERY_TEMPLATES: Record<DiagnosedType, RecoveryTemplate> = {
  tool_not_found: {
    when: "Tool not in allowlist (no tool by that name, or a binary the mission does not allow)",
    then: ["Check available tools for similar functionality", "Suggest built-in alternative (shell, http, file)", "Ask user to enable tool if appropriate"],
    cause: ({ input, f, cls }) =>
      cls.category === "binary_not_allowlisted"
        ? `Binary ${q(f.binary, "the binary")} is not on this mission's allowlist${f.allowedBinaries ? ` (allowed: ${f.allowedBinaries.join(", ")})` : ""}`
        : isRunnerVerb(cls.category)
          ? `${q(f.binary, "The program")} has no ${cls.category === "unknown_task" ? "task or script" : "subcommand"} by the name given (mistyped, or its plugin is not installed)${quote(f.decisiveLine)}`
          : `No tool named '${input.failure.tool}' is available${input.context.availableTools.length ? ` (available: ${input.context.availableTools.join(", ")})` : ""}`,
    deeper: ({ input }) => [
      `The agent chose '${input.failure.tool}' from habit or another environment instead of the tools this mission provides`,
      "The plan was not checked against the mission's tool allowlist before execution",
      "Tool capabilities are not introspected and offered to the agent when it plans",
    ],
    strategies: [
      {
        strategy: "use_equivalent_available_tool",
        tools: ["shell", "http", "file"],
        confidence: (c) => (toolForPurpose(c.input.failure.tool, c.input.context.availableTools) ? 0.85 : 0.45),
        estimatedIterations: 1,
        applies: (c) => c.cls.category !== "binary_not_allowlisted" && !isRunnerVerb(c.cls.category),
        describe: (c) => `Do the same work with the built-in '${toolForPurpose(c.input.failure.tool, c.input.context.availableTools) ?? "shell"}' tool`,
        steps: (c) => {
          const tool = toolForPurpose(c.input.failure.tool, c.input.context.availableTools) ?? "shell";
          const a = c.input.failure.args;
          const path = typeof a.path === "string" ? a.path : ".";
          if (tool === "file") return [fileStep(`Use the file tool instead of '${c.input.failure.tool}'`, /write|save|edit/.test(c.input.failure.tool) ? "write" : /dir|ls|list/.test(c.input.failure.tool) ? "list" : "read", path, "The file or listing is returned")];
          if (tool === "http") return [httpStep(`Use the http tool instead of '${c.input.failure.tool}'`, typeof a.url === "string" ? a.url : repoTarball(c)?.url ?? "https://example.invalid/", "GET", "A 2xx response with the content")];
          const command = typeof a.command === "string" ? a.command : `echo ${shq(c.input.context.taskGoal || "no command given")}`;
          return [shStep(`Run the equivalent command with the shell tool instead of '${c.input.failure.tool}'`, command, "Exit code 0 with the expected output")];
        },
      },
      USE_ALLOWLISTED_BINARY,
      {
        strategy: "list_runner_commands",
        tools: ["shell"],
        confidence: 0.8,
        estimatedIterations: 2,
        applies: (c) => isRunnerVerb(c.cls.category) && !!c.f.binary,
        describe: (c) => `List what '${c.f.binary}' can run (its subcommands, tasks or scripts) and redo the step with the right name, or install the plugin that provides it`,
        steps: (c) => {
          const bin = c.f.binary ?? "the-program";
          return [
            shStep(`List the commands '${bin}' knows`, `${shq(bin)} --help 2>&1 | head -n 80; ${shq(bin)} help -a 2>/dev/null | head -n 80 || true`, "The program's own list of subcommands or tasks"),
            shStep("Redo the step with the name the list shows", `echo 'rerun ${bin} with a subcommand from the list'`, "The step's goal is reached with an existing subcommand or task"),
          ];
        },
      },
      useHttpTool(),
      {
        strategy: "inspect_capabilities",
        tools: ["shell"],
        confidence: 0.45,
        estimatedIterations: 1,
        describe: (c) => `List what this environment can do (available tools: ${c.input.context.availableTools.join(", ") || "unknown"}) and re-plan with it`,
        steps: () => [shStep("List usable binaries", "for b in sh curl wget git python3 node tar; do command -v $b; done", "Paths of the binaries that exist")],
      },
      askUser("request_tool_enablement", 0.55, (c) =>
        c.cls.category === "binary_not_allowlisted"
          ? `Allow '${c.f.binary}' in this mission's allowedBinaries, or name an alternative?`
          : isRunnerVerb(c.cls.category)
            ? `Install the plugin that gives '${c.f.binary ?? "the program"}' this command, or name the command to use instead?`
            : `Enable a tool that does what '${c.input.failure.tool}' was meant to do, or name an alternative?`,
      ),
    ],
    learning: (c) => ({
      trigger: isRunnerVerb(c.cls.category) ? `${c.f.binary ?? c.input.failure.tool}_${c.cls.category}` : `${c.cls.category === "binary_not_allowlisted" ? c.f.binary : c.input.failure.tool}_not_available`,
      generalizability: 0.8,
    }),
  },

  command_not_found: {
    when: "Command not found (exit 127, spawn ENOENT)",
    then: ["Check if alternative tool exists (curl vs wget, tar vs unzip)", "Try HTTP download + manual extraction", "Ask user to install binary or provide workaround"],
    cause: ({ f }) => `Binary ${q(missingBinary(f), "the command")} not found in PATH${quote(f.decisiveLine)}`,
    deeper: ({ f }) => [
      `The agent assumed ${q(missingBinary(f), "the command")} would be available without a pre-flight check (command -v ${missingBinary(f) ?? "<binary>"})`,
      `No fallback was prepared for an environment without ${q(missingBinary(f), "that binary")}`,
      "The system lacks a tool capability introspection mechanism for the worker's environment",
    ],
    strategies: [
      {
        strategy: "curl_download_and_extract",
        tools: ["shell"],
        confidence: 0.9,
        estimatedIterations: 3,
        applies: (c) => !!repoTarball(c),
        describe: () => "Download the repository tarball via curl and extract it with tar",
        steps: (c) => {
          const repo = repoTarball(c)!;
          return [
            shellStep("Download the repository tarball", "curl", ["-fsSL", repo.url, "-o", "repo.tar.gz"], "repo.tar.gz created in the workspace"),
            shellStep("Extract the tarball", "tar", ["-xzf", "repo.tar.gz"], `Repository files extracted to ${repo.dir}/`),
            fileStep("Verify the extraction", "list", repo.dir, "The listing shows the repository structure"),
          ];
        },
      },
      {
        strategy: "use_alternative_binary",
        tools: ["shell"],
        confidence: (c) => (equivalentsOf(missingBinary(c.f)).length ? 0.75 : 0.4),
        estimatedIterations: 2,
        describe: (c) => {
          const alts = equivalentsOf(missingBinary(c.f));
          return alts.length ? `Use an installed alternative to '${missingBinary(c.f)}' (${alts.join(", ")})` : `Look for another installed program that does what '${missingBinary(c.f) ?? "the command"}' does`;
        },
        steps: (c) => {
          const bin = missingBinary(c.f) ?? "the-binary";
          const alts = equivalentsOf(bin);
          return [
            shStep(`Look for '${bin}' and its alternatives`, `for b in ${[bin, ...alts].map(shq).join(" ")}; do command -v "$b"; done; ls /usr/local/bin /usr/bin | grep -i ${shq(bin.slice(0, 3))} || true`, "The path of an installed alternative (or the binary in a non-PATH location)"),
            shStep("Re-run the step with the alternative found", alts[0] ? `command -v ${shq(alts[0])} && ${shq(alts[0])} --version` : `echo 'no alternative to ${bin} found'`, "The alternative runs and produces the expected result"),
          ];
        },
      },
      {
        strategy: "install_missing_binary",
        tools: ["shell"],
        confidence: 0.5,
        estimatedIterations: 2,
        describe: (c) => `Install '${missingBinary(c.f) ?? "the binary"}' with the system package manager, if the worker allows it`,
        steps: (c) => {
          const bin = shq(missingBinary(c.f) ?? "the-binary");
          return [
            shStep(`Install ${bin}`, `(apt-get install -y ${bin} || apk add ${bin} || dnf install -y ${bin}) 2>&1 | tail -n 5`, `${bin} installed`),
            shStep(`Verify ${bin}`, `command -v ${bin}`, `The path of ${bin}`),
          ];
        },
      },
      {
        strategy: "manual_http_download",
        tools: ["http", "file"],
        confidence: (c) => (/curl|wget|git/.test(missingBinary(c.f) ?? "") ? 0.6 : 0.3),
        estimatedIterations: 4,
        describe: () => "Fetch the needed files over HTTP with the http tool and write them with the file tool",
        steps: (c) => [
          httpStep("Download the content with the http tool", repoTarball(c)?.url ?? "https://example.invalid/", "GET", "A 2xx response with the content"),
          fileStep("Check what was written", "list", ".", "The downloaded files are in the workspace"),
        ],
      },
      askUser("request_user_setup", 0.6, (c) => `Install '${missingBinary(c.f) ?? "the missing binary"}' on the worker, or provide an alternative?`),
    ],
    learning: (c) => ({ trigger: `${missingBinary(c.f) ?? "binary"}_command_not_found`, generalizability: 0.85 }),
  },

  permission_denied: {
    when: "Permission denied error (EACCES/EPERM, exit 126, HTTP 401/403, a path outside the sandbox, a refusal by policy or allowlist)",
    then: ["Check TOOLS_FS_ROOT sandbox boundaries", "Try writing to allowed directory", "Ask user to adjust permissions or use sudo"],
    cause: ({ f, cls }) =>
      cls.category === "binary_not_allowlisted"
        ? `Binary ${q(f.binary, "the binary")} is not on this mission's allowlist${f.allowedBinaries ? ` (allowed: ${f.allowedBinaries.join(", ")})` : ""}: refused by policy, not missing`
        : cls.category === "policy_refusal"
          ? `The action was refused by a policy, allowlist or approval rule${quote(f.decisiveLine)}`
          : cls.category === "credentials_rejected"
        ? `The server ${f.host ? `at ${f.host} ` : ""}rejected the request's credentials${f.status ? ` (HTTP ${f.status})` : ""}${quote(f.decisiveLine)}`
        : cls.category === "sandbox_boundary"
          ? `The path ${q(f.path, "requested")} lies outside the mission workspace${quote(f.decisiveLine)}`
          : cls.category === "not_executable"
            ? `${q(f.path ?? f.missingCommand ?? f.binary, "The file")} exists but is not executable for this user${quote(f.decisiveLine)}`
            : `The process lacks permission on ${q(f.path, "the target")}${quote(f.decisiveLine)}`,
    deeper: ({ cls }) =>
      cls.category === "binary_not_allowlisted" || cls.category === "policy_refusal"
        ? ["The agent chose an action the mission's policy does not allow", "The plan was not checked against the allowlist and policy before execution", "What the policy allows is not offered to the agent when it plans"]
        : cls.category === "credentials_rejected"
        ? ["The agent used a key or token without checking that it is valid and scoped for this resource", "Credentials are not validated before the first real call", "There is no credential health check in the mission's setup"]
        : ["The agent assumed it could write or run anywhere instead of inside its workspace", "The target location was not checked for ownership and mode before acting", "The sandbox boundaries (workspace root, allowed directories) are not surfaced to the agent"],
    strategies: [
      askUser("allow_and_retry", (c) => (c.cls.category === "binary_not_allowlisted" ? 0.85 : 0.6), (c) =>
        c.cls.category === "binary_not_allowlisted" ? `Allow '${c.f.binary ?? "the binary"}' for this mission and retry?` : "Allow this action under the mission's policy and retry, or name a permitted alternative?",
      ),
      USE_ALLOWLISTED_BINARY,
      useHttpTool((c) => c.cls.category === "binary_not_allowlisted"),
      {
        strategy: "use_permitted_alternative",
        tools: ["shell"],
        confidence: 0.45,
        estimatedIterations: 2,
        applies: (c) => c.cls.category === "binary_not_allowlisted" || c.cls.category === "policy_refusal",
        describe: () => "Reach the step's goal with a command or tool the policy permits",
        steps: () => [shStep("List usable binaries", "for b in sh curl wget git python3 node tar; do command -v $b; done", "Paths of the binaries that exist")],
      },
      {
        strategy: "run_through_interpreter",
        tools: ["shell"],
        confidence: 0.85,
        estimatedIterations: 1,
        applies: (c) => c.cls.category === "not_executable",
        describe: (c) => `Run ${q(c.f.path ?? c.f.binary, "the script")} through its interpreter instead of executing it directly`,
        steps: (c) => [shellStep("Run the script with sh", "sh", [c.f.path ?? c.f.binary ?? "script.sh"], "The script runs without needing the execute bit")],
      },
      {
        strategy: "use_workspace_directory",
        tools: ["file"],
        confidence: 0.75,
        estimatedIterations: 1,
        applies: (c) => !["credentials_rejected", "binary_not_allowlisted", "policy_refusal"].includes(c.cls.category),
        describe: (c) => `Write to a path inside the workspace (e.g. './${baseOf(c.f.path ?? "output")}') instead of ${q(c.f.path, "the protected location")}`,
        steps: (c) => [fileStep("Write the result inside the workspace", "write", baseOf(c.f.path ?? "output.txt"), "The file is written inside the workspace"), fileStep("Confirm the file exists", "list", ".", "The new file is listed")],
      },
      {
        strategy: "inspect_permissions",
        tools: ["shell"],
        confidence: 0.6,
        estimatedIterations: 1,
        applies: (c) => !["credentials_rejected", "binary_not_allowlisted", "policy_refusal"].includes(c.cls.category),
        describe: (c) => `Inspect owner and mode of ${q(c.f.path, "the target")} and the current user`,
        steps: (c) => [shStep("Show owner, mode and user", `id; ls -ld ${shq(c.f.path ?? ".")} ${shq(dirOf(c.f.path ?? "."))}`, "The owner/mode shows which permission is missing")],
      },
      {
        strategy: "verify_credentials",
        tools: ["shell", "http"],
        confidence: 0.55,
        estimatedIterations: 2,
        applies: (c) => c.cls.category === "credentials_rejected",
        describe: (c) => `Check which credential is sent to ${c.f.host ?? "the service"} and whether it is valid for this resource`,
        steps: (c) => [
          shStep("List credential variables that are set (names only)", "env | cut -d= -f1 | grep -Ei 'key|token|secret|auth' || true", "The credential variable the request uses is present"),
          httpStep("Probe the service with the same credentials", c.f.url ? new URL(c.f.url).origin : "https://example.invalid/", "GET", "A 2xx shows the credentials work for the service"),
        ],
      },
      {
        strategy: "use_alternative_resource",
        tools: ["http"],
        confidence: 0.4,
        estimatedIterations: 2,
        applies: (c) => c.cls.category === "credentials_rejected",
        describe: () => "Use a resource or model this key is allowed to access",
        steps: (c) => [httpStep("List what the credentials can access", c.f.url ? `${new URL(c.f.url).origin}/v1/models` : "https://example.invalid/", "GET", "A list of accessible resources")],
      },
      {
        ...askUser("request_permission_change", (c) => (c.cls.category === "credentials_rejected" ? 0.85 : 0.5), (c) =>
          c.cls.category === "credentials_rejected" ? `Provide a valid credential for ${c.f.host ?? "the service"} (the current one was rejected)?` : `Grant access to ${q(c.f.path, "the target")} (or run the step with more privileges)?`,
        ),
        applies: (c) => c.cls.category !== "binary_not_allowlisted",
      },
    ],
    learning: (c) => ({ trigger: `${c.cls.category}_${c.f.host ?? baseOf(dirOf(c.f.path ?? "path"))}`, generalizability: 0.7 }),
  },

  invalid_arguments: {
    when: "Tool parameters incorrect/malformed (usage error, unknown option, missing path, HTTP 400/404/422)",
    then: ["Read the error for the parameter it names", "Verify the referenced path/resource exists", "Retry with corrected arguments", "Ask user for the correct value"],
    cause: ({ f, cls }) =>
      cls.category === "path_not_found"
        ? `The path ${q(f.path, "given in the arguments")} does not exist${quote(f.decisiveLine)}`
        : cls.category === "resource_not_found"
          ? `The requested resource does not exist${f.status ? ` (HTTP ${f.status})` : ""}${quote(f.decisiveLine)}`
          : `${f.binary ? `'${f.binary}'` : "The tool"} rejected its arguments${f.status ? ` (HTTP ${f.status})` : ""}${quote(f.decisiveLine)}`,
    deeper: () => [
      "The agent built the arguments from assumptions instead of from the tool's documented interface or the workspace state",
      "Arguments were not validated (usage, schema, existence of referenced paths) before the call",
      "The tool's interface and the workspace contents are not provided to the agent when it plans",
    ],
    strategies: [
      {
        strategy: "verify_referenced_resource",
        tools: ["file", "http"],
        confidence: (c) => (c.cls.category === "path_not_found" || c.cls.category === "resource_not_found" ? 0.8 : 0.5),
        estimatedIterations: 1,
        describe: (c) => `Check what actually exists near ${q(c.f.path ?? c.f.url, "the referenced resource")} and use the right name`,
        steps: (c) =>
          c.f.url
            ? [httpStep("Request the parent resource to see what exists", c.f.url.replace(/\/[^/]*\/?$/, "/"), "GET", "A listing or index of existing resources")]
            : [fileStep("List the directory of the referenced path", "list", c.f.path && !c.f.path.startsWith("/") ? dirOf(c.f.path) : ".", "The listing shows the correct name")],
      },
      {
        strategy: "correct_arguments_from_usage",
        tools: ["shell"],
        confidence: (c) => (c.f.binary ? 0.75 : 0.5),
        estimatedIterations: 2,
        describe: (c) => `Read ${q(c.f.binary, "the tool")}'s usage and fix the argument the error names`,
        steps: (c) =>
          c.f.binary
            ? [shellStep(`Read the usage of ${c.f.binary}`, c.f.binary, ["--help"], "The usage text lists the valid options"), retryStep(c, "Retry with the corrected arguments", {}, "The command succeeds")]
            : [retryStep(c, "Retry with the arguments the error message asks for", {}, "The call succeeds")],
      },
      {
        strategy: "retry_with_minimal_arguments",
        tools: ["shell", "http", "file"],
        confidence: 0.45,
        estimatedIterations: 2,
        describe: () => "Retry with only the required arguments, then add options back one at a time",
        steps: (c) => [retryStep(c, "Retry with only the required arguments", Array.isArray(c.input.failure.args.args) ? { args: (c.input.failure.args.args as unknown[]).slice(0, 1) } : {}, "The minimal call succeeds, isolating the bad option")],
      },
      askUser("ask_user_for_correct_arguments", 0.4, (c) => `What is the correct value for the argument rejected by ${describeCall(c)}?`),
    ],
    learning: (c) => ({ trigger: `${c.f.binary ?? c.input.failure.tool}_${c.cls.category}`, generalizability: 0.5 }),
  },

  timeout: {
    when: "Operation times out (exit 124, ETIMEDOUT, HTTP 408/504, time limit reached)",
    then: ["Reduce scope (fewer files, smaller dataset)", "Add streaming/chunking", "Increase timeout limit", "Ask user if long-running OK"],
    cause: ({ f }) => `${f.binary ? `'${f.binary}'` : f.host ?? "The operation"} did not finish within its time limit${f.status ? ` (HTTP ${f.status})` : f.exitCode ? ` (exit code ${f.exitCode})` : ""}${quote(f.decisiveLine)}`,
    deeper: () => [
      "The agent underestimated how long the operation takes for this input size or service",
      "The work was not split into smaller or streamed chunks that fit the step's time limit",
      "Time limits are not tuned per operation and the agent gets no estimate of cost before acting",
    ],
    strategies: [
      {
        strategy: "reduce_scope",
        tools: ["file", "shell"],
        confidence: 0.75,
        estimatedIterations: 2,
        describe: () => "Reduce scope: run on fewer files or a smaller dataset first",
        steps: (c) => [fileStep("Measure the input", "list", ".", "The number and size of inputs is known"), retryStep(c, "Re-run on a subset (one directory, a --limit, a smaller range)", {}, "The smaller run finishes within the limit")],
      },
      {
        strategy: "stream_in_chunks",
        tools: ["shell", "file"],
        confidence: 0.6,
        estimatedIterations: 3,
        describe: () => "Run in chunks and stream progress to a file, reading it as it grows",
        steps: (c) => [
          shStep("Run in the background, writing progress to a file", `(${c.f.commandLine ?? "the command"}) > progress.log 2>&1 &`, "progress.log grows while the work continues"),
          fileStep("Read the progress", "read", "progress.log", "Partial results are available"),
        ],
      },
      {
        strategy: "retry_with_backoff",
        auto: true,
        tools: ["shell", "http"],
        confidence: (c) => (c.f.status === 408 || c.f.status === 504 || c.input.failure.tool === "http" ? 0.7 : 0.35),
        estimatedIterations: 2,
        describe: () => "The service may have been slow only momentarily: wait, then retry once",
        steps: (c) => [shellStep("Wait before retrying", "sleep", ["5"], "5 s pass"), retryStep(c, "Retry the call", {}, "The call completes within the limit")],
      },
      {
        strategy: "increase_timeout",
        auto: true,
        tools: ["shell", "http"],
        confidence: 0.5,
        estimatedIterations: 1,
        describe: () => "Increase the step's timeoutMs (for example double it) and retry",
        steps: (c) => [retryStep(c, "Retry with the step's time limit doubled", { timeoutFactor: 2 }, "The operation completes within the longer limit")],
      },
      askUser("ask_user_long_running", 0.4, (c) => `${describeCall(c)} needs more time than allowed. Is a long-running step acceptable?`),
    ],
    learning: (c) => ({ trigger: `${c.f.binary ?? c.f.host ?? c.input.failure.tool}_timeout`, generalizability: 0.65 }),
  },

  output_too_large: {
    when: "Response truncated due to size (output/body over the cap, ENOBUFS, HTTP 413, context length exceeded)",
    then: ["Write the output to a file and read only the part needed (head, tail, grep)", "Request less data (pagination, filters, quiet flags, shorter input)", "Raise the size limit", "Ask user"],
    cause: ({ f, cls }) =>
      cls.category === "context_length_exceeded" || cls.category === "request_too_large"
        ? `The request sent to ${f.host ?? "the service"} was larger than it accepts${f.status ? ` (HTTP ${f.status})` : ""}${quote(f.decisiveLine)}`
        : `${f.binary ? `'${f.binary}'` : "The call"} produced more output than the size cap allows${quote(f.decisiveLine)}`,
    deeper: () => [
      "The agent requested everything at once instead of the part it needed",
      "Output was not bounded (quiet flags, pagination, filters, truncation of inputs) before the call",
      "Size limits are not known to the agent when it plans a call",
    ],
    strategies: [
      {
        strategy: "write_to_file_and_read_slices",
        tools: ["shell", "file"],
        confidence: (c) => (c.input.failure.tool === "shell" || c.f.commandLine ? 0.85 : 0.4),
        estimatedIterations: 2,
        applies: (c) => c.cls.category !== "context_length_exceeded",
        describe: () => "Redirect the output to a file and read only the part needed (tail, grep)",
        steps: (c) => [
          shStep("Write the output to a file", `(${c.f.commandLine ?? "the command"}) > output.log 2>&1; wc -c output.log`, "output.log holds the full output; its size is printed"),
          shStep("Read only the relevant part", "tail -n 100 output.log", "The last 100 lines, where results and errors are"),
        ],
      },
      {
        strategy: "request_less_data",
        tools: ["http"],
        confidence: (c) => (c.input.failure.tool === "http" || c.f.url ? 0.75 : 0.45),
        estimatedIterations: 2,
        describe: (c) => (c.cls.category === "context_length_exceeded" || c.cls.category === "request_too_large" ? "Shorten the request: summarise or truncate the input, split it into several calls" : "Ask for less: pagination, filters, a smaller range"),
        steps: (c) => [c.f.url ? httpStep("Request a smaller page", `${c.f.url}${c.f.url.includes("?") ? "&" : "?"}limit=100`, c.f.method ?? "GET", "A response under the size cap") : retryStep(c, "Retry with a narrower selection", {}, "Output under the cap")],
      },
      {
        strategy: "chunk_input",
        tools: ["file", "http"],
        confidence: (c) => (c.cls.category === "context_length_exceeded" || c.cls.category === "request_too_large" ? 0.8 : 0.35),
        estimatedIterations: 3,
        describe: () => "Split the input into chunks that fit, process each, then combine the results",
        steps: (c) => [fileStep("Write the input split into chunks", "write", "chunks/part-1.txt", "Chunks under the limit exist"), retryStep(c, "Send the first chunk", {}, "The chunk is accepted")],
      },
      {
        strategy: "raise_size_limit",
        auto: true,
        tools: ["shell", "http"],
        confidence: 0.5,
        estimatedIterations: 1,
        applies: (c) => c.input.failure.tool === "shell" || c.input.failure.tool === "http",
        describe: () => "Raise maxOutputBytes / maxResponseBytes when the full output is really needed",
        steps: (c) => [retryStep(c, "Retry with a 4x larger cap", c.input.failure.tool === "http" ? { maxResponseBytes: 4 * 1024 * 1024 } : { maxOutputBytes: 4 * 1024 * 1024 }, "The whole output fits")],
      },
      askUser("ask_user_reduce_input", 0.35, (c) => `${describeCall(c)} is larger than the limit. Which part is needed?`),
    ],
    learning: (c) => ({ trigger: `${c.f.binary ?? c.f.host ?? c.input.failure.tool}_${c.cls.category}`, generalizability: 0.7 }),
  },

  rate_limited: {
    when: "Too many requests (HTTP 429, rate_limit_error, quota exhausted)",
    then: ["Wait for Retry-After (or back off exponentially) and retry once", "Reduce the request rate (batch, cache, fewer calls)", "Switch to another model/endpoint/key", "Ask user to raise the quota"],
    cause: ({ f, cls }) =>
      cls.category === "quota_exhausted"
        ? `The account's quota at ${f.host ?? "the provider"} is exhausted${f.status ? ` (HTTP ${f.status})` : ""}${quote(f.decisiveLine)}`
        : `${f.host ?? "The service"} is rate limiting these requests${f.status ? ` (HTTP ${f.status})` : ""}${f.retryAfterMs !== undefined ? `; it asks to retry after ${Math.ceil(f.retryAfterMs / 1000)} s` : ""}${quote(f.decisiveLine)}`,
    deeper: (c) => [
      `The agent sent requests faster than ${c.f.host ?? "the service"} allows for this key`,
      "Requests were not paced, batched or cached against the provider's limits",
      "The agent has no shared budget of requests per provider across iterations",
    ],
    strategies: [
      {
        strategy: "wait_and_retry_after",
        auto: true,
        tools: ["shell", "http"],
        confidence: (c) => (c.cls.category === "quota_exhausted" ? 0.15 : c.f.retryAfterMs !== undefined ? 0.9 : 0.8),
        estimatedIterations: 2,
        describe: (c) => `Wait ${c.f.retryAfterMs !== undefined ? `${Math.ceil(c.f.retryAfterMs / 1000)} s (Retry-After)` : "with exponential backoff (2 s, 4 s, 8 s)"} and retry once`,
        steps: (c) => [shellStep("Wait as the server asks", "sleep", [String(c.f.retryAfterMs !== undefined ? Math.max(1, Math.ceil(c.f.retryAfterMs / 1000)) : 2)], "The rate-limit window passes"), retryStep(c, "Retry the same request once", {}, "A 2xx response")],
      },
      {
        strategy: "reduce_request_rate",
        tools: ["http"],
        confidence: 0.6,
        estimatedIterations: 3,
        describe: () => "Batch or cache requests so fewer calls are needed",
        steps: (c) => [retryStep(c, "Send one batched request instead of many", {}, "Fewer requests reach the limit")],
      },
      {
        strategy: "switch_model_or_endpoint",
        tools: ["http"],
        confidence: (c) => (isLlmCall(c) ? 0.55 : 0.35),
        estimatedIterations: 2,
        describe: () => "Use another model, endpoint or key with separate limits",
        steps: (c) => [httpStep("List alternatives with separate limits", c.f.url ? `${new URL(c.f.url).origin}/v1/models` : "https://example.invalid/", "GET", "Another model or endpoint to use")],
      },
      askUser("request_quota_increase", (c) => (c.cls.category === "quota_exhausted" ? 0.9 : 0.35), (c) => `Raise the quota or provide another key for ${c.f.host ?? "the provider"}?`),
    ],
    learning: (c) => ({ trigger: `${c.f.host ?? c.input.failure.tool}_${c.cls.category}`, generalizability: 0.8 }),
  },

  network_error: {
    when: "Connection/DNS failure (ECONNREFUSED, ENOTFOUND, EAI_AGAIN, ECONNRESET, HTTP 5xx)",
    then: ["Check that the host resolves and the port is reachable", "Retry with backoff if the failure is transient", "Use an alternative endpoint or mirror", "Ask user to start the service or fix the address"],
    cause: ({ f, cls }) => {
      const where = f.host ? `'${f.host}'` : "the server";
      const what: Record<string, string> = {
        dns_resolution_failed: `The host name ${where} could not be resolved`,
        connection_refused: `Nothing accepted the connection at ${where}`,
        connection_reset: `The connection to ${where} was closed before a complete response`,
        server_error: `The server ${where} failed${f.status ? ` with HTTP ${f.status}` : ""}`,
      };
      return `${what[cls.category] ?? `The network path to ${where} failed`}${quote(f.decisiveLine)}`;
    },
    deeper: (c) => [
      `The agent assumed ${c.f.host ?? "the service"} was reachable and up without checking it first`,
      "No health check or alternative endpoint was prepared for the service",
      "Service availability is not tracked and shared with the agent when it plans",
    ],
    strategies: [
      {
        strategy: "check_connectivity",
        tools: ["shell"],
        confidence: 0.7,
        estimatedIterations: 1,
        describe: (c) => `Check that ${c.f.host ?? "the host"} resolves and answers`,
        steps: (c) => [shStep("Resolve the host and probe it", `getent hosts ${shq((c.f.host ?? "localhost").replace(/:\d+$/, ""))}; curl -sS -o /dev/null -w '%{http_code}\\n' --max-time 5 ${shq(c.f.url ?? `http://${c.f.host ?? "localhost"}/`)}`, "An address and an HTTP status, or the exact point of failure")],
      },
      {
        strategy: "retry_with_backoff",
        auto: true,
        tools: ["shell", "http"],
        confidence: (c) => (c.cls.category === "connection_reset" || c.cls.category === "server_error" ? 0.75 : 0.35),
        estimatedIterations: 2,
        describe: () => "Wait a few seconds and retry once: resets and 5xx are often transient",
        steps: (c) => [shellStep("Wait before retrying", "sleep", ["3"], "3 s pass"), retryStep(c, "Retry the call", {}, "The call succeeds")],
      },
      {
        strategy: "use_alternative_endpoint",
        tools: ["http"],
        confidence: 0.45,
        estimatedIterations: 2,
        describe: () => "Use a mirror, another region or a cached copy of the resource",
        steps: (c) => [retryStep(c, "Call the alternative endpoint", {}, "The resource is obtained elsewhere")],
      },
      askUser("request_service_fix", (c) => (c.cls.category === "dns_resolution_failed" || c.cls.category === "connection_refused" ? 0.65 : 0.4), (c) => `Is ${c.f.host ?? "the service"} supposed to be running, and at which address?`),
    ],
    learning: (c) => ({ trigger: `${c.f.host ?? "service"}_${c.cls.category}`, generalizability: 0.6 }),
  },

  syntax_error: {
    when: "Code/command syntax invalid (SyntaxError, parse error, unexpected token)",
    then: ["Read the code at the reported line", "Fix it and validate without running (node --check, python3 -m py_compile, bash -n, JSON parse)", "Re-run", "Ask user"],
    cause: (c) => `The ${languageOf(c.f) ?? "code"} ${scriptPath(c) ? `in '${scriptPath(c)}' ` : ""}does not parse${quote(c.f.decisiveLine)}`,
    deeper: () => [
      "The agent wrote or passed code without validating its syntax first",
      "No parse check (linter, --check, dry run) runs between generating code and executing it",
      "Generated code goes straight to execution instead of through a validation step",
    ],
    strategies: [
      {
        strategy: "locate_and_fix_syntax",
        tools: ["file"],
        confidence: (c) => (scriptPath(c) ? 0.8 : 0.55),
        estimatedIterations: 2,
        describe: (c) => `Read ${q(scriptPath(c), "the code")} at the reported line and fix the syntax`,
        steps: (c) => {
          const path = scriptPath(c) ?? "script";
          return [fileStep("Read the code around the reported line", "read", path, "The offending line is visible"), fileStep("Write the corrected code", "write", path, "The file contains valid syntax")];
        },
      },
      {
        strategy: "validate_before_run",
        tools: ["shell"],
        confidence: 0.7,
        estimatedIterations: 1,
        describe: (c) => `Validate ${q(scriptPath(c), "the code")} with the ${languageOf(c.f) ?? "language"}'s parser before running it`,
        steps: (c) => {
          const path = scriptPath(c) ?? "script";
          const check: Record<string, [string, string[]]> = {
            node: ["node", ["--check", path]],
            python: ["python3", ["-m", "py_compile", path]],
            bash: ["bash", ["-n", path]],
            json: ["python3", ["-m", "json.tool", path]],
          };
          const [command, args] = check[languageOf(c.f) ?? "bash"];
          return [shellStep("Check the syntax without running", command, args, "No output and exit code 0 once the syntax is valid")];
        },
      },
      {
        strategy: "rewrite_simpler",
        tools: ["file", "shell"],
        confidence: 0.4,
        estimatedIterations: 3,
        describe: () => "Rewrite the failing part in a simpler form (a script file instead of an inline one-liner, fewer nested quotes)",
        steps: (c) => [fileStep("Write the code to a script file", "write", `fix.${languageOf(c.f) === "python" ? "py" : languageOf(c.f) === "node" ? "js" : "sh"}`, "A script file without nested quoting"), retryStep(c, "Run the script file", {}, "The script runs")],
      },
      askUser("ask_user_to_review_code", 0.25, (c) => `Review the code that fails to parse${quote(c.f.decisiveLine)}?`),
    ],
    learning: (c) => ({ trigger: `${languageOf(c.f) ?? "code"}_syntax_error`, generalizability: 0.35 }),
  },

  environment_missing: {
    when: "Required env var/dependency absent (ModuleNotFoundError, Cannot find module, KeyError on os.environ, unbound variable)",
    then: ["Identify the missing module, variable or configuration from the error", "Install the dependency or load the configuration from the workspace", "Ask user to provide the secret or configuration"],
    cause: ({ f, cls }) => {
      const what: Record<string, string> = {
        missing_module: `The module ${q(f.module, "required by the code")} is not installed`,
        missing_env_var: `The environment variable ${q(f.envVar, "the code reads")} is not set`,
        missing_credentials: `No API key or credential was provided${f.host ? ` for ${f.host}` : ""}`,
        missing_config: "A required project configuration (repository, identity or manifest) is missing",
      };
      return `${what[cls.category] ?? "A required dependency of the environment is missing"}${quote(f.decisiveLine)}`;
    },
    deeper: () => [
      "The agent assumed the environment was prepared (dependencies installed, variables exported) without checking",
      "The mission's prerequisites are not declared and verified before the first step",
      "Environment setup is not part of the mission definition, so each run depends on the worker's state",
    ],
    strategies: [
      {
        strategy: "install_missing_dependency",
        auto: true,
        tools: ["shell"],
        confidence: 0.8,
        estimatedIterations: 2,
        applies: (c) => c.cls.category === "missing_module",
        describe: (c) => `Install ${q(c.f.module, "the missing module")} with the project's package manager`,
        steps: (c) => {
          const mod = (c.f.module ?? "the-module").split(/[./]/)[0] || (c.f.module ?? "the-module");
          return languageOf(c.f) === "python" || /Module(?:NotFound)?Error|ImportError/.test(c.f.exception ?? "")
            ? [shellStep(`Install ${mod}`, "python3", ["-m", "pip", "install", mod], `${mod} installed`), shellStep(`Check ${mod} imports`, "python3", ["-c", `import ${mod}`], "Exit code 0"), retryStep(c, "Run the failed call again", {}, "It runs now that the module is installed")]
            : [shellStep(`Install ${mod}`, "npm", ["install", mod], `${mod} added to node_modules`), shellStep(`Check ${mod} resolves`, "node", ["-e", `require.resolve(${JSON.stringify(mod)})`], "Exit code 0"), retryStep(c, "Run the failed call again", {}, "It runs now that the module is installed")];
        },
      },
      {
        strategy: "initialise_project",
        tools: ["shell"],
        confidence: 0.7,
        estimatedIterations: 1,
        applies: (c) => c.cls.category === "missing_config",
        describe: () => "Create the missing project configuration (git init / git config user.*, npm init -y)",
        steps: (c) =>
          /git|identity|who you are|email/i.test(`${c.f.decisiveLine} ${c.f.binary}`)
            ? [shStep("Initialise the repository and identity", "git rev-parse --git-dir 2>/dev/null || git init; git config user.email >/dev/null || git config user.email agent@faultline.local; git config user.name >/dev/null || git config user.name 'Faultline agent'", "A repository with an identity")]
            : [shellStep("Create a package manifest", "npm", ["init", "-y"], "package.json created")],
      },
      {
        strategy: "load_env_from_workspace",
        tools: ["file", "shell"],
        confidence: (c) => (c.cls.category === "missing_env_var" || c.cls.category === "missing_credentials" ? 0.55 : 0.3),
        estimatedIterations: 2,
        describe: (c) => `Look for ${q(c.f.envVar, "the variable")} in the workspace's .env / config files and pass it through the step's env`,
        steps: (c) => [shStep(`Search the workspace for ${c.f.envVar ?? "the variable"}`, `grep -rl ${shq(c.f.envVar ?? "API_KEY")} --include='.env*' --include='*.env' --include='*.example' . 2>/dev/null || true`, "A file that defines the variable"), fileStep("Read the configuration file", "read", ".env", "The value (or a template for it)")],
      },
      {
        strategy: "inspect_environment",
        tools: ["shell"],
        confidence: 0.45,
        estimatedIterations: 1,
        describe: () => "List what the environment provides (variable names, installed packages)",
        steps: () => [shStep("List variable names and installed runtimes", "env | cut -d= -f1 | sort; command -v node python3 pip npm", "The names of the variables and runtimes present")],
      },
      askUser("request_user_configuration", (c) => (c.cls.category === "missing_env_var" || c.cls.category === "missing_credentials" ? 0.85 : 0.45), (c) =>
        c.f.envVar ? `Provide a value for ${c.f.envVar} (as a step env or a secret)?` : c.f.module ? `Install '${c.f.module}' on the worker or allow the agent to install it?` : "Provide the missing configuration or credential?",
      ),
    ],
    learning: (c) => ({ trigger: `${c.f.envVar ?? c.f.module ?? c.cls.category}_missing`, generalizability: 0.75 }),
  },

  unknown: {
    when: "No known pattern fits the failure",
    then: ["Collect more output (re-run capturing stderr, verbose flags)", "Try an alternative approach to the same goal", "Ask user"],
    cause: (c) => `${describeCall(c)} failed for a reason the output does not make clear${quote(c.f.decisiveLine)}`,
    deeper: () => [
      "The failure's output does not match any known error pattern",
      "The tool reported too little context (exit status without a message)",
      "The error taxonomy has no pattern for this failure yet",
    ],
    strategies: [
      {
        strategy: "rerun_with_diagnostics",
        tools: ["shell"],
        confidence: 0.45,
        estimatedIterations: 1,
        describe: () => "Re-run capturing all output (stderr, verbose flags) to see what happens",
        steps: (c) => [shStep("Re-run with all output captured", `(${c.f.commandLine ?? "the command"}) > diagnostics.log 2>&1; echo exit=$?; tail -n 50 diagnostics.log`, "The full output and exit status")],
      },
      {
        strategy: "alternative_approach",
        tools: ["shell", "http", "file"],
        confidence: 0.35,
        estimatedIterations: 3,
        describe: (c) => `Reach the goal${c.input.context.taskGoal ? ` ("${c.input.context.taskGoal}")` : ""} another way`,
        steps: () => [fileStep("Review the workspace state", "list", ".", "What exists to build on")],
      },
      askUser("ask_user", 0.6, (c) => `${describeCall(c)} failed for an unclear reason. How should the agent proceed?`),
    ],
    learning: (c) => ({ trigger: `${c.f.binary ?? c.input.failure.tool}_unclassified_failure`, generalizability: 0.2 }),
  },
};
