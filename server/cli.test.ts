import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../db/test-helpers";
import { createMission } from "../db/queries/events";
import { ensureActor } from "../db/queries/users";
import { auditLog, episodicMemory, learnedPatterns, sessionMemory } from "../db/schema";
import { missionDefinitionSchema } from "../lib/mission";

let tdb: TestDatabase;
let dataDir: string;
const BIN = path.resolve("bin/faultline.mjs");
/** The compiled CLI (server/cli-test-build.ts): the same sources, without tsx loading them on every command. */
const CLI = inject("cliEntry");

beforeAll(async () => {
  tdb = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-cli-"));
});
afterAll(async () => {
  await tdb?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function cli(args: string[], input?: string, extraEnv: Record<string, string> = {}, cwd?: string, bin = CLI): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [bin, ...args], { cwd, env: { ...process.env, DATABASE_URL: tdb.url, FAULTLINE_DATA_DIR: dataDir, FAULTLINE_POLL_MS: "200", ...extraEnv }, timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    if (input !== undefined) child.stdin!.end(input);
  });
}

const blocked = `
name: CLI blocked deploy
objective: Copy the artifact
allowedBinaries: [node]
phases:
  - name: PLANNING
    agents:
      - name: planner
        priority: critical
        steps: [{ tool: shell, args: { command: node, args: ["-e", "console.log('ok')"] } }]
  - name: EXECUTION
    agents:
      - name: uploader
        priority: critical
        steps: [{ tool: shell, args: { command: scp, args: [a, b] } }]
`;

