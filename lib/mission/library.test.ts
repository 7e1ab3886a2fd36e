import { describe, expect, it } from "vitest";
import { validateEntries } from "../library/entry";
import { actionVerdict, buildLibraryQuery, noveltyDraft, placeholderValues, substituteAction, type LibraryHypothesis } from "./library";
import { simulate } from "./simulate";
import { definition, nodeStep } from "./test-fixtures";
import type { GateDecision, GateState } from "./types";

const sh = (script: string) => ({ tool: "shell" as const, args: { command: "sh", args: ["-c", script] } });
const shellStep = (command: string, args: string[] = []) => ({ tool: "shell" as const, args: { command, args }, highRisk: false });

describe("the query a failed step sends to the library", () => {
  it("a shell failure: the error line and the decisive stderr line, the tool and its binary, the error code and type", () => {
    const q = buildLibraryQuery(shellStep("git", ["push"]), { code: "EXIT_NONZERO", message: '"git" exited with code 128', exitCode: 128, stderr: "fatal: Authentication failed for 'https://github.com/acme/app.git/'\n" }, null, null);
    expect(q.observed_symptom).toBe("\"git\" exited with code 128. fatal: Authentication failed for 'https://github.com/acme/app.git/'");
    expect(q.object_class).toBe("shell: git");
    expect(q.environmental_context).toEqual(["shell", "exit-nonzero", "exit-128"]);
  });

  it("an embodied tool that answers in the library's terms is taken at its word (the robot's JSON report)", () => {
    const stdout = JSON.stringify({ observed_symptom: "drawer did not move: 0 mm displacement at 30 N pull", object_class: "drawer", force_applied: "30 N", environmental_context: ["indoor", "kitchen"] });
    const q = buildLibraryQuery(shellStep("node", ["robot.mjs"]), { code: "EXIT_NONZERO", message: "exit 1", exitCode: 1 }, { stdout, stderr: "", exitCode: 1 }, null);
    expect(q).toEqual({ observed_symptom: "drawer did not move: 0 mm displacement at 30 N pull", object_class: "drawer", force_applied: "30 N", environmental_context: ["indoor", "kitchen"] });
  });
});

describe("placeholders of probe and resolution actions", () => {
  it("are filled from the failing step and its error", () => {
    const v = placeholderValues({ step: { tool: "http", args: { url: "https://api.example.com:8443/v1/items" } } as never, error: { code: "NETWORK_ERROR", message: "getaddrinfo ENOTFOUND api.example.com" } });
    expect(v).toMatchObject({ url: "https://api.example.com:8443/v1/items", host: "api.example.com", port: "8443" });
    const m = placeholderValues({ step: shellStep("node", ["app.js"]) as never, error: { code: "EXIT_NONZERO", message: "exit 1", stderr: "Error: Cannot find module 'yaml'\nRequire stack:" } });
    expect(m).toMatchObject({ module: "yaml", package: "yaml", binary: "node", command: "node app.js" });
    const b = placeholderValues({ step: shellStep("sh", ["-c", "jq . in.json"]) as never, error: { code: "COMMAND_NOT_FOUND", message: "exit 127", stderr: "sh: 1: jq: not found" } });
    expect(b.binary).toBe("jq");
  });

  it("a value with shell metacharacters is refused: the probe is not run, an operator is asked instead", () => {
    const probe = { ...sh('command -v "{{binary}}" || echo missing'), confirm_when: { output_matches: "^missing$" } };
    const ok = substituteAction(probe, { step: shellStep("jq") as never, error: { code: "COMMAND_NOT_FOUND", message: "not found" } });
    expect(ok).toEqual({ call: { ...sh('command -v "jq" || echo missing'), confirm_when: { output_matches: "^missing$" } } });
    const install = { ...sh('npm ls "{{module}}" || echo absent'), confirm_when: { output_matches: "absent" } };
    const evil = substituteAction(install, { step: shellStep("node") as never, error: { code: "EXIT_NONZERO", message: "x", stderr: "Error: Cannot find module 'x\"; rm -rf ~; \"'" } });
    expect(evil).toEqual({ missing: ["module"] });
    const backtick = substituteAction(install, { step: shellStep("node") as never, error: { code: "EXIT_NONZERO", message: "x", stderr: "Error: Cannot find module '`reboot`'" } });
    expect(backtick).toEqual({ missing: ["module"] });
    const unknown = substituteAction({ ...sh('psql -c "select 1 from {{table}}"'), confirm_when: { exit_code: 0 } }, { step: shellStep("psql") as never, error: null });
    expect(unknown).toEqual({ missing: ["table"] });
    // {{command}} comes from the step only, quoted word by word.
    const cmd = substituteAction({ ...sh("{{command}}"), confirm_when: { exit_code: 0 } }, { step: shellStep("echo", ["a b", "it's"]) as never, error: null });
    expect(cmd).toMatchObject({ call: { args: { args: ["-c", `echo 'a b' 'it'\\''s'`] } } });
  });
});

