-- Issue 15: webhook subscriptions, their deliveries (one row per event and subscription, every attempt
-- kept), and the dispatcher's read position in the event log. New subscriptions start from "now".
CREATE TABLE "webhook_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"secret" text NOT NULL,
	"description" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_by" text NOT NULL REFERENCES "actors"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL REFERENCES "webhook_subscriptions"("id") ON DELETE CASCADE,
	"event_position" bigint NOT NULL,
	"event_type" text NOT NULL,
	"mission_id" uuid,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_once" ON "webhook_deliveries" ("subscription_id","event_position","event_type");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due" ON "webhook_deliveries" ("next_attempt_at") WHERE "status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_subscription" ON "webhook_deliveries" ("subscription_id","created_at");--> statement-breakpoint
CREATE TABLE "webhook_cursor" (
	"id" integer PRIMARY KEY NOT NULL,
	"position" bigint NOT NULL
);--> statement-breakpoint
INSERT INTO "webhook_cursor" ("id", "position") SELECT 1, coalesce(max("position"), 0) FROM "events";
