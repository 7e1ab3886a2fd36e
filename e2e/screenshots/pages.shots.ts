import fs from "node:fs";
import path from "node:path";
import { expect, startMission, test, waitForGate } from "../fixtures";

const OUT = path.resolve(import.meta.dirname, "../../docs/screenshots");

/** Every console page, as an admin (who sees them all), at 1280×800 in the light and the dark theme. */
test("screenshots of every console page in both themes", async ({ adminPage: page }) => {
  test.setTimeout(240_000);
  fs.mkdirSync(OUT, { recursive: true });
  // Something to show: a mission waiting at a gate (the demo missions are not seeded in e2e).
  const missionId = await startMission(page.request, {
    name: "Deploy with an unapproved binary",
    objective: "Copy the build to the server",
    allowedBinaries: ["node"],
    phases: [{ name: "EXECUTION", agents: [{ name: "deploy", priority: "critical", steps: [{ tool: "shell", args: { command: "scp", args: ["build.tgz", "server:/srv"] } }] }] }],
  });
  await waitForGate(page.request, missionId);
  const firstEntry = ((await (await page.request.get("/api/v1/library/entries?per=25")).json()) as { entries: Array<{ failure_id: string }> }).entries[0]?.failure_id;
  const pages: Array<[string, string]> = [
    ["missions", "/missions"],
    ["mission", `/missions/${missionId}`],
    ["gates", "/gates"],
    ["diagnostics", "/diagnostics"],
    ["patterns", "/patterns"],
    ["library", "/library"],
    ...(firstEntry ? ([["library-entry", `/library/${firstEntry}`]] as Array<[string, string]>) : []),
    ["library-versions", "/library/versions"],
    ["library-import", "/library/import"],
    ["contributions", "/contributions"],
    ["contribution-new", "/contributions/new"],
    ["history", "/history"],
    ["governance", "/governance"],
    ["actors", "/actors"],
    ["api-reference", "/api-reference"],
    ["audit", "/audit"],
    ["admin-users", "/admin/users"],
    ["admin-policies", "/admin/policies"],
    ["admin-authority", "/admin/authority"],
    ["admin-webhooks", "/admin/webhooks"],
    ["account-tokens", "/account/tokens"],
  ];
  for (const [name, url] of pages) {
    await page.goto(url);
    await expect(page.locator("h1").first()).toBeVisible();
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate((t) => {
        document.documentElement.dataset.theme = t;
        document.documentElement.style.colorScheme = t;
      }, scheme);
      await page.screenshot({ path: path.join(OUT, `${name}-${scheme}.png`) });
      // The mission page's timeline, below the fold: the compact log (one row an event, steps grouped).
      if (name === "mission") await page.getByTestId("timeline").screenshot({ path: path.join(OUT, `mission-timeline-${scheme}.png`) });
      // Diagnostics' calibration charts and the history's charts, below the fold.
      if (name === "diagnostics") await page.getByTestId("diagnosis-judgement").screenshot({ path: path.join(OUT, `diagnostics-calibration-${scheme}.png`) });
      if (name === "governance") await page.locator("#measure").screenshot({ path: path.join(OUT, `governance-measure-${scheme}.png`) });
      if (name === "diagnostics") await page.getByTestId("chart-recovery-per-day").screenshot({ path: path.join(OUT, `diagnostics-per-day-${scheme}.png`) });
      if (name === "history") await page.getByTestId("history-charts").screenshot({ path: path.join(OUT, `history-charts-${scheme}.png`) });
    }
  }
});
