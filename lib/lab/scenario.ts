import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { agentActorId } from "../mission/autonomous";
import type { ThinkResult } from "../mission/engine";
import type { GateDecision, GateState, MissionState } from "../mission/types";
import { evaluateEvidence, runTool } from "../tools";
import { fail, ok, type ToolError, type ToolResult } from "../tools/result";
import { faultError, outageError } from "./faults";
import { createRng, deriveSeed } from "./rng";
import type { LabTurn, OperatorSpec, Scenario } from "./suite";
import { WORLD_EPOCH, type OperatorAnswer, type WorldEnvironment, type WorldOutage, type WorldToolCall, type WorldToolOutcome } from "./world";

/**
 * A scenario's environment for a world (lib/lab/world.ts): what its mission's tools, models, workers,
 * infrastructure and operator do, decided by the scenario and the run's seed. Tool calls the scenario
 * injects a fault into fail with the ToolError the real tool reports for that fault (lib/lab/faults.ts);
 * the others succeed as scripted (no process, file or network), or run the real tool in a temporary
 * workspace (`tools: real`). Durations on the world's clock are drawn from the seed.
 */

export interface ScenarioEnvironment extends WorldEnvironment {
  /** Removes the temporary workspace of a `tools: real` scenario. */
  dispose(): void;
}

/** The world clock's typical duration of a call that succeeds (ms), by tool. */
const TYPICAL_MS: Record<string, [number, number]> = { shell: [40, 900], http: [30, 400], file: [1, 15], llm: [400, 4000] };

const split = (ref: string) => {
  const i = ref.lastIndexOf("/");
  return { agent: ref.slice(0, i), step: Number(ref.slice(i + 1)) };
};

