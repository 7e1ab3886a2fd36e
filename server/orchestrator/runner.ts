import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { advance, type EngineIO } from "../../lib/mission/engine";
import * as t from "../../lib/mission/transitions";
import { describeConnectionError, isConnectionError, waitForDatabase } from "./db-outage";
import { allowedBinariesOf, IllegalTransitionError, type MissionState } from "../../lib/mission";
import { evaluateEvidence, runTool, stepIdempotent } from "../../lib/tools";
import { loadDiagnosisConfig } from "../../lib/diagnosis/config";
import { classify } from "../../lib/diagnosis/classify";
import { reflectWithLlm } from "../../lib/diagnosis/llm-reflection";
import type { Diagnosis, InputContext } from "../../lib/diagnosis/types";
import type { DiagnosisProposalRecord } from "../../lib/mission/events";
import type { Provider } from "../../lib/llm/providers";
import { findPatterns } from "../../db/queries/learning";
import { consultLibrary } from "../../db/queries/library-protocol";
import { ensureActor } from "../../db/queries/users";
import type { Db } from "../../db/client";
import { appendAsOwner, writeLanded, type PendingWrite } from "../../db/queries/events";
import { getMissionState } from "../../db/queries/missions";
import { getDefaultPolicy, lastAgentResult } from "../../db/queries/authority";
import { agentSeenAt, deferUntilSilent, externalResults } from "../../db/queries/runs";
import { agentDefinition } from "../../lib/mission/definition";
import { agentActorId, modelRequest } from "../../lib/mission/autonomous";
import { completeWithFallback } from "../../lib/llm/chain";
import { parseToolArguments } from "../../lib/llm/client";
import { ok } from "../../lib/tools/result";
import type { ThinkResult } from "../../lib/mission/engine";
import { DEFAULT_APPROVAL_TTL_MS } from "../../lib/authority/authority";
import { capabilitiesOf, recordingIO } from "../../lib/trace/record";
import type { Tape, TapeConfig } from "../../lib/trace/format";

/** How long after a step's timeout the runner aborts a tool that did not stop by itself. */
const TOOL_TIMEOUT_BACKSTOP_MS = 1000;

/** How a worker runs each of its missions: its options hand these on to every run as they are. */
export interface RunSettings {
  /** Binaries a recovery's helper steps may run besides the mission's allowlist (FAULTLINE_RECOVERY_BINARIES; default DEFAULT_RECOVERY_BINARIES). */
  recoveryBinaries?: readonly string[];
  /** Consult the failure-mode library after each failure's diagnosis (FAULTLINE_LIBRARY_PROTOCOL; default on). */
  libraryProtocol?: boolean;
  /** OpenAI-compatible providers for the optional LLM reflection (none: deterministic diagnosis only). */
  llmProviders?: readonly Provider[];
  /** Providers autonomous agents' models may use: the LLM providers, plus the recorded one in demo mode (default llmProviders). */
  agentProviders?: readonly Provider[];
  /** How long an approval of a proposal stays valid (FAULTLINE_APPROVAL_TTL_MS; default 15 minutes). */
  approvalTtlMs?: number;
}

/** What one mission run needs from its worker. */
export interface RunContext extends RunSettings {
  db: Db;
  workerId: string;
  workspacesDir: string;
  allowedBinaries: readonly string[];
  /** Aborted when the lease is lost or the worker shuts down for good. */
  signal: AbortSignal;
  /** True once the worker is shutting down: stop at the next step boundary. */
  shouldStop: () => boolean;
  log: (msg: string) => void;
}

/**
 * Runs a mission the worker holds a lease on, one engine transition at a time, until it ends, is held
 * (gate or pause), or the run must stop. Every write is fenced by the lease (appendEvents checks it).
 */
