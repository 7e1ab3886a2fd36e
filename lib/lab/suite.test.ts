import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseSuite, readSuite } from "./suite";

/** A suite's field errors say where, what is wrong and what to write instead. */

const mission = `
    mission:
      name: fetch
      objective: fetch
      phases:
        - name: EXECUTION
          agents:
            - { name: fetch, priority: critical, steps: [{ tool: http, args: { url: "http://x.internal/", method: GET } }] }`;

function errors(text: string, file?: string) {
  const r = parseSuite(text, file);
  if (r.ok) throw new Error("expected the suite to be refused");
  return r.errors;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-lab-suite-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("suite validation", () => {
  it("names each bad field with what, why and what to do", () => {
    const e = errors(`
name: s
scenarios:
  - name: one${mission}
    faults:
      - { at: fetch/0, type: rate_limit }
      - { at: fetch, type: timeout }
      - { at: fetch/3, type: timeout }
      - { at: ghost/0, type: timeout, times: 0 }
    operator: { answers: [{ decision: maybe }] }
    outages:
      - { service: database, durationMs: 1000 }
`);
    expect(e).toEqual([
      { path: "scenarios[0].faults[0].type", message: expect.stringMatching(/^must be one of seed 003's error types: tool_not_found, command_not_found, .*environment_missing$/) },
      { path: "scenarios[0].faults[1].at", message: 'must be "agent/step": the agent\'s name, a slash and the step\'s index from 0, e.g. "fetch/0"' },
      { path: "scenarios[0].faults[3].times", message: 'must be a number of calls (1 or more) or "always"' },
      { path: "scenarios[0].outages[0].at", message: 'say when the outage starts: either "at" (a step, "agent/step") or "startMs" (after the mission was created), not both' },
      { path: "scenarios[0].operator.answers[0].decision", message: expect.stringMatching(/^must be a gate decision: retry, skip, abort, .*modify$/) },
    ]);
  });

  it("checks references against the scenario's mission", () => {
    const e = errors(`
name: s
scenarios:
  - name: one${mission}
    faults:
      - { at: fetch/3, type: timeout }
      - { at: ghost/0, type: timeout }
    crashes: [{ at: fetch/1 }]
    models: { fetch: { turns: [{ finish: done }] } }
  - name: one${mission}
`);
    expect(e).toEqual([
      { path: "scenarios[0].faults[0].at", message: 'names step 3 of "fetch", which has 1 step(s): steps count from 0.' },
      { path: "scenarios[0].faults[1].at", message: 'names agent "ghost", which the mission does not have (its agents: fetch).' },
      { path: "scenarios[0].crashes[0].at", message: 'names step 1 of "fetch", which has 1 step(s): steps count from 0.' },
      { path: "scenarios[0].models.fetch", message: '"fetch" is not an autonomous agent of the mission: only an autonomous agent has a model (its agents: fetch).' },
      { path: "scenarios[1].name", message: '"one" names another scenario too: names must be unique in a suite (they name the traces).' },
    ]);
  });

  it("says what an autonomous agent, an external one and file evidence need", () => {
    const e = errors(`
name: s
scenarios:
  - name: auto
    mission:
      name: m
      objective: o
      phases:
        - name: EXECUTION
          agents:
            - { name: writer, priority: critical, autonomous: { goal: write it, tools: [file], evidence: [{ file_exists: out.txt }] } }
            - { name: outside, priority: optional, external: {} }
`);
    expect(e).toEqual([
      { path: "scenarios[0].models", message: 'agent "writer" is autonomous and has no model: add models: { writer: { turns: [...] } } (scripted) or { recorded: { file, id } }.' },
      { path: "scenarios[0].mission", message: 'agent "outside" is external (it runs elsewhere and calls Faultline): the lab runs only agents Faultline runs itself. Make it scripted or autonomous.' },
      { path: "scenarios[0].tools", message: "the mission checks file_exists, and scripted tools write no files: set tools: real (its calls without a fault then run in a temporary workspace)." },
    ]);
  });

  it("reports the mission's own field errors under its path, and files that are not there", () => {
    const e = errors(`
name: s
scenarios:
  - name: bad mission
    mission: { name: m, objective: o, phases: [{ name: SHIPPING, agents: [] }] }
  - name: missing file
    mission: missions/nope.yaml
  - name: recorded
    mission:
      name: m
      objective: o
      phases: [{ name: EXECUTION, agents: [{ name: w, priority: critical, autonomous: { goal: g, tools: [file] } }] }]
    models: { w: { recorded: { file: recordings.json, id: nope } } }
`, path.join(dir, "suite.yaml"));
    expect(e[0]).toEqual({ path: "scenarios[0].mission.phases[0].name", message: expect.stringMatching(/^must be one of CONTEXT_ENRICHMENT/) });
    expect(e).toContainEqual({ path: "scenarios[1].mission", message: `names the file "missions/nope.yaml", which does not exist (paths are relative to the suite file: ${path.join(dir, "missions/nope.yaml")}).` });
    expect(e).toContainEqual({ path: "scenarios[2].models.w.recorded.file", message: `names "recordings.json", which does not exist (paths are relative to the suite file: ${path.join(dir, "recordings.json")}).` });
  });

  it("reads recordings by id, and mission files relative to the suite", () => {
    fs.writeFileSync(path.join(dir, "recordings.json"), JSON.stringify({ recordings: [{ id: "r1", goal: "g", turns: [{ toolCalls: [{ name: "finish", arguments: { summary: "done" } }] }] }] }));
    fs.mkdirSync(path.join(dir, "missions"), { recursive: true });
    fs.writeFileSync(path.join(dir, "missions", "m.yaml"), "name: m\nobjective: o\nphases: [{ name: EXECUTION, agents: [{ name: w, priority: critical, autonomous: { goal: g, tools: [file] } }] }]\n");
    const text = "name: s\nscenarios:\n  - name: r\n    mission: missions/m.yaml\n    models: { w: { recorded: { file: recordings.json, id: r1 } } }\n";
    fs.writeFileSync(path.join(dir, "suite.yaml"), text);
    const r = readSuite(path.join(dir, "suite.yaml"));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.suite.scenarios[0].models.w).toEqual({ source: "recorded:r1", turns: [{ toolCalls: [{ name: "finish", arguments: { summary: "done" } }] }] });
    const wrongId = parseSuite(text.replace("id: r1", "id: r2"), path.join(dir, "suite.yaml"));
    expect(!wrongId.ok && wrongId.errors).toEqual([{ path: "scenarios[0].models.w.recorded.id", message: '"r2" is not a recording of recordings.json (its recordings: r1).' }]);
  });

  it("says what is wrong with the file itself", () => {
    expect(errors("")).toEqual([{ path: "", message: "The suite is empty: write its name and scenarios (docs/lab.md shows one)." }]);
    expect(errors("name: [unclosed")[0].message).toMatch(/^The suite is not valid YAML or JSON at line 1, column \d+: .* Fix the syntax there\.$/);
    expect(errors("- a list")).toEqual([{ path: "", message: "The suite must be a mapping with name and scenarios (docs/lab.md shows one)." }]);
    expect(errors("name: s\nscenarios: []\nextra: 1")).toEqual([
      { path: "scenarios", message: "a suite needs at least one scenario" },
      { path: "", message: 'has unknown field(s) "extra": remove them or check their spelling against docs/lab.md' },
    ]);
    const missing = readSuite(path.join(dir, "none.yaml"));
    expect(!missing.ok && missing.errors[0].message).toBe(`There is no suite file "${path.join(dir, "none.yaml")}". Give the path of a suite (YAML), e.g. lab/default.yaml.`);
  });
});
