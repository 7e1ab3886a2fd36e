import picomatch from "picomatch";
import { parse as parseShell } from "shell-quote";
import { z } from "zod";
import { isRegExp } from "../regexp";
import { RULE_EFFECTS, type ProposedAction } from "./types";

/**
 * Authority rules (issue 14): `allow | deny | hold`, matched on tool, binary, path glob, host glob, an args
 * pattern and whether the action writes outside the workspace. A mission carries its own rules; the admin
 * edits the default policy; both go to the one authority, where deny wins over hold, and hold over allow.
 * A rule matches when every matcher it names matches (a rule naming none matches every action of its tool).
 */

const glob = z.string().min(1, "must not be empty").max(500, "must be at most 500 characters");

export const ruleSchema = z
  .strictObject({
    /** Names the rule in decisions (`rule:<id>`); defaults to its position. */
    id: z.string().regex(/^[A-Za-z0-9._:-]{1,80}$/, "must be 1-80 letters, digits, '.', '_', ':' or '-'").optional(),
    effect: z.enum(RULE_EFFECTS, { error: 'must be "allow", "deny" or "hold"' }),
    /** A tool name (shell, file, http, llm, finish, ask) or "*". */
    tool: z.string().min(1).optional(),
    /** Glob on the shell command's binary name, e.g. "rm" or "{sh,bash}". */
    binary: glob.optional(),
    /** Glob on the workspace-relative path the action touches (file path; shell path arguments), e.g. "secrets/**". */
    path: glob.optional(),
    /** Glob on the host of an http URL, e.g. "*.prod.example.com". */
    host: glob.optional(),
    /** Regular expression tested against the action's command line (shell: `binary arg…`) or its canonical args JSON. */
    args: z.string().min(1).max(500).refine(isRegExp, "must be a valid regular expression").optional(),
    /** Matches an action that writes outside the workspace (absolute or `..` paths of a file write or of a writing binary). */
    outsideWorkspace: z.literal(true).optional(),
    /** Why the rule exists: the decision's reason quotes it. */
    reason: z.string().max(500).optional(),
    /** Reviewer agents (actor ids) allowed to decide what this rule holds, never for their own mission (FDR-N017). */
    reviewers: z.array(z.string().min(1)).optional(),
  })
  .refine((r) => r.effect === "hold" || !r.reviewers, { path: ["reviewers"], message: "only a hold rule has reviewers (they decide what it holds)" });

export type Rule = z.infer<typeof ruleSchema>;

export const rulesSchema = z.array(ruleSchema).max(200, "at most 200 rules");

/** POSIX path helpers (no node:path: the rules also run in the browser, for the console's checks). */
function basename(p: string): string {
  const parts = p.split("/").filter(Boolean);
  return parts.length ? parts[parts.length - 1] : p;
}

/** Resolves "." and ".." segments; keeps leading ".." that climb out of the start; "" for the start itself. */
function normalizePosix(p: string): string {
  const out: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === ".." && out.length && out[out.length - 1] !== "..") out.pop();
    else out.push(seg);
  }
  return (p.startsWith("/") ? "/" : "") + out.join("/");
}

/** Binaries that write to the paths they are given; their path arguments outside the workspace are writes outside it. */
const WRITING_BINARIES = new Set(["rm", "rmdir", "mv", "cp", "dd", "chmod", "chown", "chgrp", "truncate", "tee", "ln", "install", "mkdir", "touch", "shred", "unlink", "rsync", "tar", "unzip", "sed"]);

/**
 * Faultline's built-in default policy, in force until an admin publishes another: it denies obvious
 * destruction and writes outside the workspace, and holds inline scripts no rule can read.
 */
export const DEFAULT_POLICY_RULES: Rule[] = [
  {
    id: "no-recursive-delete-outside-workspace",
    effect: "deny",
    tool: "shell",
    binary: "rm",
    args: String.raw`^rm(?=.*\s(-[a-zA-Z]*[rR][a-zA-Z]*|--recursive|--no-preserve-root)(\s|$))(?=.*\s(/\S*|~\S*|\$HOME\S*|\.\.(/\S*)?)(\s|$))`,
    reason: "Recursive deletion of /, the home directory or anything outside the workspace destroys data no mission owns.",
  },
  { id: "no-writes-outside-workspace", effect: "deny", outsideWorkspace: true, reason: "Agents write only inside the mission's workspace." },
  { id: "no-disk-formatting", effect: "deny", tool: "shell", binary: "{mkfs,mkfs.*,fdisk,sfdisk,parted,wipefs,mkswap}", reason: "Formatting or partitioning disks is never a mission action." },
  { id: "no-raw-device-writes", effect: "deny", tool: "shell", binary: "dd", args: String.raw`\sof=/dev/`, reason: "Writing to a raw device destroys it." },
  { id: "no-power-off", effect: "deny", tool: "shell", binary: "{shutdown,reboot,halt,poweroff,init,systemctl}", args: String.raw`^(shutdown|reboot|halt|poweroff|init\s+[06]|systemctl\s+(poweroff|reboot|halt))`, reason: "Stopping the machine stops every mission on it." },
  { id: "hold-inline-scripts", effect: "hold", tool: "shell", binary: "{sh,bash,zsh,dash,ksh,fish,python,python3,node,perl,ruby,php}", args: String.raw`\s(-c|-e|--eval)(\s|$)`, reason: "An inline script cannot be checked rule by rule: a person reads it first." },
];