export async function runMission(ctx: RunContext, missionId: string): Promise<"waiting" | "terminal" | "stopped"> {
  let state = await loadState(ctx.db, missionId);
  // FDR-N004: every reading the engine takes is recorded beside the events it produced (lib/trace), for replay.
  const recorder = recordedEngineIO(ctx, missionId);
  const io = recorder.io;
  let refused = 0;
  for (;;) {
    let r;
    try {
      recorder.begin(state.seq);
      r = await advance(state, io);
      refused = 0;
    } catch (e) {
      // Someone else changed the mission between our read and our write (an operator's or a health
      // check's pause, a decision): the reducer refused our event. Reload and decide again — but a
      // refusal that repeats on fresh state is a bug, not a race: let it surface.
      if (!(e instanceof IllegalTransitionError) || ++refused > 3) throw e;
      state = await loadState(ctx.db, missionId);
      ctx.log(`mission ${missionId}: ${e.message}; reloaded (now ${state.runState})`);
      continue;
    } finally {
      recorder.end();
    }
    state = r.state;
    if (r.outcome === "waiting" && r.action.kind === "wait" && r.action.reason === "external") {
      // The run waits for its agent's calls: pause it if the agent went silent, else come back at the deadline.
      if ((await watchSilence(ctx, io, state)) === "recheck") {
        state = await loadState(ctx.db, missionId);
        continue;
      }
      return "waiting";
    }
    if (r.outcome !== "progress") return r.outcome;
  }
}

/**
 * An external agent's silence (issue 15): no call or heartbeat for its heartbeatTimeoutMs pauses the run
 * with an explicit event (it never stays running forever; its next call resumes it). Otherwise the run is
 * not claimed again before that deadline, unless a call brings work (appendEvents clears runnable_at).
 */
async function watchSilence(ctx: RunContext, io: EngineIO, s: MissionState): Promise<"paused" | "waiting" | "recheck"> {
  const waiting = s.agentOrder.map((n) => s.agents[n]).filter((a) => a.status === "running" && agentDefinition(s.definition, a.name).external);
  if (!waiting.length) return "waiting";
  const timeout = Math.min(...waiting.map((a) => agentDefinition(s.definition, a.name).external!.heartbeatTimeoutMs));
  const seen = await agentSeenAt(ctx.db, s.id);
  const seenAt = seen ?? s.startedAt ?? s.createdAt;
  const deadline = Date.parse(seenAt) + timeout;
  if (Date.now() >= deadline) {
    const names = waiting.map((a) => `"${a.name}"`).join(", ");
    await io.append([t.missionPaused("agent", `No call or heartbeat from ${names} for ${Math.round((Date.now() - Date.parse(seenAt)) / 1000)} s (heartbeatTimeoutMs ${timeout}): the run is paused. The agent's next call (or POST /api/v1/runs/${s.id}/heartbeat) resumes it; a person may resume or abort it.`)]);
    return "paused";
  }
  // Only if the agent was not heard from meanwhile (its call moved agent_seen_at in the same transaction as its events).
  return (await deferUntilSilent(ctx.db, { runId: s.id, seenAt: seen, seq: s.seq, deadline })) ? "waiting" : "recheck";
}

/** The worker's EngineIO with its flight recorder (lib/trace/record.ts): each write stores the readings behind it. */
export function recordedEngineIO(ctx: RunContext, missionId: string): ReturnType<typeof recordingIO> {
  const inner = engineIO(ctx, missionId);
  const config: TapeConfig = {
    diagnosis: inner.diagnosis ?? null,
    approvalTtlMs: inner.authority?.approvalTtlMs ?? null,
    capabilities: capabilitiesOf(inner),
    providers: [...new Map([...(ctx.llmProviders ?? []), ...(ctx.agentProviders ?? [])].map((p) => [`${p.name}/${p.model}`, { name: p.name, model: p.model }])).values()],
    allowedBinaries: [...ctx.allowedBinaries],
    recoveryBinaries: [...(ctx.recoveryBinaries ?? DEFAULT_RECOVERY_BINARIES)],
  };
  return recordingIO(inner, { config, append: (events, tape) => inner.appendTaped(events, tape) });
}

