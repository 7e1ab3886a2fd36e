import { getDb } from "@/db/client";
import { listWebhookDeliveries } from "@/db/queries/webhooks";
import { apiRoute } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ id: string }>(api.webhookDeliveries, async ({ params }) => Response.json({ deliveries: await listWebhookDeliveries(getDb(), params.id) }));
