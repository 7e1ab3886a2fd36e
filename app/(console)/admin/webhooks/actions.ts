"use server";

import { z } from "zod";
import { getDb } from "@/db/client";
import { createWebhookSubscription, deleteWebhookSubscription, redeliverWebhook, setWebhookActive } from "@/db/queries/webhooks";
import { webhookSubscriptionInput } from "@/lib/webhooks";
import { authedAction } from "@/server/safe-action";

const id = z.guid("must be an id");

/** An admin subscribes a URL to events; the secret comes back once (permission webhook.manage). */
export const createWebhookAction = authedAction({ name: "createWebhook", permission: "webhook.manage", input: webhookSubscriptionInput }, async (input, { actor }) => {
  const { subscription, secret } = await createWebhookSubscription(getDb(), actor, input);
  return { id: subscription.id, url: subscription.url, secret };
});

/** Pause or resume a subscription (webhook.manage). */
export const setWebhookActiveAction = authedAction({ name: "setWebhookActive", permission: "webhook.manage", input: z.object({ id, active: z.boolean() }) }, async (input, { actor }) => {
  const s = await setWebhookActive(getDb(), actor, input.id, input.active);
  return { id: s.id, active: s.active };
});

/** Delete a subscription and its delivery log (webhook.manage). */
export const deleteWebhookAction = authedAction({ name: "deleteWebhook", permission: "webhook.manage", input: z.object({ id }) }, async (input, { actor }) => {
  await deleteWebhookSubscription(getDb(), actor, input.id);
  return { id: input.id };
});

/** Send a delivery again now (webhook.manage). */
export const redeliverWebhookAction = authedAction({ name: "redeliverWebhook", permission: "webhook.manage", input: z.object({ id }) }, async (input, { actor }) => {
  await redeliverWebhook(getDb(), actor, input.id);
  return { id: input.id };
});
