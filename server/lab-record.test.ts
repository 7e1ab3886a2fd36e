import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consultLibrary } from "../db/queries/library-protocol";
import { getLabTrace, getSuiteRun, labTracePath, listSuiteRuns, simulationEvidence } from "../db/queries/lab";
import { auditLog, labExtractions, libraryContributions } from "../db/schema";
import { createTestDatabase, type TestDatabase } from "../db/test-helpers";
import { MIN_SIGHTINGS } from "../lib/lab/extract";
import type { LibraryQuery } from "../lib/mission/library";
import { WEAK_MATCH_BELOW } from "../lib/mission/library";
import { sha256 } from "../lib/trace/format";
import { splitLines, verifyTrace } from "../lib/trace/verify";
import { labFailures } from "../db/schema";

/**
 * `faultline lab run` records the suite run in PostgreSQL (docs/lab.md "Recording"): the report and
 * every run's trace read back as written, and simulation extraction drafts a contribution for each
 * recurring failure the library does not cover — once, as a draft, never approved.
 */

const BIN = path.resolve("bin/faultline.mjs");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-lab-record-"));
const at = (f: string) => path.join(dir, f);
let tdb: TestDatabase;

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, DATABASE_URL: tdb.url, FAULTLINE_DATA_DIR: at("data") }, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const ANY_END = "{ finalStatus: [SUCCESS, PARTIAL_SUCCESS, FAILED] }";
const report = (name: string) => `
  - name: ${name}
    mission:
      name: report
      objective: Build the nightly report.
      recovery: auto
      phases:
        - name: EXECUTION
          agents:
            - { name: report, priority: critical, steps: [{ tool: http, args: { url: "http://reports.internal/v1/nightly", method: POST, body: "{}" }, timeoutMs: 5000 }] }
    faults:
      - { at: report/0, type: timeout }
    expect: ${ANY_END}`;
const rateLimited = (name: string) => `
  - name: ${name}
    mission:
      name: fetch items
      objective: Fetch the items.
      recovery: auto
      phases:
        - name: EXECUTION
          agents:
            - { name: fetch, priority: critical, steps: [{ tool: http, args: { url: "http://inventory.internal/v1/items", method: GET } }] }
    faults:
      - { at: fetch/0, type: rate_limited }
    expect: ${ANY_END}`;
// Seen once per suite run: recurring only once a second suite run has seen it too.
const badFlag = `
  - name: bad flag
    mission:
      name: compress
      objective: Compress the release archive.
      allowedBinaries: [tar]
      phases:
        - name: EXECUTION
          agents:
            - { name: compress, priority: critical, steps: [{ tool: shell, args: { command: tar, args: [-czf, release.tgz, dist] } }] }
    faults:
      - { at: compress/0, type: invalid_arguments }
    operator: { otherwise: abort }
    expect: ${ANY_END}`;

const TIMEOUT = "timeout:reports_internal_timeout";
const RATE = "rate_limited:inventory_internal_rate_limit";
const BAD_FLAG = "invalid_arguments:tar_unknown_option";

