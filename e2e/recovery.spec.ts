import { defs, expect, startMission, test, waitForGate } from "./fixtures";
import { MissionPage } from "./pages/mission-page";

/**
 * ADR-0003 in the browser: a failure's gate offers "Apply recovery plan"; choosing it runs the plan and
 * the timeline shows what happened; the pattern it taught appears on the Patterns page, where an admin
 * disables it; the Diagnostics page counts it.
 */
test("an operator applies the recovery plan of a timed-out step; the timeline, Patterns and Diagnostics show it", async ({ operatorPage: page, adminPage, auditorPage }) => {
  const name = `recover ${Date.now()}`;
  const id = await startMission(page.request, defs.slowStep(name));
  await waitForGate(page.request, id);
  const mission = new MissionPage(page);
  await mission.open(id);
  await expect(mission.option("recover")).toContainText("Apply recovery plan");
  await expect(mission.option("recover")).toContainText("Recommended");
  await expect(mission.gate().getByTestId("diagnosis")).toContainText("timeout");
  await expect(mission.gate().getByTestId("recovery-offer")).toContainText(/increase timeout/);
  await expect(mission.gate().getByTestId("recovery-offer")).toContainText(/policy is "propose"/);
  await page.screenshot({ path: "test-results/recovery-gate.png", fullPage: true });

  await mission.gate().focus();
  await page.keyboard.press("e");
  await expect(mission.finalStatus()).toHaveAttribute("data-value", "SUCCESS", { timeout: 30_000 });
  await expect(page.getByTestId("recovery-started")).toContainText(/Recovery attempt 1.*increase timeout.*chosen by an operator/);
  await expect(page.getByTestId("recovery-outcome")).toContainText("Recovered");
  await page.screenshot({ path: "test-results/recovery-timeline.png", fullPage: true });

  // The pattern it taught: read-only for an auditor, managed by an admin.
  await auditorPage.goto("/patterns");
  await expect(auditorPage.getByTestId("patterns-readonly")).toBeVisible();
  const row = adminPage.locator('[data-testid="pattern-row"][data-then="increase_timeout"]').first();
  await adminPage.goto("/patterns");
  await expect(row).toBeVisible();
  await expect(row).toContainText("increase timeout");
  // (A kept database may hold this pattern from an earlier run, disabled: enable it first.)
  if (await row.getByRole("button", { name: "Enable" }).count()) {
    await row.getByRole("button", { name: "Enable" }).click();
    await expect(adminPage.getByTestId("pattern-result")).toContainText("enabled");
  }
  await row.getByRole("button", { name: "Disable" }).click();
  await expect(adminPage.getByTestId("pattern-result")).toContainText("disabled");
  await expect(row).toContainText("Disabled");
  await adminPage.screenshot({ path: "test-results/patterns.png", fullPage: true });

  await page.goto("/diagnostics");
  await expect(page.getByTestId("metric-recoverySuccessRate")).not.toContainText("—");
  await expect(page.getByTestId("diagnostics-by-definition")).toContainText(name);
  await page.screenshot({ path: "test-results/diagnostics.png", fullPage: true });
});
