import { readFileSync } from "node:fs";
import { defs, expect, screenshots, signIn, startMission, test } from "./fixtures";

/**
 * The audit log as an auditor: an action done in the test (a mission started through the API by the
 * operator, a sign-in and sign-out) shows up with who, via and from where; filtering by actor; a row's
 * before/after; the CSV export (itself recorded). The operator is refused the page.
 */
test("an auditor sees the operator's mission start, filters by actor, opens a row and exports CSV", async ({ operatorPage, auditorPage }) => {
  const name = `audit e2e ${Date.now().toString(36)}`;
  const missionId = await startMission(operatorPage.request, defs.httpOnce(name, "http://127.0.0.1:9/"));

  const page = auditorPage;
  await page.goto("/audit");
  await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
  await expect(page.getByTestId("audit-table")).toBeVisible();

  // Filter by actor (the operator's email) and the mission group: the URL carries the view, a reload keeps it.
  await page.getByTestId("audit-filter-actor").fill("operator@faultline.local");
  await page.getByTestId("audit-filter-apply").click();
  await expect(page).toHaveURL(/actor=operator%40faultline\.local/);
  await page.getByTestId("audit-filter-action").selectOption("mission.*");
  await expect(page).toHaveURL(/action=mission\.\*/);
  await page.reload();
  await expect(page.getByTestId("audit-filter-action")).toHaveValue("mission.*");
  const row = page.getByTestId("audit-table").getByRole("row").filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Demo operator");
  await expect(row).toContainText("mission.start");
  await expect(row).toContainText(`mission ${missionId}`);
  await expect(row.getByRole("cell").nth(6)).toHaveText("api");
  await expect(row.getByRole("cell").nth(7)).toHaveText(/127\.0\.0\.1|::1|::ffff:127\.0\.0\.1/);

  // Another actor's filter does not show it.
  await page.goto(`/audit?actor=reviewer%40faultline.local&action=mission.*`);
  await expect(page.getByTestId("audit-table").getByRole("row").filter({ hasText: name })).toHaveCount(0);

  // The row's details: the record in full with its after state, field by field.
  await page.goto(`/audit?mission=${missionId}`);
  await page.getByTestId("audit-table").getByRole("row").filter({ hasText: "mission.start" }).getByTestId("audit-row-details").click();
  const detail = page.getByTestId("audit-detail");
  await expect(detail).toContainText(`Demo operator started mission "${name}" (1 step).`);
  await expect(detail.locator('[data-testid="diff-row"][data-field="name"]')).toContainText(name);
  // The table fits the window, its cells under their headers: no sideways scrolling to reach a row's outcome.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  const table = page.getByTestId("audit-table");
  const headerX = await table.getByRole("columnheader", { name: "Outcome" }).boundingBox();
  const cellX = await table.getByRole("row").filter({ hasText: "mission.start" }).getByRole("cell").nth(8).boundingBox();
  expect(Math.abs(headerX!.x - cellX!.x)).toBeLessThan(2);
  expect(cellX!.x + cellX!.width).toBeLessThanOrEqual(1280);
  await screenshots(page, "audit");

  // The CSV export of this view: a header row and our row; the export itself is then in the log.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("audit-export-csv").click()]);
  expect(download.suggestedFilename()).toMatch(/^audit-log-[\d-]+\.csv$/);
  const csv = readFileSync((await download.path())!, "utf8").split("\r\n");
  expect(csv[0]).toBe("id,at,actorId,actorName,action,outcome,targetType,targetId,missionId,summary,via,ip,userAgent,before,after");
  expect(csv.filter((l) => l.includes(`started mission ""${name}""`))).toHaveLength(1);
  await page.goto(`/audit?action=audit.export&q=${encodeURIComponent(`mission ${missionId}`)}`);
  await expect(page.getByTestId("audit-table").getByRole("row").filter({ hasText: "Demo auditor exported the audit log as CSV" })).toHaveCount(1);
});

test("a sign-in and a sign-out are recorded with who and from where", async ({ browser, auditorPage }) => {
  const since = new Date(Date.now() - 1000).toISOString();
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  await signIn(context, "contributor");
  const { csrfToken } = (await (await context.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const out = await context.request.post("/api/auth/signout", { form: { csrfToken, json: "true" } });
  expect(out.ok()).toBeTruthy();
  expect(((await (await context.request.get("/api/auth/session")).json()) as { user?: unknown }).user).toBeUndefined();
  await context.close();

  const res = await auditorPage.request.get(`/api/v1/audit?actor=contributor%40faultline.local&action=auth.*&from=${encodeURIComponent(since)}`);
  expect(res.status()).toBe(200);
  const { entries } = (await res.json()) as { entries: Array<{ action: string; actorName: string; via: string; ip: string | null }> };
  const actions = entries.map((e) => e.action);
  expect(actions).toContain("auth.sign_in");
  expect(actions).toContain("auth.sign_out");
  const signOut = entries.find((e) => e.action === "auth.sign_out")!;
  expect(signOut).toMatchObject({ actorName: "Demo contributor", via: "web" });
  expect(signOut.ip).toBeTruthy();
});

test("the operator is refused the audit log, on the page and in the API", async ({ operatorPage }) => {
  await operatorPage.goto("/audit");
  await expect(operatorPage.getByTestId("audit-refused")).toContainText("Not allowed");
  await expect(operatorPage.getByTestId("audit-refused")).toContainText("admin or auditor");
  await expect(operatorPage.getByTestId("audit-table")).toHaveCount(0);
  expect((await operatorPage.request.get("/api/v1/audit")).status()).toBe(403);
  expect((await operatorPage.request.get("/api/v1/audit/export?format=csv")).status()).toBe(403);
});
