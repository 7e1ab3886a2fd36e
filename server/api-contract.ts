import { z } from "zod";
import { PATTERN_THRESHOLD_MAX, PATTERN_THRESHOLD_MIN } from "@/db/queries/learning";
import { MAX_PAGE_SIZE } from "@/db/queries/failure-history";
import { browseFiltersSchema } from "@/db/queries/library-browse";
import { libraryQuerySchema } from "@/db/queries/library-query";
import { auditFiltersSchema } from "@/lib/audit/filters";
import type { Action } from "@/lib/auth/roles";
import { newTokenSchema, newUserSchema, resetModeSchema, userPatchSchema } from "@/lib/auth/user-admin";
import { proposalDecisionInput } from "@/lib/authority/decision-input";
import { historyFiltersSchema } from "@/lib/history/filters";
import { commentInputSchema, CONTRIBUTION_ORIGINS, CONTRIBUTION_STATUSES, contributionInputSchema, reviewInputSchema } from "@/lib/library/contribution";
import { LIBRARY_FORMATS } from "@/lib/library/io";
import { missionDefinitionSchema } from "@/lib/mission/definition";
import { gatePolicyInput } from "@/lib/mission/gate-policy";
import { GATE_DECISIONS } from "@/lib/mission/types";
import { PROJECTION_MODES } from "@/lib/lab/modes";
import { DIAGNOSED_TYPES } from "@/lib/diagnosis/types";
import { webhookSubscriptionInput } from "@/lib/webhooks";
import { hookInputSchema, postToolUseOutputSchema, preToolUseOutputSchema } from "./claude-hooks-contract";
import { finishAnswerSchema, proposalAnswerSchema, resultAnswerSchema, runCreateInput, runFinishInput, runProposalInput, runResultInput, runViewSchema } from "@/db/queries/runs";
import { decisionRecordSchema, hitlPromptSchema } from "@/lib/authority/schemas";
import { proposalViewSchema } from "./proposal-view";
import { EXPORT_FORMATS } from "./export-stream";

/**
 * The REST API's contract: every `/api/v1` operation with its permission and the zod schemas that
 * validate its path, query and body. Route handlers take their name, permission and schemas from here
 * (`apiRoute(api.x, …)`, `parseOr400(api.x.body, …)`), and `/api/v1/openapi.json` is generated from the
 * same objects (server/openapi.ts): the document cannot drift from what the server accepts.
 */
export interface Endpoint {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** OpenAPI path: `/api/v1/gates/{id}/decision`. */
  path: string;
  /** For logs: "POST gate decision". */
  name: string;
  permission: Action;
  tag: string;
  summary: string;
  description?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The body's media type when it is not JSON (library import takes the file itself). */
  bodyMediaTypes?: string[];
  /** Success status and what it returns (with its schema where one is declared); errors are documented once for all. */
  ok: { status: 200 | 201 | 202 | 204; description: string; mediaType?: string; schema?: z.ZodType };
}

const note = z.string().trim().max(2000, "must be at most 2000 characters").nullish();
const uuidParam = z.object({ id: z.string().meta({ description: "A UUID", format: "uuid" }) });
const anyParam = (description: string) => z.object({ id: z.string().meta({ description }) });
const memoryQuery = z.object({ missionId: z.guid({ error: "must be a mission id (a UUID)" }).optional() });
const flag = z.enum(["true", "false", "1", "0"], { error: "must be true or false" }).transform((v) => v === "true" || v === "1");

/** Query of the export downloads: `?format=csv|jsonl` (defaults differ per download). */
export const exportFormatQuery = (fallback: (typeof EXPORT_FORMATS)[number]) => z.object({ format: z.enum(EXPORT_FORMATS, { error: "must be csv or jsonl" }).default(fallback) });

/** `{ text: "<yaml or json>" }` carries a mission definition as text; any other body is the definition itself. */
export const missionTextBody = z.strictObject({ text: z.string() });

/** `?wait=N`: long-poll for up to N seconds (0 = answer now). */
export const waitQuery = z.object({ wait: z.coerce.number({ error: "must be a number of seconds" }).min(0, "must be 0 or more").max(60, "must be at most 60 seconds").default(0) });

/** The optional body of pause/resume/abort: `{ note }`. */
export const controlSchema = z.object({ note });

/** An operator's verdict on a diagnosis' error type: confirm it, or correct it to the right type. */
export const diagnosisFeedbackBody = z.discriminatedUnion("verdict", [
  z.strictObject({ verdict: z.literal("confirmed"), note }),
  z.strictObject({ verdict: z.literal("corrected"), type: z.enum(DIAGNOSED_TYPES as [string, ...string[]], { error: `must be one of ${DIAGNOSED_TYPES.join(", ")}` }), note }),
], { error: 'verdict must be "confirmed" or "corrected"' });

/** At most this many gates or proposals in one bulk decision. */
export const BULK_DECISION_MAX_ITEMS = 200;

const gateDecision = z.enum(GATE_DECISIONS, { error: `must be one of ${GATE_DECISIONS.join(", ")} (the gate's options say which apply)` });

/** One item of a bulk decision: a gate by its id, or a pending proposal by its id (its proposal gate). */
export const bulkDecisionItem = z.union([z.strictObject({ gateId: z.guid("must be a gate id (a UUID)") }), z.strictObject({ proposalId: z.guid("must be a proposal id (a UUID)") })], {
  error: "must be { gateId } or { proposalId }",
});

