import { z } from "zod";
import { closedUnapproved, decide, DEFAULT_APPROVAL_TTL_MS } from "../authority/authority";
import { AUTHORITY_ACTOR_ID, type DecisionRecord, type ProposedAction } from "../authority/types";
import type { Rule } from "../authority/rules";
import { evaluateResultCheck, type EvidenceRecord } from "../tools/evidence";
import { TOOL_ERROR_CODES, type ToolData, type ToolError } from "../tools/result";
import { agentDefinition, missionLevel, type EvidenceCheck, type ExternalDefinition } from "./definition";
import { openGate } from "./reducer";
import type { MissionState, ProposalState } from "./types";
import type { NewMissionEvent } from "./events";
import * as t from "./transitions";
import { buildPrompt, FINISH, proposalGate, structuralError } from "./autonomous";

/**
 * External agents (issue 15): agents that run elsewhere (a REST client, the MCP gateway, a Claude Code
 * hook) and ask Faultline before each tool call. The pure part: what the authority is given for their
 * proposals, what their reported results mean, and the evidence their finish is checked against.
 */

export function externalOf(s: Pick<MissionState, "definition">, agent: string): ExternalDefinition {
  const def = agentDefinition(s.definition, agent).external;
  if (!def) throw new Error(`Agent "${agent}" is not an external agent`);
  return def;
}

/** The actor of an external agent: kind agent, named by the run and how it calls (FDR-N002). */
export function externalActorId(missionId: string, agent: string): string {
  return `agent:${agent}@run/${missionId}`;
}

/** The allowlists the authority applies to an external agent ("*" where the run sets none). */
export function externalAllowlists(s: Pick<MissionState, "definition" | "allowlistGrants">, agent: string): { tools: string[]; binaries: string[] } {
  const x = externalOf(s, agent);
  const own = x.allowedBinaries ?? s.definition.allowedBinaries;
  const granted = (s.allowlistGrants ?? []).map((g) => g.binary);
  return { tools: x.tools ?? ["*"], binaries: own.length ? [...new Set([...own, ...granted])] : ["*"] };
}

/**
 * The authority's decision of an external agent's proposal. A proposal that would be approved or held
 * while a gate holds the run waits for that gate (GATE_OPEN); a rejection stands at once.
 */
export function decideExternal(
  s: MissionState,
  p: { id: string; actorId: string; agent: string; action: ProposedAction; argsDigest: string },
  ctx: { defaultPolicy: readonly Rule[]; now: number; approvalTtlMs?: number; evidence?: EvidenceRecord[]; rejectedDigests?: readonly string[] },
): DecisionRecord {
  const x = externalOf(s, p.agent);
  const lists = externalAllowlists(s, p.agent);
  const level = missionLevel(s.definition).effective;
  const record = decide({
    proposal: p,
    level,
    rules: s.definition.rules,
    defaultPolicy: ctx.defaultPolicy,
    allowedTools: lists.tools,
    allowedBinaries: lists.binaries,
    workspace: x.workspace,
    observations: p.action.tool === FINISH ? { evidence: ctx.evidence ?? [] } : undefined,
    history: { rejectedDigests: ctx.rejectedDigests ?? [] },
    now: ctx.now,
    approvalTtlMs: ctx.approvalTtlMs ?? DEFAULT_APPROVAL_TTL_MS,
    argsProblem: null,
  });
  const gate = openGate(s);
  if (gate && record.decision !== "rejected") {
    return {
      ...record,
      decision: "pending",
      authority: "gate",
      reason: `A gate holds this run (${gate.error?.what ?? gate.kind}): this proposal waits until it is decided, then the authority decides it. (Alone it would be ${record.decision}: ${record.reason})`,
      pendingReason: "GATE_OPEN",
      argsDigest: null,
      expiresAt: null,
    };
  }
  return record;
}

/** A proposal that waited on a gate, decided once it closed: refused when its agent's work ended meanwhile. */
export function endedRecord(s: MissionState, p: ProposalState, now: number): DecisionRecord | null {
  const a = s.agents[p.agent];
  if (!s.aborted && a.status === "running") return null;
  const why = s.aborted ? "the mission was aborted" : a.status === "skipped" ? `"${p.agent}" was skipped at its gate` : `"${p.agent}" is ${a.status}`;
  return closedUnapproved(
    { level: p.level, verification: p.decision?.verification ?? "deterministic" },
    { authority: "gate", decidedBy: p.decision?.decidedBy ?? AUTHORITY_ACTOR_ID, reason: `This proposal waited for a gate, and ${why}: it does not run.`, confirmFrom: "a decider of this run's gates (retry instead of skip or abort)", now },
  );
}

// ---------- results ----------

/** An external agent's error, as sent: a ToolError, or any object or string that says what went wrong. */
const reportedError = z.union([
  z.string().trim().min(1, "must say what went wrong"),
  z.looseObject({ message: z.string().trim().min(1, "must say what went wrong"), code: z.string().optional() }),
]);

