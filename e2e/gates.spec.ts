import http from "node:http";
import AxeBuilder from "@axe-core/playwright";
import { defs, expect, signIn, startMission, test, waitForGate } from "./fixtures";
import { MissionPage } from "./pages/mission-page";

async function noSeriousA11yViolations(page: import("@playwright/test").Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
}

test("an operator opens the waiting gate, chooses Skip, and watches the mission end PARTIAL_SUCCESS without reloading", async ({ operatorPage: page }) => {
  const name = `skip ${Date.now()}`;
  const id = await startMission(page.request, defs.gated(name, { priority: "important" }));
  await waitForGate(page.request, id);
  await page.goto("/gates");
  const inbox = page.getByTestId("gate-panel").filter({ hasText: name });
  await expect(inbox).toBeVisible();
  await expect(inbox).toContainText(/"scp" is not on this mission's allowlist/);
  // The gate leads with the truth: what failed, then the remedy the diagnosis recommends (a decision, not a retry).
  await expect(inbox.getByTestId("gate-recommended")).toContainText("Recommended: Allow scp and retry");
  await expect(inbox.getByRole("button").first()).toHaveAttribute("data-testid", "gate-option-allow_binary");
  await noSeriousA11yViolations(page);
  await inbox.getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/missions/${id}`));
  const mission = new MissionPage(page);
  await expect(mission.gate()).toBeVisible();
  await expect(mission.gate().getByTestId("gate-option-skip")).toBeVisible();
  await expect(mission.gate().getByTestId("gate-option-retry")).toHaveCount(0); // unrecoverable: no retry
  await mission.gate().getByText("Technical details").click();
  await expect(mission.gate()).toContainText("NOT_ALLOWED");
  await mission.choose("skip", "scp is not approved for agents");
  await expect(mission.finalStatus()).toHaveAttribute("data-value", "PARTIAL_SUCCESS");
  await expect(page.getByTestId("timeline-event").filter({ hasText: "gate.resolved" })).toContainText("scp is not approved for agents");
  await noSeriousA11yViolations(page);
});

test("an operator allows the refused binary for this mission at its gate; the retry runs it and the mission ends SUCCESS", async ({ operatorPage: page }) => {
  const name = `allow ${Date.now()}`;
  const id = await startMission(page.request, defs.gated(name, { priority: "critical", binary: "echo" }));
  await waitForGate(page.request, id);
  await page.goto(`/missions/${id}`);
  const mission = new MissionPage(page);
  await expect(mission.gate().getByTestId("gate-recommended")).toContainText("Allow echo and retry");
  await mission.choose("allow_binary", "echo is harmless here");
  await expect(mission.finalStatus()).toHaveAttribute("data-value", "SUCCESS");
  await expect(page.getByTestId("timeline-event").filter({ hasText: "gate.resolved" })).toContainText("allow_binary");
});

test("Retry on a step that fails once against a loopback server and then succeeds ends SUCCESS", async ({ operatorPage: page }) => {
  let calls = 0;
  const server = http.createServer((_req, res) => {
    calls++;
    if (calls === 1) res.writeHead(503, { "content-type": "text/plain" }).end("upstream warming up");
    else res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/data`;
    const id = await startMission(page.request, defs.httpOnce(`retry ${Date.now()}`, url));
    const mission = new MissionPage(page);
    await mission.open(id);
    await expect(mission.gate()).toBeVisible({ timeout: 20_000 });
    // The diagnosis's plan (wait, then re-run the step) is the recommendation; a plain Retry stays available.
    await expect(mission.option("recover")).toContainText("Recommended");
    await expect(mission.option("retry")).toBeVisible();
    await expect(page.getByTestId("timeline-event").filter({ hasText: "tool.failed" })).toContainText("503");
    // Keyboard: `r` on the focused gate.
    await mission.gate().focus();
    await page.keyboard.press("r");
    await expect(mission.finalStatus()).toHaveAttribute("data-value", "SUCCESS", { timeout: 20_000 });
    expect(calls).toBe(2);
  } finally {
    server.close();
  }
});

test("Abort ends the mission FAILED and keeps what was produced", async ({ operatorPage: page }) => {
  const id = await startMission(page.request, defs.gated(`abort ${Date.now()}`));
  const mission = new MissionPage(page);
  await mission.open(id);
  await expect(mission.gate()).toBeVisible({ timeout: 20_000 });
  await expect(mission.option("skip")).toContainText(/will end FAILED/);
  await mission.choose("abort");
  await expect(mission.finalStatus()).toHaveAttribute("data-value", "FAILED");
  await expect(page.getByTestId("agent-row-planner")).toContainText("completed");
});

test("an auditor sees the gate but cannot resolve it: no buttons, and direct POSTs of the action and the API are refused", async ({ browser, operatorPage, auditorPage }) => {
  const id = await startMission(operatorPage.request, defs.gated(`audit ${Date.now()}`));
  const gateId = await waitForGate(operatorPage.request, id);
  const mission = new MissionPage(auditorPage);
  await mission.open(id);
  await expect(mission.gate()).toBeVisible();
  await expect(mission.gate().getByTestId("gate-readonly")).toBeVisible();
  await expect(auditorPage.getByTestId(/gate-option-/)).toHaveCount(0);
  await mission.gate().focus();
  await auditorPage.keyboard.press("a");

  // Capture the real server-action request an operator's click sends (without letting it through)…
  const capture = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  await signIn(capture, "operator");
  const op = await capture.newPage();
  let action: { url: string; headers: Record<string, string>; body: string } | null = null;
  await op.route("**/*", async (route) => {
    const req = route.request();
    if (req.method() === "POST" && req.headers()["next-action"]) {
      action = { url: req.url(), headers: req.headers(), body: req.postData() ?? "" };
      await route.fulfill({ status: 204, body: "" });
    } else await route.continue();
  });
  await op.goto(`/missions/${id}`);
  await op.getByTestId("gate-option-abort").click();
  await expect.poll(() => action !== null).toBe(true);
  await capture.close();
  // …and replay it with the auditor's session: the server action itself refuses.
  const { url, headers, body } = action!;
  const replay = await auditorPage.request.post(url, { headers: { "next-action": headers["next-action"], "content-type": headers["content-type"], accept: "text/x-component" }, data: body });
  expect(await replay.text()).toMatch(/do not allow gate decide/);

  const res = await auditorPage.request.post(`/api/v1/gates/${gateId}/decision`, { data: { decision: "abort" } });
  expect(res.status()).toBe(403);
  expect((await res.json()).error.message).toMatch(/needs admin or operator/);
  // The gate is still open for an operator.
  const check = await operatorPage.request.get(`/api/v1/missions/${id}`);
  expect((await check.json()).openGates).toHaveLength(1);
});
