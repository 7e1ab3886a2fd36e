CREATE TABLE "lab_extractions" (
	"signature" text PRIMARY KEY NOT NULL,
	"contribution_id" uuid NOT NULL,
	"sightings" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lab_failures" (
	"suite_run_id" uuid NOT NULL,
	"scenario" text NOT NULL,
	"repeat" integer NOT NULL,
	"seq" integer NOT NULL,
	"agent" text NOT NULL,
	"step" integer NOT NULL,
	"signature" text NOT NULL,
	"error_type" text NOT NULL,
	"injected" text,
	"query" jsonb NOT NULL,
	"draft" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lab_failures_pk" PRIMARY KEY("suite_run_id","scenario","repeat","seq")
);
--> statement-breakpoint
CREATE TABLE "lab_run_traces" (
	"suite_run_id" uuid NOT NULL,
	"scenario" text NOT NULL,
	"repeat" integer NOT NULL,
	"run_id" text NOT NULL,
	"mission_id" text NOT NULL,
	"final_status" text,
	"passed" boolean NOT NULL,
	"trace" text NOT NULL,
	"sha256" text NOT NULL,
	"bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lab_run_traces_pk" PRIMARY KEY("suite_run_id","scenario","repeat")
);
--> statement-breakpoint
CREATE TABLE "lab_suite_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"suite_name" text NOT NULL,
	"suite_file" text,
	"suite_digest" text NOT NULL,
	"seed" integer NOT NULL,
	"repeat" integer NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"total" integer NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"passed" integer DEFAULT 0 NOT NULL,
	"started_by" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"report" jsonb,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "lab_extractions" ADD CONSTRAINT "lab_extractions_contribution_id_library_contributions_id_fk" FOREIGN KEY ("contribution_id") REFERENCES "public"."library_contributions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_failures" ADD CONSTRAINT "lab_failures_suite_run_id_lab_suite_runs_id_fk" FOREIGN KEY ("suite_run_id") REFERENCES "public"."lab_suite_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_run_traces" ADD CONSTRAINT "lab_run_traces_suite_run_id_lab_suite_runs_id_fk" FOREIGN KEY ("suite_run_id") REFERENCES "public"."lab_suite_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lab_failures_signature" ON "lab_failures" USING btree ("signature");--> statement-breakpoint
CREATE INDEX "lab_suite_runs_started" ON "lab_suite_runs" USING btree ("started_at");