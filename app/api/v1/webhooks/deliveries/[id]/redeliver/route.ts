import { getDb } from "@/db/client";
import { redeliverWebhook } from "@/db/queries/webhooks";
import { apiRoute } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

export const POST = apiRoute<{ id: string }>(api.redeliverWebhook, async ({ actor, params }) => {
  await redeliverWebhook(getDb(), actor, params.id);
  return Response.json({ queued: true }, { status: 202 });
});
