import { expect, screenshots, startMission, test } from "./fixtures";
import { MissionPage } from "./pages/mission-page";

/**
 * Issue 14: an autonomous agent under governance, in a real browser against the real web and worker. The
 * agent's model is the recorded provider (db/seed/recordings/agents.json, "e2e-release-summary"): it proposes
 * writing summary-draft.txt, then finish. A hold rule sends the write to the decision inbox; the operator
 * modifies the path to summary-final.txt and approves; the worker runs exactly the modified args (digest
 * checked); the evidence (summary-final.txt exists) approves finish; the auditor sees who changed what.
 */
function releaseSummary(name: string) {
  return {
    name,
    objective: "An autonomous agent writes the release summary; a person reviews every write.",
    allowedBinaries: [],
    rules: [{ id: "hold-writes", effect: "hold", tool: "file", reason: "a person reviews every write" }],
    phases: [
      {
        name: "EXECUTION",
        agents: [{ name: "writer", priority: "critical", autonomous: { goal: "E2E: write the release summary for the operator", tools: ["file"], maxActions: 4, evidence: [{ file_exists: "summary-final.txt" }], provider: "recorded" } }],
      },
    ],
  };
}

test("an operator modifies a pending proposal's args in the inbox and approves; the modified args run; the auditor sees who changed what", async ({ operatorPage: page, auditorPage }) => {
  const name = `release summary ${Date.now().toString(36)}`;
  const id = await startMission(page.request, releaseSummary(name));

  // The mission page while the write waits: why (the explanation, with what would change it) and the pending proposal, live.
  const mission = new MissionPage(page);
  await mission.open(id);
  await expect(page.getByTestId("proposal-row").first()).toHaveAttribute("data-status", "pending", { timeout: 20_000 });
  await expect(page.getByTestId("failure-reason")).toHaveText("HUMAN_REQUIRED");
  await expect(page.getByTestId("explanation-counterfactual")).toContainText("confirmation from");
  await expect(page.getByTestId("proposal-row").first()).toContainText("summary-draft.txt");
  await expect(page.getByTestId("proposal-row").first()).toContainText("POLICY_HOLD");
  await page.getByTestId("explanation-evidence").locator("summary").click();
  await screenshots(page, "autonomous-mission-waiting");

  await page.goto("/gates");
  const panel = page.getByTestId("gate-panel").filter({ hasText: name });
  await expect(panel).toBeVisible({ timeout: 20_000 });
  const prompt = panel.getByTestId("proposal-prompt");
  await expect(prompt).toContainText("POLICY_HOLD");
  await expect(prompt).toContainText("summary-draft.txt");

  await prompt.getByTestId("modify-proposal").click();
  const editor = prompt.getByTestId("proposal-args-editor");
  // Bad JSON: a specific inline error, nothing decided.
  await editor.fill('{"op": "write", "path": ');
  await expect(prompt.getByTestId("args-error")).toContainText("Not valid JSON");
  await expect(prompt.getByTestId("approve-modified")).toBeDisabled();
  // Keyboard: Esc closes the editor (focus back on Modify), M on the focused panel opens it again, focused.
  await editor.press("Escape");
  await expect(editor).toBeHidden();
  await expect(prompt.getByTestId("modify-proposal")).toBeFocused();
  await panel.focus();
  await page.keyboard.press("m");
  await expect(editor).toBeFocused();
  await expect(editor).toHaveValue('{"op": "write", "path": ');
  const pendingStill = async () => ((await (await page.request.get(`/api/v1/missions/${id}/proposals`)).json()) as { proposals: Array<{ status: string }> }).proposals.map((p) => p.status);
  expect(await pendingStill()).toEqual(["pending"]);
  // Args the authority denies (outside the workspace): refused with the rule named, nothing decided.
  await editor.fill(JSON.stringify({ op: "write", path: "../escape.txt", content: "draft summary\n" }, null, 2));
  await prompt.getByTestId("approve-modified").click();
  await expect(prompt.getByTestId("args-error")).toContainText("no-writes-outside-workspace");
  // Args that do not fit the file tool's schema: the field is named, nothing decided.
  await editor.fill(JSON.stringify({ op: "write", path: "summary-final.txt", content: 42 }, null, 2));
  await prompt.getByTestId("approve-modified").click();
  await expect(prompt.getByTestId("args-error")).toContainText("content");
  await expect(prompt.getByTestId("args-error")).toContainText("schema");
  expect(await pendingStill()).toEqual(["pending"]);

  await editor.fill(JSON.stringify({ op: "write", path: "summary-final.txt", content: "Release 2.4: 3 fixes, 1 feature.\n" }, null, 2));
  const diff = prompt.getByTestId("args-diff");
  await expect(diff).toContainText('path: "summary-draft.txt" → "summary-final.txt"');
  await expect(diff).toContainText("content");
  await screenshots(page, "autonomous-inbox-modify");
  await prompt.getByTestId("approve-modified").click();
  // The gate closes as the decision lands (the inbox is live); the inbox keeps what you chose.
  await expect(page.getByTestId("inbox-decided").filter({ hasText: name })).toContainText("You chose approve with modified args");

  await mission.open(id);
  await expect(mission.finalStatus()).toHaveAttribute("data-value", "SUCCESS", { timeout: 20_000 });
  const rows = page.getByTestId("proposal-row");
  await expect(rows).toHaveCount(2);
  const write = rows.nth(0);
  await expect(write).toHaveAttribute("data-status", "approved");
  await expect(write.getByTestId("proposal-modified")).toContainText("summary-final.txt");
  await expect(write).not.toContainText("authority (");
  await expect(rows.nth(1)).toHaveAttribute("data-status", "approved");
  await expect(rows.nth(1)).toContainText("authority (evidence)");
  // The step that ran carries the digest of the modified args.
  const events = await (await page.request.get(`/api/v1/missions/${id}/events`)).json();
  const started = (events.events as Array<{ type: string; payload: { argsDigest?: string } }>).find((e) => e.type === "step.started")!;
  const proposals = await (await page.request.get(`/api/v1/missions/${id}/proposals`)).json();
  expect(started.payload.argsDigest).toBe(proposals.proposals[0].decision.argsDigest);
  expect(proposals.proposals[0].decision.modified.args.path).toBe("summary-final.txt");
  expect(proposals.proposals[0].decidedBy).toMatch(/^user:/);
  await screenshots(page, "autonomous-mission");

  // The agent's actor page: what it proposed and how that was decided.
  await page.goto("/actors");
  const actorRow = page.getByTestId("actor-row").filter({ hasText: proposals.proposals[0].actorId });
  // Both of its proposals were approved (the write as modified, finish on evidence).
  await expect(actorRow.getByTestId("actor-approval-rate")).toHaveText("100%");
  await actorRow.getByRole("link").click();
  await expect(page.getByTestId("approval-rate")).toContainText("%");
  await expect(page.getByText("What it proposed")).toBeVisible();
  await expect(page.locator("main")).toContainText("summary-draft.txt");
  await screenshots(page, "autonomous-actor");

  await auditorPage.goto("/audit");
  const entry = auditorPage.getByTestId("audit-table").getByRole("row").filter({ hasText: name }).filter({ hasText: "proposal.modify" });
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText("Demo operator modified the args of");
  await expect(entry).toContainText("file proposal before approving it");
  // The refused attempt (args outside the workspace) is on the record too.
  await expect(auditorPage.getByTestId("audit-table").getByRole("row").filter({ hasText: "no-writes-outside-workspace" }).first()).toContainText("refused");
});

test("an admin reads the default authority policy and publishes a new version; a bad rule is refused, naming the rule and field", async ({ adminPage: page }) => {
  await page.goto("/admin/authority");
  await expect(page.getByTestId("policy-rules")).toContainText("no-recursive-delete-outside-workspace");
  const editor = page.getByTestId("policy-editor");
  const rules = JSON.parse(await editor.inputValue()) as unknown[];
  await editor.fill(JSON.stringify([...rules, { id: "bad", effect: "maybe" }], null, 2));
  await page.getByTestId("policy-publish").click();
  await expect(page.getByTestId("policy-result")).toContainText(`rule ${rules.length}.effect`);
  const extra = { id: "no-invalid-hosts", effect: "deny", tool: "http", host: "*.example.invalid", reason: "e2e: a host that never exists" };
  await editor.fill(JSON.stringify([...rules, extra], null, 2));
  await page.getByTestId("policy-publish").click();
  await expect(page.getByTestId("policy-result")).toContainText(/Published as version \d+/);
  await expect(page.getByTestId("policy-rules")).toContainText("no-invalid-hosts");
  await screenshots(page, "authority-policy");
});