/** What a rule is matched against, derived once per proposal. */
export interface ActionFacts {
  /** What the action is: shell, file, http, or the tool's own name when it is none of those. */
  tool: string;
  /** The tool's name as called (an external agent's "Bash", "write_file", …); rules may name either. */
  name?: string;
  binary: string | null;
  /** Workspace-relative, normalised paths the action touches ("../x" and absolute paths stay as given). */
  paths: string[];
  host: string | null;
  /** The text an `args` pattern is tested against. */
  line: string;
  writesOutsideWorkspace: boolean;
}

function looksLikePath(arg: string): boolean {
  return !arg.startsWith("-") && (arg.includes("/") || arg === "." || arg === ".." || arg.startsWith("~") || arg.startsWith("$HOME") || /\.[A-Za-z0-9]{1,8}$/.test(arg));
}

/** An argument's path part (`of=/dev/sda` → `/dev/sda`). */
function pathPart(arg: string): string {
  const eq = /^[A-Za-z]+=(.+)$/.exec(arg);
  return eq ? eq[1] : arg;
}

/** True when a path given relative to the workspace leaves it (absolute, home-relative, or climbing out with ..). */
export function leavesWorkspace(p: string): boolean {
  if (p.startsWith("/") || p.startsWith("~") || p.startsWith("$HOME") || /^[A-Za-z]:[\\/]/.test(p)) return true;
  const norm = normalizePosix(p.replace(/\\/g, "/"));
  return norm === ".." || norm.startsWith("../");
}

/** The facts of an action the rules match on. Never throws on odd args: what cannot be read is left out. */
export function actionFacts(action: ProposedAction, root?: string): ActionFacts {
  return actionSegments(action, root)[0];
}

/**
 * Every command an action runs, each with its facts: one for most actions; one per command of a shell
 * command line (`cd x && rm -rf /`, pipes, `$(…)`, `sudo rm`), which is how external agents' shell tools
 * (Claude Code's Bash, MCP shell servers, the agent SDKs' shell tools) pass them. The authority decides
 * every segment; the worst decision wins.
 */
export function actionSegments(action: ProposedAction, root?: string): ActionFacts[] {
  const a = action.args ?? {};
  const kind = externalKind(action);
  const inRoot = (p: string) => withinRoot(p, root);
  if (kind === "line") return lineSegments(action.tool, commandLineOf(a), inRoot);
  if (kind && kind !== action.tool) return actionSegments({ tool: kind, args: canonicalArgs(kind, a) }, root).map((f) => ({ ...f, name: action.tool }));
  return [builtinFacts(action, inRoot)];
}

/**
 * A path under the workspace's absolute root, as a workspace-relative one ("." for the root itself); any
 * other path as given. External agents (Claude Code, MCP file servers) pass absolute paths into their
 * project: with the run's `workspace`, those are inside it.
 */
function withinRoot(p: string, root: string | undefined): string {
  if (!root || !root.startsWith("/")) return p;
  const r = root.replace(/\/+$/, "");
  if (p === r) return ".";
  return p.startsWith(`${r}/`) ? p.slice(r.length + 1) || "." : p;
}

