import { readMissionState } from "./mission-state";
import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, Executor, Tx } from "../client";
import { events, missions } from "../schema";
import { appendEvents, createMission } from "./events";
import { getDefaultPolicy } from "./authority";
import { ensureActor } from "./users";
import { AppError } from "../../lib/errors";
import type { AuditActor } from "../../lib/audit";
import { rulesSchema } from "../../lib/authority/rules";
import { argsDigest } from "../../lib/authority/digest";
import { evidenceCheckSchema, PRIORITIES, validateMissionDefinition, type MissionDefinition } from "../../lib/mission/definition";
import { decideExternal, externalActorId, externalDecisionEvents, finishAction, finishEvidence, reportedOkEvidence, reportedResultSchema, resultData, toToolError } from "../../lib/mission/external";
import { buildPrompt, FINISH } from "../../lib/mission/autonomous";
import { missionLevel } from "../../lib/mission/definition";
import { attemptProposals } from "../../lib/mission/steps";
import * as t from "../../lib/mission/transitions";
import { explainFinalStatus } from "../../lib/mission/status";
import { explainMission } from "../../lib/mission/explain";
import { openGate } from "../../lib/mission/reducer";
import type { MissionState, NewMissionEvent, ProposalState } from "../../lib/mission";
import type { ToolData } from "../../lib/tools/result";
import { randomUUID } from "node:crypto";
import { decisionRecordSchema, failureExplanationSchema, hitlPromptSchema } from "../../lib/authority/schemas";
import { FAILURE_REASONS } from "../../lib/authority/types";

/**
 * The runs API (issue 15): a run is a mission whose actions come from an agent that runs elsewhere. The
 * agent asks before every tool call (a proposal the one authority decides, in the request), reports each
 * result (recorded; a failure is diagnosed by the worker like any other), and finishes (its evidence
 * decides). Same ids, pages, events, gates, audit and history as every mission.
 */

const name = z.string().trim().min(1, "must not be empty").max(80, "must be at most 80 characters");
const toolName = z.string().trim().min(1, "must not be empty").max(120, "must be at most 120 characters");
const binaries = z.array(z.string().regex(/^[A-Za-z0-9._+-]+$/, "must be a binary name, not a path")).max(200);

export const runAgentInput = z.strictObject({
  name: name.regex(/^[A-Za-z0-9][A-Za-z0-9 _.-]*$/, "may contain letters, digits, spaces, '_', '.', '-' and must start with a letter or digit"),
  /** The only tools it may call; absent = any tool (the rules and the binary allowlist still apply). */
  tools: z.array(toolName).min(1, "list at least one tool, or leave tools out to allow any").max(200).optional(),
  allowedBinaries: binaries.optional(),
  priority: z.enum(PRIORITIES, { error: `must be one of ${PRIORITIES.join(", ")}` }).default("critical"),
});

export const runCreateInput = z.strictObject({
  name,
  objective: z.string().trim().min(1, "must say what the run is for").max(2000),
  agents: z.array(runAgentInput).min(1, "a run needs at least one agent (or leave agents out for one named \"agent\")").max(20).optional(),
  /** Binaries shell-like calls may run (fail closed); absent = any, under the rules. */
  allowedBinaries: binaries.optional(),
  rules: rulesSchema.optional(),
  /** Checked at finish against the results the agents reported. */
  evidence: z.array(evidenceCheckSchema).max(50).optional(),
  level: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], { error: "must be 0, 1, 2 or 3" }).optional(),
  /** Silence (no call or heartbeat) after which the run pauses. */
  heartbeatTimeoutMs: z.number().int().min(1000).max(86_400_000).optional(),
  /** The absolute path of the agents' project: absolute paths under it are inside the workspace. */
  workspace: z.string().max(1000).optional(),
  /** Who calls: rest, mcp, claude-code, a client library's name. */
  via: z.string().trim().min(1).max(80).optional(),
});
export type RunCreateInput = z.infer<typeof runCreateInput>;

