import { randomBytes } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { expect, screenshots, test } from "./fixtures";

/**
 * User administration as the admin (demo users are never changed: every test makes its own users with
 * unique emails), and the refusal an operator sees.
 */

const unique = (who: string) => `${who}-${Date.now().toString(36)}-${randomBytes(2).toString("hex")}@e2e.test`;

/** A fresh browser (no session), signed in through the form. */
async function signInFresh(browser: Browser, email: string, password: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: /sign in/i }).click();
  return page;
}

async function addUser(page: Page, opts: { name: string; email: string; roles: string[]; groups?: string; password?: string }) {
  await page.goto("/admin/users");
  const form = page.getByTestId("new-user-form");
  if (opts.password) await form.getByLabel(/set an initial password/i).check();
  await form.getByLabel("Name").fill(opts.name);
  await form.getByLabel("Email").fill(opts.email);
  for (const r of opts.roles) await form.getByLabel(r, { exact: true }).check();
  if (opts.groups) await form.getByLabel(/groups/i).fill(opts.groups);
  if (opts.password) await form.getByLabel(/^Initial password/).fill(opts.password);
  await page.getByTestId("new-user-submit").click();
}

test("an admin creates a user with an initial password; the user must choose their own at first sign-in", async ({ adminPage, browser }) => {
  const email = unique("olga");
  await adminPage.goto("/admin/users");
  // Field errors first: nothing filled in.
  await adminPage.getByLabel(/set an initial password/i).check();
  await adminPage.getByTestId("new-user-submit").click();
  await expect(adminPage.getByTestId("field-error-email")).toBeVisible();
  await expect(adminPage.getByTestId("field-error-roles")).toContainText("choose at least one role");
  await expect(adminPage.getByTestId("field-error-password")).toContainText("at least 10 characters");

  await addUser(adminPage, { name: "Olga E2E", email, roles: ["operator"], groups: "night-shift", password: "initial-pass-1" });
  await expect(adminPage.getByTestId("new-user-result")).toContainText("Olga E2E");
  const row = adminPage.locator(`[data-testid=user-row][data-email="${email}"]`);
  await expect(row).toContainText("operator");
  await expect(row).toContainText("night-shift");
  await expect(row.getByTestId("user-status")).toHaveAttribute("data-value", "must-change-password");
  await expect(row).toContainText("never");

  const user = await signInFresh(browser, email, "initial-pass-1");
  await expect(user).toHaveURL(/\/account\/password/);
  await expect(user.getByTestId("must-change-password")).toBeVisible();
  // Anywhere else in the console leads back here until the password is changed.
  await user.goto("/missions");
  await expect(user).toHaveURL(/\/account\/password/);
  await user.getByLabel("Current password").fill("initial-pass-1");
  await user.getByLabel("New password (at least 10 characters)").fill("olgas-own-password");
  await user.getByLabel("New password again").fill("olgas-own-password");
  await user.getByTestId("change-password-submit").click();
  await expect(user).toHaveURL(/\/missions/);
  await expect(user.getByTestId("current-user")).toContainText("Olga E2E");
  await user.context().close();

  await adminPage.reload();
  await expect(adminPage.locator(`[data-testid=user-row][data-email="${email}"]`).getByTestId("user-status")).toHaveAttribute("data-value", "active");
});

test("an admin invites a user; the link sets a password once and signs them in", async ({ adminPage, browser }) => {
  const email = unique("ivan");
  await addUser(adminPage, { name: "Ivan Invited", email, roles: ["reviewer"] });
  const link = await adminPage.getByTestId("invite-link-value").textContent();
  expect(link).toMatch(/\/invite\/[\w-]{43}$/);
  await expect(adminPage.getByTestId("invite-link")).toContainText(/sends no email/);

  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  await page.goto(link!);
  await expect(page.getByTestId("invite-email")).toHaveText(email);
  await page.getByLabel("New password (at least 10 characters)").fill("ivans-password-1");
  await page.getByLabel("New password again").fill("ivans-password-2");
  await page.getByTestId("invite-submit").click();
  await expect(page.getByTestId("field-error-confirm")).toContainText("does not match");
  await page.getByLabel("New password again").fill("ivans-password-1");
  await page.getByTestId("invite-submit").click();
  await expect(page).toHaveURL(/\/missions/);
  await expect(page.getByTestId("current-user")).toContainText("Ivan Invited");
  // The link worked once.
  await page.goto(link!);
  await expect(page.getByTestId("invite-refused")).toHaveAttribute("data-status", "used");
  await expect(page.getByTestId("invite-refused")).toContainText("already been used");
  await context.close();
});

