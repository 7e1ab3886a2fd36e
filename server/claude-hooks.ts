import path from "node:path";
import { getDb } from "@/db/client";
import { createRun, findRunByMarks, loadRun, proposeRunCall, reportRunResult, type ProposalAnswer } from "@/db/queries/runs";
import { personActor, type AuditActor } from "@/lib/audit";
import { can, describeMissingPermission } from "@/lib/auth/roles";
import { env } from "@/lib/env";
import { isAppError } from "@/lib/errors";
import { getPrincipal } from "./auth";
import { missionChanged } from "./mission-signal";
import { hookInputSchema, type HookInput } from "./claude-hooks-contract";
import type { Endpoint } from "./api-contract";

export { hookInputSchema, type HookInput };

/**
 * Claude Code (and Claude Agent SDK) hooks (issue 15): PreToolUse asks the one authority before every
 * tool call of a session, PostToolUse reports its result. One run per session_id. Fails closed: a
 * missing token, a malformed body, an internal error or a timeout is a deny answer (HTTP 200 with the
 * documented JSON, because Claude Code treats a non-2xx answer as a non-blocking error and would run
 * the call). `Faultline-Error` names why when the deny is not the authority's.
 */

export const CLAUDE_VIA = "claude-code";
const PENDING_WAIT_MS = 8000;


export function preToolUseAnswer(decision: "allow" | "deny" | "ask", reason: string) {
  return { hookSpecificOutput: { hookEventName: "PreToolUse" as const, permissionDecision: decision, permissionDecisionReason: reason } };
}

function deny(reason: string, code: string): Response {
  return Response.json(preToolUseAnswer("deny", `Faultline: ${reason}`), { status: 200, headers: { "Faultline-Error": code } });
}

type Authorized = { ok: true; actor: AuditActor } | { ok: false; code: "unauthorized" | "forbidden"; message: string };

async function authorize(req: Request): Promise<Authorized> {
  const user = await getPrincipal();
  if (!user) return { ok: false, code: "unauthorized", message: describeMissingPermission(null, "mission.create") };
  if (!can(user, "mission.create")) return { ok: false, code: "forbidden", message: describeMissingPermission(user, "mission.create") };
  return { ok: true, actor: personActor(user, "api", req.headers) };
}

