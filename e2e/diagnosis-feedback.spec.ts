import { defs, expect, startMission, test, waitForGate } from "./fixtures";
import { MissionPage } from "./pages/mission-page";

const judged = async (page: import("@playwright/test").Page) => Number((/(\d+) diagnos[ie]s judged/.exec((await page.getByTestId("diagnosis-verdicts").textContent()) ?? "") ?? [])[1]);

test("an operator corrects a diagnosis at its gate; Diagnostics' calibration and accuracy charts count it", async ({ operatorPage: page }) => {
  await page.goto("/diagnostics?days=1");
  await expect(page.getByTestId("chart-reliability")).toBeVisible();
  const before = await judged(page);

  const id = await startMission(page.request, defs.gated(`teach ${Date.now()}`));
  await waitForGate(page.request, id);
  await page.goto(`/missions/${id}`);
  const gate = new MissionPage(page).gate();
  const feedback = gate.getByTestId("diagnosis-feedback");
  await expect(feedback).toContainText("Is this diagnosis right?");
  await feedback.getByTestId("diagnosis-correct").click();
  const stated = (await gate.getByTestId("diagnosis").locator("summary").textContent()) ?? "";
  const right = stated.includes("command not found") ? "environment_missing" : "command_not_found";
  await feedback.getByTestId("diagnosis-correct-type").selectOption(right);
  await feedback.getByTestId("diagnosis-correct-save").click();
  await expect(feedback.getByTestId("diagnosis-verdict")).toContainText(`Corrected to ${right.replaceAll("_", " ")} by Demo operator`);

  await page.goto("/diagnostics?days=1");
  await expect(page.getByTestId("diagnosis-verdicts")).toContainText(`${before + 1} diagnos`);
  await expect(page.getByTestId("diagnosis-corrections")).toContainText(right.replaceAll("_", " "));
  // The charts' own numbers: today's row in the accuracy chart, and the operators' series in the reliability diagram.
  await page.getByTestId("chart-accuracy").getByText("Numbers").click();
  await expect(page.getByTestId("chart-accuracy").locator("tbody tr").last()).toContainText(new Date().toISOString().slice(0, 10));
  await page.getByTestId("chart-reliability").getByText("Numbers").click();
  await expect(page.getByTestId("chart-reliability").locator("tbody")).toContainText("Operators' verdicts");
  await expect(page.getByTestId("chart-reliability").locator("svg.recharts-surface").first()).toBeVisible();
});

test("an auditor sees the verdict but cannot give one", async ({ operatorPage, auditorPage }) => {
  const id = await startMission(operatorPage.request, defs.gated(`verdict ro ${Date.now()}`));
  await waitForGate(operatorPage.request, id);
  await auditorPage.goto(`/missions/${id}`);
  const feedback = new MissionPage(auditorPage).gate().getByTestId("diagnosis-feedback");
  await expect(feedback).toContainText("Is this diagnosis right?");
  await expect(feedback.getByRole("button")).toHaveCount(0);
});