/** The facts of one of Faultline's own tools' calls (shell with command + args, file, http), or of any other tool by name. */
function builtinFacts(action: ProposedAction, inRoot: (p: string) => string = (p) => p): ActionFacts {
  const a = action.args ?? {};
  if (action.tool === "shell") {
    const command = typeof a.command === "string" ? a.command : "";
    const binary = command ? basename(command) : null;
    const args = Array.isArray(a.args) ? a.args.filter((x): x is string => typeof x === "string").map((x) => (x.startsWith("/") ? inRoot(x) : x.replace(/^([A-Za-z]+=)(\/.*)$/, (_, k: string, v: string) => k + inRoot(v)))) : [];
    const candidates = args.map(pathPart).filter(looksLikePath);
    const writes = binary !== null && (WRITING_BINARIES.has(binary) || command.includes("/"));
    return {
      tool: "shell",
      binary,
      paths: candidates.map(normalise),
      host: null,
      line: [binary ?? command, ...args].join(" "),
      writesOutsideWorkspace: (writes && candidates.some(leavesWorkspace)) || (typeof a.cwd === "string" && leavesWorkspace(inRoot(a.cwd)) && binary !== null && WRITING_BINARIES.has(binary)),
    };
  }
  if (action.tool === "file") {
    const p = typeof a.path === "string" ? inRoot(a.path) : ".";
    return { tool: "file", binary: null, paths: [normalise(p)], host: null, line: stableLine(a), writesOutsideWorkspace: a.op === "write" && leavesWorkspace(p) };
  }
  if (action.tool === "http") {
    let host: string | null = null;
    try {
      host = typeof a.url === "string" ? new URL(a.url).hostname : null;
    } catch {
      host = null;
    }
    return { tool: "http", binary: null, paths: [], host, line: `${typeof a.method === "string" ? a.method : "GET"} ${typeof a.url === "string" ? a.url : ""}`, writesOutsideWorkspace: false };
  }
  return { tool: action.tool, binary: null, paths: [], host: null, line: stableLine(a), writesOutsideWorkspace: false };
}

// ---------- external agents' tools (issue 15) ----------

const SHELL_TOOL = /^(bash|sh|shell|zsh|terminal|exec|execute|run|local_shell|run_command|run_shell_command|run_terminal_cmd|execute_command|shell_command|command|cmd|powershell)$/i;
const FILE_TOOL = /(^|_|-)(write|edit|create|delete|remove|move|rename|append|patch|replace|save|mkdir|multiedit|str_replace)/i;
const HTTP_TOOL = /(fetch|http|request|browse|web|url|curl|download|navigate)/i;

function str(a: Record<string, unknown>, ...keys: string[]): string | null {
  for (const k of keys) if (typeof a[k] === "string" && (a[k] as string).trim()) return a[k] as string;
  return null;
}

/**
 * What an external tool call is, read from its name and the shape of its args (never from its name alone):
 * "line" for a shell command line, "shell" / "file" / "http" for calls shaped like Faultline's own, or null.
 */
function externalKind(action: ProposedAction): "line" | "shell" | "file" | "http" | null {
  const a = action.args ?? {};
  if (action.tool === "shell") return typeof a.command === "string" && !Array.isArray(a.args) && /\s/.test(a.command.trim()) ? "line" : null;
  if (action.tool === "file" || action.tool === "http") return null;
  const command = str(a, "command", "cmd", "script");
  if (command && SHELL_TOOL.test(action.tool)) return Array.isArray(a.args) ? "shell" : "line";
  const p = str(a, "file_path", "filePath", "path", "filename", "file", "target", "destination");
  if (p && FILE_TOOL.test(action.tool)) return "file";
  if (str(a, "url", "uri", "href") && HTTP_TOOL.test(action.tool)) return "http";
  return null;
}

function commandLineOf(a: Record<string, unknown>): string {
  return str(a, "command", "cmd", "script") ?? "";
}

/** An external call's args in the shape of Faultline's own tool of that kind (what the rules read). */
function canonicalArgs(kind: "shell" | "file" | "http", a: Record<string, unknown>): Record<string, unknown> {
  if (kind === "shell") return { command: str(a, "command", "cmd") ?? "", args: a.args, cwd: a.cwd };
  if (kind === "file") return { op: "write", path: str(a, "file_path", "filePath", "path", "filename", "file", "target", "destination") };
  return { method: str(a, "method") ?? "GET", url: str(a, "url", "uri", "href") };
}

/** Prefixes that run the command after them: both are checked (the wrapper and what it runs). */
const WRAPPERS = new Set(["sudo", "doas", "env", "nohup", "time", "nice", "ionice", "command", "exec", "xargs", "timeout", "stdbuf", "chroot", "su"]);
const SEPARATORS = new Set(["&&", "||", ";", "|", "&", "|&", ";;", "(", ")", "<(", ">("]);

/**
 * The commands of a shell command line, each as shell facts. A line that cannot be read yields a segment
 * with no binary (which the allowlist denies: fail closed).
 */
