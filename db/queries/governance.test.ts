import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../test-helpers";
import { ensureActor, upsertUser } from "./users";
import { createMission } from "./events";
import { decideGate } from "./gates";
import { loadStarterLibrary } from "./library";
import { manageView, measures, riskMap } from "./governance";
import { gatePolicies, users } from "../schema";
import { starterLibrary } from "../seed";
import { definition, nodeStep } from "../../lib/mission/test-fixtures";
import { Worker } from "../../server/orchestrator/worker";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

let tdb: TestDatabase;
let workspaces: string;
beforeAll(async () => {
  tdb = await createTestDatabase();
  workspaces = fs.mkdtempSync(path.join(os.tmpdir(), "fl-gov-"));
  await ensureActor(tdb.db, { id: "user:op", kind: "user", displayName: "Olivia Operator" });
  await loadStarterLibrary(tdb.db, starterLibrary(), "system:seed");
});
afterAll(async () => {
  await tdb?.drop();
  fs.rmSync(workspaces, { recursive: true, force: true });
});

async function runToRest(ids: string[]) {
  const w = new Worker({ handle: tdb, databaseUrl: tdb.url, workspacesDir: workspaces, leaseMs: 3000, heartbeatMs: 500, pollMs: 100, concurrency: 4, log: () => {} });
  await w.start();
  try {
    for (const id of ids) {
      for (let i = 0; i < 200; i++) {
        const rows = await tdb.db.execute(sql`select run_state from missions where id = ${id}`);
        if (["completed", "failed", "paused"].includes((rows[0] as { run_state: string }).run_state)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    await w.stop(2000);
  }
}

describe("governance: map, measure, manage from the real records", () => {
  it("maps definitions to their high-risk steps, the oversight entries they could meet, and the policies that apply", async () => {
    const risky = definition({
      name: "Gov deploy",
      allowedBinaries: ["node", "git"],
      agents: [{ name: "push", priority: "critical", steps: [nodeStep("console.log('x')"), { tool: "shell", args: { command: "git", args: ["push"] }, highRisk: true }] }],
    });
    await createMission(tdb.db, { definition: risky, actorId: "user:op" });
    await createMission(tdb.db, { definition: definition({ name: "Gov quiet" }), actorId: "user:op" });
    await tdb.db.insert(gatePolicies).values({ definition: "Gov deploy", gateKind: "approval", approvalsRequired: 2, createdBy: "user:admin", updatedBy: "user:admin" });

    const map = await riskMap(tdb.db);
    const total = map.library.reduce((n, x) => n + x.entries, 0);
    expect(total).toBe(starterLibrary().length);
    expect(map.library.some((x) => x.risk === "Requires-Oversight" && x.entries > 0)).toBe(true);
    const deploy = map.definitions.find((d) => d.definition === "Gov deploy")!;
    expect(deploy.highRiskSteps).toEqual(["push / step 2 (shell)"]);
    expect(deploy.policies).toEqual(["Gov deploy / approval gates"]);
    const quiet = map.definitions.find((d) => d.definition === "Gov quiet")!;
    expect(quiet.highRiskSteps).toEqual([]);
    expect(quiet.policies).toEqual([]);
    // Riskiest first.
    expect(map.definitions.indexOf(deploy)).toBeLessThan(map.definitions.indexOf(quiet));
    // "Could meet": oversight entries whose tags name something the definition uses (git), none for node-only.
    const oversight = new Set(starterLibrary().filter((e) => e.risk_level === "Requires-Oversight").map((e) => e.failure_id));
    const gitOnly = starterLibrary().filter((e) => oversight.has(e.failure_id) && e.context_tags.includes("git") && !e.context_tags.some((t) => ["node", "shell"].includes(t)));
    expect(gitOnly.length).toBeGreaterThan(0);
    expect(deploy.oversightPossible.every((id) => oversight.has(id))).toBe(true);
    for (const e of gitOnly) {
      expect(deploy.oversightPossible).toContain(e.failure_id);
      expect(quiet.oversightPossible).not.toContain(e.failure_id);
    }
  });

  it("measures this period against the last and manages what waits: open gates (overdue by SLA), unresolved failures, who is on duty", async () => {
    const stuck = await createMission(tdb.db, { definition: definition({ name: "Gov stuck", agents: [{ name: "sync", priority: "critical", steps: [{ tool: "shell", args: { command: "rsync", args: ["a", "b"] } }] }] }), actorId: "user:op" });
    const fine = await createMission(tdb.db, { definition: definition({ name: "Gov fine" }), actorId: "user:op" });
    const skipped = await createMission(tdb.db, { definition: definition({ name: "Gov skipped", agents: [{ name: "opt", priority: "critical", steps: [{ tool: "shell", args: { command: "rsync", args: ["a"] } }] }] }), actorId: "user:op" });
    await runToRest([stuck.id, fine.id, skipped.id]);
    const rows = await tdb.db.execute(sql`select id from gates where mission_id = ${skipped.id} and status = 'open'`);
    await decideGate(tdb.db, { gateId: (rows[0] as { id: string }).id, decision: "abort", note: null, actorId: "user:op", actorName: "Olivia Operator" });

    const m = await measures(tdb.db, 7);
    const metric = (k: string) => m.metrics.find((x) => x.key === k)!;
    expect(metric("missions").value).toBeGreaterThanOrEqual(5);
    expect(metric("missions").previous).toBe(0);
    expect(metric("failures").value).toBe(2);
    expect(metric("unresolved").value).toBe(1);
    expect(metric("decision_p50").value).not.toBeNull();
    expect(m.daily).toHaveLength(28);
    expect(m.daily.at(-1)!.failures).toBe(2);

    const ana = await upsertUser(tdb.db, { email: "ana@gov.test", name: "Ana Duty", passwordHash: "x", roles: ["operator"] });
    await upsertUser(tdb.db, { email: "aud@gov.test", name: "Audrey Auditor", passwordHash: "x", roles: ["auditor"] });
    await upsertUser(tdb.db, { email: "bob@gov.test", name: "Bob Away", passwordHash: "x", roles: ["admin"] });
    await tdb.db.update(users).set({ lastActiveAt: new Date(Date.now() - 60_000).toISOString() }).where(eq(users.id, ana.id));

    const fresh = await manageView(tdb.db, { slaMs: 3_600_000, onDutyMs: 900_000 });
    // The first test's "Gov deploy" waits for approval of its high-risk step; "Gov stuck" for a failure's decision
    // (rsync is not on the allowlist: no library entry matches strongly, so the diagnosis' own gate waits).
    expect(fresh.openGates.map((g) => `${g.missionName}:${g.kind}`).sort()).toEqual(["Gov deploy:approval", "Gov stuck:agent"]);
    expect(fresh.overdue).toBe(0);
    expect(fresh.unresolved.total).toBe(1);
    expect(fresh.unresolved.critical).toBe(1);
    expect(fresh.deciders.map((d) => [d.name, d.onDuty])).toEqual([
      ["Ana Duty", true],
      ["Bob Away", false],
    ]);
    // An hour later nobody decided: the gate is overdue.
    const later = await manageView(tdb.db, { slaMs: 3_600_000, onDutyMs: 900_000, now: new Date(Date.now() + 3_700_000) });
    expect(later.overdue).toBe(2);
    expect(later.openGates.every((g) => g.overdue)).toBe(true);
    expect(later.deciders.every((d) => !d.onDuty)).toBe(true);
  });
});