/** A bulk decision (issue 15): one decision and one note for many gates or proposals, each decided on its own. */
export const bulkDecisionBody = z
  .strictObject({
    items: z
      .array(bulkDecisionItem, { error: "must be a list of { gateId } or { proposalId }" })
      .min(1, "must name at least one gate or proposal")
      .max(BULK_DECISION_MAX_ITEMS, `must name at most ${BULK_DECISION_MAX_ITEMS} gates or proposals; split the decision`),
    decision: gateDecision,
    note,
  })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.items.forEach((item, i) => {
      const id = "gateId" in item ? item.gateId : item.proposalId;
      if (seen.has(id)) ctx.addIssue({ code: "custom", path: ["items", i], message: `names ${id} a second time: each gate or proposal once` });
      seen.add(id);
    });
  });

const bulkError = z.object({
  code: z.enum(["bad_request", "forbidden", "not_found", "conflict", "unprocessable", "internal"]).meta({ description: "403: the gate's policy or the authority refuses you; 404: no such gate or proposal; 409: already decided; 422: the gate does not offer the decision" }),
  status: z.number().int().meta({ description: "The HTTP status the single-item route would have answered" }),
  message: z.string().meta({ description: "Why it was refused, in words, and what to do" }),
});

/** The answer of a bulk decision: one result per item, in the order of the items. */
export const bulkDecisionResponse = z
  .object({
    results: z.array(
      z.discriminatedUnion("ok", [
        z.object({
          id: z.string().meta({ description: "The item's gateId or proposalId, as sent" }),
          ok: z.literal(true),
          status: z.enum(["resolved", "approval_recorded"]).meta({ description: "resolved: decided; approval_recorded: one approval of an N-of-M policy, the gate stays open until N people chose the same" }),
          gateId: z.string(),
          missionId: z.string(),
          decision: gateDecision,
          approvals: z.number().int(),
          required: z.number().int(),
        }),
        z.object({ id: z.string(), ok: z.literal(false), gateId: z.string().nullable(), missionId: z.string().nullable(), error: bulkError }),
      ]),
    ),
  })
  .meta({ id: "BulkDecisionResults" });

