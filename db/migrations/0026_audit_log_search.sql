-- The audit log at scale (issue 19): its filters read indexes, not every row.
-- Words in the summary and part of an actor's name (ILIKE '%…%'): trigram indexes (pg_trgm, migration 0006).
CREATE INDEX IF NOT EXISTS "audit_log_summary_trgm" ON "audit_log" USING gin ("summary" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audit_log_actor_name_trgm" ON "audit_log" USING gin ("actor_name" gin_trgm_ops);
--> statement-breakpoint
-- Refused attempts are few and looked for on their own (newest first), often with where from or what.
CREATE INDEX IF NOT EXISTS "audit_log_refused" ON "audit_log" ("at" DESC, "id" DESC) INCLUDE ("via", "action") WHERE "outcome" = 'refused';
--> statement-breakpoint
-- Where from (web, api, cli, worker, system), newest first.
CREATE INDEX IF NOT EXISTS "audit_log_via" ON "audit_log" ("via", "at" DESC, "id" DESC);
