import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMission } from "../../db/queries/events";
import { decideGate } from "../../db/queries/gates";
import { loadStarterLibrary } from "../../db/queries/library";
import { consultLibrary } from "../../db/queries/library-protocol";
import { readTraceSource } from "../../db/queries/traces";
import { ensureActor } from "../../db/queries/users";
import { starterLibrary } from "../../db/seed";
import { demoAutonomousMissions, demoMissions } from "../../db/seed/demo";
import { DEFAULT_POLICY_RULES } from "../../lib/authority/rules";
import { startFakeLlmServer, type FakeLlmServer } from "../../lib/llm/test-server";
import type { MissionState } from "../../lib/mission";
import { freeLoopbackPort } from "../../lib/net";
import { counterfactualReplay } from "../../lib/trace/counterfactual";
import { parseFlag, parseSet } from "../../lib/trace/counterfactual-input";
import { verifyCounterfactuals } from "../../lib/trace/counterfactual-verify";
import { traceLines } from "../../lib/trace/export";
import type { Trace } from "../../lib/trace/format";
import { verifyTrace } from "../../lib/trace/verify";
import { startReplayServer, type ReplayServer } from "../model-replay";
import { agentProviders } from "./agent-providers";
import { agentTurn } from "./runner";
import { useWorkerHarness } from "./test-harness";

/**
 * Counterfactual replay on traces of missions run by a real worker on PostgreSQL (the demo's, with the
 * recorded model provider): a change that leaves the outcome as it was, one that changes it, a model turn
 * the trace does not hold (stop, then --live against a loopback OpenAI-compatible server), and the
 * verification of the demo's rejected proposal's counterfactual.
 */
const harness = useWorkerHarness("fl-cf-");
let recorded: ReplayServer;
let llm: FakeLlmServer;
const traces = new Map<string, Trace>();
const finals = new Map<string, MissionState>();

async function until(id: string, done: (s: MissionState) => boolean): Promise<MissionState> {
  for (;;) {
    const s = await harness.settle(id);
    if (done(s)) return s;
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  const db = harness.tdb.db;
  await ensureActor(db, { id: "system:seed", kind: "system", displayName: "Faultline seed" });
  await ensureActor(db, { id: "system:authority", kind: "system", displayName: "authority" });
  await loadStarterLibrary(db, starterLibrary(), "system:seed");
  recorded = await startReplayServer();
  llm = await startFakeLlmServer();
  await harness.startWorker({ agentProviders: agentProviders({ FAULTLINE_LLM_PROVIDERS: [], FAULTLINE_RECORDED_PROVIDER: `${recorded.url}/v1` }) });
  const port = await freeLoopbackPort();
  const defs = [...demoMissions(port).filter((d) => ["Nightly release notes", "Index rebuild that recovers by itself", "Deploy with an unapproved binary"].includes(d.name)), demoAutonomousMissions()[0]];
  for (const definition of defs) {
    const { id } = await createMission(db, { definition, actorId: "user:op" });
    let s = await until(id, (x) => x.finalStatus !== null || x.gates.some((g) => g.status === "open"));
    const gate = s.gates.find((g) => g.status === "open");
    if (gate) {
      await decideGate(db, { gateId: gate.id, decision: "abort", note: "not today", actorId: "user:op", actorName: "Olivia Operator" });
      s = await until(id, (x) => x.finalStatus !== null);
    }
    const v = verifyTrace([...traceLines((await readTraceSource(db, id))!)]);
    if (!v.ok) throw new Error(`${definition.name}: ${v.why}`);
    traces.set(definition.name, v.trace);
    finals.set(definition.name, s);
  }
}, 120_000);
afterAll(async () => {
  await recorded?.close();
  await llm?.close();
});

const library = (q: Parameters<typeof consultLibrary>[1], limit: number) => consultLibrary(harness.tdb.db, q, limit);
const BUILD = "Build summary by an autonomous agent";