/** The worker's EngineIO: lease-fenced appends on PostgreSQL, real tools in the mission's workspace. */
export function engineIO(ctx: RunContext, missionId: string): EngineIO & { appendTaped(events: Parameters<EngineIO["append"]>[0], tape: Tape | null): Promise<MissionState> } {
  /** What a recovery helper step may run: the mission's and the worker's allowlists plus the recovery binaries. */
  const recoveryAllowlist = (state: MissionState) => [...new Set([...allowedBinariesOf(state), ...ctx.allowedBinaries, ...(ctx.recoveryBinaries ?? DEFAULT_RECOVERY_BINARIES)])];
  const appendTaped = async (events: Parameters<EngineIO["append"]>[0], tape: Tape | null): Promise<MissionState> => {
    // The tape belongs to the engine's events: items from `firstItem` on (an outage's pause and resume come before them).
    // The write in flight when the connection died: it may have committed all the same (see writeLanded).
    let pending: PendingWrite | null = null;
    // The tape holds the readings of the write that commits: builders applied more than once (appendAsOwner's
    // second try, a write again after an outage) take theirs again, and those of a discarded try are forgotten.
    const taken = tape?.reads.length ?? 0;
    const beforeApply = tape ? () => void (tape.reads.length = taken) : undefined;
    const write = (list: typeof events, firstItem = 0) => {
      pending = null;
      return appendAsOwner(ctx.db, { missionId, actorId: ctx.workerId, leaseOwner: ctx.workerId, events: list, tape: tape ? { tape, firstItem } : undefined, pending: (w) => (pending = w), beforeApply });
    };
    // FAILURE_MODEL level 3: the database is unavailable. The mission is paused until it returns; then
    // the pause and the resume are recorded before the progress that waited for them. The database may
    // blink again between answering and our write (connections terminated one after another): keep
    // waiting until the write lands, however many times, instead of giving the mission up.
    let outage: { since: number; message: string } | null = null;
    for (;;) {
      try {
        if (!outage) return (await write(events)).state;
        const downMs = await waitForDatabase(ctx.db, outage.since, ctx.signal);
        const { since, message } = outage;
        if (pending && (await writeLanded(ctx.db, pending))) {
          // Only the answer to COMMIT was lost: the progress is recorded, and nothing was missed.
          ctx.log(`mission ${missionId}: the write cut at its commit had landed (seq ${(pending as PendingWrite).seq}); going on`);
          return await loadState(ctx.db, missionId);
        }
        const from = new Date(since).toISOString();
        return (
          await write(
            [
              (s) => (s.paused ? null : t.missionPaused("infrastructure", `The database became unavailable at ${from} (${message}); no progress could be recorded.`)),
              (s) => (s.paused?.kind === "infrastructure" ? t.missionResumed(`The database is available again after ${Math.round(downMs / 100) / 10} s; the mission resumes from its last committed event.`) : null),
              ...events,
            ],
            2,
          )
        ).state;
      } catch (e) {
        if (!isConnectionError(e)) throw e;
        const message = describeConnectionError(e);
        if (outage) ctx.log(`mission ${missionId}: database still unavailable (${message}); waiting for it`);
        else {
          outage = { since: Date.now(), message };
          ctx.log(`mission ${missionId}: database unavailable (${message}); waiting for it`);
        }
      }
    }
  };
  return {
    now: () => Date.now(),
    newId: () => randomUUID(),
    append: (events) => appendTaped(events, null),
    appendTaped,
    run: async (call, { state, idempotencyKey, timeoutMs, recovery, library }) => {
      const workspace = path.join(ctx.workspacesDir, state.id);
      await fs.mkdir(workspace, { recursive: true });
      // Recovery helper steps (the engine says which) may also run the recovery binaries (by default only `sleep`);
      // a library entry's probe or resolution action may also run `sh` (a reviewed script, in the workspace, time-limited).
      const allowed = library ? [...recoveryAllowlist(state), ...LIBRARY_ACTION_BINARIES] : recovery ? recoveryAllowlist(state) : [...new Set([...allowedBinariesOf(state), ...ctx.allowedBinaries])];
      // Each tool enforces timeoutMs itself and reports "did not complete within N ms". This signal is only
      // a backstop for a tool that does not: it fires a little later, or it would win the race and every
      // timeout would read "the step was cancelled" (found by the chaos suite, scenario f).
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(Math.max(1, timeoutMs) + TOOL_TIMEOUT_BACKSTOP_MS)]);
      const result = await runTool(call.tool, call.args, { workspace, allowedBinaries: allowed, signal, timeoutMs, idempotencyKey });
      const evidence = await evaluateEvidence(call, result, { workspace });
      return { result, evidence };
    },
    idempotent: stepIdempotent,
    diagnosis: diagnosisSettings(),
    allowedBinaries: recoveryAllowlist,
    findPatterns: (when) => findPatterns(ctx.db, when),
    library: ctx.libraryProtocol === false ? undefined : (query, limit) => consultLibrary(ctx.db, query, limit),
    reflect: ctx.llmProviders?.length ? (input, d) => reflect(ctx, input, d) : undefined,
    think: (ctx.agentProviders ?? ctx.llmProviders)?.length ? (state, agent, opts) => think(ctx, state, agent, opts) : undefined,
    authority: {
      defaultPolicy: async () => (await getDefaultPolicy(ctx.db)).rules,
      approvalTtlMs: ctx.approvalTtlMs ?? DEFAULT_APPROVAL_TTL_MS,
      workspace: (state) => path.join(ctx.workspacesDir, state.id),
    },
    checkEvidence: async (state, agent, checks) => {
      const workspace = path.join(ctx.workspacesDir, state.id);
      await fs.mkdir(workspace, { recursive: true });
      const last = await lastAgentResult(ctx.db, state.id, agent, state.agents[agent].attempt);
      return evaluateEvidence({ tool: (last?.tool ?? "file") as "file", evidence: checks }, ok(last?.data ?? {}), { workspace });
    },
    externalResults: (state, agent) => externalResults(ctx.db, state, agent),
    ensureActor: (actor) => ensureActor(ctx.db, { id: actor.actorId, kind: actor.kind === "human" ? "user" : actor.kind, displayName: actor.name, meta: actor.meta }),
    workspaceState: async (state) => {
      const entries = await fs.readdir(path.join(ctx.workspacesDir, state.id), { withFileTypes: true }).catch(() => []);
      return { files: entries.filter((e) => e.isFile()).map((e) => e.name).slice(0, 200), directories: entries.filter((e) => e.isDirectory()).map((e) => e.name).slice(0, 200) };
    },
    stopped: () => ctx.signal.aborted || ctx.shouldStop(),
  };
}

