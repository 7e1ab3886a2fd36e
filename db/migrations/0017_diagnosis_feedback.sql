-- Issue 18: operators confirm or correct a diagnosis' error type (at its gate, or through the API).
-- Append-only: every verdict is kept; the latest per diagnosis is the one that counts.
CREATE TABLE "diagnosis_feedback" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"diagnosis_id" text NOT NULL,
	"mission_id" uuid NOT NULL REFERENCES "missions"("id"),
	"seq" integer NOT NULL,
	"stated_type" text NOT NULL,
	"stated_confidence" real NOT NULL,
	"verdict" text NOT NULL CHECK ("verdict" IN ('confirmed', 'corrected')),
	"correct_type" text NOT NULL,
	"note" text,
	"actor_id" text NOT NULL REFERENCES "actors"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "diagnosis_feedback_diagnosis" ON "diagnosis_feedback" ("diagnosis_id","created_at");--> statement-breakpoint
CREATE INDEX "diagnosis_feedback_created" ON "diagnosis_feedback" ("created_at");
