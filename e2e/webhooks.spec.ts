import http from "node:http";
import type { AddressInfo } from "node:net";
import AxeBuilder from "@axe-core/playwright";
import { verifyWebhookSignature } from "../server/webhooks";
import { expect, screenshots, startMission, test, waitForGate } from "./fixtures";

test("an admin subscribes a receiver to gates; a gate opens; its 500 is retried; the delivery log shows both attempts", async ({ adminPage: page }) => {
  // The receiver: verifies every signature with the secret the console shows once; answers 500, then 200.
  let secret = "";
  const answers = [500];
  const received: Array<{ event: string; verified: boolean; status: number }> = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const status = answers.shift() ?? 200;
      received.push({ event: String(req.headers["faultline-event"]), verified: verifyWebhookSignature(secret, req.headers["faultline-signature"] as string, body), status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/faultline`;
  try {
    await page.goto("/");
    await page.getByRole("link", { name: "Webhooks" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();

    // A bad URL is refused, naming the field; nothing is created.
    await page.getByLabel("URL (receives a POST per event)").fill("ftp://nope");
    await page.getByTestId("new-webhook-submit").click();
    await expect(page.getByTestId("field-error-url")).toContainText("http");

    await page.getByLabel("URL (receives a POST per event)").fill(url);
    await page.getByLabel("Description (optional)").fill("e2e receiver");
    await page.getByTestId("new-webhook-submit").click();
    secret = (await page.getByTestId("new-webhook-secret-value").textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    const card = page.getByTestId("webhook").filter({ hasText: url });
    await expect(card.getByTestId("webhook-state")).toHaveAttribute("data-value", "active");

    // A mission fails on a binary that is not installed: a gate opens.
    const missionId = await startMission(page.request, {
      name: `webhook gate ${Date.now()}`,
      objective: "Sync",
      allowedBinaries: ["rsync-not-installed-here"],
      phases: [{ name: "EXECUTION", agents: [{ name: "sync", priority: "critical", steps: [{ tool: "shell", args: { command: "rsync-not-installed-here", args: ["a", "b"] } }] }] }],
    });
    await waitForGate(page.request, missionId);

    // The log as the admin sees it: delivered, after a 500 and a 200.
    await expect(async () => {
      await page.reload();
      const row = page.getByTestId("webhook").filter({ hasText: url }).getByTestId("webhook-delivery").filter({ hasText: "gate.opened" });
      await expect(row).toHaveAttribute("data-status", "delivered", { timeout: 1000 });
      await expect(row.getByTestId("webhook-attempts")).toContainText("500 → 200", { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    expect(received.filter((r) => r.event === "gate.opened").map((r) => [r.status, r.verified])).toEqual([
      [500, true],
      [200, true],
    ]);

    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.length}`)).toEqual([]);
    await screenshots(page, "webhooks", { fullPage: false });

    // Redeliver adds an attempt.
    await page.getByTestId("webhook").filter({ hasText: url }).getByTestId("webhook-delivery").filter({ hasText: "gate.opened" }).getByRole("button", { name: "Redeliver" }).click();
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("webhook").filter({ hasText: url }).getByTestId("webhook-delivery").filter({ hasText: "gate.opened" }).getByTestId("webhook-attempts")).toContainText("500 → 200 → 200", { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});
