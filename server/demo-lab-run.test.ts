import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getSuiteRun, listSuiteRuns } from "../db/queries/lab";
import { createTestDatabase, type TestDatabase } from "../db/test-helpers";
import { recordDemoLabRun } from "./start";

/** `npm start` in demo mode, first start: the Lab page has a recorded run of the default suite to open. */
let tdb: TestDatabase;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-demo-lab-"));
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  await tdb?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it("records the default suite (seed 1, three repeats) as the seed's suite run, with its traces in the data directory", async () => {
  const logs: string[] = [];
  await recordDemoLabRun(tdb.url, dataDir, (m) => logs.push(m));
  expect(logs).toHaveLength(1);
  expect(logs[0]).toMatch(/^demo lab run \(lab\/default\.yaml, seed 1, 3 repeats\): \d+ run\(s\) in [\d.]+ s; .*Recorded as lab run [0-9a-f-]+ \(console: \/lab\/[0-9a-f-]+\)\. Simulation extraction: /);
  const runs = await listSuiteRuns(tdb.db);
  expect(runs).toHaveLength(1);
  const [run] = runs;
  expect(run).toMatchObject({ seed: 1, repeat: 3, startedBy: "system:seed", error: null });
  expect(run.done).toBe(run.total);
  expect(run.total).toBeGreaterThan(0);
  expect(run.metrics?.recoverySuccessRate).toBeDefined();
  const detail = await getSuiteRun(tdb.db, run.id);
  expect(detail?.traces).toHaveLength(run.total);
  expect(fs.readdirSync(path.join(dataDir, "lab-runs", "default", "seed-1")).length).toBeGreaterThan(0);
});
