import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { listWebhookDeliveries, listWebhookSubscriptions } from "@/db/queries/webhooks";
import { WebhooksAdmin } from "@/components/admin/webhooks-admin";
import { LiveRefresh } from "@/components/realtime/live-refresh";
import { consolePage } from "@/components/layout/console-page";
import { Page } from "@/components/layout/page";

export const metadata: Metadata = { title: "Webhooks" };

/** Webhook subscriptions (issue 15) and each one's delivery log, with redeliver. */
export default consolePage({ path: "/admin/webhooks", permission: "webhook.manage", refused: { alert: true } }, async () => {
  const db = getDb();
  const subscriptions = await listWebhookSubscriptions(db);
  const deliveries = Object.fromEntries(await Promise.all(subscriptions.map(async (s) => [s.id, (await listWebhookDeliveries(db, s.id, 20)).map((d) => ({ id: d.id, eventType: d.eventType, missionId: d.missionId, status: d.status, attempts: d.attempts, createdAt: d.createdAt }))] as const)));
  return (
    <Page
      title="Webhooks"
      above={<LiveRefresh />}
      intro={
        <>
          Faultline POSTs gate, proposal and mission events to these URLs as they happen, signed with each subscription&apos;s secret (header <code>Faultline-Signature: t=…,v1=…</code>: HMAC-SHA256 of{" "}
          <code>&lt;t&gt;.&lt;body&gt;</code>). A failed delivery is retried with exponential backoff for 24 hours; every attempt is in the log below. See{" "}
          <a className="text-link underline underline-offset-2" href="/api-reference#createWebhook">
            the API reference
          </a>
          .
        </>
      }
    >
      <WebhooksAdmin subscriptions={subscriptions} deliveries={deliveries} />
    </Page>
  );
});
