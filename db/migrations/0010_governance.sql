-- Issue 6 (auditors and governance): users administration, API tokens, the audit log, gate policies, saved queries.

-- Administration: deactivated users cannot sign in and lose their sessions at once; groups name teams for gate policies.
ALTER TABLE "users" ADD COLUMN "active" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "groups" text[] DEFAULT '{}'::text[] NOT NULL;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_active_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deactivated_at" timestamp with time zone;
--> statement-breakpoint
-- Sessions issued before this time are no longer valid (a password reset or a deactivation signs everyone out).
ALTER TABLE "users" ADD COLUMN "sessions_valid_after" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "must_change_password" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE TABLE "user_invites" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id"),
	"purpose" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "user_invites_user" ON "user_invites" USING btree ("user_id");
--> statement-breakpoint
-- API tokens for agents and scripts: only a hash is stored; the token acts with its user's roles.
CREATE TABLE "api_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id"),
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"token_hash" text NOT NULL UNIQUE,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_by" text
);
--> statement-breakpoint
CREATE INDEX "api_tokens_user" ON "api_tokens" USING btree ("user_id");
--> statement-breakpoint
-- The audit log: every action by a person or an agent. Append-only, enforced below.
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"actor_id" text NOT NULL,
	"actor_name" text NOT NULL,
	"action" text NOT NULL,
	"outcome" text DEFAULT 'ok' NOT NULL,
	"target_type" text,
	"target_id" text,
	"mission_id" uuid,
	"summary" text NOT NULL,
	"via" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE INDEX "audit_log_at" ON "audit_log" USING btree ("at" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX "audit_log_actor" ON "audit_log" USING btree ("actor_id", "at" DESC);
--> statement-breakpoint
CREATE INDEX "audit_log_action" ON "audit_log" USING btree ("action", "at" DESC);
--> statement-breakpoint
CREATE INDEX "audit_log_target" ON "audit_log" USING btree ("target_type", "target_id", "at" DESC);
--> statement-breakpoint
CREATE INDEX "audit_log_mission" ON "audit_log" USING btree ("mission_id", "at" DESC);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION faultline_audit_log_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION faultline_audit_log_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION faultline_audit_log_append_only();
--> statement-breakpoint
-- Gate policies: per mission definition (by name, or '*' for every definition) and gate kind (or '*').
CREATE TABLE "gate_policies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"definition" text NOT NULL,
	"gate_kind" text NOT NULL,
	"roles" text[] DEFAULT '{}'::text[] NOT NULL,
	"groups" text[] DEFAULT '{}'::text[] NOT NULL,
	"approvals_required" integer DEFAULT 1 NOT NULL,
	"starter_may_decide" boolean DEFAULT true NOT NULL,
	"timeout_ms" bigint,
	"timeout_outcome" text,
	"note" text DEFAULT '' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gate_policies_approvals" CHECK ("approvals_required" BETWEEN 1 AND 10),
	CONSTRAINT "gate_policies_timeout" CHECK (("timeout_ms" IS NULL) = ("timeout_outcome" IS NULL) AND ("timeout_ms" IS NULL OR "timeout_ms" > 0))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "gate_policies_scope" ON "gate_policies" USING btree ("definition", "gate_kind");
--> statement-breakpoint
-- Saved queries over the failure history and the audit log: a name and the URL query string of a view.
CREATE TABLE "saved_queries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"scope" text NOT NULL,
	"name" text NOT NULL,
	"query" text NOT NULL,
	"owner_id" uuid REFERENCES "users"("id"),
	"shared" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "saved_queries_owner" ON "saved_queries" USING btree ("scope", "owner_id");
