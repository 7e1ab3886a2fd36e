import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures";

test.describe("sign-in form", () => {
  // next-auth answers a wrong password with a 401, which the browser logs.
  test.use({ allowedConsoleErrors: [/status of 401 \(Unauthorized\)/] });

  test("an operator signs in through the form and sees the missions list", async ({ page }) => {
    await page.goto("/missions");
    await expect(page).toHaveURL(/\/login/);
    await page.getByLabel("Email").fill("operator@faultline.local");
    await page.getByLabel("Password").fill("wrong password");
    await page.getByRole("button", { name: /sign in/i }).click();
    await expect(page.getByTestId("login-error")).toBeVisible();
    await page.getByLabel("Password").fill("faultline-operator");
    await page.getByRole("button", { name: /sign in/i }).click();
    await expect(page).toHaveURL(/\/missions/);
    await expect(page.getByTestId("current-user")).toContainText(/operator/i);
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });
});

test("the API refuses requests without a session with a clear JSON error", async ({ request }) => {
  const res = await request.get("/api/v1/missions");
  expect(res.status()).toBe(401);
  const body = await res.json();
  expect(body.error.message).toMatch(/sign in/i);
});