export const runProposalInput = z.strictObject({
  /** The agent's own id for this call (idempotency: the same callId returns the same proposal). */
  callId: z.string().trim().min(1, "must identify the call, e.g. the model's tool call id").max(200),
  /** Which of the run's agents; may be left out when the run has one. */
  agent: name.optional(),
  tool: toolName,
  args: z.record(z.string(), z.unknown(), { error: "must be a JSON object of the call's arguments" }).default({}),
});

export const runResultInput = z.strictObject({
  callId: z.string().trim().min(1).max(200),
  agent: name.optional(),
  result: reportedResultSchema,
});

export const runFinishInput = z.strictObject({ summary: z.string().max(4000).nullish(), agent: name.optional() });

/** The definition of a run: one EXECUTION phase of external agents. */
export function runDefinition(input: RunCreateInput): MissionDefinition {
  const agents = input.agents ?? [{ name: "agent", priority: "critical" as const }];
  const raw = {
    name: input.name,
    objective: input.objective,
    allowedBinaries: input.allowedBinaries ?? [],
    rules: input.rules ?? [],
    level: input.level,
    phases: [
      {
        name: "EXECUTION",
        agents: agents.map((a) => ({
          name: a.name,
          priority: a.priority ?? "critical",
          external: {
            tools: "tools" in a ? a.tools : undefined,
            allowedBinaries: "allowedBinaries" in a ? a.allowedBinaries : undefined,
            evidence: input.evidence ?? [],
            heartbeatTimeoutMs: input.heartbeatTimeoutMs,
            workspace: input.workspace,
            via: input.via ?? "rest",
          },
        })),
      },
    ],
  };
  const parsed = validateMissionDefinition(raw);
  if (!parsed.ok) {
    throw new AppError("bad_request", {
      userMessage: `The run is not valid: ${parsed.errors.map((e) => `${runPath(e.path)}: ${e.message}`).join("; ")}.`,
      details: { fieldErrors: parsed.errors.map((e) => ({ ...e, path: runPath(e.path) })) },
    });
  }
  return parsed.definition;
}

/** A definition path as the run's field: phases[0].agents[1].external.evidence → agents[1] / evidence. */
function runPath(p: string): string {
  const m = /^phases\[0\]\.agents\[(\d+)\](?:\.external)?\.?(.*)$/.exec(p);
  if (!m) return p;
  const rest = m[2];
  if (/^(evidence|heartbeatTimeoutMs|workspace|via)/.test(rest)) return rest;
  return `agents[${m[1]}]${rest ? `.${rest}` : ""}`;
}

/** Creates a run and starts its agents at once (they may call the moment the run exists). */
export async function createRun(db: Db, actor: AuditActor, input: RunCreateInput): Promise<MissionState> {
  const definition = runDefinition(input);
  const created = await createMission(db, { definition, actorId: actor.id, audit: actor });
  for (const a of definition.phases[0].agents) {
    await ensureActor(db, { id: externalActorId(created.id, a.name), kind: "agent", displayName: `${a.name} (run "${definition.name}")`, meta: { role: "executor", via: a.external!.via, run: created.id, startedBy: actor.id } });
  }
  return db.transaction(async (tx) => {
    const { state } = await appendEvents(tx, {
      missionId: created.id,
      actorId: actor.id,
      events: [(s) => (s.phase === "MISSION_STARTED" ? t.phaseStarted("EXECUTION", "The run's creation") : null), ...definition.phases[0].agents.map((a) => (s: MissionState) => (s.agents[a.name].status === "pending" ? t.agentStarted(a.name, 1) : null))],
    });
    await touch(tx, created.id);
    return state;
  });
}

/** The agent heard from now: its silence is counted from here. */
async function touch(tx: Executor, missionId: string): Promise<void> {
  await tx.update(missions).set({ agentSeenAt: sql`now()` }).where(eq(missions.id, missionId));
}

async function lockRun(tx: Tx, runId: string): Promise<MissionState> {
  const row = await readMissionState(tx, runId, { forUpdate: true });
  if (!row) throw new AppError("not_found", { userMessage: `Run ${runId} does not exist. Create one with POST /api/v1/runs.` });
  return asRun(row.state);
}