test("an admin changes roles and groups, resets the password, and deactivates a user whose open session then ends", async ({ adminPage, browser }) => {
  const email = unique("dora");
  await addUser(adminPage, { name: "Dora Deactivated", email, roles: ["contributor"], password: "doras-password-1" });
  await expect(adminPage.getByTestId("new-user-result")).toBeVisible();
  await adminPage.locator(`[data-testid=user-row][data-email="${email}"]`).getByRole("link", { name: "Dora Deactivated" }).click();
  await expect(adminPage.getByTestId("user-name")).toHaveText("Dora Deactivated");

  // Roles and groups.
  const access = adminPage.getByTestId("user-access-form");
  await access.getByLabel("reviewer", { exact: true }).check();
  await access.getByLabel(/groups/i).fill("Night Shift");
  await adminPage.getByTestId("user-access-save").click();
  await expect(adminPage.getByTestId("field-error-groups")).toContainText("lowercase letters, digits and dashes");
  await access.getByLabel(/groups/i).fill("night-shift, on-call");
  await adminPage.getByTestId("user-access-save").click();
  await expect(adminPage.getByTestId("user-access-saved")).toBeVisible();
  await expect(adminPage.locator("[data-testid=user-audit-row][data-action='user.roles']")).toContainText("contributor → reviewer, contributor");
  await expect(adminPage.locator("[data-testid=user-audit-row][data-action='user.groups']")).toContainText("night-shift, on-call");

  // A temporary password: shown once; the old one no longer works.
  await adminPage.getByTestId("reset-temporary").click();
  await adminPage.getByTestId("confirm-reset").click();
  const temp = (await adminPage.getByTestId("reset-secret-value").textContent())!;
  expect(temp).toMatch(/^\w{16}$/);
  await screenshots(adminPage, "admin-user-page");

  // Dora signs in with it (and picks her own), then is deactivated while her page is open.
  const dora = await signInFresh(browser, email, temp);
  await expect(dora).toHaveURL(/\/account\/password/);
  await dora.getByLabel("Current password").fill(temp);
  await dora.getByLabel("New password (at least 10 characters)").fill("doras-password-2");
  await dora.getByLabel("New password again").fill("doras-password-2");
  await dora.getByTestId("change-password-submit").click();
  await expect(dora).toHaveURL(/\/missions/);

  await adminPage.reload();
  await adminPage.getByTestId("deactivate-user").click();
  await adminPage.getByTestId("confirm-deactivate").click();
  await expect(adminPage.getByTestId("user-status")).toHaveAttribute("data-value", "deactivated");
  await expect(adminPage.getByTestId("reactivate-user")).toBeVisible();
  await expect(adminPage.locator("[data-testid=user-audit-row][data-action='user.deactivate']")).toBeVisible();

  await dora.goto("/library");
  await expect(dora).toHaveURL(/\/login/);
  const api = await dora.request.get("/api/v1/missions");
  expect(api.status()).toBe(401);
  await dora.context().close();
});

test("the users page in light and dark", async ({ adminPage }) => {
  await adminPage.goto("/admin/users");
  await expect(adminPage.getByTestId("users-table")).toBeVisible();
  await expect(adminPage.locator("[data-testid=user-row][data-email='admin@faultline.local']")).toBeVisible();
  await screenshots(adminPage, "admin-users");
});

test("an operator is refused the users page, and sees their own API tokens", async ({ operatorPage, request }) => {
  await operatorPage.goto("/admin/users");
  await expect(operatorPage.getByTestId("admin-refused")).toContainText(/do not allow user manage.*admin/);
  await expect(operatorPage.getByTestId("users-table")).toHaveCount(0);

  await operatorPage.goto("/account/tokens");
  const name = `e2e-${randomBytes(3).toString("hex")}`;
  await operatorPage.getByLabel(/^Name/).fill(name);
  await operatorPage.getByTestId("new-token-submit").click();
  const token = (await operatorPage.getByTestId("new-token-value").textContent())!;
  expect(token).toMatch(/^flt_/);
  const row = operatorPage.locator(`[data-testid=token-row][data-name="${name}"]`);
  await expect(row).toHaveAttribute("data-state", "active");
  // The token works on the API without cookies, then stops when revoked.
  const res = await request.get("/api/v1/tokens", { headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  expect((await res.json()).tokens.map((t: { name: string }) => t.name)).toContain(name);
  await row.getByTestId("revoke-token").click();
  await expect(row).toHaveAttribute("data-state", "revoked");
  expect((await request.get("/api/v1/tokens", { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401);
  await screenshots(operatorPage, "account-tokens");
});
