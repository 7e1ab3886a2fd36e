import { expect, signIn, test } from "./fixtures";

test("the theme is a menu (system, light, dark); a signed-in person's choice follows them to another browser", async ({ browser, contributorPage: page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/library");
  const html = page.locator("html");
  await page.getByTestId("theme-toggle").click();
  const menu = page.getByRole("menu");
  await expect(menu.getByRole("menuitemradio", { name: "Follow the system" })).toBeVisible();
  // Keyboard: arrows move, Enter chooses.
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitemradio", { name: "Dark" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(html).toHaveAttribute("data-theme", "dark");
  await expect(page.getByTestId("theme-toggle")).toHaveAccessibleName("Theme: Dark");

  // Another browser, nothing in its storage, a light system: the saved choice applies from the first paint.
  const other = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, colorScheme: "light" });
  try {
    await signIn(other, "contributor");
    const p2 = await other.newPage();
    await p2.goto("/library");
    await expect(p2.locator("html")).toHaveAttribute("data-theme", "dark");
    // Back to following the system: a light system gives light.
    await p2.getByTestId("theme-toggle").click();
    await p2.getByRole("menuitemradio", { name: "Follow the system" }).click();
    await expect(p2.locator("html")).toHaveAttribute("data-theme", "light");
  } finally {
    await other.close();
  }
  await page.reload();
  await expect(html).toHaveAttribute("data-theme", "light");
});