describe("the faultline CLI", () => {
  it("runs from any directory, not only the checkout (its @/ imports resolve through the project's tsconfig)", async () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "fl-cli-cwd-"));
    try {
      const help = await cli(["--help"], undefined, {}, elsewhere, BIN);
      expect(help.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND/);
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout).toMatch(/^faultline — control plane/);
      const list = await cli(["mission", "list", "--json"], undefined, {}, elsewhere, BIN);
      expect(list.code, list.stderr).toBe(0);
      expect(Array.isArray(JSON.parse(list.stdout).missions ?? JSON.parse(list.stdout))).toBe(true);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("runs a mission with an in-process worker, stops at the gate, and a decision finishes it", async () => {
    const run = await cli(["mission", "run", "-", "--wait", "--json"], blocked);
    expect(run.code, run.stderr).toBe(4); // waiting at a gate
    const out = JSON.parse(run.stdout);
    expect(out.mission.runState).toBe("paused");
    expect(out.openGates[0].why).toMatch(/"scp" is not on this mission's allowlist/);
    const gateId = out.openGates[0].id;

    const decide = await cli(["gate", "decide", gateId, "abort", "--note", "no scp", "--json"]);
    expect(decide.code, decide.stderr).toBe(0);
    expect(JSON.parse(decide.stdout).mission).toMatchObject({ runState: "failed", finalStatus: "FAILED" });

    const again = await cli(["gate", "decide", gateId, "retry"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already resolved: abort by you at/);

    const show = await cli(["mission", "show", out.mission.id, "--json"]);
    const shown = JSON.parse(show.stdout);
    expect(shown.finalStatus).toBe("FAILED");
    expect(shown.events.map((e: { seq: number }) => e.seq)).toEqual(shown.events.map((_: unknown, i: number) => i + 1));
    expect(shown.events.find((e: { type: string }) => e.type === "gate.resolved").actorId).toMatch(/^cli:/);

    const list = await cli(["mission", "list", "--json"]);
    expect(JSON.parse(list.stdout).map((m: { name: string }) => m.name)).toContain("CLI blocked deploy");
  });

  it("exits 0 for a SUCCESS mission from a file", async () => {
    const run = await cli(["mission", "run", path.resolve("examples/hello.yaml"), "--wait"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/final status: SUCCESS/);
  });

  it("rejects an invalid definition with field-level errors and exit code 2, creating nothing", async () => {
    const run = await cli(["mission", "run", "-", "--json"], "name: x\nobjective: y\nphases:\n  - name: LAUNCH\n    agents: []\n");
    expect(run.code).toBe(2);
    const err = JSON.parse(run.stdout).error;
    expect(err.fieldErrors).toEqual(expect.arrayContaining([expect.objectContaining({ path: "phases[0].name" }), expect.objectContaining({ path: "phases[0].agents" })]));
  });

  it("explains usage mistakes", async () => {
    const r = await cli(["gate", "decide", "not-a-uuid", "maybe"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Decision must be one of retry, skip, abort/);
    const unknown = await cli(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown command "frobnicate"/);
    // A bad ADR-0003 flag stops a worker (and a run that would start one) at once, naming the variable.
    for (const args of [["worker"], ["mission", "run", path.resolve("examples/hello.yaml"), "--wait"]]) {
      const bad = await cli(args, undefined, { AUTONOMOUS_MAX_RECOVERY_ATTEMPTS: "lots" });
      expect(bad.code, args.join(" ")).toBe(1);
      expect(bad.stderr).toMatch(/AUTONOMOUS_MAX_RECOVERY_ATTEMPTS: must be a number \(got "lots"\)\nFix these variables/);
    }
  });

  it("lists, disables, enables and deletes learned patterns; a malformed ID is a usage error, an unknown one exit 1", async () => {
    const [p] = await tdb.db.insert(learnedPatterns).values({ when: "127_0_0_1_8080_rate_limit", then: "wait_and_retry_after", errorType: "rate_limited", successes: 2, failures: 0, confidence: 0.75 }).returning();
    const list = await cli(["patterns", "list", "--json"]);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ id: p.id, when: "127_0_0_1_8080_rate_limit", then: "wait_and_retry_after", enabled: true, threshold: 0.8 })]);

    const off = await cli(["patterns", "disable", p.id]);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).toMatch(/127_0_0_1_8080_rate_limit → wait_and_retry_after disabled/);
    const [row] = await tdb.db.select().from(learnedPatterns).where(eq(learnedPatterns.id, p.id));
    expect(row.enabled).toBe(false);
    const text = await cli(["patterns", "list"]);
    expect(text.stdout).toMatch(new RegExp(`${p.id}  disabled +75% \\(2 ok, 0 failed; fast path at  80%\\)  127_0_0_1_8080_rate_limit → wait_and_retry_after`));
    const on = await cli(["patterns", "enable", p.id, "--json"]);
    expect(JSON.parse(on.stdout)).toMatchObject({ id: p.id, enabled: true });

    const gone = await cli(["patterns", "delete", p.id]);
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.stdout).toMatch(/deleted/);
    const again = await cli(["patterns", "delete", p.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/Pattern .* does not exist/);
    const bad = await cli(["patterns", "disable", "nope"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"nope" is not a pattern ID/);
  });

  it("exports session and episodic memory as JSON Lines, to stdout or a file, for one mission or all", async () => {
    await ensureActor(tdb.db, { id: "user:op", kind: "user", displayName: "Olivia Operator" });
    const def = missionDefinitionSchema.parse({ name: "memory export", objective: "x", phases: [{ name: "EXECUTION", agents: [{ name: "fetch", priority: "critical", steps: [{ tool: "http", args: { url: "http://127.0.0.1:9/" } }] }] }] });
    const [a, b] = [await createMission(tdb.db, { definition: def, actorId: "user:op" }), await createMission(tdb.db, { definition: def, actorId: "user:op" })];
    const fd = { immediate_cause: "HTTP 429", root_cause: "rate_limit", why_chain: ["a"], recovery_attempted: [] };
    await tdb.db.insert(sessionMemory).values([a.id, a.id, b.id].map((m, i) => ({ id: `diag_cli_${i}`, missionId: m, agent: "fetch", step: 0, attempt: 1, createdAt: new Date(Date.UTC(2030, 0, 1, 0, 0, i)).toISOString(), failureDiagnosis: fd })));
    await tdb.db.insert(episodicMemory).values({
      missionId: b.id,
      createdAt: new Date().toISOString(),
      errorEncountered: { type: "rate_limited", tool: "http", diagnosis: "x", root_cause: "y" },
      successfulRecovery: { strategy: "wait_and_retry_after", tools: ["shell"], iterations_to_success: 2, confidence: 0.67 },
      reusablePattern: { trigger: "y", action: "wait_and_retry_after", success_rate: 0.67 },
    });

    const one = await cli(["memory", "export", "session", "--mission", a.id]);
    expect(one.code, one.stderr).toBe(0);
    const records = one.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(records.map((r) => r.id)).toEqual(["diag_cli_0", "diag_cli_1"]);
    expect(records[0]).toMatchObject({ conv_id: a.id, ts: "2030-01-01T00:00:00.000Z", failure_diagnosis: fd, learned_pattern: null });

    const file = path.join(dataDir, "episodic.jsonl");
    const out = await cli(["memory", "export", "episodic", "--out", file]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toBe("");
    expect(out.stderr).toMatch(/Wrote 1 episodic memory record to /);
    const lines = fs.readFileSync(file, "utf8").trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ conv_id: b.id, error_encountered: { tool: "http" }, successful_recovery: { strategy: "wait_and_retry_after" }, reusable_pattern: { trigger: "y" } });
    expect(fs.readdirSync(dataDir).filter((f) => f.endsWith(".partial"))).toEqual([]);

    const kind = await cli(["memory", "export", "semantic"]);
    expect(kind.code).toBe(2);
    expect(kind.stderr).toMatch(/Memory kind must be one of session, episodic \(got "semantic"\)/);
    const malformed = await cli(["memory", "export", "session", "--mission", "abc"]);
    expect(malformed.code).toBe(2);
    const unknown = await cli(["memory", "export", "session", "--mission", "00000000-0000-4000-8000-000000000000"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No mission 00000000-/);
  });
});