/** A mission is a run when its agents are external; any other is a 409 that says so. */
function asRun(s: MissionState): MissionState {
  if (!externalAgents(s).length) throw new AppError("conflict", { userMessage: `Mission ${s.id} is not a run: its agents run in Faultline's worker, not over the runs API. Create a run with POST /api/v1/runs.` });
  return s;
}

function externalAgents(s: MissionState): string[] {
  return s.definition.phases.flatMap((p) => p.agents.filter((a) => a.external).map((a) => a.name));
}

function agentOf(s: MissionState, agent: string | undefined): string {
  const names = externalAgents(s);
  if (agent === undefined) {
    if (names.length === 1) return names[0];
    throw new AppError("bad_request", { userMessage: `agent is required: this run has ${names.length} agents (${names.join(", ")}). Name the one making the call.`, details: { fieldErrors: [{ path: "agent", message: `must be one of ${names.join(", ")}` }] } });
  }
  if (!names.includes(agent)) throw new AppError("bad_request", { userMessage: `agent "${agent}" is not an agent of this run (${names.join(", ")}).`, details: { fieldErrors: [{ path: "agent", message: `must be one of ${names.join(", ")}` }] } });
  return agent;
}

function endedRun(s: MissionState): AppError {
  return new AppError("conflict", { userMessage: `The run has ended (${s.finalStatus ?? s.runState}): it takes no more calls. Start a new run for more work.`, details: { finalStatus: s.finalStatus, runState: s.runState } });
}

/**
 * Before an agent's call is taken: a run its agent's silence paused resumes (the agent is back); an agent
 * a person sent to retry starts its next attempt. Other holds stand (an operator's pause is theirs to end).
 */
function comebackEvents(s: MissionState, agent: string): NewMissionEvent[] {
  const out: NewMissionEvent[] = [];
  if (s.paused?.kind === "agent") out.push(t.missionResumed(`"${agent}" called again after its silence paused the run.`));
  else if (s.paused) throw new AppError("conflict", { userMessage: `The run is paused (${s.paused.message}): calls are refused until a person resumes it (POST /api/v1/missions/${s.id}/resume or the console).`, details: { paused: s.paused.kind } });
  const a = s.agents[agent];
  if (a.status === "pending" && !openGate(s) && !s.aborted && s.phase === a.phase) out.push(t.agentStarted(agent, a.attempt + 1));
  return out;
}

const runStateSchema = z.enum(["queued", "running", "paused", "completed", "failed"]);
const finalStatusSchema = z.enum(["SUCCESS", "PARTIAL_SUCCESS", "FAILED"]).nullable().meta({ description: "Derived from evidence when the run ends; null before" });

/** What the runs API answers (its OpenAPI response schemas; the TypeScript client is typed from them). */
export const proposalAnswerSchema = z
  .object({
    id: z.string(),
    callId: z.string().nullable(),
    agent: z.string(),
    tool: z.string(),
    args: z.record(z.string(), z.unknown()).meta({ description: "The args to run: the proposed ones, or a person's modification of them" }),
    argsDigest: z.string(),
    status: z.enum(["pending", "approved", "rejected", "expired"]),
    decision: decisionRecordSchema.nullable(),
    /** The HITL prompt while it is pending (what a person is asked; also what an agent may show its user). */
    prompt: hitlPromptSchema.nullable().meta({ description: "While pending: what a person is asked (also what an agent may show its user)" }),
    run: z.object({ id: z.string(), runState: runStateSchema, finalStatus: finalStatusSchema }),
  })
  .meta({ id: "ProposalAnswer" });
export type ProposalAnswer = z.infer<typeof proposalAnswerSchema>;

export function proposalAnswer(s: MissionState, p: ProposalState): ProposalAnswer {
  const prompt = p.status === "pending" && p.decision ? buildPrompt(s, p, p.decision) : null;
  return { id: p.id, callId: p.callId, agent: p.agent, tool: p.action.tool, args: p.decision?.modified?.args ?? p.action.args, argsDigest: p.argsDigest, status: p.status, decision: p.decision, prompt, run: { id: s.id, runState: s.runState, finalStatus: s.finalStatus } };
}