describe("a probe's verdict comes from its real result", () => {
  it("exit codes and output are evidence, even when the probe exits non-zero; a probe that could not run is inconclusive", () => {
    expect(actionVerdict({ exit_code: 1 }, { ok: false, data: { exitCode: 1, stdout: "", stderr: "" }, error: { code: "EXIT_NONZERO", message: "exit 1", exitCode: 1 } }).verdict).toBe("confirmed");
    expect(actionVerdict({ output_matches: "^missing$" }, { ok: true, data: { exitCode: 0, stdout: "present /usr/bin/jq\n", stderr: "" }, error: null })).toMatchObject({ verdict: "rejected", evidence: { passed: false, actual: "present /usr/bin/jq" } });
    expect(actionVerdict({ http_status: 503 }, { ok: false, data: { status: 503, body: "down" }, error: { code: "HTTP_ERROR", message: "503", status: 503 } }).verdict).toBe("confirmed");
    expect(actionVerdict({ exit_code: 0 }, { ok: false, data: null, error: { code: "NOT_ALLOWED", message: '"sh" is not allowed' } }).verdict).toBe("inconclusive");
  });
});

describe("a novel failure's draft", () => {
  it("is a valid entry in the document's schema once curation gives it an id, with a conservative risk", () => {
    const q = buildLibraryQuery(shellStep("node"), { code: "EXIT_NONZERO", message: "flux capacitor desynchronised", exitCode: 5 }, null, null);
    const d = noveltyDraft(q, { code: "EXIT_NONZERO", message: "flux capacitor desynchronised", exitCode: 5 }, null, { missionId: "m1", failedSeq: 7, physical: false });
    expect(d).toMatchObject({ source: "incident_analysis", risk_level: "High", references: ["Faultline mission m1, event 7"] });
    expect(validateEntries([{ ...d, failure_id: "FM-SW-9999" }]).ok).toBe(true);
  });
});

