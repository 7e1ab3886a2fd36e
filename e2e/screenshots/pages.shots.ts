import fs from "node:fs";
import path from "node:path";
import { expect, test } from "../fixtures";
import { consolePages, setTheme } from "../pages/console-pages";

const OUT = path.resolve(import.meta.dirname, "../../docs/screenshots");

/** Every console page, as an admin (who sees them all), at 1280×800 in the light and the dark theme. */
test("screenshots of every console page in both themes", async ({ adminPage: page }) => {
  test.setTimeout(240_000);
  fs.mkdirSync(OUT, { recursive: true });
  const pages = await consolePages(page.request);
  for (const [name, url] of pages) {
    await page.goto(url);
    await expect(page.locator("h1").first()).toBeVisible();
    for (const scheme of ["light", "dark"] as const) {
      await setTheme(page, scheme);
      await page.screenshot({ path: path.join(OUT, `${name}-${scheme}.png`) });
      // The mission page's timeline, below the fold: the compact log (one row an event, steps grouped).
      if (name === "mission") await page.getByTestId("timeline").screenshot({ path: path.join(OUT, `mission-timeline-${scheme}.png`) });
      // Projection modes: debug's state at a seq, and the grid-world board drawn by its domain renderer.
      if (name === "mission-debug") await page.getByTestId("debug-panel").screenshot({ path: path.join(OUT, `mission-debug-panel-${scheme}.png`) });
      if (name === "mission-gridworld") await page.getByTestId("snapshot-section").screenshot({ path: path.join(OUT, `mission-gridworld-board-${scheme}.png`) });
      // Diagnostics' calibration charts and the history's charts, below the fold.
      if (name === "diagnostics") await page.getByTestId("diagnosis-judgement").screenshot({ path: path.join(OUT, `diagnostics-calibration-${scheme}.png`) });
      if (name === "governance") await page.locator("#measure").screenshot({ path: path.join(OUT, `governance-measure-${scheme}.png`) });
      if (name === "diagnostics") await page.getByTestId("chart-recovery-per-day").screenshot({ path: path.join(OUT, `diagnostics-per-day-${scheme}.png`) });
      if (name === "diagnostics") await page.getByTestId("library-score-judgement").screenshot({ path: path.join(OUT, `diagnostics-library-scores-${scheme}.png`) });
      if (name === "history") await page.getByTestId("history-charts").screenshot({ path: path.join(OUT, `history-charts-${scheme}.png`) });
    }
  }
});
