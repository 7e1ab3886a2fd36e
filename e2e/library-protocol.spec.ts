import path from "node:path";
import { expect, screenshots, startMission, test, waitForGate } from "./fixtures";
import { MissionPage } from "./pages/mission-page";

/**
 * The failure-mode library in a mission, in the browser: the simulated robot's pull fails with "0 mm
 * displacement at 30 N"; the timeline shows the ranked hypotheses with scores and risk; the operator
 * performs the latch probe and confirms it at its gate, then reports the resolution done; the robot's
 * next pull is the evidence, and the mission ends SUCCESS with the whole walk on the timeline.
 */

const ROBOT = path.resolve(import.meta.dirname, "../db/seed/robot/drawer-robot.mjs");

const shot = (page: import("@playwright/test").Page, name: string) => screenshots(page, `library-protocol-${name}`);

/** Walks' probes with a verdict, as Diagnostics counts them over the last day. */
const probedWalks = async (page: import("@playwright/test").Page) => {
  await page.goto("/diagnostics?days=1");
  return Number((/Walks in this period: (\d+)/.exec((await page.getByTestId("library-score-summary").textContent()) ?? "") ?? [])[1]);
};

test("an operator performs the library's probe at its gate, confirms it, and the timeline shows the hypotheses and the walk", async ({ operatorPage: page }) => {
  const walksBefore = await probedWalks(page);
  const id = await startMission(page.request, {
    name: `drawer ${Date.now()}`,
    objective: "Open the kitchen drawer",
    allowedBinaries: ["node"],
    phases: [{ name: "EXECUTION", agents: [{ name: "arm", priority: "critical", steps: [{ name: "pull drawer", tool: "shell", args: { command: "node", args: [ROBOT, "pull", "--force", "30"] }, evidence: [{ exit_code: 0 }, { json_path: "$.status", equals: "open" }] }] }] }],
  });
  await waitForGate(page.request, id);
  const mission = new MissionPage(page);
  await mission.open(id);

  // The probe gate: the hypothesis, its diagnostic probe and risk, Confirm / Reject.
  const gate = mission.gate();
  await expect(gate).toContainText(/Perform the probe of “Internal latch”/);
  await expect(gate.getByTestId("library-gate")).toContainText("Hypothesis 1 of");
  await expect(gate.getByTestId("library-probe-text")).not.toBeEmpty();
  await expect(mission.option("confirm")).toContainText("Recommended");
  await expect(mission.option("reject")).toBeVisible();
  // The timeline: the query and the ranked hypotheses with their scores and risk.
  const hypotheses = page.getByTestId("library-hypotheses");
  await expect(hypotheses).toContainText("0 mm displacement");
  await expect(hypotheses.getByTestId("library-hypothesis").first()).toContainText("Internal latch");
  await expect(hypotheses.getByTestId("library-hypothesis").first()).toContainText(/0\.\d\d|1\.00/);
  await shot(page, "probe-gate");

  await mission.choose("confirm", "hard stop after 8 mm with a click");
  // Physical entries have no resolution action: the operator carries out the resolution path.
  await expect(mission.gate()).toContainText(/Carry out the resolution of “Internal latch”/, { timeout: 20_000 });
  await mission.choose("done", "latch lever pressed");
  await expect(mission.finalStatus()).toHaveAttribute("data-value", "SUCCESS", { timeout: 30_000 });
  await expect(page.getByTestId("library-probe").first()).toContainText("confirmed");
  await expect(page.getByTestId("library-probe").first()).toContainText("operator");
  await expect(page.getByTestId("library-resolution")).toContainText("by an operator");
  await expect(page.getByTestId("library-resolved")).toContainText("Resolved");
  await shot(page, "timeline");

  // Diagnostics sets the library's match scores against what walks found: the confirmed probe is a case now.
  expect(await probedWalks(page)).toBeGreaterThan(walksBefore);
  const chart = page.getByTestId("chart-library-reliability");
  await chart.getByText("Numbers").click();
  await expect(chart.locator("tbody")).toContainText("Walks' verdicts");
  await expect(chart.locator("tbody")).toContainText("Labelled reports, held-out");
  await expect(chart.locator("svg.recharts-surface").first()).toBeVisible();
});
