import { getDb } from "@/db/client";
import { deleteWebhookSubscription, setWebhookActive } from "@/db/queries/webhooks";
import { apiRoute, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

export const PATCH = apiRoute<{ id: string }>(api.patchWebhook, async ({ req, actor, params }) => {
  const { active } = parseOr400(api.patchWebhook.body, await readJson(req), "change");
  return Response.json({ subscription: await setWebhookActive(getDb(), actor, params.id, active) });
});

export const DELETE = apiRoute<{ id: string }>(api.deleteWebhook, async ({ actor, params }) => {
  await deleteWebhookSubscription(getDb(), actor, params.id);
  return new Response(null, { status: 204 });
});