describe("faultline library", () => {
  const drawer = { observed_symptom: "0 mm displacement on pull action", object_class: "drawer", force_applied: "within Class B parameters", environmental_context: ["indoor", "furniture", "wood-frame"] };
  const jar = [
    "- failure_id: FM-TST-0200",
    "  title: Vacuum-sealed jar lid",
    "  category: State",
    "  surface_symptom: Jar lid will not turn at 4 N·m; no slip, no deformation, the safety button is down",
    "  hidden_reality: Cooling after sealing left a vacuum that presses the lid onto the rim.",
    "  diagnostic_probe: Tap the lid edge and listen for a pop; check the safety button in the lid centre.",
    "  resolution_path: Break the vacuum by lifting the lid edge with a spoon, then turn.",
    "  risk_level: Low",
    "  context_tags: [jar, lid, kitchen, vacuum]",
    "  source: crowdsourcing",
  ].join("\n");

  it("queries the embedded starter library, imports a file, finds the new entry, and exports it again", async () => {
    const q = await cli(["library", "query", "--json", JSON.stringify(drawer), "--limit", "3"]);
    expect(q.code, q.stderr).toBe(0);
    const ranked = JSON.parse(q.stdout);
    expect(ranked.abstained).toBe(false);
    expect(ranked.results[0]).toMatchObject({ failure_id: expect.stringMatching(/^FM-PHY-/), match_score: expect.any(Number), hypothesis: expect.any(String) });

    const file = path.join(dataDir, "jar.yaml");
    fs.writeFileSync(file, jar);
    const dry = await cli(["library", "import", file, "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^Preview \(nothing changed\) of 1 entry: 1 added, 0 edited, 0 unchanged, 0 deprecated\./);
    const imp = await cli(["library", "import", file]);
    expect(imp.code, imp.stderr).toBe(0);
    expect(imp.stdout).toMatch(/^Imported 1 entry as library version 2: 1 added/);
    const again = await cli(["library", "import", file, "--json"]);
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: true, version: null, counts: { unchanged: 1 } });

    const found = await cli(["library", "query", "--json", JSON.stringify({ observed_symptom: "jar lid will not turn, no slip, safety button down", object_class: "jar" })]);
    expect(JSON.parse(found.stdout).results[0].failure_id).toBe("FM-TST-0200");

    const out = path.join(dataDir, "export.json");
    const ex = await cli(["library", "export", "--out", out]);
    expect(ex.code, ex.stderr).toBe(0);
    expect(ex.stderr).toMatch(/Wrote \d+ entries \(library version 2\) to .*export\.json as JSON/);
    const exported = JSON.parse(fs.readFileSync(out, "utf8")) as Array<{ failure_id: string; source: string }>;
    expect(exported.find((e) => e.failure_id === "FM-TST-0200")).toMatchObject({ source: "crowdsourcing" });
    const yaml = await cli(["library", "export", "--format", "yaml"]);
    expect(yaml.stdout).toMatch(/^# Faultline failure-mode library, version 2: \d+ entries/);
    expect(yaml.stdout).toMatch(/- failure_id: FM-TST-0200\n {2}title: Vacuum-sealed jar lid\n/);
  }, 120_000);

  it("--replace makes the file the whole library as one version: everything else is deprecated", async () => {
    const file = path.join(dataDir, "only-jar.yaml");
    fs.writeFileSync(file, jar);
    const r = await cli(["library", "import", file, "--replace", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.counts).toMatchObject({ unchanged: 1, added: 0 });
    expect(body.counts.deprecated).toBeGreaterThanOrEqual(143);
    const ex = await cli(["library", "export", "--format", "json"]);
    expect((JSON.parse(ex.stdout) as Array<{ failure_id: string }>).map((e) => e.failure_id)).toEqual(["FM-TST-0200"]);
    const withOld = await cli(["library", "export", "--format", "json", "--deprecated"]);
    expect(JSON.parse(withOld.stdout).length).toBe(body.counts.deprecated + 1);
    // Restore for the next test: the starter entries come back from a full export.
    const full = path.join(dataDir, "full.json");
    fs.writeFileSync(full, withOld.stdout);
    const back = await cli(["library", "import", full, "--replace", "--json"]);
    expect(JSON.parse(back.stdout).counts.restored).toBe(body.counts.deprecated);
  });

  it("answers a batch in input order, one line per query; a bad line gets an error object and the rest go on", async () => {
    const lines = [JSON.stringify(drawer), "{not json", "", JSON.stringify({ object_class: "drawer" }), JSON.stringify({ observed_symptom: "jar lid will not turn, no slip, safety button down", object_class: "jar" }), JSON.stringify({ observed_symptom: "the quantum flux capacitor hums in B flat while the moon is full" })];
    const r = await cli(["library", "query", "--batch", "-", "--limit", "2"], lines.join("\n"));
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(out).toHaveLength(5);
    expect(out[0].results[0].failure_id).toMatch(/^FM-PHY-/);
    expect(out[0].results.length).toBeLessThanOrEqual(2);
    expect(out[1].error).toMatchObject({ line: 2, code: "invalid_json" });
    expect(out[2].error).toMatchObject({ line: 4, code: "invalid_query", fieldErrors: [{ path: "observed_symptom", message: expect.stringMatching(/required/) }] });
    expect(out[3].results[0].failure_id).toBe("FM-TST-0200");
    expect(out[4]).toEqual({ results: [], abstained: true });
    expect(r.stderr).toMatch(/2 of 5 lines could not be answered/);
  });

  it("imports entries with the reference document's own ids (PHYS-042, MAT-017, STATE-008), keeps them as given, and ranks them for a matching query", async () => {
    const doc = [
      "- failure_id: PHYS-042",
      "  title: Internal latch",
      "  category: Physical",
      "  surface_symptom: Drawer shows 0 mm displacement on a pull within normal force; no flex, no sound",
      "  hidden_reality: A hidden internal latch or child-safety catch holds the drawer shut.",
      "  diagnostic_probe: Look and feel under the drawer front for a catch; push in slightly, then pull.",
      "  resolution_path: Release the catch (press the tab), then pull with normal force.",
      "  risk_level: Low",
      "  context_tags: [drawer, furniture, latch]",
      "- failure_id: MAT-017",
      "  title: Swollen wooden drawer",
      "  category: Material",
      "  surface_symptom: Drawer moves a few mm then binds; force rises with humidity above 70 %",
      "  hidden_reality: The wood absorbed moisture and swelled against the carcass.",
      "  diagnostic_probe: Check the humidity and look for rub marks along the drawer sides.",
      "  resolution_path: Pull with gentle side-to-side motion; dry the room; plane the rubbing edge later.",
      "  risk_level: Medium",
      "  context_tags: [drawer, wood, humidity]",
      "- failure_id: STATE-008",
      "  title: Cabinet locked by key",
      "  category: State",
      "  surface_symptom: Door does not move at all; a keyhole is visible on the front panel",
      "  hidden_reality: The cabinet is locked.",
      "  diagnostic_probe: Check the keyhole and ask whether a key is available.",
      "  resolution_path: Unlock with the key, or escalate to a person.",
      "  risk_level: Requires-Oversight",
      "  context_tags: [cabinet, lock, key]",
    ].join("\n");
    const file = path.join(dataDir, "document-ids.yaml");
    fs.writeFileSync(file, doc);
    const r = await cli(["library", "import", file, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).ids.added).toEqual(["PHYS-042", "MAT-017", "STATE-008"]);
    const q = await cli(["library", "query", "--json", JSON.stringify({ observed_symptom: "0 mm displacement on pull, drawer does not move, no flex", object_class: "drawer" }), "--limit", "3"]);
    expect(q.code, q.stderr).toBe(0);
    expect(JSON.parse(q.stdout).results[0].failure_id).toBe("PHYS-042");
    const bad = path.join(dataDir, "bad-id.yaml");
    fs.writeFileSync(bad, doc.replace("PHYS-042", "phys 42"));
    const refused = await cli(["library", "import", bad]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/failure_id: must be an upper-case prefix and a number, such as FM-PHY-0001 or PHYS-042/);
  });

  it("refuses a bad library file with the entry position, id, field and line; nothing is imported", async () => {
    const file = path.join(dataDir, "bad.yaml");
    fs.writeFileSync(file, jar.replace("FM-TST-0200", "FM-TST-0201").replace("risk_level: Low", "risk_level: Severe").replace("category: State", "category: Mood"));
    const r = await cli(["library", "import", file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.yaml is not valid; nothing was imported/);
    expect(r.stderr).toMatch(/entry 1 \(FM-TST-0201, line 3\), category: must be one of Physical/);
    expect(r.stderr).toMatch(/entry 1 \(FM-TST-0201, line 8\), risk_level: must be one of Low/);
    const missing = await cli(["library", "import", path.join(dataDir, "nope.yaml")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/No such file: .*nope\.yaml/);
    const fmt = await cli(["library", "export", "--format", "xml"]);
    expect(fmt.code).toBe(2);
    expect(fmt.stderr).toMatch(/--format must be json or yaml \(got "xml"\)/);
    const q = await cli(["library", "query", "--json", "{}"]);
    expect(q.code).toBe(2);
    expect(JSON.parse(q.stdout).error.fieldErrors[0].path).toBe("observed_symptom");
  });
});

describe("the CLI in the audit log", () => {
  it("a mission run and a memory export are recorded as the CLI's actor (cli:<os user>), via cli", async () => {
    const quick = `name: CLI audited\nobjective: Show up in the audit log\nallowedBinaries: [node]\nphases:\n  - name: EXECUTION\n    agents:\n      - name: echo\n        priority: critical\n        steps: [{ tool: shell, args: { command: node, args: ["-e", "console.log('ok')"] } }]\n`;
    const run = await cli(["mission", "run", "-", "--json"], quick);
    expect(run.code, run.stderr).toBe(0);
    const missionId = JSON.parse(run.stdout).mission.id as string;
    const exported = await cli(["memory", "export", "session", "--mission", missionId]);
    expect(exported.code, exported.stderr).toBe(0);
    const user = os.userInfo().username;
    const rows = await tdb.db.select().from(auditLog).where(and(eq(auditLog.actorId, `cli:${user}`), eq(auditLog.missionId, missionId))).orderBy(auditLog.id);
    expect(rows.map((r) => [r.action, r.via, r.actorName, r.missionId])).toEqual([
      ["mission.start", "cli", `CLI (${user})`, missionId],
      ["memory.export", "cli", `CLI (${user})`, missionId],
    ]);
    expect(rows[0].summary).toBe(`CLI (${user}) started mission "CLI audited" (1 step).`);
  });
});
