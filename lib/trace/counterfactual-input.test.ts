import { describe, expect, it } from "vitest";
import { DEFAULT_POLICY_RULES } from "../authority/rules";
import { missionDefinitionSchema } from "../mission/definition";
import { applyFlags, applySets, CounterfactualInputError, parseFlag, parseRulesText, parseSet } from "./counterfactual-input";

const def = missionDefinitionSchema.parse({
  name: "cf input",
  objective: "check the counterfactual flags",
  allowedBinaries: ["ls"],
  phases: [
    { name: "PLANNING", agents: [{ name: "planner", priority: "critical", steps: [{ tool: "shell", args: { command: "ls" } }] }] },
    { name: "EXECUTION", timeoutMs: 60_000, agents: [{ name: "writer", priority: "critical", autonomous: { goal: "write", tools: ["file"], maxActions: 4 } }] },
  ],
});
const set = (text: string) => applySets(def, [parseSet(text)]);
const fails = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(CounterfactualInputError);
    return (e as Error).message;
  }
  throw new Error("expected a CounterfactualInputError");
};

describe("--set", () => {
  it("changes an autonomous agent's budget, a top-level list, a phase's limit and a step's args", () => {
    expect(set("agents.writer.maxActions=10").phases[1].agents[0].autonomous!.maxActions).toBe(10);
    expect(set("agents.writer.autonomous.maxActions=12").phases[1].agents[0].autonomous!.maxActions).toBe(12);
    expect(set('allowedBinaries=["ls","rm"]').allowedBinaries).toEqual(["ls", "rm"]);
    expect(set("phases.EXECUTION.timeoutMs=5000").phases[1].timeoutMs).toBe(5000);
    expect(set("agents.planner.steps.0.args.command=pwd").phases[0].agents[0].steps[0].args).toEqual({ command: "pwd" });
    expect(set("level=2").level).toBe(2);
    // The recorded definition is left as it was.
    expect(def.phases[1].agents[0].autonomous!.maxActions).toBe(4);
  });

  it("names the path and what is allowed when the path or the value is wrong", () => {
    expect(fails(() => set("agents.nobody.maxActions=10"))).toMatch(/there is no agent "nobody".*Agents: planner, writer/);
    expect(fails(() => set("agents.writer.maxActionz=10"))).toMatch(/"maxActionz" is not a field of agents\.writer\. Allowed: name, priority, timeoutMs, steps, autonomous, external; and the autonomous agent's own goal, tools, maxActions/);
    expect(fails(() => set("agents.writer.maxActions=0"))).toMatch(/--set agents\.writer\.maxActions: the changed definition is not valid at phases\.1\.agents\.0\.autonomous\.maxActions: /);
    expect(fails(() => set("agents.writer.maxActions=many"))).toMatch(/maxActions/);
    expect(fails(() => set("budget=3"))).toMatch(/"budget" is not a field of the mission definition\. Allowed: name, objective, objectiveChecks, allowedBinaries, recovery, library, rules, level, phases/);
    expect(fails(() => set("phases.REVIEW.timeoutMs=1"))).toMatch(/no phase "REVIEW".*Phases: PLANNING, EXECUTION/);
    expect(fails(() => set("agents.planner.steps.3.tool=file"))).toMatch(/agents\.planner\.steps is a list of 1; "3" is not one of its indexes/);
    expect(fails(() => set("agents.planner.external.via=x"))).toMatch(/agents\.planner\.external is not set in this mission/);
    expect(fails(() => parseSet("maxActions"))).toMatch(/is not PATH=VALUE/);
    expect(fails(() => set("agents..x=1"))).toMatch(/names joined by dots/);
  });
});

describe("--flag", () => {
  it("sets the worker's flags as the product defines them", () => {
    const cfg = { diagnosis: { enabled: true, whyDepth: 5, maxRecoveryAttempts: 2, fastPath: true }, approvalTtlMs: 900_000, capabilities: ["library", "think"], providers: [], allowedBinaries: [], recoveryBinaries: ["sleep"] };
    const out = applyFlags(cfg, ["AUTONOMOUS_MAX_RECOVERY_ATTEMPTS=0", "AUTONOMOUS_FAST_RECOVERY_ENABLED=off", "FAULTLINE_LIBRARY_PROTOCOL=0", "FAULTLINE_APPROVAL_TTL_MS=60000"].map(parseFlag));
    expect(out).toMatchObject({ diagnosis: { enabled: true, whyDepth: 5, maxRecoveryAttempts: 0, fastPath: false }, approvalTtlMs: 60_000, capabilities: ["think"] });
    expect(cfg.diagnosis.maxRecoveryAttempts).toBe(2);
  });

  it("names an unknown flag with the ones there are, and a bad value with what it must be", () => {
    expect(fails(() => parseFlag("NOPE=1"))).toMatch(/--flag NOPE: there is no such flag\. A replay can change: AUTONOMOUS_DIAGNOSTIC_REFLECTION_ENABLED .*FAULTLINE_LIBRARY_PROTOCOL/);
    expect(fails(() => parseFlag("AUTONOMOUS_MAX_RECOVERY_ATTEMPTS=99"))).toMatch(/AUTONOMOUS_MAX_RECOVERY_ATTEMPTS=99: .*10/);
    expect(fails(() => parseFlag("AUTONOMOUS_FAST_RECOVERY_ENABLED=maybe"))).toMatch(/must be 1\/0, true\/false/);
    expect(fails(() => parseFlag("AUTONOMOUS_MAX_RECOVERY_ATTEMPTS="))).toMatch(/needs a value/);
    expect(fails(() => parseFlag("=1"))).toMatch(/not NAME=VALUE/);
  });
});

describe("--rules", () => {
  it("reads the policy API's JSON, a bare list, or YAML", () => {
    expect(parseRulesText(JSON.stringify({ version: 3, rules: DEFAULT_POLICY_RULES, note: null }), "p.json")).toHaveLength(DEFAULT_POLICY_RULES.length);
    expect(parseRulesText("- {id: no-curl, effect: deny, tool: shell, binary: curl}\n", "p.yaml")).toEqual([{ id: "no-curl", effect: "deny", tool: "shell", binary: "curl" }]);
  });

  it("names the rule and field that is wrong, or says what a rules file is", () => {
    expect(fails(() => parseRulesText('[{"effect":"deny","tool":"shell"},{"id":"x","effect":"block"}]', "p.json"))).toMatch(/--rules p\.json: rule 2 \(id x\), field effect: must be "allow", "deny" or "hold"/);
    expect(fails(() => parseRulesText('{"policy": []}', "p.json"))).toMatch(/a rules file is a list of rules, or \{"rules": \[\.\.\.\]\}/);
    expect(fails(() => parseRulesText("[1, ", "p.json"))).toMatch(/not valid JSON or YAML/);
    expect(fails(() => parseRulesText('[{"effect":"deny","args":"("}]', "p.json"))).toMatch(/rule 1, field args: must be a valid regular expression/);
  });
});