function lineSegments(tool: string, line: string, inRoot: (p: string) => string): ActionFacts[] {
  let tokens: ReturnType<typeof parseShell>;
  try {
    tokens = parseShell(line, (key) => `$${key}`);
  } catch {
    tokens = [];
  }
  const commands: string[][] = [];
  const written: string[][] = [];
  let words: string[] = [];
  let outs: string[] = [];
  let redirect = false;
  const flush = () => {
    if (words.length || outs.length) {
      commands.push(words);
      written.push(outs);
    }
    words = [];
    outs = [];
  };
  for (const t of tokens) {
    if (typeof t === "string") {
      if (redirect) outs.push(inRoot(t));
      else words.push(t);
      redirect = false;
    } else if ("op" in t) {
      if (t.op === "glob") words.push((t as { pattern: string }).pattern);
      else if (t.op === ">" || t.op === ">>" || t.op === ">|" || t.op === "&>") redirect = true;
      else if (SEPARATORS.has(t.op)) flush();
    } else if ("comment" in t) break;
  }
  flush();
  // Command substitution `$(…)` arrives as a "$" word before "(": it is its own segment (split above).
  const segments: ActionFacts[] = [];
  commands.forEach((cmd, i) => {
    let rest = cmd.filter((w, j) => !(j === cmd.length - 1 && w === "$"));
    while (rest.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0])) rest = rest.slice(1);
    while (rest.length) {
      const facts = builtinFacts({ tool: "shell", args: { command: rest[0], args: rest.slice(1) } }, inRoot);
      const outsidePaths = written[i].filter(leavesWorkspace);
      segments.push({ ...facts, name: tool, paths: [...facts.paths, ...written[i].map(normalise)], writesOutsideWorkspace: facts.writesOutsideWorkspace || outsidePaths.length > 0, line: [facts.line, ...written[i].map((w) => `> ${w}`)].join(" ") });
      const binary = facts.binary ?? "";
      if (!WRAPPERS.has(binary)) break;
      // The wrapped command: skip the wrapper's own flags and values (`timeout 5`, `sudo -u x`, `env A=1`).
      rest = rest.slice(1);
      while (rest.length && (rest[0].startsWith("-") || /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0]) || /^\d+[smhd]?$/.test(rest[0]))) rest = rest.slice(rest[0] === "-u" || rest[0] === "-g" ? 2 : 1);
    }
  });
  return segments.length ? segments : [{ tool: "shell", name: tool, binary: null, paths: [], host: null, line, writesOutsideWorkspace: false }];
}

function normalise(p: string): string {
  if (leavesWorkspace(p)) return p;
  const n = normalizePosix(p.replace(/\\/g, "/"));
  return n === "" ? "." : n;
}

function stableLine(a: Record<string, unknown>): string {
  try {
    return JSON.stringify(a);
  } catch {
    return "";
  }
}

const matchers = new Map<string, (s: string) => boolean>();
function globMatch(pattern: string, value: string): boolean {
  let m = matchers.get(pattern);
  if (!m) {
    m = picomatch(pattern, { dot: true, nocase: false });
    matchers.set(pattern, m);
  }
  return m(value);
}
const regexes = new Map<string, RegExp>();
function regexMatch(pattern: string, value: string): boolean {
  let r = regexes.get(pattern);
  if (!r) {
    r = new RegExp(pattern);
    regexes.set(pattern, r);
  }
  return r.test(value);
}

/** Does this rule match the action? Every matcher the rule names must match. */
export function matchRule(rule: Rule, facts: ActionFacts): boolean {
  if (rule.tool && rule.tool !== "*" && rule.tool !== facts.tool && rule.tool !== facts.name) return false;
  if (rule.binary && (facts.binary === null || !globMatch(rule.binary, facts.binary))) return false;
  if (rule.path && !facts.paths.some((p) => globMatch(rule.path!, p))) return false;
  if (rule.host && (facts.host === null || !globMatch(rule.host, facts.host))) return false;
  if (rule.args && !regexMatch(rule.args, facts.line)) return false;
  if (rule.outsideWorkspace && !facts.writesOutsideWorkspace) return false;
  return true;
}

/** The id a decision names a rule by: its own id, or its position. */
export function ruleId(rule: Rule, index: number): string {
  return rule.id ?? `#${index + 1}`;
}

/** What a rule matches, in words ("tool shell · binary rm · args /…/"), for decisions and the console. */
export function describeMatchers(rule: Rule): string {
  const parts = [rule.tool && `tool ${rule.tool}`, rule.binary && `binary ${rule.binary}`, rule.path && `path ${rule.path}`, rule.host && `host ${rule.host}`, rule.args && `args /${rule.args}/`, rule.outsideWorkspace && "writes outside the workspace"].filter(Boolean);
  return parts.join(" · ") || "every action";
}
