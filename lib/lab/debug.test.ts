import { describe, expect, it } from "vitest";
import { wireBody } from "../llm/client";
import { modelRequest } from "../mission/autonomous";
import { reduce } from "../mission/reducer";
import { debugAtSeq } from "./debug";
import { withLab } from "./lab";
import { patternMemory } from "./memory";
import { reasoningLines } from "./projection";
import { scenarioEnvironment } from "./scenario";
import { parseSuite } from "./suite";
import { createWorld } from "./world";

/** Debug at a seq and the model-call lines of each mode, on a real lab world (the engine, the authority, a scripted model). */
const SUITE = `
name: debug
scenarios:
  - name: a model whose first action is rejected
    tools: real
    mission:
      name: notes
      objective: Write the notes.
      phases:
        - name: EXECUTION
          agents:
            - name: writer
              priority: critical
              autonomous: { goal: Write notes.txt, tools: [file], maxActions: 4, evidence: [{ file_exists: notes.txt }] }
    models:
      writer:
        turns:
          - { call: shell, args: { command: rm, args: [-rf, /] } }
          - { call: file, args: { op: write, path: notes.txt, content: "v1" } }
          - { finish: written }
`;

async function run() {
  const r = parseSuite(SUITE);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const sc = r.suite.scenarios[0];
  const memory = patternMemory();
  memory.set(sc.patterns);
  const world = createWorld({ definition: sc.mission, seed: 5, environment: scenarioEnvironment(sc, 5), memory });
  await withLab(world, { runId: "debug/1" }).run();
  return world.source();
}

describe("debug at a seq", () => {
  it("is the reducer's state at that seq, what it changed, and the model turn of its write with the request derived from the state the turn started from", async () => {
    const src = await run();
    const second = src.events.filter((e) => e.type === "proposal.submitted")[1];
    expect(second).toBeDefined();
    const tape = [...src.tapes].reverse().find((t) => t.seq <= second.seq)!;
    const config = [...src.tapes].reverse().find((t) => t.seq <= second.seq && t.tape.config)!.tape.config!;
    const d = debugAtSeq(src.events.filter((e) => e.seq <= second.seq), second.seq, tape, config);

    expect(d.state).toEqual(reduce(src.events.slice(0, second.seq)));
    expect(d.state.seq).toBe(second.seq);
    expect(d.event).toEqual(second);
    expect(d.changes.some((l) => l.startsWith("proposals[1]:") && l.includes('"tool":"file"'))).toBe(true);
    expect(d.write).toEqual({ seq: tape.seq, count: tape.count, fromSeq: tape.tape.from });

    expect(d.modelCalls).toHaveLength(1);
    const call = d.modelCalls[0];
    expect(call.agent).toBe("writer");
    expect(call.response).toMatchObject({ ok: true, call: { name: "file", args: { op: "write", path: "notes.txt" } } });
    // The request: the transcript of the state the turn started from — the goal, then the first, rejected proposal and its decision.
    const provider = (call.response as { model: { provider: string } }).model.provider;
    const model = config.providers.find((p) => p.name === provider)!.model;
    expect(call.request).toEqual(wireBody(model, modelRequest(reduce(src.events.slice(0, tape.tape.from)), "writer")));
    const words = JSON.stringify(call.request!.messages);
    expect(words).toContain("Write notes.txt");
    expect(words).toContain("rejected");
    expect((call.request!.tools as Array<{ function: { name: string } }>).map((t) => t.function.name)).toEqual(["file", "finish", "ask"]);
    expect(call.request).toMatchObject({ model, tool_choice: "auto", max_tokens: 1024, stream: false });

    // An event no write of the engine's holds (the mission's creation): no readings, no model calls.
    const first = debugAtSeq(src.events.slice(0, 1), 1, null);
    expect(first.write).toBeNull();
    expect(first.modelCalls).toEqual([]);
    expect(first.state).toEqual(reduce(src.events.slice(0, 1)));
  });

  it("refuses a seq the log does not hold, saying which it holds", async () => {
    const src = await run();
    expect(() => debugAtSeq(src.events, src.events.length + 1, null)).toThrow(`seq ${src.events.length + 1} is not an event of this mission: choose 1–${src.events.length}.`);
    expect(() => debugAtSeq(src.events, 0, null)).toThrow(/choose 1–/);
  });
});

describe("model-call lines by mode (the table's LLM-calls column)", () => {
  it("none in silent, a line a turn in watch, the args in interactive, the response as recorded in debug", async () => {
    const src = await run();
    const lines = (mode: "silent" | "watch" | "interactive" | "debug") => reasoningLines(src.tapes, { mode, missionId: src.mission.id });
    expect(lines("silent")).toEqual([]);
    const watch = lines("watch").filter((l) => l.kind === "think");
    expect(watch.map((l) => l.text)).toEqual(["model (writer): call shell", "model (writer): call file", "model (writer): call finish"]);
    const detail = lines("interactive").filter((l) => l.kind === "think");
    expect(detail[1].text).toMatch(/^model \(writer .+\): call file \{"op":"write","path":"notes.txt","content":"v1"\}$/);
    const full = lines("debug").filter((l) => l.kind === "think");
    expect(full[1].text).toMatch(/^model \(writer\) response: \{"ok":true/);
    expect(full.map((l) => l.seq)).toEqual(watch.map((l) => l.seq));
    expect(() => reasoningLines(src.tapes, { mode: "loud" as never, missionId: "m" })).toThrow(/Unknown projection mode "loud"/);
  });
});
