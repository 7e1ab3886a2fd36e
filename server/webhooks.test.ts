import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listWebhookDeliveries, createWebhookSubscription, redeliverWebhook, deleteWebhookSubscription, listWebhookSubscriptions, setWebhookActive } from "../db/queries/webhooks";
import { webhookBackoffMs, webhookEventsOf, webhookSubscriptionInput } from "../lib/webhooks";
import { definition } from "../lib/mission/test-fixtures";
import { createMission } from "../db/queries/events";
import { listAuditLog } from "../db/queries/audit-log";
import { signWebhook, verifyWebhookSignature, WebhookDispatcher } from "./webhooks";
import { useWorkerHarness } from "./orchestrator/test-harness";
import { ensureActor } from "../db/queries/users";

const harness = useWorkerHarness("fl-webhooks-");
const admin = { id: "user:admin", name: "Ada Admin", via: "api" as const };

/** A loopback receiver that verifies each delivery's signature and answers from a script (500 first, then 200). */
async function receiver(secretOf: () => string, answers: number[]) {
  const received: Array<{ event: string; delivery: string; verified: boolean; tamperedVerified: boolean; body: Record<string, unknown>; status: number }> = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const status = answers.length ? answers.shift()! : 200;
      const sig = req.headers["faultline-signature"] as string;
      received.push({ event: String(req.headers["faultline-event"]), delivery: String(req.headers["faultline-delivery"]), verified: verifyWebhookSignature(secretOf(), sig, body), tamperedVerified: verifyWebhookSignature(secretOf(), sig, body.replace("gate.opened", "gate.closed")), body: JSON.parse(body), status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe("webhooks: signed deliveries of gate, proposal and mission events, retried with backoff, every attempt logged", () => {
  let secret = "";
  let rx: Awaited<ReturnType<typeof receiver>>;
  let dispatcher: WebhookDispatcher;
  beforeAll(async () => {
    await ensureActor(harness.tdb.db, { id: admin.id, kind: "user", displayName: admin.name });
    rx = await receiver(() => secret, [500]);
    dispatcher = new WebhookDispatcher({ db: harness.tdb.db, retryBaseMs: 100, pollMs: 50, settleMs: 0 });
    dispatcher.start();
  });
  afterAll(async () => {
    await dispatcher.stop();
    await rx.close();
  });

  it("a gate opens: the receiver gets it signed; its 500 is retried; the log shows both attempts; a redelivery adds a third", async () => {
    const { db } = harness.tdb;
    const created = await createWebhookSubscription(db, admin, { url: rx.url, events: ["gate.opened", "mission.finished"], description: "ops pager" });
    secret = created.secret;
    expect(secret).toMatch(/^whsec_/);
    expect(JSON.stringify(await listWebhookSubscriptions(db))).not.toContain(secret); // shown once, never listed

    await harness.startWorker();
    const m = await createMission(db, { definition: definition({ agents: [{ name: "deploy", priority: "critical", steps: [{ tool: "shell", args: { command: "rsync", args: ["a", "b"] } }] }] }), actorId: "user:op" });
    const atGate = await harness.settle(m.id);
    const gate = atGate.gates.find((g) => g.status === "open")!;

    // Wait for the state a user would see: the delivery log says delivered after two attempts.
    const deadline = Date.now() + 20_000;
    let log = await listWebhookDeliveries(db, created.subscription.id);
    while (!(log.length && log.every((d) => d.status === "delivered")) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      log = await listWebhookDeliveries(db, created.subscription.id);
    }
    expect(log.map((d) => [d.eventType, d.status])).toEqual([["gate.opened", "delivered"]]);
    expect(log[0].attempts.map((a) => a.status)).toEqual([500, 200]);
    expect(log[0].attempts[0].error).toBe("answered 500 Internal Server Error");

    expect(rx.received.map((r) => [r.event, r.status, r.verified, r.tamperedVerified])).toEqual([
      ["gate.opened", 500, true, false],
      ["gate.opened", 200, true, false],
    ]);
    expect(rx.received[0].delivery).toBe(log[0].id);
    expect(rx.received[1].body).toMatchObject({ id: log[0].id, event: "gate.opened", missionId: m.id, data: { gateId: gate.id } });

    await redeliverWebhook(db, admin, log[0].id);
    while ((await listWebhookDeliveries(db, created.subscription.id))[0].attempts.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect((await listWebhookDeliveries(db, created.subscription.id))[0].attempts.map((a) => a.status)).toEqual([500, 200, 200]);
    const audit = await listAuditLog(db, { action: "webhook.*" } as never);
    expect(audit.entries.map((e) => e.action).sort()).toEqual(["webhook.create", "webhook.redeliver"]);
  });

  it("an admin pauses a subscription (listed as paused) and deletes it with its log; unknown ids are a clear not-found", async () => {
    const { db } = harness.tdb;
    const [sub] = await listWebhookSubscriptions(db);
    await setWebhookActive(db, admin, sub.id, false);
    expect((await listWebhookSubscriptions(db))[0].active).toBe(false);
    await deleteWebhookSubscription(db, admin, sub.id);
    expect(await listWebhookSubscriptions(db)).toEqual([]);
    await expect(listWebhookDeliveries(db, sub.id)).rejects.toThrow(/Webhook subscription .* does not exist/);
    await expect(redeliverWebhook(db, admin, "nope")).rejects.toThrow(/Webhook delivery nope does not exist/);
  });
});

describe("webhook rules", () => {
  it("a pending decision is proposal.pending, an approval or rejection proposal.decided; other log entries are their own type or nothing", () => {
    expect(webhookEventsOf({ type: "proposal.decided", payload: { decision: { decision: "pending" } } })).toEqual(["proposal.pending"]);
    expect(webhookEventsOf({ type: "proposal.decided", payload: { decision: { decision: "rejected" } } })).toEqual(["proposal.decided"]);
    expect(webhookEventsOf({ type: "mission.finished", payload: {} })).toEqual(["mission.finished"]);
    expect(webhookEventsOf({ type: "step.started", payload: {} })).toEqual([]);
  });
  it("backoff doubles from the base and stops growing at an hour", () => {
    expect([1, 2, 3].map((n) => webhookBackoffMs(n, 10_000))).toEqual([10_000, 20_000, 40_000]);
    expect(webhookBackoffMs(30, 10_000)).toBe(3_600_000);
  });
  it("a signature fails for another secret, a changed body, or an old timestamp (replay)", () => {
    const body = '{"event":"gate.opened"}';
    const header = signWebhook("s1", body);
    expect(verifyWebhookSignature("s1", header, body)).toBe(true);
    expect(verifyWebhookSignature("s2", header, body)).toBe(false);
    expect(verifyWebhookSignature("s1", header, body + " ")).toBe(false);
    expect(verifyWebhookSignature("s1", signWebhook("s1", body, 1_000), body)).toBe(false);
    expect(verifyWebhookSignature("s1", null, body)).toBe(false);
  });
  it("subscriptions need an http(s) URL and at least one known event, named in the error", () => {
    const r = webhookSubscriptionInput.safeParse({ url: "ftp://x", events: ["gate.exploded"] });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => `${i.path.join(".")}: ${i.message}`)).toEqual(expect.arrayContaining([expect.stringMatching(/^url: /), expect.stringMatching(/^events\.0: must be some of gate\.opened/)]));
  });
});
