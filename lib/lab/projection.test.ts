import { describe, expect, it } from "vitest";
import { withLab } from "./lab";
import { patternMemory } from "./memory";
import { createProjection, MODE_CAPABILITIES, PROJECTION_MODES } from "./projection";
import { scenarioEnvironment } from "./scenario";
import { parseSuite } from "./suite";
import { createWorld } from "./world";

/** Projections (seed 002 FDR-N012, N016) on a real lab world: the engine, the authority, a scripted model. */
const SUITE = `
name: projection
scenarios:
  - name: a model held for a person
    mission:
      name: rotate
      objective: Store the key reference.
      rules:
        - { id: secrets, effect: hold, tool: file, path: "secrets/**", reason: needs a person }
      phases:
        - name: EXECUTION
          agents:
            - name: rotator
              priority: critical
              autonomous: { goal: Store the key reference in secrets/key.ref, tools: [file], maxActions: 4 }
    models:
      rotator:
        turns:
          - { call: shell, args: { command: rm, args: [-rf, /] } }
          - { call: file, args: { op: write, path: secrets/key.ref, content: "vault://k#1" } }
          - { finish: stored }
`;

function world(seed = 3) {
  const r = parseSuite(SUITE);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const sc = r.suite.scenarios[0];
  const memory = patternMemory();
  memory.set(sc.patterns);
  return createWorld({ definition: sc.mission, seed, environment: scenarioEnvironment(sc, seed), memory });
}

describe("projection modes", () => {
  it("the capability table is the document's (FDR-N012): additive from silent to debug", () => {
    expect(PROJECTION_MODES).toEqual(["silent", "watch", "interactive", "debug"]);
    expect(MODE_CAPABILITIES.silent).toEqual({ progress: false, proposals: false, hitl: "none", snapshots: "none", llmCalls: "none" });
    expect(MODE_CAPABILITIES.watch).toMatchObject({ progress: true, proposals: true, hitl: "view", snapshots: "none", llmCalls: "summary" });
    expect(MODE_CAPABILITIES.interactive).toMatchObject({ hitl: "interact", snapshots: "optional", llmCalls: "detail" });
    expect(MODE_CAPABILITIES.debug).toMatchObject({ hitl: "interact", snapshots: "full", llmCalls: "full" });
    expect(() => createProjection({ mode: "loud" as never, missionId: "m" })).toThrow(/Unknown projection mode "loud": use one of silent, watch, interactive, debug/);
  });

  it("watch through withLab: every event drawn once, in order, with proposals and model turns; the trace is the silent one's apart from the header's mode", async () => {
    const out: string[] = [];
    const lab = withLab(world(), { runId: "p/watch", projection: { mode: "watch", out: (t) => out.push(t) } });
    const record = await lab.run();
    const silent = await withLab(world(), { runId: "p/watch" }).run();
    const text = out.join("\n");
    const seqs = [...text.matchAll(/^#\s*(\d+) /gm)].map((m) => Number(m[1]));
    expect(seqs).toEqual(record.events.map((e) => e.seq));
    expect(text).toMatch(/^── Mission "rotate"/);
    expect(text).toMatch(/proposal: rotator asks shell/);
    expect(text).toMatch(/model \(rotator\): call file/);
    expect(text).toMatch(/── final status: /);
    expect(text).not.toMatch(/~ /); // no state changes outside debug
    const strip = (lines: string[]) => lines.map((l, i) => (i === 0 ? { ...JSON.parse(l), lab: { ...JSON.parse(l).lab, projection: "?" } } : JSON.parse(l).t));
    expect(strip(record.trace)).toEqual(strip(silent.trace));
  });

  it("switches mode at run time (watch → debug): from then on the state's changed parts and snapshots are shown", async () => {
    const out: string[] = [];
    let switchedAt = 0;
    const lab = withLab(world(), {
      runId: "p/switch",
      projection: {
        mode: "watch",
        out: (t) => {
          out.push(t);
          const seq = Number(/^#\s*(\d+)/.exec(t)?.[1] ?? 0);
          if (seq === 3 && lab.projection.mode === "watch") {
            lab.projection.setMode("debug");
            switchedAt = seq;
          }
        },
      },
    });
    await lab.run();
    expect(switchedAt).toBe(3);
    const before = out.filter((t) => Number(/^#\s*(\d+)/.exec(t)?.[1] ?? 0) <= 3).join("\n");
    const after = out.filter((t) => Number(/^#\s*(\d+)/.exec(t)?.[1] ?? 0) > 3).join("\n");
    expect(before).not.toMatch(/~ /);
    expect(after).toMatch(/~ agents\.rotator: /);
    expect(after).toMatch(/model \(rotator\) response: \{/);
    expect(after).toMatch(/\| Mission "rotate" — /);
    expect(lab.labMeta.projection.mode).toBe("watch"); // the mode the run started in (the trace header's)
  });

  it("a domain's renderers replace the defaults they name, the rest stay (FDR-N016)", async () => {
    const out: string[] = [];
    await withLab(world(), { runId: "p/custom", projection: { mode: "watch", out: (t) => out.push(t), components: { renderAction: (e) => `[${e.seq}] ${e.type}`, footer: (s) => `END ${s.finalStatus}` } } }).run();
    expect(out[0]).toMatch(/^── Mission "rotate"/);
    expect(out.join("\n")).toMatch(/^\[1\] mission\.created$/m);
    expect(out.at(-1)).toMatch(/^END (SUCCESS|FAILED|PARTIAL_SUCCESS)$/);
  });

  it("refuses interactive (nobody answers a lab run's gates at a terminal) and unknown modes, with the reason", () => {
    expect(() => withLab(world(), { runId: "p/i", projection: { mode: "interactive" } })).toThrow(/not available in the lab: a lab run's gates are answered by its scenario's operator/);
    expect(() => withLab(world(), { runId: "p/x", projection: { mode: "verbose" as never } })).toThrow(/Unknown projection mode "verbose"/);
    const lab = withLab(world(), { runId: "p/s", projection: { mode: "silent", out: () => {} } });
    expect(() => lab.projection.setMode("interactive")).toThrow(/use watch or debug/);
  });
});
