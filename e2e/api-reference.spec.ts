import AxeBuilder from "@axe-core/playwright";
import { expect, screenshots, test } from "./fixtures";

test("an integrator reads the API reference in the console and fetches the OpenAPI document it is made from", async ({ auditorPage: page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "API reference" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();

  // An operation with a body: the gate decision, its permission and its schema's enum.
  const decide = page.locator('[data-testid="api-operation"][data-operation="decideGate"]');
  await expect(decide).toContainText("POST");
  await expect(decide).toContainText("/api/v1/gates/{id}/decision");
  await expect(decide).toContainText("gate.decide");
  await decide.getByText("Request body (application/json)").click();
  await expect(decide.locator("pre")).toContainText('"retry"');
  // The bulk decision: its request body and its response body's schema (a registered component, shown in full).
  const bulk = page.locator('[data-testid="api-operation"][data-operation="bulkDecideGates"]');
  await expect(bulk).toContainText("/api/v1/gates/bulk-decision");
  await bulk.getByText("Response body 200 (application/json)").click();
  await expect(bulk.locator("pre").last()).toContainText('"approval_recorded"');
  // An operation with query parameters: their bounds and defaults come from the validators.
  const events = page.locator('[data-testid="api-operation"][data-operation="missionEvents"]');
  await expect(events.getByRole("row", { name: /limit/ })).toContainText("1–10000, default 1000");

  // The machine-readable document behind the page, as a client would fetch it.
  const href = await page.getByTestId("openapi-link").getAttribute("href");
  const res = await page.request.get(href!);
  expect(res.status()).toBe(200);
  const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, { operationId: string }>> };
  expect(doc.openapi).toBe("3.1.0");
  expect(doc.paths["/api/v1/proposals/{id}/decision"].post.operationId).toBe("decideProposal");
  expect(await page.getByTestId("api-operation").count()).toBe(Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0));

  // A run's proposal answer: the DecisionRecord and HITLPrompt it carries are shown in full (what the TypeScript client is typed from).
  const propose = page.locator('[data-testid="api-operation"][data-operation="proposeRunCall"]');
  await propose.getByText("Response body 201 (application/json)").click();
  await expect(propose.locator("pre").last()).toContainText('"AUTHORITY_REJECTION"');
  await expect(propose.locator("pre").last()).toContainText('"POLICY_HOLD"');
  await expect(propose.locator("pre").last()).not.toContainText("$ref");

  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.length}`)).toEqual([]);
  await propose.scrollIntoViewIfNeeded();
  await screenshots(page, "api-reference", { fullPage: false });
});
