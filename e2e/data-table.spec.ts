import { defs, expect, startMission, test } from "./fixtures";

/**
 * The console's one data table (components/ui/data-table.tsx), as a user meets it on the missions list:
 * a header sorts (and says so to assistive tech), the column menu hides a column from the keyboard,
 * and the URL keeps both through a reload; an empty list says why in the table.
 */
test("the missions list sorts by a column and hides a column, and a reload keeps both", async ({ operatorPage: page }) => {
  const stamp = Date.now().toString(36);
  // "b" first, so "a" is the newer one: the default order (newest first) puts "a" above "b".
  await startMission(page.request, defs.gated(`dt b ${stamp}`));
  await startMission(page.request, defs.gated(`dt a ${stamp}`));

  await page.goto("/missions");
  const table = page.getByTestId("missions-table");
  const rowA = page.getByTestId(`mission-row-dt a ${stamp}`);
  const rowB = page.getByTestId(`mission-row-dt b ${stamp}`);
  await expect(rowA).toBeVisible();
  await expect(rowB).toBeVisible();
  const order = () => table.locator("tbody tr[data-mission-id]").evaluateAll((trs, s) => trs.map((tr) => tr.getAttribute("data-testid")).filter((t) => t?.endsWith(s as string)), stamp);
  expect(await order()).toEqual([`mission-row-dt a ${stamp}`, `mission-row-dt b ${stamp}`]);

  // Sort by name, descending (a header is a button; the header cell says which way it sorts).
  const nameHeader = table.getByRole("columnheader", { name: "Mission" });
  await expect(nameHeader).toHaveAttribute("aria-sort", "none");
  await nameHeader.getByRole("button").click();
  await expect(nameHeader).toHaveAttribute("aria-sort", "ascending");
  await nameHeader.getByRole("button").click();
  await expect(nameHeader).toHaveAttribute("aria-sort", "descending");
  await expect(page).toHaveURL(/[?&]sort=name&dir=desc/);
  expect(await order()).toEqual([`mission-row-dt b ${stamp}`, `mission-row-dt a ${stamp}`]);

  // Hide "Phase" from the keyboard: the column menu is a Radix menu of checkboxes.
  await expect(table.getByRole("columnheader", { name: "Phase" })).toBeVisible();
  await page.getByTestId("missions-table-columns").focus();
  await page.keyboard.press("Enter");
  const phaseItem = page.getByRole("menuitemcheckbox", { name: "Phase" });
  await expect(phaseItem).toHaveAttribute("aria-checked", "true");
  await phaseItem.focus();
  await page.keyboard.press("Space");
  await expect(phaseItem).toHaveAttribute("aria-checked", "false");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu")).toHaveCount(0);
  await expect(table.getByRole("columnheader", { name: "Phase" })).toHaveCount(0);
  await expect(page).toHaveURL(/[?&]hide=phase(&|$)/);
  await expect(page.getByTestId("missions-table-columns")).toContainText("1 hidden");

  // A reload (or a shared link) shows the same view.
  await page.reload();
  await expect(table.getByRole("columnheader", { name: "Mission" })).toHaveAttribute("aria-sort", "descending");
  await expect(table.getByRole("columnheader", { name: "Phase" })).toHaveCount(0);
  await expect(rowA).toBeVisible();
  expect(await order()).toEqual([`mission-row-dt b ${stamp}`, `mission-row-dt a ${stamp}`]);

  // "Show all columns" brings it back and takes it out of the URL.
  await page.getByTestId("missions-table-columns").click();
  await page.getByRole("menuitem", { name: "Show all columns" }).click();
  await expect(table.getByRole("columnheader", { name: "Phase" })).toBeVisible();
  await expect(page).not.toHaveURL(/hide=/);
});

test("a list with nothing to show says so inside the table, under its headers", async ({ auditorPage: page }) => {
  await page.goto(`/history?q=${encodeURIComponent(`no such failure ${Date.now()}`)}`);
  const table = page.getByTestId("history-table");
  await expect(table.getByRole("columnheader", { name: "Error type" })).toBeVisible();
  await expect(table).toContainText("No failures match these filters. Widen the time range or clear a filter.");
  await expect(page.getByTestId("history-count")).toHaveText("(0)");
});