let settings: EngineIO["diagnosis"] | undefined;
/** ADR-0003 flags (AUTONOMOUS_*), read once per process. */
function diagnosisSettings(): EngineIO["diagnosis"] {
  if (!settings) {
    const c = loadDiagnosisConfig();
    settings = { enabled: c.AUTONOMOUS_DIAGNOSTIC_REFLECTION_ENABLED, whyDepth: c.AUTONOMOUS_DIAGNOSTIC_WHY_DEPTH, maxRecoveryAttempts: c.AUTONOMOUS_MAX_RECOVERY_ATTEMPTS, fastPath: c.AUTONOMOUS_FAST_RECOVERY_ENABLED };
  }
  return settings;
}

/** What a library entry's probe or resolution action may run besides the recovery allowlist: its POSIX sh script. */
export const LIBRARY_ACTION_BINARIES: readonly string[] = ["sh"];

/** What a recovery's helper steps may run besides the mission's allowlist when nothing is configured: waiting. */
export const DEFAULT_RECOVERY_BINARIES: readonly string[] = ["sleep"];

/**
 * The optional LLM reflection (ADR-0003): the configured LLM, registered as an agent actor, proposes a
 * diagnosis; the deterministic diagnosis checks it against the evidence and accepts or rejects it.
 */
async function reflect(ctx: RunContext, input: InputContext, d: Diagnosis): Promise<DiagnosisProposalRecord> {
  const c = loadDiagnosisConfig();
  const out = await reflectWithLlm(input, d, classify(input), { providers: [...ctx.llmProviders!], temperature: c.AUTONOMOUS_DIAGNOSTIC_TEMP, maxTokens: c.AUTONOMOUS_DIAGNOSTIC_MAX_TOKENS, signal: ctx.signal });
  const proposedBy = out.provider ? `llm:${out.provider}/${out.model ?? "model"}` : null;
  if (proposedBy) await ensureActor(ctx.db, { id: proposedBy, kind: "agent", displayName: `LLM ${out.model ?? ""} (${out.provider})`.trim() }).catch(() => undefined);
  return { status: out.status, proposedBy, provider: out.provider, model: out.model, proposal: out.proposal, reasons: out.reasons, elapsedMs: out.elapsedMs };
}