/**
 * An agent's call, proposed: decided by the authority in this request (approved, rejected with a
 * FailureReason and counterfactual, or pending with a HITL prompt). Idempotent on (run, agent, callId):
 * the same call returns the same proposal; other args under a used callId are a 409.
 */
export async function proposeRunCall(db: Db, runId: string, input: z.infer<typeof runProposalInput>, opts: { approvalTtlMs: number }): Promise<{ answer: ProposalAnswer; created: boolean }> {
  return db.transaction(async (tx) => {
    let s = await lockRun(tx, runId);
    const agent = agentOf(s, input.agent);
    const digest = argsDigest(input.args);
    const same = s.proposals.find((p) => p.agent === agent && p.callId === input.callId);
    if (same) {
      if (same.argsDigest !== digest || same.action.tool !== input.tool) {
        throw new AppError("conflict", { userMessage: `callId "${input.callId}" was already used for another call (${same.action.tool}, args digest ${same.argsDigest.slice(0, 12)}…): a callId names one call. Use a new callId for a new call.`, details: { proposalId: same.id } });
      }
      await touch(tx, runId);
      return { answer: proposalAnswer(s, same), created: false };
    }
    if (s.runState === "completed" || s.runState === "failed") throw endedRun(s);
    if (s.aborted) throw endedRun(s);
    const actorId = externalActorId(runId, agent);
    const back = comebackEvents(s, agent);
    if (back.length) s = (await appendEvents(tx, { missionId: runId, actorId, events: back })).state;
    const a = s.agents[agent];
    if (a.status !== "running" && a.status !== "failed") {
      throw new AppError("conflict", { userMessage: `"${agent}" is ${a.status} in this run${a.status === "pending" ? " (it waits for a gate's decision)" : ""}: it takes no more calls.`, details: { agentStatus: a.status } });
    }
    if (a.autonomous?.finished) throw new AppError("conflict", { userMessage: `"${agent}" already finished (its finish was approved): it takes no more calls.` });
    const policy = await getDefaultPolicy(tx);
    const now = Date.now();
    const proposalId = randomUUID();
    const proposal = { id: proposalId, actorId, agent, action: { tool: input.tool, args: input.args }, argsDigest: digest };
    const rejectedDigests = attemptProposals(s, a).filter((p) => p.status === "rejected").map((p) => p.argsDigest);
    const record = decideExternal(s, proposal, { defaultPolicy: policy.rules, now, approvalTtlMs: opts.approvalTtlMs, rejectedDigests });
    const { state } = await appendEvents(tx, {
      missionId: runId,
      actorId,
      events: [t.proposalSubmitted({ proposalId, actorId, agent, attempt: a.attempt, action: proposal.action, argsDigest: digest, level: missionLevel(s.definition).effective, callId: input.callId }), ...externalDecisionEvents(proposal, record, { newId: randomUUID, at: new Date(now).toISOString() })],
    });
    await touch(tx, runId);
    return { answer: proposalAnswer(state, state.proposals.find((p) => p.id === proposalId)!), created: true };
  });
}

export const resultAnswerSchema = z
  .object({
    callId: z.string(),
    proposalId: z.string(),
    step: z.number().int(),
    status: z.enum(["succeeded", "failed"]),
    next: z.string().meta({ description: "What happens now (a failed call is diagnosed and looked up by the worker; its events follow on the run's stream)" }),
    run: z.object({ id: z.string(), runState: runStateSchema }),
  })
  .meta({ id: "ResultAnswer" });
export type ResultAnswer = z.infer<typeof resultAnswerSchema>;

/**
 * An approved call's result, reported: recorded as the step it was (`step.started` + `tool.succeeded` or
 * `tool.failed`). A failure is then diagnosed (003), looked up in the library (000) and answered by the
 * response matrix by the worker, as for any step. 409 for a call that was never proposed or not approved.
 */