/**
 * The strict ToolResult contract (RFC 001 §3.2) for a reported result: `ok ⇒ data ≠ null ∧ error = null`,
 * `¬ok ⇒ error ≠ null`. Each broken rule is its own message, naming the rule.
 */
export const reportedResultSchema = z
  .object({
    ok: z.boolean({ error: "result.ok must be true or false" }),
    data: z.unknown().optional(),
    error: z.unknown().optional(),
  })
  .superRefine((r, ctx) => {
    const hasData = r.data !== null && r.data !== undefined;
    const hasError = r.error !== null && r.error !== undefined;
    if (r.ok && !hasData) ctx.addIssue({ code: "custom", path: ["data"], message: "ok = true requires data ≠ null (RFC 001 §3.2): send what the call returned, e.g. {\"stdout\": \"…\"} or {} when it returns nothing" });
    if (r.ok && hasError) ctx.addIssue({ code: "custom", path: ["error"], message: "ok = true requires error = null (RFC 001 §3.2): a call that failed is ok = false" });
    if (!r.ok && !hasError) ctx.addIssue({ code: "custom", path: ["error"], message: "ok = false requires error ≠ null (RFC 001 §3.2): say what went wrong, e.g. {\"message\": \"…\"}" });
    if (!r.ok && hasError && !reportedError.safeParse(r.error).success) ctx.addIssue({ code: "custom", path: ["error"], message: "error must be a message or an object with a non-empty message" });
  });
export type ReportedResult = z.infer<typeof reportedResultSchema>;

/** The data of a result as an object (a string or list is kept under `output`). */
export function resultData(data: unknown): ToolData {
  if (data !== null && typeof data === "object" && !Array.isArray(data)) return data as ToolData;
  return { output: data };
}

/** The reported error as a ToolError: its own code when it is one of ours, else read from its words by the diagnosis. */
export function toToolError(error: unknown, data: unknown): ToolError {
  const e = typeof error === "string" ? { message: error } : (error as Record<string, unknown>);
  const message = String(e.message ?? "").trim() || "The call failed (no message was reported).";
  const code = typeof e.code === "string" && (TOOL_ERROR_CODES as readonly string[]).includes(e.code) ? (e.code as ToolError["code"]) : guessCode(message, e);
  const num = (v: unknown) => (typeof v === "number" && Number.isInteger(v) ? v : undefined);
  const text = (v: unknown) => (typeof v === "string" ? v.slice(0, 20_000) : undefined);
  const d = resultData(data);
  return {
    code,
    message: message.slice(0, 4000),
    exitCode: num(e.exitCode ?? e.exit_code ?? d.exitCode ?? d.exit_code) ?? null,
    stdout: text(e.stdout ?? d.stdout),
    stderr: text(e.stderr ?? d.stderr),
    status: num(e.status ?? e.statusCode ?? d.status),
    errno: text(e.errno),
    details: { reported: { ...e, ...(typeof e.code === "string" && code !== e.code ? { code: e.code } : {}) } },
  };
}

/** A first reading of a reported error's code from what it says (the diagnosis reads the words in full). */
function guessCode(message: string, e: Record<string, unknown>): ToolError["code"] {
  const m = `${message} ${String(e.code ?? "")} ${String(e.errno ?? "")}`;
  if (/ECONNREFUSED|connection refused/i.test(m)) return "CONNECTION_REFUSED";
  if (/ENOTFOUND|EAI_AGAIN|ECONNRESET|ETIMEDOUT|getaddrinfo|network/i.test(m)) return "NETWORK_ERROR";
  if (/timed? ?out|deadline exceeded/i.test(m)) return "TIMEOUT";
  if (/\b429\b|rate.?limit|too many requests/i.test(m)) return "RATE_LIMITED";
  if (/EACCES|EPERM|permission denied|forbidden|\b403\b/i.test(m)) return "PERMISSION_DENIED";
  if (/command not found|ENOENT.*spawn|not recognized as an internal/i.test(m)) return "COMMAND_NOT_FOUND";
  if (/ENOENT|no such file|not found|\b404\b/i.test(m)) return "NOT_FOUND";
  if (typeof e.exitCode === "number" || typeof e.exit_code === "number" || /exit(ed)? (with )?(code|status) [1-9]/i.test(m)) return "EXIT_NONZERO";
  return "INTERNAL_ERROR";
}

/** The evidence of a reported successful call: the contract held and the agent said ok (the step's own record). */
export function reportedOkEvidence(): EvidenceRecord[] {
  return [{ check: "reported_ok", expected: true, actual: true, passed: true }];
}

// ---------- finish ----------

/** Evidence rules an external agent's finish can be checked against: the ones that read results. */
export type ResultCheck = Exclude<EvidenceCheck, { file_exists: string }>;