/**
 * One model turn of an autonomous agent over the OpenAI-compatible client (provider chain, timeouts and
 * fallback as everywhere): the transcript and the tools go out; the first tool call comes back as the
 * proposal (its args parsed; a malformed one is still a proposal, which the authority rejects).
 */
async function think(ctx: RunContext, state: MissionState, agent: string, opts: { timeoutMs: number }): Promise<ThinkResult> {
  return agentTurn(ctx.agentProviders ?? ctx.llmProviders ?? [], state, agent, AbortSignal.any([ctx.signal, AbortSignal.timeout(Math.max(1, opts.timeoutMs))]));
}

/** One model turn of an autonomous agent with these providers (the worker's, or a counterfactual replay's `--live`). */
export async function agentTurn(all: readonly Provider[], state: MissionState, agent: string, signal: AbortSignal): Promise<ThinkResult> {
  const auto = agentDefinition(state.definition, agent).autonomous!;
  const providers = [...all];
  // The agent's provider first; the others stay as fallback.
  const preferred = auto.provider ? providers.findIndex((p) => p.name === auto.provider) : -1;
  if (preferred > 0) providers.unshift(...providers.splice(preferred, 1));
  const r = await completeWithFallback(providers, modelRequest(state, agent), signal, { idempotencyKey: `${state.id}/${agent}/${state.agents[agent].attempt}/think/${state.agents[agent].autonomous?.actions ?? 0}` });
  if (!r.ok) return { ok: false, error: r.error };
  const d = r.data;
  const actor = { actorId: agentActorId(agent, d.provider, d.model), kind: "agent" as const, name: `${agent} (${d.model} via ${d.provider})`, meta: { provider: d.provider, model: d.model, role: "executor", agent } };
  const first = d.toolCalls[0];
  if (!first) return { ok: true, actor, call: null, text: d.content, model: { provider: d.provider, model: d.model, latencyMs: d.attempts.at(-1)?.latencyMs ?? 0 } };
  const parsed = parseToolArguments(first);
  return {
    ok: true,
    actor,
    call: { id: first.id, name: first.name, args: parsed.ok ? parsed.args : { raw: first.arguments }, argsError: parsed.ok ? null : `the arguments are not a JSON object (${parsed.reason})` },
    text: d.content,
    model: { provider: d.provider, model: d.model, latencyMs: d.attempts.at(-1)?.latencyMs ?? 0 },
  };
}

async function loadState(db: Db, id: string): Promise<MissionState> {
  const state = await getMissionState(db, id);
  if (!state) throw new Error(`Mission ${id} does not exist`);
  return state;
}
