import { readFileSync } from "node:fs";
import { defs, expect, screenshots, startMission, test, waitForGate } from "./fixtures";

/**
 * The failure history as an auditor: filters in the URL (a reload keeps them), a built-in saved query,
 * a row opening the mission's timeline at that event, the CSV export, and the page with its charts.
 */
test("an auditor filters the failure history, uses a saved query, opens a failure in its timeline and exports CSV", async ({ operatorPage, auditorPage }) => {
  // An operator's mission fails at a refused binary (scp) and waits at its gate: one unresolved failure.
  const name = `history e2e ${Date.now().toString(36)}`;
  const missionId = await startMission(operatorPage.request, defs.gated(name));
  await waitForGate(operatorPage.request, missionId);

  const page = auditorPage;
  await page.goto("/history");
  await expect(page.getByRole("heading", { name: "Failure history" })).toBeVisible();
  await expect(page.getByTestId("history-table")).toBeVisible();

  // A filter changes the URL; a reload keeps the view.
  await page.getByTestId("filter-definition").selectOption(name);
  await expect(page).toHaveURL(new RegExp(`definition=${encodeURIComponent(name).replace(/%20/g, "\\+")}`));
  await expect(page.getByTestId("history-count")).toHaveText("(1)");
  await page.reload();
  await expect(page.getByTestId("filter-definition")).toHaveValue(name);
  const row = page.getByTestId("history-table").getByRole("row").filter({ hasText: "deployer" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("not_allowed");
  await expect(row).toContainText("Unresolved");

  // The CSV export of this view downloads with a header row and our failure.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-csv").click()]);
  expect(download.suggestedFilename()).toMatch(/^failures-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!, "utf8").split("\r\n");
  expect(csv[0]).toMatch(/^time,missionId,seq,definition,phase,agent/);
  expect(csv.filter((l) => l.includes(missionId))).toHaveLength(1);

  // A row opens the mission's timeline at that event, highlighted.
  await row.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/missions/${missionId}\\?seq=\\d+`));
  const seq = new URL(page.url()).searchParams.get("seq");
  const event = page.locator(`[data-testid="timeline-event"][data-seq="${seq}"]`);
  await expect(event).toHaveClass(/tl-highlight/);
  await expect(event).toHaveAttribute("data-type", "tool.failed");
  await expect(event).toBeInViewport();

  // From the mission page: all failures for this mission.
  await page.getByTestId("mission-failures-link").click();
  await expect(page).toHaveURL(new RegExp(`/history\\?mission=${missionId}`));
  await expect(page.getByTestId("history-count")).toHaveText("(1)");

  // A built-in saved query: all unresolved failures.
  await page.goto("/history");
  await page.getByTestId("saved-queries").locator("summary").click();
  await page.getByTestId("saved-query-link").filter({ hasText: "All unresolved failures" }).click();
  await expect(page).toHaveURL(/\/history\?status=unresolved$/);
  await expect(page.getByTestId("filter-status")).toHaveValue("unresolved");
  await expect(page.getByTestId("history-table").getByRole("row").filter({ hasText: name })).toHaveCount(1);

  // A bad value in a shared URL is explained, not a crash.
  await page.goto("/history?level=galactic");
  await expect(page.getByTestId("filter-errors")).toContainText("level");

  await page.goto("/history");
  await expect(page.getByTestId("chart-over-time")).toBeVisible();
  await expect(page.getByTestId("chart-outcomes")).toContainText("Unresolved");
  await screenshots(page, "history");
});
