import type { WebSocketRoute } from "@playwright/test";
import { defs, expect, startMission, test, waitForGate } from "./fixtures";
import { MissionPage } from "./pages/mission-page";

test.describe("live updates", () => {
  // This test cuts the page's connection on purpose; the browser reports the failed reconnects.
  test.use({ allowedConsoleErrors: [/WebSocket connection to .* failed/, /Failed to load resource: net::ERR_FAILED/] });

  test("a page that loses its connection misses no event: it resyncs from its last seq without gaps or duplicates", async ({ operatorPage: page }) => {
    const open: WebSocketRoute[] = [];
    let cut = false;
    await page.routeWebSocket(/\/socket\.io\//, (ws) => {
      if (cut) return void ws.close({ code: 4000, reason: "network cut by the test" });
      ws.connectToServer();
      open.push(ws);
    });
    await page.route(/\/socket\.io\//, (route) => (cut ? route.abort("failed") : route.continue()));

    const id = await startMission(page.request, defs.gated(`reconnect ${Date.now()}`));
    const mission = new MissionPage(page);
    await mission.open(id);
    await expect(mission.gate()).toBeVisible({ timeout: 20_000 });
    const before = await mission.timelineSeqs();

    // Cut the connection, then let the mission move on while the page cannot hear about it.
    cut = true;
    for (const ws of open.splice(0)) await ws.close({ code: 4000, reason: "network cut by the test" });
    await expect(page.getByTestId("connection-status")).not.toHaveAttribute("data-status", "connected");
    const gateId = await waitForGate(page.request, id);
    const decided = await page.request.post(`/api/v1/gates/${gateId}/decision`, { data: { decision: "abort", note: "decided while the page was offline" } });
    expect(decided.status()).toBe(200);
    await expect.poll(async () => (await (await page.request.get(`/api/v1/missions/${id}`)).json()).finalStatus ?? null).toBe("FAILED");
    expect(await mission.timelineSeqs()).toEqual(before); // nothing arrived while cut

    // Reconnect: the page catches up from its last seq.
    cut = false;
    // socket.io backs off up to 10 s (randomised) between attempts while the network is cut.
    await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "connected", { timeout: 35_000 });
    await expect(mission.finalStatus()).toHaveAttribute("data-value", "FAILED");
    const server = (await (await page.request.get(`/api/v1/missions/${id}/events`)).json()) as { events: Array<{ seq: number }> };
    const seqs = await mission.timelineSeqs();
    expect(seqs).toEqual(server.events.map((e) => e.seq));
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    await expect(page.getByTestId("timeline-event").filter({ hasText: "decided while the page was offline" })).toHaveCount(1);
  });

  test("the missions list and the gates badge update without reload", async ({ operatorPage: page }) => {
    await page.goto("/missions");
    const name = `live list ${Date.now()}`;
    const badge = page.getByTestId("gates-badge");
    const before = Number((await badge.getAttribute("data-count")) ?? 0);
    const id = await startMission(page.request, defs.gated(name));
    const row = page.getByTestId(`mission-row-${name}`);
    await expect(row).toBeVisible();
    await expect(row.getByTestId("run-state")).toHaveAttribute("data-value", "paused", { timeout: 20_000 });
    await expect(badge).toHaveAttribute("data-count", String(before + 1));
    const gateId = await waitForGate(page.request, id);
    await page.request.post(`/api/v1/gates/${gateId}/decision`, { data: { decision: "abort" } });
    await expect(row.getByTestId("final-status")).toHaveAttribute("data-value", "FAILED");
    await expect(badge).toHaveAttribute("data-count", String(before));
  });
});

test("starting a mission from pasted YAML shows field-level errors, then opens the mission", async ({ operatorPage: page }) => {
  await page.goto("/missions");
  // A modal dialog: named, Escape closes it and the focus goes back to the button that opened it.
  await page.getByTestId("new-mission").click();
  await expect(page.getByRole("dialog", { name: "New mission" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByTestId("new-mission")).toBeFocused();
  await page.getByTestId("new-mission").click();
  const dialog = page.getByTestId("new-mission-dialog");
  await dialog.getByTestId("mission-definition").fill("name: broken\nobjective: x\nphases:\n  - name: LAUNCH\n    agents: []\n");
  await dialog.getByTestId("create-mission").click();
  const errors = dialog.getByTestId("mission-errors");
  await expect(errors).toContainText("phases[0].name");
  await expect(errors).toContainText("phases[0].agents");
  const name = `pasted ${Date.now()}`;
  await dialog.getByTestId("mission-definition").fill(
    `name: ${name}\nobjective: say hello\nallowedBinaries: [node]\nphases:\n  - name: EXECUTION\n    agents:\n      - name: greeter\n        priority: critical\n        steps:\n          - tool: shell\n            args: { command: node, args: ["-e", "console.log('hi')"] }\n            evidence: [{ output_matches: hi }]\n`,
  );
  await dialog.getByTestId("create-mission").click();
  await expect(page).toHaveURL(/\/missions\/[0-9a-f-]{36}/);
  await expect(page.getByTestId("final-status")).toHaveAttribute("data-value", "SUCCESS", { timeout: 20_000 });
});
