import { defs, expect, screenshots, startMission, test, waitForGate } from "./fixtures";
import { MissionPage } from "./pages/mission-page";

/**
 * Gate policies (issue 6): an admin sets a policy for a mission definition; the gate of that mission
 * shows who can decide and when it times out; two different people are needed to decide it.
 */
test("an admin's policy needs 2 approvals and times out in 4 h: the operator's choice counts 1 of 2, the admin's second resolves the gate", async ({ adminPage: admin, operatorPage: operator }) => {
  const name = `Policy deploy ${Date.now()}`;

  // The admin creates the policy; a bad timeout is refused with the field's reason first.
  await admin.goto("/admin/policies");
  await expect(admin.getByRole("heading", { name: "Gate policies", level: 1 })).toBeVisible();
  const form = admin.getByTestId("policy-form");
  await form.getByLabel("Mission definition").fill(name);
  await form.getByLabel("Gate kind").selectOption("agent");
  await form.getByLabel("Distinct approvals needed").fill("2");
  await form.getByLabel("Timeout (empty: none)").fill("31");
  await form.getByLabel("Timeout unit").selectOption("d");
  await form.getByLabel("Then the system chooses").selectOption("abort");
  await form.getByTestId("policy-save").click();
  await expect(form.getByTestId("field-error-timeoutMs")).toHaveText("must be at most 30 days");
  await expect(form.getByTestId("policy-form-error")).toBeVisible();
  await form.getByLabel("Timeout (empty: none)").fill("4");
  await form.getByLabel("Timeout unit").selectOption("h");
  await form.getByTestId("policy-save").click();
  await expect(admin.getByTestId("policy-result")).toContainText(`Created the policy for '${name}', agent gates.`);
  const row = admin.getByTestId("policy-row").filter({ hasText: name });
  await expect(row).toContainText("Admins and operators");
  await expect(row).toContainText("4 h → abort");
  await screenshots(admin, "admin-policies");

  // The operator starts that mission; its gate says who can decide and when it times out.
  const id = await startMission(operator.request, defs.gated(name));
  await waitForGate(operator.request, id);
  const mission = new MissionPage(operator);
  await mission.open(id);
  const policy = mission.gate().getByTestId("gate-policy");
  await expect(policy.getByTestId("gate-policy-who")).toHaveText("Admins and operators · 2 approvals needed (none so far)");
  await expect(policy).toContainText(`policy for definition '${name}', agent gates`);
  await expect(policy.getByTestId("gate-deadline")).toContainText(/Times out in (4|3) hours? → the system chooses abort/);
  await screenshots(operator, "gate-under-policy");

  // The operator's choice is one approval of two; the gate stays open and they cannot choose again.
  await mission.choose("abort", "staging is down tonight");
  await expect(mission.gate().getByTestId("gate-result")).toContainText("1 of 2 approvals of abort; the gate stays open until 1 more person chooses it.");
  await expect(policy.getByTestId("gate-policy-who")).toHaveText(/1 so far: .+ \(abort\)/);
  await operator.reload();
  await expect(mission.gate().getByTestId("gate-readonly")).toContainText("You already chose abort on this gate; it needs 2 different people (1 so far).");
  await expect(mission.gate().getByTestId("gate-option-abort")).toHaveCount(0);

  // The admin, a different person, makes it 2 of 2 from the gates inbox: the mission ends FAILED.
  await admin.goto("/gates");
  const inbox = admin.getByTestId("gate-panel").filter({ hasText: name });
  await expect(inbox.getByTestId("gate-policy-who")).toContainText("2 approvals needed (1 so far:");
  await screenshots(admin, "gates-inbox-policy");
  await inbox.getByTestId("gate-option-abort").click();
  // The gate leaves the live inbox as the decision lands; the inbox keeps what the admin chose.
  await expect(admin.getByTestId("inbox-decided").filter({ hasText: name })).toContainText("You chose abort");
  await expect(mission.finalStatus()).toHaveAttribute("data-value", "FAILED");
  await expect(operator.getByTestId("timeline-event").filter({ hasText: "gate.resolved" })).toContainText("(2 of 2)");
  await expect(operator.getByTestId("timeline-event").filter({ hasText: "gate.approval" })).toHaveCount(2);
});

test("only admins manage gate policies: an operator sees why not", async ({ operatorPage: page }) => {
  await page.goto("/admin/policies");
  await expect(page.getByTestId("policies-refused")).toContainText("do not allow policy manage: that needs admin");
  const res = await page.request.post("/api/v1/policies", { data: { definition: "x", gateKind: "agent" } });
  expect(res.status()).toBe(403);
});
