-- Issue 14 (seed 002): one actor registry of kinds human | agent | system with meta; proposals as a
-- read model of proposal.* events; the admin's default authority policy, versioned and append-only.
ALTER TABLE "actors" ADD COLUMN "meta" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
UPDATE "actors" SET "meta" = jsonb_build_object('origin', "kind"), "kind" = CASE "kind" WHEN 'user' THEN 'human' WHEN 'cli' THEN 'human' WHEN 'worker' THEN 'system' ELSE "kind" END;--> statement-breakpoint
CREATE TABLE "proposals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"mission_id" uuid NOT NULL REFERENCES "missions"("id"),
	"agent" text NOT NULL,
	"attempt" integer NOT NULL,
	"actor_id" text NOT NULL REFERENCES "actors"("id"),
	"tool" text NOT NULL,
	"action" jsonb NOT NULL,
	"args_digest" text NOT NULL,
	"level" integer NOT NULL,
	"call_id" text,
	"status" text NOT NULL,
	"decision" jsonb,
	"decided_by" text,
	"failure_reason" text,
	"pending_reason" text,
	"gate_id" uuid,
	"step" integer,
	"submitted_seq" integer NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "proposals_mission" ON "proposals" ("mission_id","submitted_seq");--> statement-breakpoint
CREATE INDEX "proposals_actor" ON "proposals" ("actor_id","submitted_at");--> statement-breakpoint
CREATE INDEX "proposals_decider" ON "proposals" ("decided_by","decided_at");--> statement-breakpoint
CREATE INDEX "proposals_pending" ON "proposals" ("submitted_at") WHERE "status" = 'pending';--> statement-breakpoint
CREATE TABLE "authority_policies" (
	"version" integer PRIMARY KEY NOT NULL,
	"rules" jsonb NOT NULL,
	"note" text,
	"created_by" text NOT NULL REFERENCES "actors"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE FUNCTION authority_policies_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'authority_policies is append-only: publish a new version instead of changing version %', OLD.version;
END $$;--> statement-breakpoint
CREATE TRIGGER authority_policies_no_change BEFORE UPDATE OR DELETE ON "authority_policies" FOR EACH ROW EXECUTE FUNCTION authority_policies_append_only();
--> statement-breakpoint
INSERT INTO "actors" ("id", "kind", "display_name", "meta") VALUES ('system:authority', 'system', 'Faultline authority (rules, allowlists, level checks)', '{"origin":"system","role":"authority"}') ON CONFLICT ("id") DO NOTHING;
