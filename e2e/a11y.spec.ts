import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures";
import { consolePages, setTheme } from "./pages/console-pages";

/** Every console page, in the light and the dark theme, has no accessibility violation axe can find (WCAG 2 A/AA). */
test("every console page passes axe in both themes", async ({ adminPage: page }) => {
  test.setTimeout(300_000);
  const found: string[] = [];
  for (const [name, url] of await consolePages(page.request)) {
    await page.goto(url);
    await expect(page.locator("h1").first()).toBeVisible();
    for (const scheme of ["light", "dark"] as const) {
      await setTheme(page, scheme);
      const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      for (const v of axe.violations) found.push(`${name} (${scheme}) ${v.id} [${v.impact}]: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
    }
  }
  expect(found).toEqual([]);
});