export async function reportRunResult(db: Db, runId: string, input: z.infer<typeof runResultInput>): Promise<ResultAnswer> {
  return db.transaction(async (tx) => {
    const s = await lockRun(tx, runId);
    const agent = agentOf(s, input.agent);
    const p = s.proposals.find((x) => x.agent === agent && x.callId === input.callId);
    if (!p) throw new AppError("conflict", { userMessage: `No call "${input.callId}" of "${agent}" was proposed in this run, so its result cannot be recorded: propose every call first (POST /api/v1/runs/${runId}/proposals) and run it only once approved.` });
    const ok = input.result.ok;
    if (p.step !== null) {
      const st = s.agents[agent].steps[p.step];
      const was = st?.status === "succeeded" ? true : st?.status === "failed" ? false : null;
      if (was === ok || was === null) return resultAnswer(s, p, p.step, ok);
      throw new AppError("conflict", { userMessage: `The result of call "${input.callId}" was already recorded as ${was ? "ok" : "failed"}; a result is recorded once.` });
    }
    if (p.status !== "approved") {
      throw new AppError("conflict", { userMessage: `Call "${input.callId}" is ${p.status}, not approved: it must not run, and its result is not recorded.${p.status === "pending" ? ` Wait for the decision (GET /api/v1/proposals/${p.id}?wait=30).` : ` ${p.decision?.reason ?? ""}`}`.trim(), details: { proposalStatus: p.status } });
    }
    if (s.runState === "completed" || s.runState === "failed") throw endedRun(s);
    const a = s.agents[agent];
    if (a.status !== "running" && a.status !== "failed") throw new AppError("conflict", { userMessage: `"${agent}" is ${a.status}: the result of call "${input.callId}" can no longer be recorded in this run.` });
    const index = a.steps.length;
    const error = ok ? null : toToolError(input.result.error, input.result.data);
    const data = resultData(input.result.data ?? {});
    const { state } = await appendEvents(tx, {
      missionId: runId,
      actorId: externalActorId(runId, agent),
      events: [
        t.stepStarted(runId, agent, a.attempt, index, p.action.tool, `${p.action.tool} (call ${input.callId})`, { proposalId: p.id, argsDigest: p.decision!.argsDigest! }),
        ok ? t.toolSucceeded(agent, a.attempt, index, data, reportedOkEvidence()) : t.toolFailed(agent, a.attempt, index, error!, []),
      ],
    });
    await touch(tx, runId);
    return resultAnswer(state, p, index, ok);
  });
}

function resultAnswer(s: MissionState, p: ProposalState, step: number, ok: boolean): ResultAnswer {
  return {
    callId: p.callId ?? p.id,
    proposalId: p.id,
    step,
    status: ok ? "succeeded" : "failed",
    next: ok ? "Recorded." : "Recorded as tool.failed. Faultline diagnoses it, looks it up in the failure-mode library and applies the response matrix: watch GET /api/v1/runs/{id}/stream or the run's page. Where a gate opens, your next proposals wait for it (GATE_OPEN).",
    run: { id: s.id, runState: s.runState },
  };
}

/** The data of an agent's calls reported ok in its current attempt (what a finish's evidence reads). */
export async function externalResults(db: Executor, s: MissionState, agent: string): Promise<ToolData[]> {
  const a = s.agents[agent];
  const rows = await db
    .select({ payload: events.payload })
    .from(events)
    .where(and(eq(events.missionId, s.id), eq(events.type, "tool.succeeded"), sql`${events.payload}->>'agent' = ${agent}`, sql`(${events.payload}->>'attempt')::int = ${a.attempt}`))
    .orderBy(asc(events.seq));
  return rows.map((r) => (r.payload as { data: ToolData }).data);
}

export const finishAnswerSchema = z
  .object({
    finishes: z.array(proposalAnswerSchema).meta({ description: "One finish per agent still working: approved (its evidence held), rejected (it did not), or pending (a gate holds the run)" }),
    run: z.object({ id: z.string(), runState: runStateSchema, finalStatus: finalStatusSchema, explanation: z.string().nullable() }),
  })
  .meta({ id: "FinishAnswer" });
export type FinishAnswer = z.infer<typeof finishAnswerSchema>;

