import { getDb } from "@/db/client";
import { createWebhookSubscription, listWebhookSubscriptions } from "@/db/queries/webhooks";
import { apiRoute, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

export const GET = apiRoute(api.listWebhooks, async () => Response.json({ subscriptions: await listWebhookSubscriptions(getDb()) }));

export const POST = apiRoute(api.createWebhook, async ({ req, actor }) => {
  const input = parseOr400(api.createWebhook.body, await readJson(req), "subscription");
  return Response.json(await createWebhookSubscription(getDb(), actor, input), { status: 201 });
});
