ALTER TABLE "gates" ADD COLUMN "kind" text DEFAULT 'agent' NOT NULL;--> statement-breakpoint
ALTER TABLE "gates" ADD COLUMN "step" integer;