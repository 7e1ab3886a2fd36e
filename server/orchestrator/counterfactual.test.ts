import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { listCounterfactualChecksByMission } from "../../db/queries/counterfactual-checks";
import { and, eq } from "drizzle-orm";
import { auditLog } from "../../db/schema";
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
import { missionDefinitionSchema, type MissionState } from "../../lib/mission";
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
import { stubbornCleaner } from "../../lib/mission/test-fixtures";
import { useWorkerHarness } from "./test-harness";

/**
 * Counterfactual replay on traces of missions run by a real worker on PostgreSQL (the demo's, with the
 * recorded model provider): a change that leaves the outcome as it was, one that changes it, a model turn
 * the trace does not hold (stop, then --live against a loopback OpenAI-compatible server), and the
 * verification of the demo's rejected proposal's counterfactual.
 */
const harness = useWorkerHarness("fl-cf-");
const COUNT = "Line count held for a person";
const STUBBORN = "A cache clear that more actions would not fix";
/**
 * A counterfactual whose success is a person's call: the model proposes `wc`, which is not on the
 * allowlist; adding it, the mission's rule would hold wc for a person, so the authority expects success
 * with low confidence, and a replay can see the hold but not the person's answer (undetermined). The
 * recorded model is db/seed/recordings/agents.json "e2e-count-lines".
 */