export const api = {
  // ── missions
  listMissions: { method: "GET", path: "/api/v1/missions", name: "GET missions", permission: "mission.view", tag: "Missions", summary: "List missions", ok: { status: 200, description: "`{ missions }`, newest first" } },
  createMission: {
    method: "POST",
    path: "/api/v1/missions",
    name: "POST missions",
    permission: "mission.create",
    tag: "Missions",
    summary: "Start a mission",
    description: "The body is the mission definition as JSON, or `{ text }` carrying YAML or JSON text. 422 lists every invalid field.",
    body: z.union([missionTextBody, missionDefinitionSchema]),
    ok: { status: 201, description: "`{ mission }` (its state); `Location` names it" },
  },
  getMission: { method: "GET", path: "/api/v1/missions/{id}", name: "GET mission", permission: "mission.view", tag: "Missions", summary: "A mission: state, final status and its explanation, open gates, events", description: "The whole state and every event by default; `window=N` returns only the newest N events (or the N around `around`) with `eventsWindow: { hasOlder, hasNewer }` — page the rest with GET mission events — and the mission page's view of the state: each agent's succeeded steps before its newest 50 left out, counted in `agents[name].elided`.", params: uuidParam, query: z.object({ window: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1).max(10_000).optional(), around: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1).optional() }), ok: { status: 200, description: "The mission" } },
  missionEvents: {
    method: "GET",
    path: "/api/v1/missions/{id}/events",
    name: "GET mission events",
    permission: "mission.view",
    tag: "Missions",
    summary: "A page of the mission's event log, ascending: after a seq, before a seq or around one (keyset by seq), optionally of one type or agent",
    description: "`after` (default 0) pages forward, `before` pages back (the newest page: `before` = lastSeq + 1), `around` opens at a seq (itself included, half the page before it). `type` and `agent` filter on the server; `hasOlder`/`hasNewer` say whether more matching events lie before/after the page.",
    params: uuidParam,
    query: z.object({
      after: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(0, "must be 0 or more").default(0),
      before: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1, "must be 1 or more").optional(),
      around: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1, "must be 1 or more").optional(),
      limit: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1).max(10_000).default(1000),
      type: z.string().min(1).max(100).optional(),
      agent: z.string().min(1).max(200).optional(),
    }),
    ok: { status: 200, description: "`{ missionId, lastSeq, events, hasOlder, hasNewer, actors }` (actors: display names of the page's actors)" },
  },
  missionTrace: {
    method: "GET",
    path: "/api/v1/missions/{id}/trace",
    name: "GET mission trace",
    permission: "trace.export",
    tag: "Missions",
    summary: "The mission's trace (FDR-N004): JSON Lines, a header, every event with the worker's readings, sha-256 chained, secrets redacted (docs/traces.md)",
    params: uuidParam,
    ok: { status: 200, description: "JSON Lines (`mission-<id>.trace.jsonl`); check it with `faultline trace verify`, replay it with `faultline lab replay`", mediaType: "application/x-ndjson" },
  },
  missionProjection: {
    method: "GET",
    path: "/api/v1/missions/{id}/projection",
    name: "GET mission projection",
    permission: "mission.view",
    tag: "Missions",
    summary: "What a projection mode adds to the mission page (seed 002 FDR-N012): the model turns as the mode shows them and, in debug, the state at a seq with the model requests and responses of its write",
    description: "`mode` is silent, watch, interactive or debug (docs/lab.md \"Projections\"). `modelCalls`: one line per model turn or reflection recorded by the worker (none in silent; a summary in watch; provider, model, latency and args in interactive; the response as recorded in debug). With `mode=debug` and `seq`, `debug` is the state after that event reduced from the log, what it changed, and the readings of the write holding it: each model turn's request (derived from the state the turn started from) and recorded response. Debug shows what a trace holds, so it needs trace.export as well; secrets are redacted as in a trace.",
    params: uuidParam,
    query: z.object({
      mode: z.enum(PROJECTION_MODES, { error: `must be one of ${PROJECTION_MODES.join(", ")}` }),
      seq: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1, "must be 1 or more").optional(),
    }),
    ok: { status: 200, description: "`{ mode, capabilities, modelCalls: [{ seq, kind, agent, text }], debug: { seq, event, state, changes, write, modelCalls: [{ agent, request, response }], reflections, otherReads } | null }`" },
  },
  missionProposals: { method: "GET", path: "/api/v1/missions/{id}/proposals", name: "GET mission proposals", permission: "mission.view", tag: "Proposals", summary: "Every proposal of a mission with its decision record", params: uuidParam, ok: { status: 200, description: "`{ proposals }`" } },
  pauseMission: { method: "POST", path: "/api/v1/missions/{id}/pause", name: "POST mission pause", permission: "mission.control", tag: "Missions", summary: "Pause at the next step boundary", params: uuidParam, body: controlSchema, ok: { status: 200, description: "`{ mission: { id, runState, paused } }`" } },
  resumeMission: { method: "POST", path: "/api/v1/missions/{id}/resume", name: "POST mission resume", permission: "mission.control", tag: "Missions", summary: "Resume a paused mission", params: uuidParam, body: controlSchema, ok: { status: 200, description: "The mission" } },
  abortMission: { method: "POST", path: "/api/v1/missions/{id}/abort", name: "POST mission abort", permission: "mission.control", tag: "Missions", summary: "Abort: the mission ends FAILED after its compensations", params: uuidParam, body: controlSchema, ok: { status: 200, description: "The mission" } },

  // ── gates and proposals
  listGates: { method: "GET", path: "/api/v1/gates", name: "GET gates", permission: "gate.view", tag: "Gates", summary: "Open gates, oldest first, with their HITL prompts", ok: { status: 200, description: "`{ gates }`" } },
  decideGate: {
    method: "POST",
    path: "/api/v1/gates/{id}/decision",
    name: "POST gate decision",
    permission: "gate.decide",
    tag: "Gates",
    summary: "Decide an open gate",
    description: "Under an N-of-M policy `resolved` stays false until N people chose the same option. 403: the gate's policy refuses you; 409: already resolved, or you already chose; 422: not one of the gate's options.",
    params: uuidParam,
    body: z.object({
      decision: z.enum(GATE_DECISIONS, { error: `must be one of ${GATE_DECISIONS.join(", ")} (the gate's options say which apply)` }),
      note,
    }),
    ok: { status: 200, description: "`{ gate, mission, resolved, approvals, required }`" },
  },
  bulkDecideGates: {
    method: "POST",
    path: "/api/v1/gates/bulk-decision",
    name: "POST gates bulk decision",
    permission: "gate.decide",
    tag: "Gates",
    summary: "Decide many gates or proposals with one decision and one note",
    description: `Up to ${BULK_DECISION_MAX_ITEMS} items, \`{ gateId }\` or \`{ proposalId }\`. Each item is decided on its own, in its own transaction, exactly as \`POST /api/v1/gates/{id}/decision\` (a proposal gate through the authority, as \`POST /api/v1/proposals/{id}/decision\`): its own event, its own audit row, its own gate-policy check. An item that is refused (not one of its options, already decided, refused by its policy or the authority, not found) is reported in its result and the others still go through, so the answer is 200 whenever the request itself is valid. Rejecting a proposal needs a note.`,
    body: bulkDecisionBody,
    ok: { status: 200, description: "`{ results: [{ id, ok, status | error }] }`, one per item in the order sent", schema: bulkDecisionResponse },
  },
  getProposal: {
    method: "GET",
    path: "/api/v1/proposals/{id}",
    name: "GET proposal",
    permission: "mission.view",
    tag: "Proposals",
    summary: "A proposal and its decision record; `?wait=30` long-polls while it is pending",
    description: "With `wait` (seconds, at most 60) the answer comes as soon as the proposal is decided, or after `wait` seconds with it still pending: an external agent's way to wait for a person.",
    params: uuidParam,
    query: waitQuery,
    ok: { status: 200, description: "`{ proposal, prompt, decision }`", schema: z.object({ proposal: proposalViewSchema, decision: decisionRecordSchema.nullable(), prompt: hitlPromptSchema.nullable() }) },
  },
  proposalPrompt: { method: "GET", path: "/api/v1/proposals/{id}/prompt", name: "GET proposal prompt", permission: "mission.view", tag: "Proposals", summary: "The HITL prompt of a pending proposal", params: uuidParam, ok: { status: 200, description: "`{ prompt }`" } },
  decideProposal: {
    method: "POST",
    path: "/api/v1/proposals/{id}/decision",
    name: "POST proposal decision",
    permission: "gate.decide",
    tag: "Proposals",
    summary: "Approve, reject or modify a pending proposal (through the authority)",
    description: "409 when it is decided or expired; 400 names the field (schema of the tool's args, rules: a deny rule wins over a person).",
    params: uuidParam,
    body: proposalDecisionInput,
    ok: { status: 200, description: "`{ proposal, decision, mission: { id, runState } }`" },
  },

  // ── runs: agents that run elsewhere and ask first (issue 15)
  createRun: {
    method: "POST",
    path: "/api/v1/runs",
    name: "POST runs",
    permission: "mission.create",
    tag: "Runs",
    summary: "Start a run: a mission whose actions come from an agent that runs elsewhere",
    description: "The run starts at once; its agents (one named `agent` when none is given) may propose calls right away. `allowedBinaries` and `tools` fail closed when given; without them the rules and the default policy decide. `evidence` is checked at finish against the results the agents reported (`file_exists` cannot be: Faultline does not see their files).",
    body: runCreateInput,
    ok: { status: 201, description: "`{ run }`; `Location` names it", schema: z.object({ run: runViewSchema }) },
  },
  getRun: { method: "GET", path: "/api/v1/runs/{id}", name: "GET run", permission: "mission.view", tag: "Runs", summary: "A run: state, agents, final status and its explanation; `?wait=30` long-polls until it ends", params: uuidParam, query: waitQuery, ok: { status: 200, description: "`{ run }`", schema: z.object({ run: runViewSchema }) } },
  proposeRunCall: {
    method: "POST",
    path: "/api/v1/runs/{id}/proposals",
    name: "POST run proposal",
    permission: "mission.create",
    tag: "Runs",
    summary: "Ask before a tool call: the authority decides it now",
    description: "`status` is approved (run exactly these args, then report the result), rejected (do not run it: `decision` says why and what would change it) or pending (wait: `GET /api/v1/proposals/{id}?wait=30`, the run's stream or a webhook; `prompt` is what a person is asked). Idempotent on `callId`: the same call returns the same proposal (200); other args under a used `callId` are a 409.",
    params: uuidParam,
    body: runProposalInput,
    ok: { status: 201, description: "`{ proposal }` with `status`, `decision` and `prompt` (200 when the callId was already proposed)", schema: z.object({ proposal: proposalAnswerSchema }) },
  },
  reportRunResult: {
    method: "POST",
    path: "/api/v1/runs/{id}/results",
    name: "POST run result",
    permission: "mission.create",
    tag: "Runs",
    summary: "Report an approved call's ToolResult",
    description: "The strict contract: `ok ⇒ data ≠ null ∧ error = null`, `¬ok ⇒ error ≠ null`; a violation is a 400 naming the rule. A result for a call never proposed or not approved is a 409. A failed result is recorded as `tool.failed`, then diagnosed, looked up in the library and answered by the response matrix like any failure.",
    params: uuidParam,
    body: runResultInput,
    ok: { status: 200, description: "`{ result: { callId, proposalId, step, status, next, run } }`", schema: z.object({ result: resultAnswerSchema }) },
  },
  finishRun: {
    method: "POST",
    path: "/api/v1/runs/{id}/finish",
    name: "POST run finish",
    permission: "mission.create",
    tag: "Runs",
    summary: "Say the work is done: the evidence decides",
    description: "The finish is a proposal too: approved only when the evidence holds (every approved call reported, none failed, the run's evidence rules hold for a reported result, or at least one call succeeded when it has none). A run whose only call failed is never SUCCESS. The final status is derived by the worker: `GET /api/v1/runs/{id}?wait=30`.",
    params: uuidParam,
    body: runFinishInput,
    ok: { status: 200, description: "`{ finishes, run: { runState, finalStatus, explanation } }`", schema: finishAnswerSchema },
  },
  heartbeatRun: { method: "POST", path: "/api/v1/runs/{id}/heartbeat", name: "POST run heartbeat", permission: "mission.create", tag: "Runs", summary: "The agent is alive (between long calls); resumes a run its silence paused", params: uuidParam, ok: { status: 200, description: "`{ run }`", schema: z.object({ run: z.object({ id: z.string(), runState: z.enum(["queued", "running", "paused", "completed", "failed"]) }) }) } },
  claudePreToolUse: {
    method: "POST",
    path: "/api/v1/hooks/claude/pre-tool-use",
    name: "POST Claude Code PreToolUse hook",
    permission: "mission.create",
    tag: "Hooks",
    summary: "Claude Code's PreToolUse hook: the authority decides the call (one run per session_id)",
    description: "The body is Claude Code's hook input (session_id, cwd, tool_name, tool_input, tool_use_id). The answer is always HTTP 200 with `hookSpecificOutput.permissionDecision`: allow when approved; deny when rejected (the reason and what would change it), when a person has not decided within ~8 s (the console link), and on a missing token, a malformed body or any error (`Faultline-Error` header names it). It never fails open.",
    body: hookInputSchema,
    ok: { status: 200, description: "`{ hookSpecificOutput: { hookEventName, permissionDecision, permissionDecisionReason } }`", schema: preToolUseOutputSchema },
  },
  claudePostToolUse: {
    method: "POST",
    path: "/api/v1/hooks/claude/post-tool-use",
    name: "POST Claude Code PostToolUse hook",
    permission: "mission.create",
    tag: "Hooks",
    summary: "Claude Code's PostToolUse hook: records the approved call's result",
    description: "`tool_response` becomes the ToolResult: `is_error`, `error`, a non-zero `exit_code`/`exitCode` or `interrupted: true` is a failure (recorded as tool.failed, then diagnosed); anything else is ok with the response as data. `{}`, or a `systemMessage` when the call failed or its result could not be recorded (never an error status).",
    body: hookInputSchema,
    ok: { status: 200, description: "`{}` or `{ systemMessage }`", schema: postToolUseOutputSchema },
  },
  runStream: {
    method: "GET",
    path: "/api/v1/runs/{id}/stream",
    name: "GET run stream",
    permission: "mission.view",
    tag: "Runs",
    summary: "The run's events as server-sent events, from `after` (or Last-Event-ID) until it ends",
    description: "Each event: `id` its seq, `event` its type (`proposal.decided`, `gate.opened`, `tool.failed`, `diagnostic_reflection`, `mission.finished`, …), `data` the event as JSON, the same as `GET /api/v1/missions/{id}/events`. Reconnect with Last-Event-ID to resume without gaps.",
    params: uuidParam,
    query: z.object({ after: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(0, "must be 0 or more").default(0) }),
    ok: { status: 200, description: "text/event-stream", mediaType: "text/event-stream" },
  },

  // ── actors and the authority
  listActors: { method: "GET", path: "/api/v1/actors", name: "GET actors", permission: "mission.view", tag: "Actors", summary: "Actors (people, agents, system) with proposal counts and approval rate", ok: { status: 200, description: "`{ actors }`" } },
  getActor: { method: "GET", path: "/api/v1/actors/{id}", name: "GET actor", permission: "mission.view", tag: "Actors", summary: "One actor: what it proposed and decided, rejections by reason per day", params: anyParam("An actor id, URL-encoded (`user:<uuid>`, `agent:writer@…`, `system:authority`)"), ok: { status: 200, description: "The actor's summary" } },
  getAuthorityPolicy: { method: "GET", path: "/api/v1/authority/policy", name: "GET authority policy", permission: "mission.view", tag: "Authority", summary: "The default authority policy in force", ok: { status: 200, description: "`{ version, rules, … }`" } },
  putAuthorityPolicy: {
    method: "PUT",
    path: "/api/v1/authority/policy",
    name: "PUT authority policy",
    permission: "policy.manage",
    tag: "Authority",
    summary: "Publish a new version of the default authority policy",
    description: "Each rule is checked; a bad rule is refused naming the rule and the field (`rule 2.effect`).",
    body: z.strictObject({ rules: z.array(z.unknown(), { error: "must be a list of rules" }), note }),
    ok: { status: 200, description: "The published version" },
  },

  // ── gate policies
  listPolicies: { method: "GET", path: "/api/v1/policies", name: "GET policies", permission: "gate.view", tag: "Gate policies", summary: "Gate policies", ok: { status: 200, description: "`{ policies }`" } },
  createPolicy: { method: "POST", path: "/api/v1/policies", name: "POST policies", permission: "policy.manage", tag: "Gate policies", summary: "Create a gate policy", body: gatePolicyInput, ok: { status: 201, description: "`{ policy }`" } },
  getPolicy: { method: "GET", path: "/api/v1/policies/{id}", name: "GET policy", permission: "gate.view", tag: "Gate policies", summary: "One gate policy", params: uuidParam, ok: { status: 200, description: "`{ policy }`" } },
  putPolicy: { method: "PUT", path: "/api/v1/policies/{id}", name: "PUT policy", permission: "policy.manage", tag: "Gate policies", summary: "Replace a gate policy (open gates keep the policy they opened with)", params: uuidParam, body: gatePolicyInput, ok: { status: 200, description: "`{ policy }`" } },
  deletePolicy: { method: "DELETE", path: "/api/v1/policies/{id}", name: "DELETE policy", permission: "policy.manage", tag: "Gate policies", summary: "Delete a gate policy", params: uuidParam, ok: { status: 200, description: "`{ deleted }`" } },

  // ── failure history and audit
  listFailures: {
    method: "GET",
    path: "/api/v1/failures",
    name: "GET failures",
    permission: "history.view",
    tag: "Failure history",
    summary: "One page of the failure history, newest first",
    description: "Filters as on the History page; a bad value is a 400 naming the field. `total` is exact up to 10,000, with full text (`q`) up to 1,000 or what a count finds in 80 ms; `capped: true` means at least `count`.",
    query: historyFiltersSchema.safeExtend({
      cursor: z.string().max(400).optional(),
      limit: z.coerce.number({ error: `must be a number from 1 to ${MAX_PAGE_SIZE}` }).int(`must be a whole number from 1 to ${MAX_PAGE_SIZE}`).min(1).max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`).default(100),
    }),
    ok: { status: 200, description: "`{ rows, nextCursor, total: { count, capped } }`" },
  },
  failureStats: { method: "GET", path: "/api/v1/failures/stats", name: "GET failures stats", permission: "history.view", tag: "Failure history", summary: "Counts of the filtered failures by type, day, level, mission, outcome", description: "A view of more than 10,000 failures (as the planner expects) in a history of more than 500,000 is estimated from a sample of the history's pages (`sample`: percent and rows read; counts scaled up); `sample` is null when every row was read.", query: historyFiltersSchema, ok: { status: 200, description: "The statistics" } },
  exportFailures: { method: "GET", path: "/api/v1/failures/export", name: "GET failures export", permission: "history.view", tag: "Failure history", summary: "The filtered failure history as a streamed CSV or JSON Lines download", query: historyFiltersSchema.safeExtend(exportFormatQuery("csv").shape), ok: { status: 200, description: "The file", mediaType: "text/csv" } },
  listAudit: {
    method: "GET",
    path: "/api/v1/audit",
    name: "GET audit",
    permission: "audit.view",
    tag: "Audit",
    summary: "The audit log, newest first",
    query: auditFiltersSchema.safeExtend({
      cursor: z.string().max(200, "must be the nextCursor of the previous page").optional(),
      limit: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1, "must be at least 1").max(500, "must be at most 500").optional(),
    }),
    ok: { status: 200, description: "`{ entries, nextCursor }`" },
  },
  exportAudit: { method: "GET", path: "/api/v1/audit/export", name: "GET audit export", permission: "audit.view", tag: "Audit", summary: "The filtered audit log as a streamed download", query: auditFiltersSchema.safeExtend(exportFormatQuery("jsonl").shape), ok: { status: 200, description: "The file", mediaType: "application/x-ndjson" } },

  // ── learned patterns and memory
  listPatterns: { method: "GET", path: "/api/v1/patterns", name: "GET patterns", permission: "mission.view", tag: "Patterns", summary: "Learned recovery patterns", ok: { status: 200, description: "`{ patterns }`" } },
  patchPattern: {
    method: "PATCH",
    path: "/api/v1/patterns/{id}",
    name: "PATCH pattern",
    permission: "pattern.manage",
    tag: "Patterns",
    summary: "Enable or disable a pattern, set its fast-path threshold",
    params: uuidParam,
    body: z
      .strictObject(
        {
          enabled: z.boolean({ error: "must be true or false" }).optional(),
          threshold: z.number({ error: "must be a number" }).min(PATTERN_THRESHOLD_MIN, `must be at least ${PATTERN_THRESHOLD_MIN}`).max(PATTERN_THRESHOLD_MAX, `must be at most ${PATTERN_THRESHOLD_MAX}`).optional(),
        },
        { error: (i) => (i.code === "unrecognized_keys" ? `only enabled and threshold can be changed (got ${i.keys.join(", ")})` : "must be a JSON object") },
      )
      .refine((b) => b.enabled !== undefined || b.threshold !== undefined, "give enabled (true or false) and/or threshold (0.5 to 1)"),
    ok: { status: 200, description: "`{ pattern }`" },
  },
  deletePattern: { method: "DELETE", path: "/api/v1/patterns/{id}", name: "DELETE pattern", permission: "pattern.manage", tag: "Patterns", summary: "Delete a pattern and its record", params: uuidParam, ok: { status: 204, description: "Deleted" } },
  sessionMemory: { method: "GET", path: "/api/v1/memory/session", name: "GET memory session", permission: "memory.export", tag: "Memory", summary: "Session memory as JSON Lines, oldest first", query: memoryQuery, ok: { status: 200, description: "JSON Lines", mediaType: "application/x-ndjson" } },
  episodicMemory: { method: "GET", path: "/api/v1/memory/episodic", name: "GET memory episodic", permission: "memory.export", tag: "Memory", summary: "Episodic memory as JSON Lines, oldest first", query: memoryQuery, ok: { status: 200, description: "JSON Lines", mediaType: "application/x-ndjson" } },

  // ── the lab (recorded suite runs, docs/lab.md)
  labRuns: { method: "GET", path: "/api/v1/lab/runs", name: "GET lab runs", permission: "lab.view", tag: "Lab", summary: "Recorded lab suite runs, newest first, with their progress and key metrics", ok: { status: 200, description: "`{ runs }`" } },
  labRun: { method: "GET", path: "/api/v1/lab/runs/{id}", name: "GET lab run", permission: "lab.view", tag: "Lab", summary: "One suite run: its report (faultline-lab-report) and its runs' traces (names, sizes, sha-256)", params: uuidParam, ok: { status: 200, description: "`{ run }`" } },
  labTrace: {
    method: "GET",
    path: "/api/v1/lab/runs/{id}/traces/{scenario}/{repeat}",
    name: "GET lab trace",
    permission: "lab.view",
    tag: "Lab",
    summary: "A lab run's trace as `lab run` wrote it (JSON Lines, sha-256 chained; `faultline trace verify`, `faultline lab replay`); audited",
    params: z.object({
      id: z.string().meta({ description: "A suite run's id (UUID)", format: "uuid" }),
      scenario: z.string().meta({ description: "The scenario's name, URL-encoded" }),
      repeat: z.string().meta({ description: "The repeat, from 1" }),
    }),
    ok: { status: 200, description: "JSON Lines (`<scenario>.<repeat>.trace.jsonl`); the header `x-trace-sha256` is the file's sha-256", mediaType: "application/x-ndjson" },
  },

  // ── failure-mode library
  libraryEntries: { method: "GET", path: "/api/v1/library/entries", name: "GET library entries", permission: "library.view", tag: "Library", summary: "Entries of the library, one page at a time", query: browseFiltersSchema, ok: { status: 200, description: "`{ libraryVersion, entries, total, page, per }`" } },
  libraryEntry: { method: "GET", path: "/api/v1/library/entries/{id}", name: "GET library entry", permission: "library.view", tag: "Library", summary: "One entry with its history and the mission failures it matched", params: anyParam("A failure id (`FM-PHY-0001`)"), ok: { status: 200, description: "The entry" } },
  libraryVersions: { method: "GET", path: "/api/v1/library/versions", name: "GET library versions", permission: "library.view", tag: "Library", summary: "Published library versions", ok: { status: 200, description: "`{ versions }`" } },
  queryLibrary: {
    method: "POST",
    path: "/api/v1/library/query",
    name: "POST library query",
    permission: "library.view",
    tag: "Library",
    summary: "Ranked failure-mode hypotheses for an observed symptom (stateless)",
    query: z.object({
      limit: z.coerce.number({ error: "must be a number from 1 to 50" }).int("must be a whole number").min(1, "must be at least 1").max(50, "must be at most 50").optional(),
      include: z.enum(["entry"], { error: "can only be entry (adds each hypothesis's full entry)" }).optional(),
    }),
    body: libraryQuerySchema,
    ok: { status: 200, description: "`{ results: [{ failure_id, match_score, hypothesis, entry? }], abstained }`" },
  },
  exportLibrary: {
    method: "GET",
    path: "/api/v1/library/export",
    name: "GET library export",
    permission: "library.manage",
    tag: "Library",
    summary: "The published library as a file in the document's schema",
    query: z.object({
      format: z.enum(LIBRARY_FORMATS, { error: "must be json or yaml" }).optional().default("yaml"),
      deprecated: z.enum(["include"], { error: "can only be include (adds deprecated entries)" }).optional(),
    }),
    ok: { status: 200, description: "The library file", mediaType: "application/yaml" },
  },
  importLibrary: {
    method: "POST",
    path: "/api/v1/library/import",
    name: "POST library import",
    permission: "library.manage",
    tag: "Library",
    summary: "Import a library file as one new version",
    description: "The body is the file itself, JSON or YAML. `replace=true`: its entries become the whole published library. `dryRun=true`: the preview only. 400 lists every invalid field with the entry's position, failure_id and line.",
    query: z.object({ replace: flag.optional().default(false), dryRun: flag.optional().default(false), format: z.enum(LIBRARY_FORMATS, { error: "must be json or yaml" }).optional() }),
    bodyMediaTypes: ["application/json", "application/yaml", "text/yaml"],
    ok: { status: 200, description: "`{ version, counts: { added, edited, unchanged, deprecated, restored }, ids }`" },
  },
  rollbackLibrary: {
    method: "POST",
    path: "/api/v1/library/rollback",
    name: "POST library rollback",
    permission: "library.manage",
    tag: "Library",
    summary: "Roll the library back to a version, as a new version",
    body: z.strictObject({ to: z.number({ error: "must be a library version number" }).int("must be a whole number").min(1, "must be at least 1") }, { error: (i) => (i.code === "unrecognized_keys" ? `only "to" is accepted (got ${i.keys.join(", ")})` : 'must be a JSON object like {"to": 3}') }),
    ok: { status: 200, description: "`{ version, rolledBackTo }`" },
  },
  listContributions: {
    method: "GET",
    path: "/api/v1/library/contributions",
    name: "GET contributions",
    permission: "library.view",
    tag: "Contributions",
    summary: "Library contributions, most recently changed first (others' drafts are not listed)",
    query: z.strictObject({
      status: z.enum(CONTRIBUTION_STATUSES, { error: `must be one of ${CONTRIBUTION_STATUSES.join(", ")}` }).optional(),
      origin: z.enum(CONTRIBUTION_ORIGINS, { error: `must be one of ${CONTRIBUTION_ORIGINS.join(", ")}` }).optional(),
      mine: z.enum(["1", "0", "true", "false"], { error: "must be 1 or 0" }).optional(),
      limit: z.coerce.number({ error: "must be a number" }).int().min(1).max(500).optional(),
    }),
    ok: { status: 200, description: "`{ contributions }`" },
  },
  createContribution: { method: "POST", path: "/api/v1/library/contributions", name: "POST contribution", permission: "library.contribute", tag: "Contributions", summary: "Propose a new entry or an edit (`target_failure_id`)", body: contributionInputSchema, ok: { status: 201, description: "`{ contribution, similar: { results, abstained } }`" } },
  getContribution: { method: "GET", path: "/api/v1/library/contributions/{id}", name: "GET contribution", permission: "library.view", tag: "Contributions", summary: "One contribution with its reviews, comments and diff", params: uuidParam, ok: { status: 200, description: "The contribution" } },
  patchContribution: { method: "PATCH", path: "/api/v1/library/contributions/{id}", name: "PATCH contribution", permission: "library.contribute", tag: "Contributions", summary: "The author changes and (by default) submits it", params: uuidParam, body: contributionInputSchema, ok: { status: 200, description: "`{ contribution }`" } },
  reviewContribution: { method: "POST", path: "/api/v1/library/contributions/{id}/reviews", name: "POST contribution review", permission: "library.review", tag: "Contributions", summary: "Approve, reject or request changes", params: uuidParam, body: reviewInputSchema, ok: { status: 200, description: "The review's outcome" } },
  commentContribution: { method: "POST", path: "/api/v1/library/contributions/{id}/comments", name: "POST contribution comment", permission: "library.contribute", tag: "Contributions", summary: "Comment on a contribution", params: uuidParam, body: commentInputSchema, ok: { status: 201, description: "`{ comment }`" } },

  // ── users and tokens
  listUsers: { method: "GET", path: "/api/v1/users", name: "GET users", permission: "user.manage", tag: "Users", summary: "Users", ok: { status: 200, description: "`{ users }`" } },
  createUser: { method: "POST", path: "/api/v1/users", name: "POST user", permission: "user.manage", tag: "Users", summary: "Create a user (with a password, or an invitation link)", body: newUserSchema, ok: { status: 201, description: "`{ user, invite }` (invite: the link when no password was given)" } },
  getUser: { method: "GET", path: "/api/v1/users/{id}", name: "GET user", permission: "user.manage", tag: "Users", summary: "One user", params: uuidParam, ok: { status: 200, description: "`{ user }`" } },
  patchUser: { method: "PATCH", path: "/api/v1/users/{id}", name: "PATCH user", permission: "user.manage", tag: "Users", summary: "Change a user's roles, groups, name or active state", params: uuidParam, body: userPatchSchema, ok: { status: 200, description: "`{ user }`" } },
  resetPassword: { method: "POST", path: "/api/v1/users/{id}/reset-password", name: "POST reset-password", permission: "user.manage", tag: "Users", summary: "Reset a user's password (temporary password or a reset link)", params: uuidParam, body: resetModeSchema, ok: { status: 200, description: "The temporary password or the link, shown once" } },
  listTokens: { method: "GET", path: "/api/v1/tokens", name: "GET tokens", permission: "token.manage", tag: "Tokens", summary: "Your API tokens", ok: { status: 200, description: "`{ tokens }`" } },
  createToken: { method: "POST", path: "/api/v1/tokens", name: "POST token", permission: "token.manage", tag: "Tokens", summary: "Create an API token (shown once)", body: newTokenSchema, ok: { status: 201, description: "`{ token, apiToken }`" } },
  revokeToken: { method: "DELETE", path: "/api/v1/tokens/{id}", name: "DELETE token", permission: "token.manage", tag: "Tokens", summary: "Revoke an API token", params: uuidParam, ok: { status: 200, description: "`{ apiToken }`" } },

  // ── webhooks
  listWebhooks: { method: "GET", path: "/api/v1/webhooks", name: "GET webhooks", permission: "webhook.manage", tag: "Webhooks", summary: "Webhook subscriptions with their delivery counts (never their secrets)", ok: { status: 200, description: "`{ subscriptions }`" } },
  createWebhook: {
    method: "POST",
    path: "/api/v1/webhooks",
    name: "POST webhook",
    permission: "webhook.manage",
    tag: "Webhooks",
    summary: "Subscribe a URL to events",
    description: "Deliveries are POSTed as JSON with `Faultline-Event`, `Faultline-Delivery` and `Faultline-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<body>\" with the secret>`. A non-2xx answer or no answer within 10 s is retried with exponential backoff (10 s doubling, at most an hour apart) for 24 hours. The secret is in this response only.",
    body: webhookSubscriptionInput,
    ok: { status: 201, description: "`{ subscription, secret }`" },
  },
  patchWebhook: { method: "PATCH", path: "/api/v1/webhooks/{id}", name: "PATCH webhook", permission: "webhook.manage", tag: "Webhooks", summary: "Pause or resume a subscription", params: uuidParam, body: z.strictObject({ active: z.boolean({ error: "must be true or false" }) }), ok: { status: 200, description: "`{ subscription }`" } },
  deleteWebhook: { method: "DELETE", path: "/api/v1/webhooks/{id}", name: "DELETE webhook", permission: "webhook.manage", tag: "Webhooks", summary: "Delete a subscription and its delivery log", params: uuidParam, ok: { status: 204, description: "Deleted" } },
  webhookDeliveries: { method: "GET", path: "/api/v1/webhooks/{id}/deliveries", name: "GET webhook deliveries", permission: "webhook.manage", tag: "Webhooks", summary: "A subscription's deliveries, newest first, with every attempt (status code, error, time)", params: uuidParam, ok: { status: 200, description: "`{ deliveries }`" } },
  // ── diagnoses
  diagnosisFeedback: { method: "GET", path: "/api/v1/diagnoses/{id}/feedback", name: "GET diagnosis feedback", permission: "mission.view", tag: "Diagnoses", summary: "The latest operator verdict on a diagnosis' error type", params: anyParam("A diagnosis id (diag_…)"), ok: { status: 200, description: "`{ feedback }`: the latest verdict, or null" } },
  giveDiagnosisFeedback: {
    method: "POST",
    path: "/api/v1/diagnoses/{id}/feedback",
    name: "POST diagnosis feedback",
    permission: "gate.decide",
    tag: "Diagnoses",
    summary: "Confirm a diagnosis' error type or correct it",
    description: "`{ verdict: \"confirmed\" }` or `{ verdict: \"corrected\", type }`. Every verdict is kept and audited; the latest counts in the Diagnostics page's calibration. A correction counts one failure against the learned patterns of the diagnosis' trigger.",
    params: anyParam("A diagnosis id (diag_…)"),
    body: diagnosisFeedbackBody,
    ok: { status: 201, description: "`{ feedback }`" },
  },
  redeliverWebhook: { method: "POST", path: "/api/v1/webhooks/deliveries/{id}/redeliver", name: "POST webhook redeliver", permission: "webhook.manage", tag: "Webhooks", summary: "Send a delivery again now (a new attempt in its log)", params: uuidParam, ok: { status: 202, description: "Queued" } },
} as const satisfies Record<string, Endpoint>;

export type ApiOperation = keyof typeof api;
