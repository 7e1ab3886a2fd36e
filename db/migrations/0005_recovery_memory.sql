CREATE TABLE "episodic_memory" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"mission_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"error_encountered" jsonb NOT NULL,
	"successful_recovery" jsonb NOT NULL,
	"reusable_pattern" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "learned_patterns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"when" text NOT NULL,
	"then" text NOT NULL,
	"error_type" text NOT NULL,
	"tools" text[] DEFAULT '{}'::text[] NOT NULL,
	"successes" integer DEFAULT 0 NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"confidence" real NOT NULL,
	"threshold" real DEFAULT 0.8 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"last_outcome" text,
	"last_mission_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_memory" (
	"id" text PRIMARY KEY NOT NULL,
	"mission_id" uuid NOT NULL,
	"agent" text NOT NULL,
	"step" integer NOT NULL,
	"attempt" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"failure_diagnosis" jsonb NOT NULL,
	"learned_pattern" jsonb,
	"full_diagnostic" jsonb
);
--> statement-breakpoint
ALTER TABLE "gates" ADD COLUMN "recovery_plan" jsonb;--> statement-breakpoint
ALTER TABLE "gates" ADD COLUMN "recovery_note" text;--> statement-breakpoint
ALTER TABLE "episodic_memory" ADD CONSTRAINT "episodic_memory_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_memory" ADD CONSTRAINT "session_memory_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "episodic_memory_time" ON "episodic_memory" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "learned_patterns_when_then" ON "learned_patterns" USING btree ("when","then");--> statement-breakpoint
CREATE INDEX "session_memory_mission" ON "session_memory" USING btree ("mission_id","created_at");--> statement-breakpoint
CREATE INDEX "session_memory_time" ON "session_memory" USING btree ("created_at");