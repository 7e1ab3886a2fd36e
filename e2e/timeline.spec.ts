import { expect, screenshots, startMission, test } from "./fixtures";
import { MissionPage } from "./pages/mission-page";

const steps = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `tick ${i + 1}`, tool: "shell", args: { command: "true" } }));

test("the timeline is compact: one row an event, a step's events grouped, details on expand; 15 events fit at 1280×800", async ({ operatorPage: page }) => {
  const id = await startMission(page.request, { name: `compact ${Date.now()}`, objective: "Tick a few times", allowedBinaries: ["true"], phases: [{ name: "EXECUTION", agents: [{ name: "ticker", priority: "critical", steps: steps(5) }] }] });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/missions/${id}`);
  const mission = new MissionPage(page);
  await expect(mission.finalStatus()).toHaveAttribute("data-value", "SUCCESS");
  const rows = page.getByTestId("timeline-event");
  expect(await rows.count()).toBeGreaterThanOrEqual(15);
  // Fifteen rows take less than one screen.
  const first = (await rows.nth(0).boundingBox())!;
  const fifteenth = (await rows.nth(14).boundingBox())!;
  expect(fifteenth.y + fifteenth.height - first.y).toBeLessThan(800);
  // A step's events sit together under its label.
  await expect(page.getByTestId("timeline-group").first()).toContainText("ticker · step 1 · attempt 1");
  // Details open on demand, by keyboard too.
  const finished = rows.filter({ hasText: "mission.finished" });
  await expect(finished.getByText("Impact")).toBeHidden();
  await finished.locator("summary").first().focus();
  await page.keyboard.press("Enter");
  await expect(finished.getByText("Impact")).toBeVisible();
  await screenshots(page, "timeline-compact");
});

test("a long log renders only the rows in view and still reaches its last event", async ({ operatorPage: page }) => {
  // 110 steps: more than 200 events.
  const id = await startMission(page.request, { name: `long ${Date.now()}`, objective: "Tick many times", allowedBinaries: ["true"], phases: [{ name: "EXECUTION", agents: [{ name: "ticker", priority: "critical", steps: steps(110) }] }] });
  await page.goto(`/missions/${id}`);
  const mission = new MissionPage(page);
  await expect(mission.finalStatus()).toHaveAttribute("data-value", "SUCCESS", { timeout: 60_000 });
  await expect(page.getByRole("heading", { name: /Timeline/ })).toContainText(/\(2\d\d events\)/);
  const viewport = page.getByTestId("timeline-viewport");
  await expect(viewport).toBeVisible();
  expect(await page.getByTestId("timeline-event").count()).toBeLessThan(120);
  await viewport.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect(page.getByTestId("timeline-event").filter({ hasText: "mission.finished" })).toBeVisible();
});
