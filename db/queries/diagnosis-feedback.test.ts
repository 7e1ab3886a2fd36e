import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../test-helpers";
import { ensureActor } from "./users";
import { createMission, listEventsAfter } from "./events";
import { feedbackReport, latestFeedback, recordDiagnosisFeedback } from "./diagnosis-feedback";
import { auditLog, learnedPatterns } from "../schema";
import { definition } from "../../lib/mission/test-fixtures";
import { patternTrigger } from "../../lib/diagnosis/diagnose";
import type { Diagnosis } from "../../lib/diagnosis/types";
import { Worker } from "../../server/orchestrator/worker";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

let tdb: TestDatabase;
let workspaces: string;
const olivia = { id: "user:op", name: "Olivia Operator", via: "web" as const };
const diagnoses: Diagnosis[] = [];

beforeAll(async () => {
  tdb = await createTestDatabase();
  workspaces = fs.mkdtempSync(path.join(os.tmpdir(), "fl-feedback-"));
  await ensureActor(tdb.db, { id: "user:op", kind: "user", displayName: "Olivia Operator" });
  // Two real failures, diagnosed by the worker: a binary off the allowlist, and a script that exits 3.
  const ids = [
    (await createMission(tdb.db, { definition: definition({ name: "fb one", agents: [{ name: "a", priority: "critical", steps: [{ tool: "shell", args: { command: "rsync", args: ["a", "b"] } }] }] }), actorId: "user:op" })).id,
    (await createMission(tdb.db, { definition: definition({ name: "fb two", agents: [{ name: "b", priority: "critical", steps: [{ tool: "shell", args: { command: "node", args: ["-e", "process.exit(3)"] } }] }] }), actorId: "user:op" })).id,
  ];
  const w = new Worker({ handle: tdb, databaseUrl: tdb.url, workspacesDir: workspaces, leaseMs: 3000, heartbeatMs: 500, pollMs: 100, concurrency: 2, log: () => {} });
  await w.start();
  try {
    for (const id of ids) {
      for (let i = 0; i < 200; i++) {
        const rows = await tdb.db.execute(sql`select run_state from missions where id = ${id}`);
        if ((rows[0] as { run_state: string }).run_state === "paused") break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const log = await listEventsAfter(tdb.db, { missionId: id });
      diagnoses.push((log.find((e) => e.type === "diagnostic_reflection")!.payload as { diagnosis: Diagnosis }).diagnosis);
    }
  } finally {
    await w.stop(2000);
  }
});
afterAll(async () => {
  await tdb?.drop();
  fs.rmSync(workspaces, { recursive: true, force: true });
});

describe("operators confirm or correct a diagnosis; the verdicts are calibration", () => {
  it("keeps every verdict, shows the latest, audits it, and a correction counts against the trigger's learned patterns", async () => {
    const [one, two] = diagnoses;
    const when = patternTrigger(one);
    await tdb.db.insert(learnedPatterns).values({ when, then: "retry_after_fix", errorType: one.errorClassification.type, tools: ["shell"], successes: 3, failures: 0, confidence: 0.8, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() });

    const first = await recordDiagnosisFeedback(tdb.db, olivia, { diagnosisId: one.id, verdict: "confirmed" });
    expect(first).toMatchObject({ verdict: "confirmed", correctType: one.errorClassification.type, statedConfidence: one.rootCause.confidence });
    const other = one.errorClassification.type === "permission_denied" ? "tool_not_found" : "permission_denied";
    const second = await recordDiagnosisFeedback(tdb.db, olivia, { diagnosisId: one.id, verdict: "corrected", correctType: other, note: "the allowlist refused it" });
    expect(second.patternsTouched).toBe(1);
    await recordDiagnosisFeedback(tdb.db, olivia, { diagnosisId: two.id, verdict: "confirmed" });

    const latest = await latestFeedback(tdb.db, [one.id, two.id, "diag_nobody"]);
    expect(latest[one.id]).toMatchObject({ verdict: "corrected", correctType: other, actorName: "Olivia Operator", note: "the allowlist refused it" });
    expect(latest[two.id]).toMatchObject({ verdict: "confirmed" });
    expect(latest.diag_nobody).toBeUndefined();

    const [pattern] = await tdb.db.select().from(learnedPatterns).where(eq(learnedPatterns.when, when));
    expect(pattern).toMatchObject({ successes: 3, failures: 1 });
    expect(pattern.confidence).toBeLessThan(0.8);
    const audit = await tdb.db.select().from(auditLog).where(eq(auditLog.action, "diagnosis.feedback"));
    expect(audit.map((a) => a.summary)).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(`Olivia Operator corrected diagnosis ${one.id} from ${one.errorClassification.type} to ${other} \\(1 learned pattern`))]),
    );

    // The report counts each diagnosis once, by its latest verdict.
    const report = await feedbackReport(tdb.db, { days: 7 });
    expect(report).toMatchObject({ total: 2, confirmed: 1, corrected: 1, corrections: [{ from: one.errorClassification.type, to: other, count: 1 }] });
    expect(report.reliability.reduce((n, b) => n + b.count, 0)).toBe(2);
    expect(report.byDay.at(-1)).toMatchObject({ confirmed: 1, corrected: 1, accuracy: 0.5 });
    expect(report.ece).not.toBeNull();
  });

  it("refuses a verdict that cannot be right, saying what to send instead, and records nothing", async () => {
    const [, two] = diagnoses;
    const before = (await feedbackReport(tdb.db, { days: 7 })).total;
    await expect(recordDiagnosisFeedback(tdb.db, olivia, { diagnosisId: "diag_missing", verdict: "confirmed" })).rejects.toMatchObject({ code: "not_found" });
    await expect(recordDiagnosisFeedback(tdb.db, olivia, { diagnosisId: two.id, verdict: "corrected", correctType: "gremlins" })).rejects.toMatchObject({ code: "bad_request", userMessage: expect.stringMatching(/"gremlins" is not an error type\. Use one of tool_not_found/) });
    await expect(recordDiagnosisFeedback(tdb.db, olivia, { diagnosisId: two.id, verdict: "corrected", correctType: two.errorClassification.type })).rejects.toMatchObject({ userMessage: expect.stringMatching(/confirm it instead/) });
    await expect(recordDiagnosisFeedback(tdb.db, olivia, { diagnosisId: two.id, verdict: "corrected" })).rejects.toMatchObject({ userMessage: expect.stringMatching(/needs the right type/) });
    expect((await feedbackReport(tdb.db, { days: 7 })).total).toBe(before);
  });
});
