CREATE TABLE "counterfactual_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mission_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"counterfactual" jsonb NOT NULL,
	"verdict" text NOT NULL,
	"summary" text NOT NULL,
	"change" jsonb,
	"evidence" jsonb NOT NULL,
	"mission_seq" integer NOT NULL,
	"verified_by" text NOT NULL,
	"verified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "counterfactual_checks" ADD CONSTRAINT "counterfactual_checks_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "counterfactual_checks_mission" ON "counterfactual_checks" USING btree ("mission_id","verified_at");