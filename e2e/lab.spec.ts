import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, screenshots, test } from "./fixtures";
import { setTheme } from "./pages/console-pages";

/**
 * The Lab page (issue 17): a suite run recorded by `faultline lab run` (a real CLI process on the e2e
 * database) is listed with its key metrics, opens with its charts, and each scenario's run links to a
 * trace that downloads and verifies. Operators and auditors see it; a contributor is refused, page and API.
 */

const BIN = path.resolve("bin/faultline.mjs");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-e2e-lab-"));
const SUITE = `name: e2e lab
memory: per-run
scenarios:
  - name: report times out
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
    expect: { finalStatus: SUCCESS, recovered: true }
  - name: rate limited fetch
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
    expect: { finalStatus: SUCCESS, recovered: true }
`;

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, DATABASE_URL: process.env.E2E_DATABASE_URL, FAULTLINE_DATA_DIR: path.join(dir, "data") }, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let runId: string;

/** Error bars drawn with a length (each bar's vertical line from its lower to its upper bound). */
const drawnIntervals = (chart: import("@playwright/test").Locator) =>
  chart.locator(".recharts-errorBar").evaluateAll((bars) => bars.filter((b) => [...b.querySelectorAll("line")].some((l) => Math.abs(Number(l.getAttribute("y1")) - Number(l.getAttribute("y2"))) > 1)).length);

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fs.writeFileSync(path.join(dir, "suite.yaml"), SUITE);
  const r = await cli(["lab", "run", "suite.yaml", "--seed", "11", "--repeat", "2"]);
  expect(r.code, r.stderr).toBe(0);
  runId = /Recorded as lab run ([0-9a-f-]{36})/.exec(r.stderr)![1];
});
test.afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test("an operator finds the recorded suite run, opens its charts and downloads a scenario's trace, which verifies", async ({ operatorPage: page }) => {
  await page.goto("/lab");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Lab" })).toBeVisible();
  const row = page.locator(`[data-testid="lab-run-row"][data-id="${runId}"]`);
  await expect(row).toContainText("e2e lab");
  await expect(row).toContainText("Finished");
  await expect(row.getByRole("cell").first()).toHaveText("11");
  await expect(page.getByTestId("chart-lab-trend")).toBeVisible();
  await expect.poll(() => drawnIntervals(page.getByTestId("chart-lab-trend"))).toBeGreaterThan(0);
  await screenshots(page, "lab");

  await row.getByRole("link", { name: /e2e lab/ }).click();
  await expect(page).toHaveURL(new RegExp(`/lab/${runId}$`));
  await expect(page.getByTestId("lab-run-title")).toHaveText("e2e lab · seed 11 · 2 repeats");
  const metrics = page.getByTestId("chart-lab-metrics");
  await expect(metrics.locator(".recharts-bar-rectangle").first()).toBeVisible();
  // Each rate with trials has its 95% interval drawn, 0% ones too (approval has no trials here).
  await expect.poll(() => drawnIntervals(metrics)).toBe(6);
  await expect(metrics.getByRole("img")).toHaveAttribute("aria-label", /recovery success rate \d+\.\d% \[\d+\.\d%, \d+\.\d%\] \(\d+\/\d+\)/);
  await expect(page.getByTestId("chart-lab-pass")).toBeVisible();
  const scenario = page.locator('[data-testid="lab-scenario-row"][data-scenario="report times out"]');
  await expect(scenario).toContainText("timeout");
  await expect(scenario).toContainText("2/2");
  await screenshots(page, "lab-run");

  const link = scenario.getByTestId("lab-trace-link").first();
  const expected = await link.getAttribute("data-sha256");
  const downloading = page.waitForEvent("download");
  await link.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("report-times-out.1.trace.jsonl");
  const file = path.join(dir, download.suggestedFilename());
  await download.saveAs(file);
  expect(createHash("sha256").update(fs.readFileSync(file)).digest("hex")).toBe(expected);
  const verified = await cli(["trace", "verify", file]);
  expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  expect(verified.stdout).toMatch(/^ok, \d+ lines/);
});

test("an auditor sees the Lab page and a run's detail; a contributor is refused on the page and in the API", async ({ auditorPage, contributorPage }) => {
  await auditorPage.goto(`/lab/${runId}`);
  await expect(auditorPage.getByTestId("lab-run-title")).toContainText("e2e lab");
  await expect(auditorPage.getByTestId("lab-trace-link").first()).toBeVisible();
  const ok = await auditorPage.request.get(`/api/v1/lab/runs/${runId}/traces/${encodeURIComponent("rate limited fetch")}/2`);
  expect(ok.status()).toBe(200);
  expect(ok.headers()["content-type"]).toContain("application/x-ndjson");

  await contributorPage.goto("/lab");
  await expect(contributorPage.getByTestId("lab-refused")).toContainText("lab view");
  await expect(contributorPage.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Lab" })).toHaveCount(0);
  await contributorPage.goto(`/lab/${runId}`);
  await expect(contributorPage.getByTestId("lab-refused")).toBeVisible();
  const refused = await contributorPage.request.get(`/api/v1/lab/runs/${runId}/traces/${encodeURIComponent("rate limited fetch")}/2`);
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("lab view");
  expect((await contributorPage.request.get("/api/v1/lab/runs")).status()).toBe(403);
});

test("the suite's recurring failure the library does not cover waits in the reviewers' queue as a simulation draft, citing its traces", async ({ reviewerPage: page }) => {
  const list = await page.request.get("/api/v1/library/contributions?origin=simulation&status=draft");
  expect(list.status(), await list.text()).toBe(200);
  const body = (await list.json()) as { contributions: Array<{ id: string; status: string; summary: string }> };
  const draft = body.contributions.find((c) => c.summary.includes("timeout:reports_internal_timeout"));
  expect(draft, JSON.stringify(body)).toBeDefined();
  expect(draft!.status).toBe("draft");
  await page.goto(`/contributions/${draft!.id}`);
  const evidence = page.getByTestId("contribution-lab-evidence");
  await expect(evidence).toContainText("timeout:reports_internal_timeout");
  await expect(evidence.locator(`a[href="/api/v1/lab/runs/${runId}/traces/${encodeURIComponent("report times out")}/1"]`)).toHaveText("report times out #1");
});

test("the Lab pages pass axe (WCAG 2 A/AA) in both themes", async ({ adminPage: page }) => {
  const found: string[] = [];
  for (const url of ["/lab", `/lab/${runId}`]) {
    await page.goto(url);
    await expect(page.locator("h1").first()).toBeVisible();
    for (const scheme of ["light", "dark"] as const) {
      await setTheme(page, scheme);
      const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      for (const v of axe.violations) found.push(`${url} (${scheme}) ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
    }
  }
  expect(found).toEqual([]);
});
