import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseMissionDefinition } from "../../mission";
import { gatePrompt, renderMissionState } from "../../views/state-render";
import { replayTrace } from "../../trace/replay";
import { verifyTrace } from "../../trace/verify";
import { withLab } from "../lab";
import { patternMemory } from "../memory";
import { scenarioEnvironment } from "../scenario";
import { parseSuite } from "../suite";
import { createWorld } from "../world";
import { domainFor } from ".";
import { renderGrid } from "./gridworld";

/** The grid-world demo domain on the example mission, run by the real engine in a lab world. */
const example = fs.readFileSync(path.resolve("examples/gridworld.yaml"), "utf8");

function world(yaml = example) {
  const parsed = parseMissionDefinition(yaml);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const suite = parseSuite(`name: grid\nscenarios:\n  - name: rover\n    tools: real\n    mission: ${JSON.stringify(parsed.definition)}\n`);
  if (!suite.ok) throw new Error(JSON.stringify(suite.errors));
  const sc = suite.suite.scenarios[0];
  const memory = patternMemory();
  memory.set(sc.patterns);
  return createWorld({ definition: sc.mission, seed: 1, environment: scenarioEnvironment(sc, 1), memory });
}

describe("the grid-world domain", () => {
  it("is the example mission's domain (its board file), not hello's", () => {
    const grid = parseMissionDefinition(example);
    const hello = parseMissionDefinition(fs.readFileSync(path.resolve("examples/hello.yaml"), "utf8"));
    expect(grid.ok && domainFor(grid.definition)?.name).toBe("gridworld");
    expect(hello.ok && domainFor(hello.definition)).toBeNull();
  });

  it("draws the board after each move through withLab (debug), and the final board has the rover at the goal", async () => {
    const out: string[] = [];
    const record = await withLab(world(), { runId: "grid/1", projection: { mode: "debug", out: (t) => out.push(t) } }).run();
    expect(record.end.state?.finalStatus).toBe("SUCCESS");
    const text = out.join("\n");
    expect(text.match(/moves to \(\d,\d\)/g)).toEqual(["moves to (0,0)", "moves to (0,3)", "moves to (3,3)", "moves to (3,1)", "moves to (5,1)", "moves to (5,3)"]);
    expect(renderGrid(record.end.state!)).toBe(
      ["    0 1 2 3 4 5", "  0 * . # . . .", "  1 . . # * . *", "  2 . . # . # .", "  3 * . . * # A", "    agent at (5,3) — at the goal; 6 move(s)"].join("\n"),
    );
    // The same board in the projection's snapshots (after the last move) and in the HITL prompt's currentState (FDR-N017).
    expect(text).toContain(`      | ${renderGrid(record.end.state!).split("\n").join("\n      | ")}`);
    expect(renderMissionState(record.end.state!)).toContain(`gridworld:\n${renderGrid(record.end.state!)}`);
    const s = record.end.state!;
    const gate = { id: "g", kind: "failure", agent: "rover", phase: "EXECUTION", step: 1, status: "open", options: [], error: { what: "x", why: null } } as unknown as Parameters<typeof gatePrompt>[1];
    expect(gatePrompt(s, gate).currentState).toContain(renderGrid(s));

    // Drawn in debug, the run's trace is still a trace: it verifies and replays without a divergence.
    const v = verifyTrace(record.trace);
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    const replay = await replayTrace(v.trace);
    expect(replay.divergences).toEqual([]);
    expect(replay.finalStatus).toBe("SUCCESS");
  });

  it("marks a move onto an obstacle with X", async () => {
    const bad = example.replace(`'{"x":3,"y":1}'`, `'{"x":2,"y":1}'`);
    const record = await withLab(world(bad), { runId: "grid/2", projection: { mode: "silent" } }).run();
    const s = record.end.state!;
    const mid = { ...s, completedSteps: s.completedSteps.slice(0, 5) }; // board + four moves: the rover at (2,1)
    expect(renderGrid(mid)).toMatch(/^ {2}1 \. \. X \. \. \.$/m);
    expect(renderGrid(mid)).toMatch(/agent at \(2,1\) — on an obstacle/);
  });
});
