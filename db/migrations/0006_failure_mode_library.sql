CREATE TABLE "library_entries" (
	"failure_id" text PRIMARY KEY NOT NULL,
	"revision" integer NOT NULL,
	"library_version" integer NOT NULL,
	"title" text NOT NULL,
	"category" text NOT NULL,
	"surface_symptom" text NOT NULL,
	"hidden_reality" text NOT NULL,
	"diagnostic_probe" text NOT NULL,
	"resolution_path" text NOT NULL,
	"risk_level" text NOT NULL,
	"risk_notes" text,
	"context_tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"references" text[] DEFAULT '{}'::text[] NOT NULL,
	"source" text NOT NULL,
	"probe_action" jsonb,
	"resolution_action" jsonb,
	"deprecated" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "library_entry_versions" (
	"failure_id" text NOT NULL,
	"revision" integer NOT NULL,
	"library_version" integer NOT NULL,
	"change" text NOT NULL,
	"data" jsonb NOT NULL,
	"diff" jsonb NOT NULL,
	"author_id" text NOT NULL,
	"reviewer_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "library_entry_versions_failure_id_revision_pk" PRIMARY KEY("failure_id","revision")
);
--> statement-breakpoint
CREATE TABLE "library_versions" (
	"version" integer PRIMARY KEY NOT NULL,
	"summary" text NOT NULL,
	"changelog" jsonb NOT NULL,
	"author_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "library_entries_category" ON "library_entries" USING btree ("category");--> statement-breakpoint
CREATE INDEX "library_entries_risk" ON "library_entries" USING btree ("risk_level");--> statement-breakpoint
CREATE INDEX "library_entry_versions_version" ON "library_entry_versions" USING btree ("library_version");--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
ALTER TABLE "library_entries" ADD COLUMN "search" tsvector;
--> statement-breakpoint
-- Weighted full-text document of an entry: title and surface symptom (A), hidden reality (B), tags (C).
CREATE OR REPLACE FUNCTION faultline_library_search() RETURNS trigger AS $$
BEGIN
  NEW.search :=
    setweight(to_tsvector('english', coalesce(NEW.title, '')), 'A') ||
    setweight(to_tsvector('english', coalesce(NEW.surface_symptom, '')), 'A') ||
    setweight(to_tsvector('english', coalesce(NEW.hidden_reality, '')), 'B') ||
    setweight(to_tsvector('english', replace(array_to_string(NEW.context_tags, ' '), '_', ' ')), 'C');
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER library_entries_search BEFORE INSERT OR UPDATE ON library_entries
  FOR EACH ROW EXECUTE FUNCTION faultline_library_search();
--> statement-breakpoint
CREATE INDEX "library_entries_search" ON "library_entries" USING gin ("search");
--> statement-breakpoint
CREATE INDEX "library_entries_symptom_trgm" ON "library_entries" USING gin ("surface_symptom" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "library_entries_tags" ON "library_entries" USING gin ("context_tags");
--> statement-breakpoint
-- Entry history and library versions are append-only: a change is a new revision / version, never an edit.
CREATE OR REPLACE FUNCTION faultline_library_history_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER library_entry_versions_append_only BEFORE UPDATE OR DELETE ON library_entry_versions
  FOR EACH ROW EXECUTE FUNCTION faultline_library_history_append_only();
--> statement-breakpoint
CREATE TRIGGER library_versions_append_only BEFORE UPDATE OR DELETE ON library_versions
  FOR EACH ROW EXECUTE FUNCTION faultline_library_history_append_only();
--> statement-breakpoint
CREATE TRIGGER library_entries_no_delete BEFORE DELETE ON library_entries
  FOR EACH ROW EXECUTE FUNCTION faultline_library_history_append_only();
