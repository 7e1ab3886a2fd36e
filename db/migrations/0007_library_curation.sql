CREATE TABLE "library_contribution_comments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"contribution_id" uuid NOT NULL,
	"parent_id" bigint,
	"author_id" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "library_contribution_reviews" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"contribution_id" uuid NOT NULL,
	"reviewer_id" text NOT NULL,
	"verdict" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "library_contributions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"target_failure_id" text,
	"variant_of" text,
	"entry" jsonb NOT NULL,
	"base_revision" integer,
	"status" text NOT NULL,
	"origin" text DEFAULT 'contributor' NOT NULL,
	"mission_id" uuid,
	"seq" bigint,
	"pattern_id" text,
	"author_id" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"published_version" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "library_matches" (
	"mission_id" uuid NOT NULL,
	"seq" bigint NOT NULL,
	"failure_id" text NOT NULL,
	"rank" integer NOT NULL,
	"match_score" real NOT NULL,
	"outcome" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "library_matches_mission_id_seq_failure_id_pk" PRIMARY KEY("mission_id","seq","failure_id")
);
--> statement-breakpoint
ALTER TABLE "library_contribution_comments" ADD CONSTRAINT "library_contribution_comments_contribution_id_library_contributions_id_fk" FOREIGN KEY ("contribution_id") REFERENCES "public"."library_contributions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_contribution_reviews" ADD CONSTRAINT "library_contribution_reviews_contribution_id_library_contributions_id_fk" FOREIGN KEY ("contribution_id") REFERENCES "public"."library_contributions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_contributions" ADD CONSTRAINT "library_contributions_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_matches" ADD CONSTRAINT "library_matches_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "library_contribution_comments_contribution" ON "library_contribution_comments" USING btree ("contribution_id","id");--> statement-breakpoint
CREATE INDEX "library_contribution_reviews_contribution" ON "library_contribution_reviews" USING btree ("contribution_id","id");--> statement-breakpoint
CREATE INDEX "library_contributions_status" ON "library_contributions" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "library_contributions_author" ON "library_contributions" USING btree ("author_id");--> statement-breakpoint
CREATE INDEX "library_contributions_target" ON "library_contributions" USING btree ("target_failure_id");--> statement-breakpoint
CREATE INDEX "library_matches_entry" ON "library_matches" USING btree ("failure_id","created_at");--> statement-breakpoint
-- Reviews and comments are append-only: a verdict or a comment is never edited or removed.
CREATE TRIGGER library_contribution_reviews_append_only BEFORE UPDATE OR DELETE ON library_contribution_reviews
  FOR EACH ROW EXECUTE FUNCTION faultline_library_history_append_only();
--> statement-breakpoint
CREATE TRIGGER library_contribution_comments_append_only BEFORE UPDATE OR DELETE ON library_contribution_comments
  FOR EACH ROW EXECUTE FUNCTION faultline_library_history_append_only();
