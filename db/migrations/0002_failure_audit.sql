CREATE TABLE "failure_audit" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mission_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"timestamp" timestamp with time zone NOT NULL,
	"level" text NOT NULL,
	"severity" text NOT NULL,
	"what" text NOT NULL,
	"why" text,
	"context" jsonb NOT NULL,
	"agent" text,
	"gate_id" uuid,
	"resolution" jsonb,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "failure_audit" ADD CONSTRAINT "failure_audit_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "failure_audit_mission" ON "failure_audit" USING btree ("mission_id","seq");--> statement-breakpoint
CREATE INDEX "failure_audit_open" ON "failure_audit" USING btree ("resolved_at");--> statement-breakpoint
CREATE INDEX "failure_audit_time" ON "failure_audit" USING btree ("timestamp");