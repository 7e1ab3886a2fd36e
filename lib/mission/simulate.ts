import type { ToolError } from "../tools/result";
import type { MissionDefinition } from "./definition";
import type { MissionEvent, NewMissionEvent } from "./events";
import { stepLabel, toAgentError } from "./failure";
import { nextAction } from "./next-action";
import { applyEvent } from "./reducer";
import * as t from "./transitions";
import type { EvidenceRecord, GateDecision, GateState, MissionState } from "./types";

/**
 * A pure, in-memory drive of the real state machine: the same nextAction, transitions and reducer
 * the worker uses, with tool outcomes and gate decisions supplied by the caller. For tests and
 * model checking; the worker does the same with real tools and PostgreSQL.
 */
export type StepOutcome = { kind: "ok" } | { kind: "no-evidence" } | { kind: "fail"; error: ToolError };

export interface SimulationScript {
  outcome(agent: string, step: number, attempt: number): StepOutcome;
  decide(gate: GateState, state: MissionState): GateDecision;
  objectivePassed?: boolean;
  maxEvents?: number;
  /** Mission id (gate ids derive from it); a fixed one by default, for reproducible runs. */
  missionId?: string;
}

const PASS: EvidenceRecord[] = [{ check: "exit_code", expected: 0, actual: 0, passed: true }];
const FAIL: EvidenceRecord[] = [{ check: "exit_code", expected: 0, actual: 0, passed: true }, { check: "output_matches", expected: "/ready/", actual: "", passed: false }];

export function simulate(definition: MissionDefinition, script: SimulationScript): { state: MissionState; events: MissionEvent[] } {
  const id = script.missionId ?? "00000000-0000-4000-8000-000000000000";
  const events: MissionEvent[] = [];
  let clock = Date.parse("2026-01-01T00:00:00Z");
  let gateN = 0;
  let state: MissionState | null = null;
  const push = (e: NewMissionEvent, actorId = "worker:sim") => {
    const ev = { ...e, missionId: id, seq: (state?.seq ?? 0) + 1, actorId, at: new Date((clock += 1000)).toISOString() } as MissionEvent;
    state = applyEvent(state, ev);
    events.push(ev);
  };
  push(t.missionCreated(definition), "user:sim");
  const max = script.maxEvents ?? 10_000;
  const gateId = () => `${id.slice(0, 24)}${String(++gateN).padStart(12, "0")}`;
  for (;;) {
    if (events.length > max) throw new Error(`simulation exceeded ${max} events`);
    const s: MissionState = state!;
    const a = nextAction(s);
    switch (a.kind) {
      case "none":
        return { state: s, events };
      case "wait": {
        const gate = s.gates.find((g) => g.id === a.gateId)!;
        push(t.gateResolved(gate, script.decide(gate, s), null, new Date(clock + 1000).toISOString(), "sim operator"), "user:operator");
        break;
      }
      case "startPhase":
        push(t.phaseStarted(a.phase, s.phase));
        break;
      case "runAgent":
      case "interrupted": {
        const agent = s.agents[a.agent];
        if (a.kind === "runAgent") push(t.agentStarted(agent.name, agent.attempt + 1));
        const def = definition.phases.flatMap((p) => p.agents).find((x) => x.name === a.agent)!;
        const attempt = state!.agents[a.agent].attempt;
        for (let i = state!.agents[a.agent].steps.length; i < def.steps.length; i++) {
          push(t.stepStarted(id, agent.name, attempt, i, def.steps[i].tool, stepLabel(def.steps[i], i)));
          const o = script.outcome(agent.name, i, attempt);
          if (o.kind === "ok") {
            push(t.toolSucceeded(agent.name, attempt, i, { exitCode: 0 }, PASS));
            continue;
          }
          const error: ToolError = o.kind === "fail" ? o.error : { code: "VALIDATION_FAILED", message: "Evidence check failed: output_matches expected /ready/" };
          push(t.toolFailed(agent.name, attempt, i, error, o.kind === "fail" ? [] : FAIL));
          push(t.agentFailed(agent.name, attempt, toAgentError(error, def.steps[i], i)));
          push(t.failureResponse(state!, agent.name, gateId(), new Date(clock).toISOString()));
          break;
        }
        if (state!.agents[a.agent].status === "running") push(t.agentCompleted(agent.name, attempt, def.steps.length));
        break;
      }
      case "respond":
        push(t.failureResponse(s, a.agent, gateId(), new Date(clock).toISOString()));
        break;
      case "completePhase":
        push(t.phaseCompleted(s, a.phase));
        break;
      case "checkObjective": {
        const passed = script.objectivePassed ?? true;
        push(t.objectiveChecked(passed, definition.objectiveChecks.length || !passed ? [{ check: "file_exists", expected: "report.md", actual: passed, passed }] : []));
        break;
      }
      case "finish":
        push(t.missionFinished(s));
        break;
    }
  }
}