/**
 * The agent says it is done. Its finish is a proposal too (FP-5): approved only when its evidence holds
 * (every approved call reported, none failed, the run's evidence rules hold for a reported result, or at
 * least one call succeeded when it has none). A rejected finish fails the agent (the response matrix
 * answers); an approved one lets the worker complete the run, whose status is derived from evidence.
 */
export async function finishRun(db: Db, runId: string, input: z.infer<typeof runFinishInput>): Promise<FinishAnswer> {
  return db.transaction(async (tx) => {
    let s = await lockRun(tx, runId);
    if (s.runState === "completed" || s.runState === "failed") return finishAnswer(s, []);
    const names = input.agent ? [agentOf(s, input.agent)] : externalAgents(s);
    const policy = await getDefaultPolicy(tx);
    const ids: string[] = [];
    for (const agent of names) {
      const earlier = s.proposals.find((p) => p.agent === agent && p.action.tool === FINISH && p.attempt === s.agents[agent].attempt && p.status !== "rejected");
      if (earlier) {
        ids.push(earlier.id);
        continue;
      }
      const actorId = externalActorId(runId, agent);
      const back = s.paused?.kind === "agent" ? comebackEvents(s, agent) : [];
      if (back.length) s = (await appendEvents(tx, { missionId: runId, actorId, events: back })).state;
      const a = s.agents[agent];
      if (a.status !== "running" && a.status !== "failed") continue;
      const action = finishAction(input.summary ?? null);
      const proposalId = randomUUID();
      const proposal = { id: proposalId, actorId, agent, action, argsDigest: argsDigest(action.args) };
      const evidence = finishEvidence(s, agent, await externalResults(tx, s, agent));
      const now = Date.now();
      const record = decideExternal(s, proposal, { defaultPolicy: policy.rules, now, evidence });
      s = (
        await appendEvents(tx, {
          missionId: runId,
          actorId,
          events: [t.proposalSubmitted({ proposalId, actorId, agent, attempt: a.attempt, action, argsDigest: proposal.argsDigest, level: missionLevel(s.definition).effective, callId: `finish:${a.attempt}` }), ...externalDecisionEvents(proposal, record, { evidence, newId: randomUUID, at: new Date(now).toISOString() })],
        })
      ).state;
      ids.push(proposalId);
    }
    await touch(tx, runId);
    return finishAnswer(s, ids);
  });
}

function finishAnswer(s: MissionState, ids: string[]): FinishAnswer {
  const ended = s.runState === "completed" || s.runState === "failed";
  return { finishes: ids.map((id) => proposalAnswer(s, s.proposals.find((p) => p.id === id)!)), run: { id: s.id, runState: s.runState, finalStatus: s.finalStatus, explanation: ended ? explainFinalStatus(s) : null } };
}

/** A heartbeat: the agent is alive (between calls that take long). */
export async function heartbeatRun(db: Db, runId: string): Promise<{ run: { id: string; runState: MissionState["runState"] } }> {
  return db.transaction(async (tx) => {
    const s = await lockRun(tx, runId);
    if (s.paused?.kind === "agent") await appendEvents(tx, { missionId: runId, actorId: externalActorId(runId, externalAgents(s)[0]), events: [t.missionResumed("The run's agent sent a heartbeat after its silence paused the run.")] });
    await touch(tx, runId);
    return { run: { id: s.id, runState: s.runState } };
  });
}

export const runViewSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    objective: z.string(),
    runState: runStateSchema,
    finalStatus: finalStatusSchema,
    explanation: z
      .object({
        finalStatus: finalStatusSchema,
        failureReason: z.enum(FAILURE_REASONS).nullable(),
        explanation: failureExplanationSchema.nullable(),
        level: z.object({ effective: z.number(), declared: z.number().nullable(), why: z.array(z.string()), warning: z.string().nullable() }),
      })
      .nullable()
      .meta({ description: "Why it ended as it did (seed 002 FDR-N005): failure reason, explanation, counterfactual; null while it runs" }),
    paused: z.object({ kind: z.enum(["operator", "infrastructure", "client", "agent"]), message: z.string(), at: z.string() }).nullable(),
    agents: z.array(z.object({ name: z.string(), actorId: z.string(), status: z.string(), attempt: z.number().int(), calls: z.number().int(), failedCalls: z.number().int() })),
    openGate: z.object({ id: z.string(), kind: z.string(), what: z.string().nullable() }).nullable(),
    proposals: z.object({ total: z.number().int(), approved: z.number().int(), rejected: z.number().int(), pending: z.number().int() }),
    lastSeq: z.number().int(),
    links: z.object({ console: z.string(), events: z.string(), stream: z.string() }),
  })
  .meta({ id: "Run" });