export function scenarioEnvironment(sc: Scenario, seed: number): ScenarioEnvironment {
  const rng = createRng(deriveSeed(seed, "environment"));
  const calls = new Map<string, number>();
  const firstCall = new Map<string, number>();
  const crashes = new Map<number, number>();
  const lastFault = new Map<string, (typeof sc.faults)[number]>();
  const answered = new Map<number, number>();
  const turns = new Map<string, number>();
  const usedOutages = new Set<number>();
  const workspace = sc.tools === "real" ? fs.mkdtempSync(path.join(os.tmpdir(), "faultline-lab-")) : path.join(os.tmpdir(), "faultline-lab-scripted-no-files");

  /** An outage's window on the world clock, once it is known (a step-anchored one starts at that step's first call). */
  const windowOf = (i: number): [number, number] | null => {
    const o = sc.outages[i];
    const start = o.startMs !== undefined ? WORLD_EPOCH + o.startMs : firstCall.get(o.at!);
    return start === undefined ? null : [start, start + o.durationMs];
  };
  const outageAt = (service: string, now: number) =>
    sc.outages.findIndex((o, i) => {
      if (o.service !== service) return false;
      const w = windowOf(i);
      return w !== null && now >= w[0] && now < w[1];
    });

  const typical = (tool: string) => {
    const [lo, hi] = TYPICAL_MS[tool] ?? [10, 100];
    return rng.int(lo, hi);
  };

  async function scripted(call: WorldToolCall, result: ToolResult): Promise<WorldToolOutcome> {
    return { result, evidence: await evaluateEvidence({ tool: call.tool as never, evidence: call.evidence }, result, { workspace }), durationMs: typical(call.tool) };
  }

  async function real(call: WorldToolCall): Promise<WorldToolOutcome> {
    const result = await runTool(call.tool, call.args, { workspace, allowedBinaries: call.allowedBinaries, signal: AbortSignal.timeout(call.timeoutMs + 1000), timeoutMs: call.timeoutMs, idempotencyKey: call.idempotencyKey });
    return { result, evidence: await evaluateEvidence({ tool: call.tool as never, evidence: call.evidence }, result, { workspace }), durationMs: typical(call.tool) };
  }

  /** What a successful call returns when it is scripted: the shape its real tool's data has. */
  function success(call: WorldToolCall): ToolResult {
    if (call.tool === "http") return ok({ status: 200, headers: { "content-type": "application/json" }, body: '{"ok":true}', json: { ok: true } });
    if (call.tool === "file") return ok(call.args.op === "read" ? { path: String(call.args.path ?? ""), content: "" } : { path: String(call.args.path ?? ""), op: String(call.args.op ?? "write") });
    if (call.tool === "llm") return ok({ text: "ok" });
    return ok({ exitCode: 0, stdout: "ok\n", stderr: "" });
  }

  async function helper(call: WorldToolCall): Promise<WorldToolOutcome> {
    const fault = lastFault.get(`${call.agent}/${call.step}`);
    if (fault?.helpers === "fail") {
      const error: ToolError = { code: "EXIT_NONZERO", exitCode: 1, stderr: `${String(call.args.command ?? call.tool)}: the recovery step did not work here\n`, message: `"${String(call.args.command ?? call.tool)}" exited with code 1` };
      return { result: fail(error, { exitCode: 1, stdout: "", stderr: error.stderr }), evidence: [], durationMs: typical(call.tool) };
    }
    if (sc.tools === "real") return real(call);
    // A scripted wait takes its time on the world's clock, not on the lab's.
    const waitS = call.tool === "shell" && call.args.command === "sleep" ? Number((call.args.args as unknown[] | undefined)?.[0] ?? 0) : 0;
    const out = await scripted(call, success(call));
    return { ...out, durationMs: out.durationMs + (Number.isFinite(waitS) ? waitS * 1000 : 0) };
  }

  async function step(call: WorldToolCall): Promise<WorldToolOutcome> {
    const key = `${call.agent}/${call.step}`;
    const n = (calls.get(key) ?? 0) + 1;
    calls.set(key, n);
    if (!firstCall.has(key)) firstCall.set(key, call.now);
    const net = call.tool === "http" ? outageAt("network", call.now) : -1;
    if (net >= 0) {
      const o = sc.outages[net];
      return { result: fail(outageError(call, "the network")), evidence: [], durationMs: typical(call.tool), injected: { type: "network_error", source: "outage", name: `network outage ${net + 1} (${o.durationMs} ms)` } };
    }
    for (const f of sc.faults) {
      if (f.at !== key) continue;
      if (f.times !== "always" && n > f.times) continue;
      if (f.probability < 1 && !rng.chance(f.probability)) continue;
      lastFault.set(key, f);
      const error: ToolError = { ...faultError(f.type, call, call.timeoutMs), ...f.error };
      // A fault that is a time limit takes the time limit on the world's clock.
      const durationMs = f.type === "timeout" ? call.timeoutMs : typical(call.tool);
      return { result: fail(error, call.tool === "shell" && error.exitCode != null ? { exitCode: error.exitCode, stdout: "", stderr: error.stderr ?? "" } : null), evidence: [], durationMs, injected: { type: f.type, source: "fault", name: `${f.type} at ${f.at}` } };
    }
    return sc.tools === "real" ? real(call) : scripted(call, success(call));
  }

  const recorded = (m: { source: string }) => (m.source.startsWith("recorded:") ? "recorded" : "scripted");

  /**
   * The agent's next model turn: its n-th of the run (across its attempts: a retry does not replay the turns
   * it had), the last repeating. A provider outage produces no turn, so it does not use one up.
   */
  function thinkTurn(agent: string, now: number): ThinkResult & { latencyMs?: number } {
    const m = sc.models[agent];
    const provider = recorded(m);
    const model = m.source.startsWith("recorded:") ? m.source : `scripted:${agent}`;
    const latencyMs = rng.int(300, 3000);
    if (outageAt("llm", now) >= 0) return { ok: false, error: providerError("providers_down", provider), latencyMs };
    const n = turns.get(agent) ?? 0;
    turns.set(agent, n + 1);
    const turn: LabTurn = m.turns[Math.min(n, m.turns.length - 1)];
    if (turn.error) return { ok: false, error: providerError(turn.error, provider), latencyMs };
    const actor = { actorId: agentActorId(agent, provider, model), kind: "agent" as const, name: `${agent} (${model} via ${provider})`, meta: { provider, model, role: "executor", agent } };
    const first = turn.toolCalls?.[0];
    const text = turn.content ?? "";
    if (!first) return { ok: true, actor, call: null, text, model: { provider, model, latencyMs } };
    let args: Record<string, unknown> = {};
    let argsError: string | null = null;
    if (typeof first.arguments === "string") {
      try {
        args = JSON.parse(first.arguments) as Record<string, unknown>;
      } catch (e) {
        args = { raw: first.arguments };
        argsError = `the arguments are not a JSON object (${(e as Error).message})`;
      }
    } else args = (first.arguments ?? {}) as Record<string, unknown>;
    return { ok: true, actor, call: { id: `call_${agent}_${n}_0`, name: first.name, args, argsError }, text, model: { provider, model, latencyMs } };
  }

  function operator(gate: GateState, _s: MissionState): OperatorAnswer {
    const op: OperatorSpec = sc.operator;
    const i = op.answers.findIndex((a, j) => {
      const used = answered.get(j) ?? 0;
      if (a.times !== "always" && used >= a.times) return false;
      return (a.gate.kind === undefined || a.gate.kind === gate.kind) && (a.gate.agent === undefined || a.gate.agent === gate.agent) && (a.gate.step === undefined || a.gate.step === gate.step);
    });
    if (i >= 0) {
      answered.set(i, (answered.get(i) ?? 0) + 1);
      const a = op.answers[i];
      return { decision: a.decision, note: a.note ?? null, args: a.args, delayMs: op.delayMs };
    }
    const decision = op.otherwise === "recommended" ? (gate.options.find((o) => o.recommended) ?? gate.options[0]).action : op.otherwise;
    return { decision: decision as GateDecision | "modify", note: op.otherwise === "recommended" ? "The recommended option." : null, delayMs: op.delayMs };
  }

  return {
    providers: [...new Set(Object.values(sc.models).map((m) => `${recorded(m)}\u0000${m.source.startsWith("recorded:") ? m.source : "scripted"}`))].map((k) => {
      const [name, model] = k.split("\u0000");
      return { name, model };
    }),
    async tool(call) {
      if (call.kind === "step") return step(call);
      if (call.kind === "recovery") return helper(call);
      return sc.tools === "real" ? real(call) : scripted(call, success(call));
    },
    ...(Object.keys(sc.models).length ? { think: async (agent: string, _s: MissionState, now: number) => thinkTurn(agent, now) } : {}),
    crashAfterStart(agent, step) {
      const i = sc.crashes.findIndex((c, j) => {
        const { agent: a, step: st } = split(c.at);
        return a === agent && st === step && (c.times === "always" || (crashes.get(j) ?? 0) < c.times);
      });
      if (i < 0) return false;
      crashes.set(i, (crashes.get(i) ?? 0) + 1);
      return true;
    },
    operator,
    outage(now): WorldOutage | null {
      const i = outageAt("database", now);
      if (i < 0 || usedOutages.has(i)) return null;
      usedOutages.add(i);
      return { service: "database", until: windowOf(i)![1], message: "connection refused: the database server is not answering" };
    },
    async checkEvidence(_agent, checks, last) {
      return evaluateEvidence({ tool: (last?.tool ?? "file") as never, evidence: checks }, ok(last?.data ?? {}), { workspace });
    },
    dispose() {
      if (sc.tools === "real") fs.rmSync(workspace, { recursive: true, force: true });
    },
  };
}

/** A model provider's failure as the LLM client reports it (lib/llm/chain.ts). */
function providerError(kind: NonNullable<LabTurn["error"]>, provider: string): ToolError {
  if (kind === "rate_limited") return { code: "RATE_LIMITED", status: 429, retryAfterMs: 5000, message: `All 1 LLM provider failed: ${provider}: 429 rate limited, retry after 5 s. No output was produced and nothing was substituted. Wait at least 5 s, then retry.`, details: { allProvidersFailed: true, recoverable: true, agentErrorCode: "RATE_LIMIT_EXCEEDED" } };
  if (kind === "timeout") return { code: "TIMEOUT", message: `All 1 LLM provider failed: ${provider}: timed out after 30000 ms. No output was produced and nothing was substituted. Check the providers, then retry.`, details: { allProvidersFailed: true, recoverable: true, agentErrorCode: "TIMEOUT" } };
  return { code: "NETWORK_ERROR", message: `All 1 LLM provider failed: ${provider}: refused (ECONNREFUSED). No output was produced and nothing was substituted. Check the providers (or add one to FAULTLINE_LLM_PROVIDERS), then retry.`, details: { allProvidersFailed: true, recoverable: true, agentErrorCode: "PROVIDER_ERROR" } };
}