/** The words of a result the checks read: its text fields, else the whole of it as JSON. */
function normalised(data: ToolData): ToolData {
  const parts = ["stdout", "stderr", "output", "content", "text", "body", "result", "message"].map((k) => data[k]).filter((v): v is string => typeof v === "string");
  const stdout = parts.length ? parts.join("\n") : JSON.stringify(data);
  const exitCode = [data.exitCode, data.exit_code, data.returncode, data.code].find((v) => typeof v === "number");
  const status = [data.status, data.statusCode, data.status_code].find((v) => typeof v === "number");
  return { stdout, exitCode, status, json: data };
}

/**
 * What an external agent's finish is checked against (FP-5: its claim is not evidence):
 * - every call it was approved to make was reported (none left in the dark), and none it reported failed;
 * - at least one call was reported ok, when the run has no evidence rules of its own;
 * - each evidence rule holds for at least one reported successful result.
 */
export function finishEvidence(s: MissionState, agent: string, results: readonly ToolData[]): EvidenceRecord[] {
  const a = s.agents[agent];
  const checks = externalOf(s, agent).evidence as ResultCheck[];
  const unreported = s.proposals.filter((p) => p.agent === agent && p.status === "approved" && p.step === null && p.action.tool !== FINISH);
  const failed = a.steps.filter((st) => st.status === "failed");
  const records: EvidenceRecord[] = [
    { check: "all_calls_reported", expected: 0, actual: unreported.length, passed: unreported.length === 0, ...(unreported.length ? { detail: `expected every approved call to be reported but ${unreported.length} ${unreported.length === 1 ? "was" : "were"} not (${unreported.map((p) => p.callId ?? p.id).join(", ")})` } : {}) },
    { check: "no_failed_calls", expected: 0, actual: failed.length, passed: failed.length === 0, ...(failed.length ? { detail: `expected no failed call but ${failed.length} failed` } : {}) },
  ];
  if (!checks.length) {
    records.push({ check: "calls_succeeded", expected: "≥ 1", actual: results.length, passed: results.length > 0, ...(results.length ? {} : { detail: "expected at least one call reported ok but none was: nothing shows the work was done" }) });
    return records;
  }
  for (const check of checks) {
    const tries = results.map((d) => evaluateResultCheck(check, "shell", { ok: true, data: normalised(d), error: null }));
    records.push(tries.find((r) => r.passed) ?? tries.at(-1) ?? { check: Object.keys(check)[0], expected: Object.values(check)[0], actual: null, passed: false, detail: "expected a reported result to check but no call was reported ok" });
  }
  return records;
}

/** A finish proposal's digest: the summary's (finish has no effects; the record binds nothing to run). */
export function finishAction(summary: string | null): ProposedAction {
  return { tool: FINISH, args: { summary: summary ?? "" } };
}

// ---------- the events of a decision ----------

/**
 * The events that record an external proposal's decision: `proposal.decided` (with the evidence of a
 * finish and the HITL prompt of a hold), the proposal gate a hold opens (not for GATE_OPEN: a gate is
 * already open), and for a rejected finish the agent's failure with the response matrix's answer.
 */
export function externalDecisionEvents(
  p: ProposalState | { id: string; agent: string; action: ProposedAction },
  record: DecisionRecord,
  extra: { evidence?: EvidenceRecord[]; newId: () => string; at: string },
): Array<NewMissionEvent | ((s: MissionState) => NewMissionEvent | null)> {
  const events: Array<NewMissionEvent | ((s: MissionState) => NewMissionEvent | null)> = [
    // The authority decides (never the proposer: nobody decides their own proposal), whoever appends it.
    (s) => ({ ...t.proposalDecided(p.id, record, { ...(extra.evidence ? { evidence: extra.evidence } : {}), ...(record.decision === "pending" ? { prompt: buildPrompt(s, s.proposals.find((x) => x.id === p.id)!, record) } : {}) }), actorId: AUTHORITY_ACTOR_ID }),
  ];
  if (record.decision === "pending" && record.pendingReason !== "GATE_OPEN") {
    events.push((s) => {
      const q = s.proposals.find((x) => x.id === p.id)!;
      return t.gateOpened(extra.newId(), proposalGate(s, q, record, buildPrompt(s, q, record), extra.at), `The authority holds the proposal for a decision (${record.pendingReason}).`);
    });
  }
  if (p.action.tool === FINISH && record.decision === "rejected") {
    events.push((s) => {
      const a = s.agents[p.agent];
      return a.status === "running" ? t.agentFailed(a.name, a.attempt, structuralError(a, "AUTHORITY_REJECTION", `"${a.name}" says it is done, but ${record.reason.replace(/^The agent says it is done, but /, "")}`)) : null;
    });
    // The response matrix answers the failure just recorded (not one a gate already holds).
    events.push((s) => (s.agents[p.agent].status === "failed" && !openGate(s) ? t.failureResponse(s, p.agent, extra.newId(), extra.at) : null));
  }
  return events;
}
