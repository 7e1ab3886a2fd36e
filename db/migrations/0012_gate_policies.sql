-- Gate policies on gates (issue 6): the policy in force when the gate opened (snapshot), when its timeout decides, and the approvals so far (N of M).
ALTER TABLE "gates" ADD COLUMN "policy" jsonb;
--> statement-breakpoint
ALTER TABLE "gates" ADD COLUMN "deadline_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "gates" ADD COLUMN "approvals" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
-- The worker's timeout sweep: open gates whose deadline passed.
CREATE INDEX "gates_deadline" ON "gates" USING btree ("deadline_at") WHERE "status" = 'open' AND "deadline_at" IS NOT NULL;
--> statement-breakpoint
-- The system decides timed-out gates as this actor.
INSERT INTO "actors" ("id", "kind", "display_name") VALUES ('system', 'system', 'Faultline (system)') ON CONFLICT ("id") DO NOTHING;
