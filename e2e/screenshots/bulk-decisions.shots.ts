import fs from "node:fs";
import path from "node:path";
import { defs, expect, startMission, test, waitForGate } from "../fixtures";
import { setTheme } from "../pages/console-pages";

const OUT = path.resolve(import.meta.dirname, "../../docs/screenshots");

/** The decision inbox's bulk bar (two gates selected, Abort and a note) and its results, light and dark, for the operator guide. */
test("screenshots of a bulk decision in both themes", async ({ operatorPage: page }) => {
  fs.mkdirSync(OUT, { recursive: true });
  const names = ["Deploy web to staging", "Deploy api to staging"];
  const ids = await Promise.all(names.map((n) => startMission(page.request, defs.gated(n))));
  const gateIds = await Promise.all(ids.map((id) => waitForGate(page.request, id)));
  await page.goto("/gates");
  for (const g of gateIds) await page.locator(`[data-testid="gate-panel"][data-gate-id="${g}"]`).getByTestId("gate-select").check();
  const bar = page.getByTestId("bulk-bar");
  await bar.getByTestId("bulk-decision-abort").getByRole("radio").check();
  await bar.getByLabel(/^Note/).fill("Release cancelled: stopping the waiting deploys");
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const scheme of ["light", "dark"] as const) {
    await setTheme(page, scheme);
    await page.screenshot({ path: path.join(OUT, `gates-bulk-bar-${scheme}.png`) });
  }
  await setTheme(page, "light");
  await bar.getByTestId("bulk-decide").click();
  const dialog = page.getByTestId("confirm-dialog");
  await expect(dialog).toBeVisible();
  for (const scheme of ["light", "dark"] as const) {
    await setTheme(page, scheme);
    await page.screenshot({ path: path.join(OUT, `gates-bulk-confirm-${scheme}.png`) });
  }
  await setTheme(page, "light");
  await dialog.getByTestId("confirm-action").click();
  await expect(page.getByTestId("bulk-summary")).toHaveText("Bulk decision: 2 decided.");
  for (const scheme of ["light", "dark"] as const) {
    await setTheme(page, scheme);
    await page.getByTestId("bulk-results").screenshot({ path: path.join(OUT, `gates-bulk-results-${scheme}.png`) });
  }
});