async function readHookInput(req: Request): Promise<{ ok: true; input: HookInput } | { ok: false; message: string }> {
  let raw: unknown;
  try {
    raw = JSON.parse(await req.text());
  } catch (e) {
    return { ok: false, message: `the hook input is not valid JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  const r = hookInputSchema.safeParse(raw);
  if (!r.success) return { ok: false, message: `the hook input is not valid: ${r.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ")}` };
  return { ok: true, input: r.data };
}

export function sessionRunName(sessionId: string): string {
  return `Claude Code session ${sessionId.slice(0, 8)}`;
}
function sessionObjectivePrefix(sessionId: string): string {
  return `Claude Code session ${sessionId}:`;
}

/** Serializes find-or-create per session in this process (parallel first calls of one session). */
const creating = new Map<string, Promise<string>>();

function findSessionRun(actorId: string, sessionId: string): Promise<string | null> {
  return findRunByMarks(getDb(), { actorId, name: sessionRunName(sessionId), objectivePrefix: sessionObjectivePrefix(sessionId), via: CLAUDE_VIA });
}

/** The session's run: found by its name, objective and via, or created (workspace = cwd). */
export async function sessionRun(actor: AuditActor, input: HookInput): Promise<string> {
  const key = `${actor.id}\u0000${input.session_id}`;
  const busy = creating.get(key);
  if (busy) return busy;
  const p = (async () => {
    const found = await findSessionRun(actor.id, input.session_id);
    if (found) return found;
    const cwd = input.cwd && path.isAbsolute(input.cwd) ? input.cwd : undefined;
    const s = await createRun(getDb(), actor, {
      name: sessionRunName(input.session_id),
      objective: `${sessionObjectivePrefix(input.session_id)} the work Claude Code does in ${cwd ?? "its working directory"}`.slice(0, 2000),
      // A coding session's failing command (a red test, grep finding nothing) is information for the model, not an
      // incident: recorded, diagnosed and looked up, with a warning, without holding every later call at a gate.
      agents: [{ name: "claude", priority: "optional" }],
      workspace: cwd,
      via: CLAUDE_VIA,
    });
    return s.id;
  })();
  creating.set(key, p);
  try {
    return await p;
  } finally {
    creating.delete(key);
  }
}

function decisionWords(p: ProposalAnswer): string {
  const d = p.decision;
  if (!d) return "the authority gave no reason";
  const cf = (d as { counterfactual?: { description?: string; change?: unknown } | null }).counterfactual;
  const cfText = cf ? ` What would change it: ${cf.description ?? JSON.stringify(cf.change)}.` : "";
  return `${d.reason}${cfText}`;
}

async function answerFor(req: Request, runId: string, first: ProposalAnswer): Promise<Response> {
  let p = first;
  const until = Date.now() + PENDING_WAIT_MS;
  while (p.status === "pending" && Date.now() < until && !req.signal.aborted) {
    await missionChanged(runId, Math.min(1000, until - Date.now()), req.signal);
    const s = await loadRun(getDb(), runId);
    const now = s.proposals.find((x) => x.id === p.id);
    if (!now) break;
    p = { ...p, status: now.status, decision: now.decision };
  }
  if (p.status === "approved") return Response.json(preToolUseAnswer("allow", `Faultline: approved by ${p.decision?.authority ?? "the authority"}${p.decision?.reason ? ` (${p.decision.reason})` : ""}.`));
  if (p.status === "rejected") return deny(`rejected by ${p.decision?.authority ?? "the authority"}: ${decisionWords(p)}`, "rejected");
  const consoleUrl = `${new URL(req.url).origin}/missions/${runId}`;
  return deny(`waiting for a decision in Faultline at ${consoleUrl}; try again once decided.${p.decision?.reason ? ` (${p.decision.reason})` : ""}`, "pending");
}

/** A hook route: takes its contract entry (for the OpenAPI document), never apiRoute's error answers (those would fail open). */
export function hookRoute(_endpoint: Endpoint, handler: (req: Request) => Promise<Response>): (req: Request) => Promise<Response> {
  return (req) => handler(req);
}

/** POST /api/v1/hooks/claude/pre-tool-use: allow only what the authority approved; deny on any doubt. */
export async function preToolUse(req: Request): Promise<Response> {
  try {
    const auth = await authorize(req);
    if (!auth.ok) return deny(auth.message, auth.code);
    const body = await readHookInput(req);
    if (!body.ok) return deny(body.message, "bad_request");
    const { input } = body;
    const runId = await sessionRun(auth.actor, input);
    const { answer } = await proposeRunCall(getDb(), runId, { callId: input.tool_use_id, tool: input.tool_name, args: input.tool_input }, { approvalTtlMs: env().FAULTLINE_APPROVAL_TTL_MS });
    return await answerFor(req, runId, answer);
  } catch (e) {
    if (isAppError(e) && e.status < 500) return deny(e.userMessage ?? e.message, e.code);
    console.error("[api POST hooks/claude/pre-tool-use]", e);
    return deny(`an internal error stopped the check (${e instanceof Error ? e.message : String(e)}); the call is denied, never allowed on doubt.`, "internal");
  }
}

/** Claude Code's tool_response as a ToolResult: errors, non-zero exit codes and interruptions are failures. */
export function toolResponseResult(response: unknown): { ok: true; data: unknown } | { ok: false; error: { message: string; exitCode?: number; stdout?: string; stderr?: string } } {
  if (response === undefined || response === null) return { ok: true, data: {} };
  if (typeof response !== "object" || Array.isArray(response)) return { ok: true, data: { output: response } };
  const r = response as Record<string, unknown>;
  const exit = typeof r.exit_code === "number" ? r.exit_code : typeof r.exitCode === "number" ? r.exitCode : undefined;
  const text = (v: unknown) => (typeof v === "string" ? v : undefined);
  const failed = r.is_error === true || (r.error !== undefined && r.error !== null && r.error !== false) || (exit !== undefined && exit !== 0) || r.interrupted === true;
  if (!failed) return { ok: true, data: r };
  const stderr = text(r.stderr);
  const message =
    (typeof r.error === "string" && r.error.trim()) ||
    (r.error && typeof r.error === "object" && typeof (r.error as { message?: unknown }).message === "string" && (r.error as { message: string }).message.trim()) ||
    (r.interrupted === true ? "The command was interrupted." : "") ||
    stderr?.trim() ||
    text(r.content)?.trim() ||
    (exit !== undefined ? `The command exited with code ${exit}.` : "The tool call failed.");
  return { ok: false, error: { message: String(message).slice(0, 4000), ...(exit !== undefined ? { exitCode: exit } : {}), ...(text(r.stdout) !== undefined ? { stdout: text(r.stdout) } : {}), ...(stderr !== undefined ? { stderr } : {}) } };
}

/** POST /api/v1/hooks/claude/post-tool-use: records the result; a failure is told to the model. */
export async function postToolUse(req: Request): Promise<Response> {
  const note = (message: string, code: string) => Response.json({ systemMessage: `Faultline: ${message}` }, { status: 200, headers: { "Faultline-Error": code } });
  try {
    const auth = await authorize(req);
    if (!auth.ok) return note(`the result was not recorded: ${auth.message}`, auth.code);
    const body = await readHookInput(req);
    if (!body.ok) return note(`the result was not recorded: ${body.message}`, "bad_request");
    const { input } = body;
    const runId = await findSessionRun(auth.actor.id, input.session_id);
    if (!runId) return note(`the result of ${input.tool_name} (${input.tool_use_id}) was not recorded: this session never asked Faultline before a call (install the PreToolUse hook too).`, "conflict");
    const result = toolResponseResult(input.tool_response);
    const answer = await reportRunResult(getDb(), runId, { callId: input.tool_use_id, result });
    if (answer.status === "failed") {
      const message = result.ok ? "" : result.error.message;
      return Response.json({ systemMessage: `Faultline recorded ${input.tool_name} as failed (${message.slice(0, 300)}); it is diagnosed, and a person may need to decide before the next call.` });
    }
    return Response.json({});
  } catch (e) {
    if (isAppError(e) && e.status < 500) return note(`the result was not recorded: ${e.userMessage ?? e.message}`, e.code);
    console.error("[api POST hooks/claude/post-tool-use]", e);
    return note(`the result was not recorded: an internal error (${e instanceof Error ? e.message : String(e)}).`, "internal");
  }
}
