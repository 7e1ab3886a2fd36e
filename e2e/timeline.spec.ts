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

test("a log longer than its first window opens at its newest events, pages in older ones as it scrolls, and filters on the server", async ({ operatorPage: page }) => {
  test.setTimeout(120_000);
  // 220 steps: more than the 400 events the page opens with.
  const id = await startMission(page.request, { name: `paged ${Date.now()}`, objective: "Tick very many times", allowedBinaries: ["true"], phases: [{ name: "EXECUTION", agents: [{ name: "ticker", priority: "critical", steps: steps(220) }] }] });
  await page.goto(`/missions/${id}`);
  const mission = new MissionPage(page);
  await expect(mission.finalStatus()).toHaveAttribute("data-value", "SUCCESS", { timeout: 90_000 });
  await page.reload();
  const total = Number((await page.getByRole("heading", { name: /Timeline/ }).textContent())!.match(/\(([\d,]+) events\)/)![1].replace(/,/g, ""));
  expect(total).toBeGreaterThan(400);
  // Opens at the newest events, says what is loaded.
  const status = page.getByTestId("timeline-loaded");
  await expect(status).toContainText(`of ${total} events loaded`);
  await expect(status).toContainText("older load as you scroll");
  await expect(page.getByTestId("timeline-event").filter({ hasText: "mission.finished" })).toBeVisible();
  // Scrolling up reaches the first event: the older page comes in.
  const viewport = page.getByTestId("timeline-viewport");
  await expect(async () => {
    await viewport.evaluate((el) => el.scrollTo({ top: 0 }));
    await expect(page.locator('[data-testid="timeline-event"][data-seq="1"]')).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(status).toContainText(`${total} of ${total} events loaded`);
  // A filter asks the server: one phase.started.
  await page.getByTestId("timeline-filter-type").selectOption("phase.started");
  await expect(status).toContainText("1 matching event loaded");
  await expect(page.getByTestId("timeline-event")).toHaveCount(1);
  await expect(page.getByTestId("timeline-event")).toContainText("phase.started");
  await page.getByTestId("timeline-filter-type").selectOption("");
  await expect(status).toContainText(`of ${total} events loaded`);
});
