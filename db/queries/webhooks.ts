import { randomBytes } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import type { AuditActor } from "../../lib/audit";
import { AppError } from "../../lib/errors";
import { WEBHOOK_RETRY_WINDOW_MS, webhookEventsOf, type WebhookSubscriptionInput } from "../../lib/webhooks";
import type { Db, Executor } from "../client";
import { queryRows } from "../client";
import { webhookDeliveries, webhookSubscriptions, type WebhookAttempt, type WebhookDeliveryRow } from "../schema";
import { recordAudit } from "./audit-log";

/** A subscription as the console and the API show it: never its secret (shown once, at creation). */
export interface WebhookSubscriptionView {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  active: boolean;
  createdBy: string;
  createdAt: string;
  pending: number;
  delivered: number;
  gaveUp: number;
}

const notFound = (what: string, id: string) => new AppError("not_found", { userMessage: `${what} ${id} does not exist. GET /api/v1/webhooks lists the subscriptions.` });
const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

export async function listWebhookSubscriptions(db: Executor): Promise<WebhookSubscriptionView[]> {
  return queryRows<WebhookSubscriptionView>(
    db,
    sql`select s.id, s.url, s.events, s.description, s.active, s.created_by as "createdBy", to_json(s.created_at)#>>'{}' as "createdAt",
          count(d.id) filter (where d.status = 'pending')::int as pending,
          count(d.id) filter (where d.status = 'delivered')::int as delivered,
          count(d.id) filter (where d.status = 'gave_up')::int as "gaveUp"
        from webhook_subscriptions s left join webhook_deliveries d on d.subscription_id = s.id
        group by s.id order by s.created_at desc`,
  );
}

/** Creates a subscription with a fresh secret; returns it with the secret (the only time it is shown). */
export async function createWebhookSubscription(db: Db, actor: AuditActor, input: WebhookSubscriptionInput): Promise<{ subscription: WebhookSubscriptionView; secret: string }> {
  const secret = `whsec_${randomBytes(24).toString("base64url")}`;
  const id = await db.transaction(async (tx) => {
    const [row] = await tx.insert(webhookSubscriptions).values({ url: input.url, events: [...new Set(input.events)], secret, description: input.description ?? null, createdBy: actor.id }).returning({ id: webhookSubscriptions.id });
    await recordAudit(tx, actor, { action: "webhook.create", summary: `${actor.name} subscribed ${input.url} to ${input.events.join(", ")}.`, target: { type: "webhook", id: row.id }, after: { url: input.url, events: input.events } });
    return row.id;
  });
  const subscription = (await listWebhookSubscriptions(db)).find((s) => s.id === id)!;
  return { subscription, secret };
}

export async function setWebhookActive(db: Db, actor: AuditActor, id: string, active: boolean): Promise<WebhookSubscriptionView> {
  if (!isUuid(id)) throw notFound("Webhook subscription", id);
  await db.transaction(async (tx) => {
    const [row] = await tx.update(webhookSubscriptions).set({ active }).where(eq(webhookSubscriptions.id, id)).returning({ url: webhookSubscriptions.url });
    if (!row) throw notFound("Webhook subscription", id);
    await recordAudit(tx, actor, { action: "webhook.update", summary: `${actor.name} ${active ? "resumed" : "paused"} the webhook to ${row.url}.`, target: { type: "webhook", id }, after: { active } });
  });
  return (await listWebhookSubscriptions(db)).find((s) => s.id === id)!;
}

/** Deletes a subscription and its delivery log. */
export async function deleteWebhookSubscription(db: Db, actor: AuditActor, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound("Webhook subscription", id);
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(webhookSubscriptions).where(eq(webhookSubscriptions.id, id)).returning({ url: webhookSubscriptions.url });
    if (!row) throw notFound("Webhook subscription", id);
    await recordAudit(tx, actor, { action: "webhook.delete", summary: `${actor.name} deleted the webhook to ${row.url} and its delivery log.`, target: { type: "webhook", id } });
  });
}

export type WebhookDeliveryView = Omit<WebhookDeliveryRow, "payload"> & { payload: Record<string, unknown> };

/** A subscription's deliveries, newest first, with every attempt. */
export async function listWebhookDeliveries(db: Executor, subscriptionId: string, limit = 100): Promise<WebhookDeliveryView[]> {
  if (!isUuid(subscriptionId)) throw notFound("Webhook subscription", subscriptionId);
  const [sub] = await db.select({ id: webhookSubscriptions.id }).from(webhookSubscriptions).where(eq(webhookSubscriptions.id, subscriptionId));
  if (!sub) throw notFound("Webhook subscription", subscriptionId);
  return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.subscriptionId, subscriptionId)).orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.eventPosition)).limit(limit);
}