export type RunView = z.infer<typeof runViewSchema>;

export function runView(s: MissionState): RunView {
  const gate = openGate(s);
  const ended = s.runState === "completed" || s.runState === "failed";
  return {
    id: s.id,
    name: s.name,
    objective: s.definition.objective,
    runState: s.runState,
    finalStatus: s.finalStatus,
    explanation: ended ? explainMission(s) : null,
    paused: s.paused,
    agents: externalAgents(s).map((n) => {
      const a = s.agents[n];
      return { name: n, actorId: externalActorId(s.id, n), status: a.status, attempt: a.attempt, calls: a.steps.length, failedCalls: a.steps.filter((st) => st.status === "failed").length };
    }),
    openGate: gate ? { id: gate.id, kind: gate.kind, what: gate.error?.what ?? null } : null,
    proposals: {
      total: s.proposals.length,
      approved: s.proposals.filter((p) => p.status === "approved").length,
      rejected: s.proposals.filter((p) => p.status === "rejected").length,
      pending: s.proposals.filter((p) => p.status === "pending").length,
    },
    lastSeq: s.seq,
    links: { console: `/missions/${s.id}`, events: `/api/v1/missions/${s.id}/events`, stream: `/api/v1/runs/${s.id}/stream` },
  };
}

/** A run's state (404 when there is none, 409 when the mission is not a run). */
export async function loadRun(db: Executor, runId: string): Promise<MissionState> {
  const row = await readMissionState(db, runId);
  if (!row) throw new AppError("not_found", { userMessage: `Run ${runId} does not exist. Create one with POST /api/v1/runs.` });
  return asRun(row.state);
}

/**
 * The newest run this actor started whose name, objective prefix and `via` match: how an integration that
 * keys runs by its own session id (Claude Code hooks) finds its run again.
 */
export async function findRunByMarks(db: Executor, q: { actorId: string; name: string; objectivePrefix: string; via: string }): Promise<string | null> {
  const like = q.objectivePrefix.replace(/[\\%_]/g, (c) => `\\${c}`) + "%";
  const [row] = await db
    .select({ id: missions.id })
    .from(missions)
    .where(
      and(
        eq(missions.name, q.name),
        eq(missions.createdBy, q.actorId),
        sql`${missions.definition}->>'objective' like ${like}`,
        sql`${missions.definition}->'phases'->0->'agents'->0->'external'->>'via' = ${q.via}`,
      ),
    )
    .orderBy(desc(missions.createdAt))
    .limit(1);
  return row?.id ?? null;
}

/** When a run's agents were last heard from (a call or a heartbeat); null before their first. */
export async function agentSeenAt(db: Executor, runId: string): Promise<string | null> {
  const [row] = await db.select({ seen: missions.agentSeenAt }).from(missions).where(eq(missions.id, runId));
  return row?.seen ?? null;
}

/**
 * Leaves a run waiting on its agents unclaimed until `deadline`, only if nothing happened since the worker
 * read it (no call moved agent_seen_at, no event moved last_seq). False: something did; read it again.
 */
export async function deferUntilSilent(db: Executor, q: { runId: string; seenAt: string | null; seq: number; deadline: number }): Promise<boolean> {
  const updated = await db
    .update(missions)
    .set({ runnableAt: new Date(q.deadline).toISOString() })
    .where(and(eq(missions.id, q.runId), q.seenAt ? eq(missions.agentSeenAt, q.seenAt) : isNull(missions.agentSeenAt), eq(missions.lastSeq, q.seq)))
    .returning({ id: missions.id });
  return updated.length > 0;
}

