import { expect, screenshots, startMission, test } from "./fixtures";
import { MissionPage } from "./pages/mission-page";

const node = (code: string) => ({ tool: "shell", args: { command: "node", args: ["-e", code] } });

test("an operator aborts a mission waiting at a gate: the gate closes as abort by them and the mission ends FAILED", async ({ operatorPage: page }) => {
  const id = await startMission(page.request, {
    name: `abort ${Date.now()}`,
    objective: "wait for approval, then be aborted",
    allowedBinaries: ["node"],
    library: false,
    phases: [{ name: "EXECUTION", agents: [{ name: "dba", priority: "critical", steps: [{ ...node("console.log('dropped')"), highRisk: true }] }] }],
  });
  const mission = new MissionPage(page);
  await mission.open(id);
  await expect(mission.gate()).toContainText("needs approval", { timeout: 20_000 });
  await page.getByTestId("abort-mission").click();
  await expect(page.getByTestId("abort-confirm")).toContainText("This cannot be undone");
  await page.getByLabel("Reason (recorded in the event log and the audit log)").fill("the change window closed");
  await page.getByTestId("abort-confirm-button").click();
  await expect(mission.finalStatus()).toHaveAttribute("data-value", "FAILED", { timeout: 20_000 });
  await expect(page.getByTestId("timeline-event").filter({ hasText: "mission.aborted" })).toContainText("the change window closed");
  // Ended: no controls any more.
  await expect(page.getByTestId("abort-mission")).toHaveCount(0);
});

test("an auditor reads governance: the library's risk map, definitions' risks, measures with trends, open gates and who is on duty", async ({ auditorPage: page, operatorPage }) => {
  const name = `governed ${Date.now()}`;
  await startMission(operatorPage.request, {
    name,
    objective: "a high-risk step that waits for approval",
    allowedBinaries: ["node", "git"],
    library: false,
    phases: [{ name: "EXECUTION", agents: [{ name: "pusher", priority: "critical", steps: [{ tool: "shell", args: { command: "git", args: ["push"] }, highRisk: true }] }] }],
  });
  await page.goto("/governance");
  await expect(page.getByRole("heading", { name: "Governance", level: 1 })).toBeVisible();
  // MAP: the starter library counted by category x risk, cells open the library.
  const matrix = page.getByTestId("gov-risk-matrix");
  await expect(matrix.getByRole("row", { name: /Physical/ })).toBeVisible();
  await expect(matrix.getByRole("link").first()).toHaveAttribute("href", /\/library\?category=.+&risk=/);
  const row = page.locator(`[data-testid="gov-definition-row"][data-definition="${name}"]`);
  await expect(row).toContainText("pusher / step 1 (shell)");
  await expect(row.getByText(/\d+ entr(y|ies)/)).toBeVisible(); // oversight entries tagged git / shell
  // MEASURE: metrics with a trend in words.
  await expect(page.getByTestId("gov-metrics").locator('[data-metric="missions"]')).toContainText(/Missions started\s*\d+/);
  await expect(page.getByRole("img", { name: /Per day, last \d+ days/ })).toBeVisible();
  await expect(page.getByTestId("chart-gov-daily").locator("svg.recharts-surface").first()).toBeVisible();
  await expect(page.getByTestId("chart-decision-time")).toBeVisible();
  // MANAGE: the approval gate waits; the operator who just acted is on duty.
  // The worker opens the gate after the page was first rendered: the page follows live (LiveRefresh), no reload.
  await expect(page.getByTestId("gov-gate-row").filter({ hasText: name })).toContainText("approval", { timeout: 20_000 });
  await expect(page.getByTestId("gov-on-duty").locator('li[data-on-duty="true"]').first()).toBeVisible();
  await screenshots(page, "governance");
});
