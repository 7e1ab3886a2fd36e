import AxeBuilder from "@axe-core/playwright";
import { defs, expect, screenshots, startMission, test, waitForGate } from "./fixtures";

/**
 * Bulk decisions (issue 15) in the decision inbox: an operator selects two waiting gates (a click and the
 * X key), chooses Abort with one note, confirms, and sees both decided; each is its own audited decision,
 * which an auditor finds in the audit log.
 */
test("an operator aborts two waiting gates at once with one note; both missions end FAILED and an auditor finds two audit rows", async ({ operatorPage: page, auditorPage }) => {
  const stamp = Date.now().toString(36);
  const names = [`bulk one ${stamp}`, `bulk two ${stamp}`];
  const ids = await Promise.all(names.map((n) => startMission(page.request, defs.gated(n))));
  const gateIds = await Promise.all(ids.map((id) => waitForGate(page.request, id)));

  await page.goto("/gates");
  const panel = (i: number) => page.locator(`[data-testid="gate-panel"][data-gate-id="${gateIds[i]}"]`);
  await expect(panel(0)).toContainText(names[0]);
  await expect(panel(1)).toContainText(names[1]);
  await expect(page.getByTestId("bulk-bar")).toHaveCount(0);

  // One by its labelled checkbox, the other with X on the focused panel.
  await page.getByRole("checkbox", { name: `Select the gate of “deployer” in mission ${names[0]} for a bulk decision` }).check();
  await expect(panel(0)).toHaveAttribute("data-selected", "true");
  await panel(1).focus();
  await page.keyboard.press("x");
  await expect(panel(1)).toHaveAttribute("data-selected", "true");
  await expect(panel(1).getByTestId("gate-select")).toBeChecked();

  const bar = page.getByTestId("bulk-bar");
  await expect(bar).toContainText("Decide 2 selected gates at once");
  // Approve / reject / abort always, plus what both gates offer (allow scp and retry, skip); approve is offered by neither.
  await expect(bar.getByTestId("bulk-decision-abort")).toContainText("all 2");
  await expect(bar.getByTestId("bulk-decision-skip")).toBeVisible();
  await expect(bar.getByTestId("bulk-decision-approve")).toContainText("0 of 2");
  await expect(bar.getByTestId("bulk-decide")).toBeDisabled();
  await bar.getByTestId("bulk-decision-abort").getByRole("radio").check();
  const note = `release cancelled ${stamp}`;
  await bar.getByLabel(/^Note/).fill(note);
  const a11y = await new AxeBuilder({ page }).analyze();
  expect(a11y.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await screenshots(page, "gates-bulk-bar", { fullPage: false });

  await bar.getByTestId("bulk-decide").click();
  const dialog = page.getByTestId("confirm-dialog");
  await expect(dialog).toContainText("Abort 2 gates?");
  await expect(dialog).toContainText("Each of the 2 selected gates is decided on its own as Abort with your note");
  await dialog.getByTestId("confirm-action").click();

  const results = page.getByTestId("bulk-results");
  await expect(results.getByTestId("bulk-summary")).toHaveText("Bulk decision: 2 decided.");
  await expect(results.locator('[data-testid="bulk-result"][data-ok="true"]')).toHaveCount(2);
  for (const n of names) await expect(results.getByTestId("bulk-result").filter({ hasText: n })).toContainText(`Decided: Abort for “deployer” in ${n}.`);
  // The decided gates leave the inbox and the selection (the bar goes with it).
  await expect(panel(0)).toHaveCount(0);
  await expect(panel(1)).toHaveCount(0);
  await expect(bar).toHaveCount(0);
  for (const id of ids) {
    await expect.poll(async () => (await (await page.request.get(`/api/v1/missions/${id}`)).json()).finalStatus, { timeout: 20_000 }).toBe("FAILED");
  }

  // The auditor: one gate.decide row per gate, each with the note.
  await auditorPage.goto(`/audit?action=gate.decide&q=${encodeURIComponent(note)}`);
  const rows = auditorPage.getByTestId("audit-table").getByRole("row").filter({ hasText: note });
  await expect(rows).toHaveCount(2);
  for (const n of names) await expect(rows.filter({ hasText: n })).toContainText("Demo operator chose abort");
});

test("a decision the selected gates do not offer: the bar warns, each gate is refused with the server's reason and stays open and selected for another decision", async ({ operatorPage: page }) => {
  const stamp = Date.now().toString(36);
  const ids = await Promise.all([`bulk refuse one ${stamp}`, `bulk refuse two ${stamp}`].map((n) => startMission(page.request, defs.gated(n))));
  const gateIds = await Promise.all(ids.map((id) => waitForGate(page.request, id)));
  await page.goto("/gates");
  for (const g of gateIds) await page.locator(`[data-testid="gate-panel"][data-gate-id="${g}"]`).getByTestId("gate-select").check();
  const bar = page.getByTestId("bulk-bar");
  await bar.getByTestId("bulk-decision-approve").getByRole("radio").check();
  await expect(bar.getByTestId("bulk-not-offered")).toHaveText("2 selected gates do not offer Approve: they will be reported as refused and stay open.");
  await bar.getByTestId("bulk-decide").click();
  await page.getByTestId("confirm-action").click();
  const results = page.getByTestId("bulk-results");
  await expect(results.getByTestId("bulk-summary")).toContainText("Bulk decision: 0 decided, 2 refused");
  await expect(results.locator('[data-testid="bulk-result"][data-ok="false"]')).toHaveCount(2);
  await expect(results.getByTestId("bulk-result").first()).toContainText("Refused: Approve for “deployer”");
  await expect(results.getByTestId("bulk-result").first()).toContainText("This gate does not offer approve; it offers allow_binary");
  // Still open and still selected: another decision for the same selection.
  for (const g of gateIds) await expect(page.locator(`[data-testid="gate-panel"][data-gate-id="${g}"]`)).toHaveAttribute("data-selected", "true");
  await bar.getByTestId("bulk-decision-skip").getByRole("radio").check();
  await bar.getByTestId("bulk-decide").click();
  await page.getByTestId("confirm-action").click();
  await expect(page.getByTestId("bulk-summary")).toHaveText("Bulk decision: 2 decided.");
  await expect(bar).toHaveCount(0);
});
