import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { nextAction, stepLabel, toAgentError, transitions as t, type MissionState, type NewMissionEvent, type StepDefinition } from "../../lib/mission";
import { evaluateEvidence, evidencePassed, describeFailedEvidence, runTool } from "../../lib/tools";
import type { ToolResult } from "../../lib/tools/result";
import type { EvidenceRecord } from "../../lib/mission/types";
import type { Db } from "../../db/client";
import { appendEvents, LeaseLostError } from "../../db/queries/events";
import { missions } from "../../db/schema";

/** What one mission run needs from its worker. */
export interface RunContext {
  db: Db;
  workerId: string;
  workspacesDir: string;
  allowedBinaries: readonly string[];
  /** Aborted when the lease is lost or the worker shuts down. */
  signal: AbortSignal;
  /** True once the worker is shutting down: stop at the next step boundary. */
  shouldStop: () => boolean;
  log: (msg: string) => void;
}

/** Largest string kept per field of a tool's data in the event log. */
const MAX_FIELD = 4096;

/**
 * Runs a mission the worker holds a lease on, transition by transition, until it ends, waits at a
 * gate, or the lease is lost. Every write is fenced by the lease (appendEvents checks the owner).
 */
export async function runMission(ctx: RunContext, missionId: string): Promise<"waiting" | "terminal" | "stopped"> {
  let state = await loadState(ctx.db, missionId);
  const append = async (events: Array<NewMissionEvent | ((s: MissionState) => NewMissionEvent)>) => {
    const res = await ctx.db.transaction((tx) => appendEvents(tx, { missionId, actorId: ctx.workerId, leaseOwner: ctx.workerId, events }));
    state = res.state;
  };
  for (;;) {
    if (ctx.signal.aborted || ctx.shouldStop()) return "stopped";
    const action = nextAction(state);
    switch (action.kind) {
      case "none":
        return "terminal";
      case "wait":
        return "waiting";
      case "startPhase":
        await append([t.phaseStarted(action.phase, state.phase === "MISSION_STARTED" ? "The mission start" : `${state.phase}`)]);
        break;
      case "interrupted": {
        const a = state.agents[action.agent];
        const running = a.steps.find((s) => s.status === "running");
        if (running) {
          // The step began but its result was never recorded: its worker died. Nothing is re-run behind the operator's back.
          const step = stepDef(state, a.name, running.index);
          const error = {
            code: "INTERRUPTED" as const,
            message: `Step ${running.index + 1} (${stepLabel(step, running.index)}) was started by a worker that stopped before recording its result; whether its side effect happened is unknown (idempotency key ${running.idempotencyKey}).`,
          };
          await append([
            t.toolFailed(a.name, a.attempt, running.index, error, []),
            t.agentFailed(a.name, a.attempt, toAgentError(error, step, running.index)),
            (s) => t.failureResponse(s, a.name, randomUUID(), new Date().toISOString()),
          ]);
        } else {
          // Between steps: no side effect in flight, the agent simply continues.
          const outcome = await runAgentSteps(ctx, state, a.name, append, () => state);
          if (outcome === "stopped") return "stopped";
        }
        break;
      }
      case "runAgent": {
        const a = state.agents[action.agent];
        await append([t.agentStarted(a.name, a.attempt + 1)]);
        const outcome = await runAgentSteps(ctx, state, a.name, append, () => state);
        if (outcome === "stopped") return "stopped";
        break;
      }
      case "respond":
        await append([t.failureResponse(state, action.agent, randomUUID(), new Date().toISOString())]);
        break;
      case "completePhase":
        await append([t.phaseCompleted(state, action.phase)]);
        break;
      case "checkObjective": {
        const evidence: EvidenceRecord[] = [];
        for (const [i, step] of state.definition.objectiveChecks.entries()) {
          const { result, records } = await runStep(ctx, state, step, `${missionId}/objective/${i}`, step.timeoutMs ?? 60_000);
          if (ctx.signal.aborted) return "stopped";
          evidence.push(...(records.length ? records : [{ check: "objective", expected: "ok", actual: result.error?.message ?? "ok", passed: false }]));
        }
        await append([t.objectiveChecked(evidence.every((e) => e.passed), evidence)]);
        break;
      }
      case "finish":
        await append([t.missionFinished(state)]);
        break;
    }
  }
}