describe("the walk in the engine (simulation)", () => {
  const hyp = (id: string, over: Partial<LibraryHypothesis> = {}): LibraryHypothesis => ({ failure_id: id, rank: 1, match_score: 0.9, title: `Cause ${id}`, category: "State", risk_level: "Low", risk_notes: null, diagnostic_probe: "Probe it.", resolution_path: "Fix it.", probe_action: { ...sh("true"), confirm_when: { exit_code: 0 } }, resolution_action: { ...sh("true"), expect: { exit_code: 0 } }, ...over });
  const failOnce = (_attempt: number, calls: { n: number }) => (calls.n++ === 0 ? { kind: "fail" as const, error: { code: "EXIT_NONZERO" as const, message: "exit 3", exitCode: 3 } } : { kind: "ok" as const });

  it("probe rejected → next hypothesis; confirmed → its resolution → the step re-runs and its evidence ends the mission SUCCESS", async () => {
    const calls = { n: 0 };
    const probes = { n: 0 };
    const { state, events } = await simulate(definition({ agents: [{ name: "builder", priority: "critical", steps: [nodeStep("x")] }] }), {
      outcome: (_a, _s, attempt) => failOnce(attempt, calls),
      decide: () => "abort",
      library: async () => ({ libraryVersion: 1, abstained: false, hypotheses: [hyp("FM-SW-0001"), hyp("FM-SW-0002", { rank: 2 })] }),
      // The first probe exits 1 (rejected), every later action exits 0.
      libraryAction: (_a, _s, kind) => (kind === "probe" && probes.n++ === 0 ? { kind: "fail", error: { code: "EXIT_NONZERO", message: "exit 1", exitCode: 1 } } : { kind: "ok" }),
    });
    expect(state.finalStatus).toBe("SUCCESS");
    expect(events.filter((e) => e.type.startsWith("library.")).map((e) => `${e.type}${"verdict" in e.payload ? `:${e.payload.verdict}` : ""}${"outcome" in e.payload ? `:${e.payload.outcome}` : ""}`)).toEqual([
      "library.hypotheses",
      "library.probe:rejected",
      "library.probe:confirmed",
      "library.resolution",
      "library.resolved:resolved",
    ]);
  });

  it("a high-risk resolution is proposed at a gate; 'not done' on the last hypothesis exhausts the walk and escalates, flagged", async () => {
    const decisions: Array<[string, GateDecision]> = [];
    const { state, events } = await simulate(definition({ agents: [{ name: "builder", priority: "critical", steps: [nodeStep("x")] }] }), {
      outcome: () => ({ kind: "fail", error: { code: "EXIT_NONZERO", message: "exit 3", exitCode: 3 } }),
      decide: (g: GateState) => {
        const d: GateDecision = g.kind === "library" ? (g.error.library?.stage === "resolution" ? "not_done" : "confirm") : "abort";
        decisions.push([`${g.kind}:${g.error.library?.stage ?? "-"}`, d]);
        return d;
      },
      library: async () => ({ libraryVersion: 1, abstained: false, hypotheses: [hyp("FM-SW-0003", { risk_level: "High" })] }),
    });
    expect(decisions).toEqual([
      ["library:resolution", "not_done"],
      ["agent:exhausted", "abort"],
    ]);
    expect(state.finalStatus).toBe("FAILED");
    expect(events.map((e) => e.type)).toContain("library.exhausted");
  });

  it("weak matches (below the floor) are listed, never probed, never a gate: the failure goes to its diagnosis' own gate", async () => {
    const probed: string[] = [];
    const gates: string[] = [];
    const { state, events } = await simulate(definition({ agents: [{ name: "builder", priority: "critical", steps: [nodeStep("x")] }] }), {
      outcome: () => ({ kind: "fail", error: { code: "EXIT_NONZERO", message: "exit 3", exitCode: 3 } }),
      decide: (g: GateState) => {
        gates.push(`${g.kind}:${g.error.library?.stage ?? "-"}`);
        return g.kind === "library" ? "reject" : "abort";
      },
      library: async () => ({ libraryVersion: 1, abstained: false, hypotheses: [hyp("FM-SW-0010", { match_score: 0.8, probe_action: null }), hyp("FM-SW-0011", { rank: 2, match_score: 0.24 }), hyp("FM-SW-0012", { rank: 3, match_score: 0.14 })] }),
      libraryAction: (_a, _s, kind) => {
        probed.push(kind);
        return { kind: "ok" };
      },
    });
    const consulted = events.find((e) => e.type === "library.hypotheses")!;
    expect((consulted.payload as { hypotheses: LibraryHypothesis[] }).hypotheses.map((h) => h.failure_id)).toEqual(["FM-SW-0010"]);
    expect((consulted.payload as { weak?: LibraryHypothesis[] }).weak?.map((h) => h.failure_id)).toEqual(["FM-SW-0011", "FM-SW-0012"]);
    expect(consulted.impact).toMatch(/Weak matches \(below 0\.30\), listed but not probed: FM-SW-0011 .*\(0\.24\); FM-SW-0012 .*\(0\.14\)/);
    // Only the strong hypothesis reached a person (no probe action: an operator probes it); the weak ones never did.
    expect(gates[0]).toBe("library:probe");
    expect(gates.filter((g) => g.startsWith("library:probe"))).toHaveLength(1);
    expect(probed).toEqual([]);
    expect(state.finalStatus).toBe("FAILED");

    // Weak matches only: no walk, no novel draft; the response matrix's gate comes at once.
    const gatesOnly: string[] = [];
    const weakOnly = await simulate(definition({ agents: [{ name: "builder", priority: "critical", steps: [nodeStep("x")] }] }), {
      outcome: () => ({ kind: "fail", error: { code: "EXIT_NONZERO", message: "exit 3", exitCode: 3 } }),
      decide: (g: GateState) => (gatesOnly.push(g.kind), "abort"),
      library: async () => ({ libraryVersion: 1, abstained: false, hypotheses: [hyp("FM-SW-0013", { match_score: 0.2 })] }),
    });
    expect(gatesOnly).toEqual(["agent"]);
    expect(weakOnly.events.map((e) => e.type)).not.toContain("library.novel");
    expect(weakOnly.events.find((e) => e.type === "library.hypotheses")!.impact).toMatch(/^No entry is likely enough to probe\. Weak matches/);
  });
});