export const countLines = (name: string) => ({
  name,
  objective: "Count the lines of the release notes; a person reviews any count.",
  allowedBinaries: [],
  rules: [{ id: "wc-needs-a-person", effect: "hold" as const, tool: "shell", binary: "wc", reason: "A person reviews any count." }],
  phases: [{ name: "EXECUTION" as const, agents: [{ name: "counter", priority: "critical" as const, autonomous: { goal: "E2E: count the lines of the release notes in the workspace.", tools: ["shell" as const], maxActions: 1, provider: "recorded" } }] }],
});
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
  const defs = [...demoMissions(port).filter((d) => ["Nightly release notes", "Index rebuild that recovers by itself", "Deploy with an unapproved binary"].includes(d.name)), demoAutonomousMissions()[0], missionDefinitionSchema.parse(countLines(COUNT)), missionDefinitionSchema.parse(stubbornCleaner(STUBBORN))];
  for (const definition of defs) {
    const { id } = await createMission(db, { definition, actorId: "user:op" });
    let s = await until(id, (x) => x.finalStatus !== null || x.gates.some((g) => g.status === "open"));
    const gate = s.gates.find((g) => g.status === "open");
    if (gate && definition.name !== COUNT) {
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
      if (name === COUNT) continue;
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

  it("a flag that turns recovery off changes the outcome: the timed-out step is not recovered and waits for a person", async () => {
    const name = "Index rebuild that recovers by itself";
    const trace = traces.get(name)!;
    // The original recovered (auto policy: double the time limit and re-run), and ended (SUCCESS, or FAILED when the re-run also timed out on a loaded machine and the gate was aborted).
    expect(trace.events.some((e) => e.type === "recovery.started")).toBe(true);
    expect(finals.get(name)!.finalStatus).not.toBeNull();
    const { report, state } = await counterfactualReplay(trace, { flags: [parseFlag("AUTONOMOUS_MAX_RECOVERY_ATTEMPTS=0")] }, { library });
    expect(report.firstDifference).not.toBeNull();
    expect(report.firstDifference!.original).not.toBeNull();
    expect(report.changedEvents.some((e) => e.type === "recovery.started")).toBe(false);
    expect(report.sameOutcome).toBe(false);
    // Without a recovery the critical step's failure waits for a person; the trace holds no decision for that gate.
    expect(report.changed.ended).toBe(false);
    expect(report.changed.stop).toMatchObject({ kind: "person", agent: "indexer" });
    expect(state!.gates.some((g) => g.status === "open" && g.agent === "indexer")).toBe(true);
  });

  it("a stricter objective check changes how the run ends: the recorded release notes fail it, and the mission ends otherwise", async () => {
    const name = "Nightly release notes";
    const { report } = await counterfactualReplay(traces.get(name)!, { sets: [parseSet('objectiveChecks.0.evidence=[{"output_matches":"^# Changelog"}]')] }, { library });
    expect(report.original.finalStatus).toBe("SUCCESS");
    // The check is run again on the recorded result of reading release-notes.md, with the changed check.
    expect(report.firstDifference).toMatchObject({ type: "objective.checked", original: { payload: { passed: true } }, changed: { payload: { passed: false } } });
    expect(report.changed.stop).toBeNull();
    expect(report.changed.ended).toBe(true);
    expect(report.changed.finalStatus).not.toBe("SUCCESS");
    expect(report.sameOutcome).toBe(false);
  });

  it("a tool call the original's allowlist refused never ran: allowing it stops the replay at that step, saying so", async () => {
    const name = "Deploy with an unapproved binary";
    const { report } = await counterfactualReplay(traces.get(name)!, { sets: [parseSet('allowedBinaries=["node","scp"]')] }, { library });
    expect(report.changed.stop).toMatchObject({ kind: "tool_result", agent: "uploader", step: 0, request: { tool: "shell", args: { command: "scp" } } });
    expect(report.changed.stop!.why).toMatch(/which the original's allowlist refused: it never ran, so the trace holds no ToolResult for it/);
    expect(report.changed.ended).toBe(false);
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

describe("counterfactuals a replay judges against what happens", () => {
  it("adding wc to the allowlist: the authority expects the mission's hold rule to ask a person (low confidence); the replay sees the hold and cannot know the answer", async () => {
    const s = finals.get(COUNT)!;
    const p = s.proposals[0];
    expect(p).toMatchObject({ status: "rejected", action: { tool: "shell", args: { command: "wc" } } });
    expect(p.decision!.counterfactual).toEqual({ change: { type: "relax_constraint", constraint: 'allowedBinaries: add "wc"' }, expectedOutcome: "success", confidence: "low" });
    const out = await verifyCounterfactuals(traces.get(COUNT)!, s, { library });
    const v = out.find((x) => x.subject === `proposal:${p.id}`)!;
    expect(v.change).toEqual({ sets: [{ path: "allowedBinaries", value: ["wc"] }] });
    expect(v.verdict).toBe("undetermined");
    expect(v.summary).toMatch(/waits for a person, as the counterfactual expected \(rule:wc-needs-a-person\)/);
    expect(v.evidence.decision).toMatchObject({ decision: "pending", authority: "rule:wc-needs-a-person" });
    // The mission waits at a gate: its explanation's counterfactual needs a person's confirmation, which no replay gives.
    expect(out.find((x) => x.subject === "mission")).toMatchObject({ verdict: "undetermined", change: null });
  });

  it("more actions for a model that repeats a refused delete: the counterfactual does not hold (with --live, the agent fails again with no executable action)", async () => {
    const s = finals.get(STUBBORN)!;
    expect(s.proposals.map((p) => p.status)).toEqual(["rejected", "rejected"]);
    const claim = (await verifyCounterfactuals(traces.get(STUBBORN)!, s, { library })).find((x) => x.subject === "mission")!;
    expect(claim.counterfactual).toMatchObject({ change: { type: "relax_constraint", constraint: 'autonomous.maxActions of "cleaner" above 2' }, expectedOutcome: "success" });
    // Without a model the replay stops at the first turn the trace does not hold.
    expect(claim.verdict).toBe("undetermined");
    llm.script("cf-stubborn", [{ toolCalls: [{ name: "shell", arguments: { command: "rm", args: ["-rf", "/var/cache/faultline-build"] } }] }]);
    const providers = [llm.provider("cf-stubborn", { name: "recorded" })];
    const live = (await verifyCounterfactuals(traces.get(STUBBORN)!, s, { library, live: (st, agent, o) => agentTurn(providers, st, agent, AbortSignal.timeout(o.timeoutMs)) })).find((x) => x.subject === "mission")!;
    expect(live.change).toEqual({ sets: [{ path: "agents.cleaner.maxActions", value: 4 }] });
    expect(live.verdict).toBe("did_not_hold");
    expect(live.summary).toMatch(/"cleaner" still fails \(NO_EXECUTABLE_ACTION\) and the run waits for a person/);
  });
});

describe("the CLI: faultline lab replay --set/--rules/--flag/--live, mission explain --verify", () => {
  /** The compiled CLI (server/cli-test-build.ts): the same sources, without tsx loading them on every command. */
  const BIN = inject("cliEntry");
  let dir: string;
  let file: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-cf-cli-"));
    file = path.join(dir, "build.trace.jsonl");
    const exp = await cli(["trace", "export", buildId(), "-o", file]);
    if (exp.code !== 0) throw new Error(`trace export failed: ${exp.stderr}`);
  }, 90_000);
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [BIN, ...args], { env: { ...process.env, DATABASE_URL: harness.tdb.url, FAULTLINE_DATA_DIR: dir, FAULTLINE_LLM_PROVIDERS: "", FAULTLINE_RECORDED_PROVIDER: "", ...env }, timeout: 90_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  }
  const buildId = () => traces.get(BUILD)!.header.missionId;

  it("bad --set, --flag and --rules input exits 2 naming the path, the flag or the rule and what is allowed", async () => {
    const noAgent = await cli(["lab", "replay", file, "--set", "agents.writer.maxActions=10"]);
    expect(noAgent.code).toBe(2);
    expect(noAgent.stderr).toMatch(/--set agents\.writer\.maxActions: there is no agent "writer" in this mission\. Agents: summarizer\./);
    const badKey = await cli(["lab", "replay", file, "--set", "agents.summarizer.budget=10"]);
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toMatch(/"budget" is not a field of agents\.summarizer\. Allowed: name, priority, timeoutMs, steps, autonomous, external; and the autonomous agent's own goal, tools, maxActions/);
    const badValue = await cli(["lab", "replay", file, "--set", "agents.summarizer.maxActions=-1"]);
    expect(badValue.code).toBe(2);
    expect(badValue.stderr).toMatch(/the changed definition is not valid at phases\.0\.agents\.0\.autonomous\.maxActions/);
    const flag = await cli(["lab", "replay", file, "--flag", "AUTONOMOUS_RETRIES=3"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--flag AUTONOMOUS_RETRIES: there is no such flag\. A replay can change: AUTONOMOUS_DIAGNOSTIC_REFLECTION_ENABLED/);
    fs.writeFileSync(path.join(dir, "bad-rules.json"), JSON.stringify({ rules: [{ id: "ok", effect: "deny", tool: "shell" }, { id: "typo", effect: "refuse" }] }));
    const rules = await cli(["lab", "replay", file, "--rules", path.join(dir, "bad-rules.json")]);
    expect(rules.code).toBe(2);
    expect(rules.stderr).toMatch(/rule 2 \(id typo\), field effect: must be "allow", "deny" or "hold"/);
    const missing = await cli(["lab", "replay", file, "--rules", path.join(dir, "nope.json")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--rules: there is no file ".*nope\.json"/);
    const live = await cli(["lab", "replay", file, "--set", "agents.summarizer.maxActions=10", "--live"]);
    expect(live.code).toBe(2);
    expect(live.stderr).toMatch(/--live needs a provider: set FAULTLINE_LLM_PROVIDERS/);
  }, 180_000); // eight CLI processes on a shared machine

  it("--rules FILE --json: the changed run's report; a stop for a ToolResult or a model output exits 1 and says which", async () => {
    fs.writeFileSync(path.join(dir, "rules.yaml"), "- {id: no-curl, effect: deny, tool: shell, binary: curl, reason: No downloads.}\n");
    const r = await cli(["lab", "replay", file, "--rules", path.join(dir, "rules.yaml"), "--json"]);
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout);
    // Without the built-in policy rm -rf / is approved; the run has no ToolResult for it (the original never ran it).
    expect(report.change.rules).toEqual({ source: path.join(dir, "rules.yaml"), count: 1 });
    expect(report.firstDifference).toMatchObject({ type: "proposal.decided", original: { payload: { decision: "rejected" } }, changed: { payload: { decision: "approved" } } });
    expect(report.changed.stop).toMatchObject({ kind: "tool_result", agent: "summarizer", request: { tool: "shell", args: { command: "rm", args: ["-rf", "/"] } } });
    expect(report.changed.ended).toBe(false);
    const text = await cli(["lab", "replay", file, "--set", "agents.summarizer.maxActions=10"]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/Stopped at seq 4 \(model_output, agent "summarizer", proposal 1\): The changed run asks the model of "summarizer" for its proposal 1/);
  });

  it("--live asks the configured provider for what the trace does not hold", async () => {
    llm.script("cf-cli", [
      { toolCalls: [{ name: "file", arguments: { op: "write", path: "build-summary.txt", content: "Build 1482: 212 tests passed, bundle 1.8 MB (-3%).\n" } }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "written" } }] },
    ]);
    const r = await cli(["lab", "replay", file, "--set", "agents.summarizer.maxActions=10", "--live", "--json"], { FAULTLINE_LLM_PROVIDERS: llm.providersEnv(["cf-cli"]) });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.changed).toMatchObject({ ended: true, finalStatus: "SUCCESS", liveModelTurns: 2, stop: null });
    expect(llm.completions("cf-cli")).toHaveLength(2);
  });

  it("mission explain --verify confirms the demo's counterfactual and stores the verdict for the mission page", async () => {
    const r = await cli(["mission", "explain", buildId(), "--verify", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.finalStatus).toBe("SUCCESS");
    expect(out.verifications).toHaveLength(1);
    expect(out.verifications[0]).toMatchObject({ verdict: "held", counterfactual: { change: { type: "relax_constraint", constraint: "default-policy:no-recursive-delete-outside-workspace" }, expectedOutcome: "different_failure" } });
    const text = await cli(["mission", "explain", buildId(), "--verify"]);
    expect(text.stdout).toMatch(/- holds: proposal .* of "summarizer" \(shell \{"args":\["-rf","\/"\],"command":"rm"\}\)/);
    expect(text.stdout).toMatch(/another constraint refuses the proposal, as expected \(default-policy:no-writes-outside-workspace\)/);
    const checks = await listCounterfactualChecksByMission(harness.tdb.db, buildId());
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ subject: out.verifications[0].subject, verdict: "held" });
    const audit = await harness.tdb.db.select().from(auditLog).where(and(eq(auditLog.action, "counterfactual.verify"), eq(auditLog.missionId, buildId())));
    expect(audit).toHaveLength(2);
    expect(audit[0].summary).toMatch(/verified 1 counterfactual\(s\) of mission .*: 1 held, 0 did not hold, 0 undetermined/);
  });
});