beforeAll(async () => {
  tdb = await createTestDatabase();
  fs.writeFileSync(at("suite.yaml"), `name: extraction\nmemory: per-run\nscenarios:${report("timeout a")}${report("timeout b")}${rateLimited("rate limit a")}${rateLimited("rate limit b")}${badFlag}\n`);
});
afterAll(async () => {
  await tdb.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const simulationDrafts = () => tdb.db.select().from(libraryContributions).where(eq(libraryContributions.origin, "simulation"));
const recordedId = (stderr: string) => /Recorded as lab run ([0-9a-f-]{36})/.exec(stderr)?.[1];

describe("faultline lab run records the suite run", () => {
  let firstId: string;

  it("stores the report and every run's trace as the files on disk, and lists the run with its key metrics", async () => {
    const r = await cli(["lab", "run", at("suite.yaml"), "--seed", "7", "--repeat", "1", "-o", at("r1.json")]);
    expect(r.code, r.stderr).toBe(0);
    firstId = recordedId(r.stderr)!;
    expect(firstId, r.stderr).toBeDefined();
    expect(r.stderr).toContain(`console: /lab/${firstId}`);

    const list = await listSuiteRuns(tdb.db);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: firstId, suiteName: "extraction", seed: 7, repeat: 1, status: "finished", total: 5, done: 5, error: null });
    const onDisk = JSON.parse(fs.readFileSync(at("r1.json"), "utf8"));
    expect(list[0].passed).toBe(onDisk.scenarios.filter((s: { passed: number }) => s.passed).length);
    expect(list[0].metrics?.recoverySuccessRate).toEqual(onDisk.metrics.recoverySuccessRate);

    const detail = (await getSuiteRun(tdb.db, firstId))!;
    expect(detail.report).toEqual(onDisk);
    expect(detail.traces.map((t) => `${t.scenario}.${t.repeat}`).sort()).toEqual(["bad flag.1", "rate limit a.1", "rate limit b.1", "timeout a.1", "timeout b.1"]);
    for (const t of detail.traces) {
      const stored = (await getLabTrace(tdb.db, firstId, t.scenario, t.repeat))!;
      const file = fs.readFileSync(at(`r1.traces/${t.scenario.replaceAll(" ", "-")}.${t.repeat}.trace.jsonl`), "utf8");
      expect(stored.trace).toBe(file);
      expect(stored.sha256).toBe(sha256(file));
      expect(stored.bytes).toBe(Buffer.byteLength(file));
      const v = verifyTrace(splitLines(stored.trace));
      expect(v.ok, JSON.stringify(v)).toBe(true);
    }
    expect(await getLabTrace(tdb.db, firstId, "no such scenario", 1)).toBeNull();
    const audit = await tdb.db.select().from(auditLog).where(eq(auditLog.action, "lab.record"));
    expect(audit.map((a) => a.targetId)).toEqual([firstId]);
  }, 180_000);

  it("drafts a contribution only for the recurring failure the library does not cover: a draft with the traces as evidence, never approved", async () => {
    const drafts = await simulationDrafts();
    expect(drafts).toHaveLength(1);
    const [d] = drafts;
    expect(d).toMatchObject({ status: "draft", origin: "simulation", kind: "new", publishedVersion: null });
    expect(d.authorId).toMatch(/^cli:/);
    const entry = d.entry as { source: string; references: string[]; surface_symptom: string };
    expect(entry.source).toBe("simulation_extraction");
    expect(entry.references.join("\n")).toContain(labTracePath(firstId, "timeout a", 1));
    expect(entry.references.join("\n")).toContain(labTracePath(firstId, "timeout b", 1));
    const x = await tdb.db.select().from(labExtractions);
    expect(x.map((r) => [r.signature, r.contributionId, r.sightings])).toEqual([[TIMEOUT, d.id, 2]]);
    const evidence = (await simulationEvidence(tdb.db, d.id))!;
    expect(evidence.runs.map((r) => r.scenario).sort()).toEqual(["timeout a", "timeout b"]);

    // Why the others got none: the rate limit recurs but the library covers it; the bad flag was seen once.
    const sightings = await tdb.db.select().from(labFailures);
    const runsOf = (sig: string) => new Set(sightings.filter((s) => s.signature === sig).map((s) => `${s.scenario}/${s.repeat}`)).size;
    expect(runsOf(RATE)).toBeGreaterThanOrEqual(MIN_SIGHTINGS);
    expect(runsOf(BAD_FLAG)).toBe(1);
    const rate = await consultLibrary(tdb.db, sightings.find((s) => s.signature === RATE)!.query as LibraryQuery, 3);
    expect(rate.hypotheses[0]?.match_score).toBeGreaterThanOrEqual(WEAK_MATCH_BELOW);
    const timeout = await consultLibrary(tdb.db, sightings.find((s) => s.signature === TIMEOUT)!.query as LibraryQuery, 3);
    expect(timeout.hypotheses.every((h) => h.match_score < WEAK_MATCH_BELOW)).toBe(true);
  });

  it("a second suite run proposes nothing twice: the failure now seen in two suite runs gets its draft, the timeout keeps its one", async () => {
    const r = await cli(["lab", "run", at("suite.yaml"), "--seed", "7", "--repeat", "1", "--traces", at("r2.traces")]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("Simulation extraction: 1 new draft contribution(s) for reviewers, 1 recurring failure(s) the library covers.");
    const secondId = recordedId(r.stderr)!;
    expect(secondId).not.toBe(firstId);
    const drafts = await simulationDrafts();
    expect(drafts).toHaveLength(2);
    expect(drafts.every((c) => c.status === "draft" && c.publishedVersion === null)).toBe(true);
    const x = await tdb.db.select().from(labExtractions);
    expect(x.map((r) => r.signature).sort()).toEqual([BAD_FLAG, TIMEOUT].sort());
    const badFlagDraft = drafts.find((c) => c.id === x.find((r) => r.signature === BAD_FLAG)!.contributionId)!;
    const refs = (badFlagDraft.entry as { references: string[] }).references.join("\n");
    expect(refs).toContain(labTracePath(firstId, "bad flag", 1));
    expect(refs).toContain(labTracePath(secondId, "bad flag", 1));
    expect(await tdb.db.select().from(libraryContributions).where(and(eq(libraryContributions.origin, "simulation"), eq(libraryContributions.status, "approved")))).toHaveLength(0);
    expect(await listSuiteRuns(tdb.db)).toHaveLength(2);
  }, 180_000);

  it("a suite run stopped by SIGTERM is marked stopped with the reason, not left running", async () => {
    const child = execFile(process.execPath, [BIN, "lab", "run", at("suite.yaml"), "--seed", "9", "--repeat", "400", "--traces", at("r4.traces")], { cwd: dir, env: { ...process.env, DATABASE_URL: tdb.url, FAULTLINE_DATA_DIR: at("data") } });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    let running: Awaited<ReturnType<typeof listSuiteRuns>>[number] | undefined;
    await expect.poll(async () => (running = (await listSuiteRuns(tdb.db)).find((r) => r.seed === 9 && r.done > 0)), { timeout: 60_000, interval: 100 }).toBeDefined();
    expect(running!.status).toBe("running");
    child.kill("SIGTERM");
    expect(await exited).toBe(143);
    const [stopped] = (await listSuiteRuns(tdb.db)).filter((r) => r.seed === 9);
    expect(stopped).toMatchObject({ status: "failed", error: "interrupted by SIGTERM before the suite run ended" });
    expect(stopped.done).toBeLessThan(stopped.total);
    expect((await getSuiteRun(tdb.db, stopped.id))!.report).toBeNull();
  }, 180_000);

  it("a database it cannot reach is said before anything runs, with --no-record as the way out", async () => {
    const r = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(process.execPath, [BIN, "lab", "run", at("suite.yaml"), "--traces", at("r5.traces")], { cwd: dir, env: { ...process.env, DATABASE_URL: "postgres://lab:lab@127.0.0.1:1/nothing", FAULTLINE_DATA_DIR: at("data") }, timeout: 60_000 }, (err, _out, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
      ),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^faultline: Could not open the database to record the suite run: connect ECONNREFUSED 127\.0\.0\.1:1\. Nothing was run\. .*--no-record/);
    expect(fs.existsSync(at("r5.traces"))).toBe(false);
  }, 60_000);

  it("--no-record records nothing", async () => {
    const r = await cli(["lab", "run", at("suite.yaml"), "--seed", "8", "--no-record", "--traces", at("r3.traces")]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("Recorded as lab run");
    expect((await listSuiteRuns(tdb.db)).filter((r) => r.seed === 8)).toHaveLength(0);
  }, 180_000);
});