type Appender = (events: Array<NewMissionEvent | ((s: MissionState) => NewMissionEvent)>) => Promise<void>;

/** Runs the remaining steps of the agent's current attempt within the agent's timeout. */
async function runAgentSteps(ctx: RunContext, initial: MissionState, agentName: string, append: Appender, current: () => MissionState): Promise<"done" | "stopped"> {
  const def = initial.definition.phases.flatMap((p) => p.agents).find((x) => x.name === agentName)!;
  const deadline = Date.now() + def.timeoutMs;
  for (;;) {
    const s = current();
    const a = s.agents[agentName];
    if (a.status !== "running") return "done";
    const index = a.steps.length;
    if (ctx.shouldStop() || ctx.signal.aborted) return "stopped";
    if (index >= def.steps.length) {
      await append([t.agentCompleted(a.name, a.attempt, def.steps.length)]);
      return "done";
    }
    const step = def.steps[index];
    const label = stepLabel(step, index);
    await append([t.stepStarted(s.id, a.name, a.attempt, index, step.tool, label)]);
    const key = current().agents[agentName].steps[index].idempotencyKey;
    const remaining = deadline - Date.now();
    const { result, records } = await runStep(ctx, s, step, key, Math.max(1, Math.min(step.timeoutMs ?? remaining, remaining)));
    // Shutdown or lease loss mid-step: record nothing; the next holder reports the step INTERRUPTED.
    if (ctx.signal.aborted) return "stopped";
    if (result.ok && evidencePassed(records)) {
      await append([t.toolSucceeded(a.name, a.attempt, index, compact(result.data), records)]);
      continue;
    }
    const error = result.ok
      ? { code: "VALIDATION_FAILED" as const, message: `${label} returned ok, but its evidence did not hold. ${describeFailedEvidence(records)}` }
      : remaining <= 0 || (result.error.code === "TIMEOUT" && Date.now() >= deadline)
        ? { ...result.error, code: "TIMEOUT" as const, message: `Agent "${a.name}" exceeded its ${def.timeoutMs} ms timeout during ${label}. ${result.error.message}` }
        : result.error;
    await append([
      t.toolFailed(a.name, a.attempt, index, error, records),
      t.agentFailed(a.name, a.attempt, toAgentError(error, step, index)),
      (st) => t.failureResponse(st, a.name, randomUUID(), new Date().toISOString()),
    ]);
    return "done";
  }
}

async function runStep(ctx: RunContext, state: MissionState, step: StepDefinition, idempotencyKey: string, timeoutMs: number): Promise<{ result: ToolResult; records: EvidenceRecord[] }> {
  const workspace = path.join(ctx.workspacesDir, state.id);
  await fs.mkdir(workspace, { recursive: true });
  const allowed = [...new Set([...state.definition.allowedBinaries, ...ctx.allowedBinaries])];
  const timeout = AbortSignal.timeout(Math.max(1, timeoutMs));
  const signal = AbortSignal.any([ctx.signal, timeout]);
  const result = await runTool(step.tool, step.args, { workspace, allowedBinaries: allowed, signal, timeoutMs, idempotencyKey });
  const records = await evaluateEvidence(step, result, { workspace });
  return { result, records };
}

function stepDef(state: MissionState, agent: string, index: number): StepDefinition {
  return state.definition.phases.flatMap((p) => p.agents).find((a) => a.name === agent)!.steps[index];
}

/** Keeps event payloads small: long strings are cut, with a marker saying so. */
function compact(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    if (typeof v === "string" && v.length > MAX_FIELD) out[k] = `${v.slice(0, MAX_FIELD)}… [${v.length - MAX_FIELD} more characters not kept]`;
    else if (v !== null && typeof v === "object" && JSON.stringify(v).length > MAX_FIELD * 4) out[k] = `[${k}: ${JSON.stringify(v).length} characters not kept]`;
    else out[k] = v;
  }
  return out;
}

async function loadState(db: Db, id: string): Promise<MissionState> {
  const [row] = await db.select({ state: missions.state }).from(missions).where(eq(missions.id, id));
  if (!row) throw new Error(`Mission ${id} does not exist`);
  return row.state;
}

export { LeaseLostError };
