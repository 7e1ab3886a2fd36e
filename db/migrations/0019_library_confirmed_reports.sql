-- Learning from confirmed walks (issue 18): a report the walk confirmed as an entry (library.probe
-- confirmed, or library.resolved resolved) is kept with the lexemes of its normalised words; a later report
-- sharing most of its evidence ranks that entry higher (db/queries/library-query.ts, `learned`).
CREATE TABLE "library_confirmed_reports" (
	"mission_id" uuid NOT NULL REFERENCES "missions"("id"),
	"seq" bigint NOT NULL,
	"failure_id" text NOT NULL,
	"symptom" text NOT NULL,
	"lexemes" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "library_confirmed_reports_pk" PRIMARY KEY ("mission_id", "seq", "failure_id")
);
--> statement-breakpoint
CREATE INDEX "library_confirmed_reports_lexemes" ON "library_confirmed_reports" USING gin ("lexemes");