describe("counterfactual replay", () => {
  it("with no change, every demo trace runs the original path to the same end", async () => {
    for (const [name, trace] of traces) {
      const { report } = await counterfactualReplay(trace, {}, { library });
      expect(report.firstDifference, name).toBeNull();
      expect(report.changed.stop, name).toBeNull();
      expect(report.changed.finalStatus, name).toBe(finals.get(name)!.finalStatus);
      expect(report.sameOutcome, name).toBe(true);
      expect(report.changed.events, name).toBe(trace.events.length);
    }
  });

  it("a stricter default policy that the run never meets parts at a decision's words and ends as the original did", async () => {
    const rules = [...DEFAULT_POLICY_RULES, { id: "no-curl", effect: "deny" as const, tool: "shell", binary: "curl", reason: "No downloads." }];
    const { report } = await counterfactualReplay(traces.get(BUILD)!, { policy: { source: "test", rules } }, { library });
    // The approval's reason counts the rules checked: the run parts there, in words only, and goes on to the same end.
    expect(report.firstDifference).toMatchObject({ type: "proposal.decided" });
    expect(report.firstDifference!.why).toMatch(/payload\.record\.reason/);
    expect(report.firstDifference!.original!.payload).toMatchObject({ decision: "approved" });
    expect(report.firstDifference!.changed!.payload).toMatchObject({ decision: "approved" });
    expect(report.changed.stop).toBeNull();
    expect(report.changed.finalStatus).toBe("SUCCESS");
    expect(report.sameOutcome).toBe(true);
  });

  it("a flag that turns recovery off changes the outcome: the timed-out step is not re-run and the mission ends FAILED", async () => {
    const name = "Index rebuild that recovers by itself";
    expect(finals.get(name)!.finalStatus).toBe("SUCCESS");
    const { report, state } = await counterfactualReplay(traces.get(name)!, { flags: [parseFlag("AUTONOMOUS_MAX_RECOVERY_ATTEMPTS=0")] }, { library });
    expect(report.firstDifference).not.toBeNull();
    expect(report.firstDifference!.original).not.toBeNull();
    expect(report.sameOutcome).toBe(false);
    // Without a recovery the critical step's failure waits for a person; the trace holds no decision for that gate.
    expect(report.changed.ended).toBe(false);
    expect(report.changed.stop).toMatchObject({ kind: "person", agent: "indexer" });
    expect(state!.gates.some((g) => g.status === "open" && g.agent === "indexer")).toBe(true);
  });

  it("a model turn the trace does not hold stops the replay there and says which agent and request", async () => {
    const { report } = await counterfactualReplay(traces.get(BUILD)!, { sets: [parseSet("agents.summarizer.maxActions=10")] }, { library });
    // The budget is in the model's system message: its first turn is a request the original never sent.
    expect(report.changed.stop).toMatchObject({ kind: "model_output", agent: "summarizer", step: 0 });
    expect(report.changed.stop!.why).toMatch(/asks the model of "summarizer" for its proposal 1/);
    expect(report.changed.stop!.request).toMatchObject({ proposal: 1, messages: 2 });
    expect(report.changed.ended).toBe(false);
    expect(report.firstDifference).not.toBeNull();
  });

  it("--live asks a provider (a loopback OpenAI-compatible server) for the turns the trace does not hold, and the run ends", async () => {
    llm.script("cf-live", [
      // The same write the recorded model made (so its ToolResult is in the trace), without the rm -rf / first.
      { toolCalls: [{ name: "file", arguments: { op: "write", path: "build-summary.txt", content: "Build 1482: 212 tests passed, bundle 1.8 MB (-3%).\n" } }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "written" } }] },
    ]);
    const providers = [llm.provider("cf-live", { name: "recorded" })];
    const { report, state } = await counterfactualReplay(traces.get(BUILD)!, { sets: [parseSet("agents.summarizer.maxActions=10")] }, { library, live: (s, agent, o) => agentTurn(providers, s, agent, AbortSignal.timeout(o.timeoutMs)) });
    expect(llm.completions("cf-live").length).toBe(2);
    expect(report.changed.liveModelTurns).toBe(2);
    expect(report.changed.stop).toBeNull();
    expect(state!.proposals.map((p) => `${p.action.tool}:${p.status}`)).toEqual(["file:approved", "finish:approved"]);
    expect(report.changed.finalStatus).toBe("SUCCESS");
    expect(report.firstDifference!.type).toBe("proposal.submitted");
  });

  it("explain --verify: the demo's rejected rm -rf / would be refused by another rule without the one that refused it (held)", async () => {
    const s = finals.get(BUILD)!;
    const rejected = s.proposals.find((p) => p.status === "rejected")!;
    expect(rejected.action).toMatchObject({ tool: "shell", args: { command: "rm" } });
    const out = await verifyCounterfactuals(traces.get(BUILD)!, s, { library });
    const v = out.find((x) => x.subject === `proposal:${rejected.id}`)!;
    expect(v.change).toEqual({ withoutRules: ["default-policy:no-recursive-delete-outside-workspace"] });
    expect(v.counterfactual.expectedOutcome).toBe("different_failure");
    expect(v.verdict).toBe("held");
    expect(v.evidence.decision).toMatchObject({ decision: "rejected", authority: "default-policy:no-writes-outside-workspace" });
  });
});