/** Sends a delivery again now (whatever its state): a new attempt is added to its log. */
export async function redeliverWebhook(db: Db, actor: AuditActor, deliveryId: string): Promise<void> {
  if (!isUuid(deliveryId)) throw notFound("Webhook delivery", deliveryId);
  await db.transaction(async (tx) => {
    const [row] = await tx.update(webhookDeliveries).set({ status: "pending", nextAttemptAt: sql`now()` }).where(eq(webhookDeliveries.id, deliveryId)).returning({ type: webhookDeliveries.eventType, sub: webhookDeliveries.subscriptionId });
    if (!row) throw notFound("Webhook delivery", deliveryId);
    await recordAudit(tx, actor, { action: "webhook.redeliver", summary: `${actor.name} asked to redeliver a ${row.type} webhook.`, target: { type: "webhook_delivery", id: deliveryId } });
  });
}

/**
 * Reads the event log after the dispatcher's cursor and queues one delivery per matching event and
 * active subscription; returns how many. Only events older than `settleMs` are read: an event's
 * position is taken at insert and its transaction commits a moment later, so a younger event with a
 * smaller position could still appear behind the cursor. Safe with several workers (the cursor row is
 * locked; a delivery is unique per subscription and event).
 */
export async function queueWebhookDeliveries(db: Db, opts: { settleMs: number; batch?: number }): Promise<number> {
  return db.transaction(async (tx) => {
    const [cursor] = await queryRows<{ position: number }>(tx, sql`select position from webhook_cursor where id = 1 for update skip locked`);
    if (!cursor) return 0; // another worker is reading
    const subs = await tx.select({ id: webhookSubscriptions.id, events: webhookSubscriptions.events }).from(webhookSubscriptions).where(eq(webhookSubscriptions.active, true));
    const rows = await queryRows<{ position: number; missionId: string; seq: number; type: string; actorId: string; payload: unknown; reason: string | null; at: string }>(
      tx,
      sql`select position, mission_id as "missionId", seq, type, actor_id as "actorId", payload, reason, to_json(created_at)#>>'{}' as at from events
          where position > ${cursor.position} and created_at < now() - (${opts.settleMs}::int * interval '1 millisecond')
          order by position limit ${opts.batch ?? 500}`,
    );
    if (rows.length === 0) return 0;
    const values: Array<typeof webhookDeliveries.$inferInsert> = [];
    for (const e of rows) {
      for (const type of webhookEventsOf(e)) {
        for (const s of subs) {
          if (!s.events.includes(type)) continue;
          values.push({
            subscriptionId: s.id,
            eventPosition: e.position,
            eventType: type,
            missionId: e.missionId,
            payload: { event: type, missionId: e.missionId, seq: e.seq, actorId: e.actorId, at: new Date(e.at).toISOString(), reason: e.reason, data: e.payload },
          });
        }
      }
    }
    if (values.length) await tx.insert(webhookDeliveries).values(values).onConflictDoNothing();
    await tx.execute(sql`update webhook_cursor set position = ${rows[rows.length - 1].position} where id = 1`);
    return values.length;
  });
}

export interface DueDelivery {
  id: string;
  url: string;
  secret: string;
  eventType: string;
  payload: Record<string, unknown>;
  attempts: WebhookAttempt[];
  createdAt: string;
}

/** Claims up to `limit` due deliveries for `leaseMs` (so no other worker sends them meanwhile). */
export async function claimDueWebhooks(db: Db, opts: { limit: number; leaseMs: number }): Promise<DueDelivery[]> {
  return queryRows<DueDelivery>(
    db,
    sql`update webhook_deliveries d set next_attempt_at = now() + (${opts.leaseMs}::int * interval '1 millisecond')
        from webhook_subscriptions s
        where s.id = d.subscription_id and d.id in (
          select id from webhook_deliveries where status = 'pending' and next_attempt_at <= now() order by next_attempt_at limit ${opts.limit} for update skip locked)
        returning d.id, s.url, s.secret, d.event_type as "eventType", d.payload, d.attempts, to_json(d.created_at)#>>'{}' as "createdAt"`,
  );
}

/** Records an attempt: delivered on a 2xx; otherwise the next try after `retryInMs`, or given up after the retry window. */
export async function recordWebhookAttempt(db: Db, delivery: Pick<DueDelivery, "id" | "createdAt">, attempt: WebhookAttempt, retryInMs: number): Promise<"delivered" | "pending" | "gave_up"> {
  const ok = attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
  const next = Date.now() + retryInMs;
  const status = ok ? "delivered" : next - Date.parse(delivery.createdAt) > WEBHOOK_RETRY_WINDOW_MS ? "gave_up" : "pending";
  await db
    .update(webhookDeliveries)
    .set({
      status,
      attempts: sql`${webhookDeliveries.attempts} || ${JSON.stringify([attempt])}::jsonb`,
      nextAttemptAt: new Date(next).toISOString(),
      deliveredAt: ok ? sql`now()` : undefined,
    })
    .where(and(eq(webhookDeliveries.id, delivery.id)));
  return status;
}
