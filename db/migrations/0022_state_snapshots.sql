ALTER TABLE "missions" ADD COLUMN "snapshot_seq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "snapshot_bytes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "head" uuid;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "owner" text;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "paused" jsonb;--> statement-breakpoint
-- Until now the snapshot was rewritten by every append: it is the state as of last_seq.
UPDATE "missions" SET "snapshot_seq" = "last_seq", "snapshot_bytes" = octet_length("state"::text), "owner" = "state"->>'owner', "paused" = nullif("state"->'paused', 'null'::jsonb);
