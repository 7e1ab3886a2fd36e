-- Issue 6, failure history: every failure attributed (who, when, why, how resolved) as real columns,
-- written by the projection in the transaction of the event that changes them; backfilled below.
ALTER TABLE "failure_audit" ADD COLUMN "definition" text;
--> statement-breakpoint
ALTER TABLE "failure_audit" ADD COLUMN "phase" text;
--> statement-breakpoint
ALTER TABLE "failure_audit" ADD COLUMN "step" integer;
--> statement-breakpoint
ALTER TABLE "failure_audit" ADD COLUMN "attempt" integer;
--> statement-breakpoint
ALTER TABLE "failure_audit" ADD COLUMN "error_type" text DEFAULT 'unknown' NOT NULL;
--> statement-breakpoint
ALTER TABLE "failure_audit" ADD COLUMN "actor_id" text;
--> statement-breakpoint
ALTER TABLE "failure_audit" ADD COLUMN "started_by" text;
--> statement-breakpoint
ALTER TABLE "failure_audit" ADD COLUMN "root_cause" text;
--> statement-breakpoint
ALTER TABLE "failure_audit" ADD COLUMN "failure_mode" text;
--> statement-breakpoint
ALTER TABLE "failure_audit" ADD COLUMN "failure_mode_confirmed" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "failure_audit" ADD COLUMN "decided_by" text;
--> statement-breakpoint
ALTER TABLE "failure_audit" ADD COLUMN "resolution_action" text;
--> statement-breakpoint
ALTER TABLE "failure_audit" ADD COLUMN "resolution_ms" bigint;
--> statement-breakpoint
-- Backfill: what the mission, the event log, the gates, the diagnoses and the library walk already say.
UPDATE "failure_audit" f SET
  "definition" = m."name",
  "started_by" = m."created_by",
  "step" = (f."context"->>'step')::int,
  "attempt" = (f."context"->>'attempt')::int,
  "phase" = coalesce(f."context"->>'phase', (SELECT a."phase" FROM "agents" a WHERE a."mission_id" = f."mission_id" AND a."name" = f."agent")),
  "error_type" = CASE
    WHEN f."level" = 'phase' THEN 'phase_' || coalesce(f."context"->>'reason', 'failed')
    WHEN f."level" = 'client' THEN 'operator_disconnected'
    WHEN f."level" = 'infrastructure' AND f."context" ? 'kind' THEN 'infrastructure_outage'
    WHEN f."context" ? 'idempotencyKey' THEN 'interrupted'
    ELSE lower(coalesce(f."context"->>'code', 'unknown')) END,
  "actor_id" = (SELECT e."actor_id" FROM "events" e WHERE e."mission_id" = f."mission_id" AND e."seq" = f."seq"),
  "decided_by" = f."resolution"->>'resolvedBy',
  "resolution_action" = f."resolution"->>'action'
FROM "missions" m WHERE m."id" = f."mission_id";
--> statement-breakpoint
UPDATE "failure_audit" f SET "resolution_ms" = greatest(0, round(extract(epoch FROM (f."resolved_at" - coalesce((SELECT g."opened_at" FROM "gates" g WHERE g."id" = f."gate_id" AND g."status" = 'resolved'), f."timestamp"))) * 1000))::bigint
WHERE f."resolved_at" IS NOT NULL;
--> statement-breakpoint
UPDATE "failure_audit" f SET "root_cause" = d."cause"
FROM (
  SELECT DISTINCT ON (f2."id") f2."id", e."payload"->'diagnosis'->'rootCause'->>'description' AS "cause"
  FROM "failure_audit" f2 JOIN "events" e ON e."mission_id" = f2."mission_id" AND e."type" = 'diagnostic_reflection' AND e."seq" > f2."seq"
    AND e."payload"->>'agent' = f2."agent" AND (e."payload"->>'step')::int = f2."step" AND (e."payload"->>'attempt')::int = f2."attempt"
  ORDER BY f2."id", e."seq"
) d WHERE d."id" = f."id";
--> statement-breakpoint
UPDATE "failure_audit" f SET "failure_mode" = h."failure_id", "failure_mode_confirmed" = h."confirmed"
FROM (
  SELECT DISTINCT ON (f2."id") f2."id", lm."failure_id", lm."outcome" IN ('confirmed', 'resolved', 'unresolved') AS "confirmed"
  FROM "failure_audit" f2 JOIN "events" e ON e."mission_id" = f2."mission_id" AND e."type" = 'library.hypotheses' AND e."seq" > f2."seq"
    AND e."payload"->>'agent' = f2."agent" AND (e."payload"->>'step')::int = f2."step" AND (e."payload"->>'attempt')::int = f2."attempt"
  JOIN "library_matches" lm ON lm."mission_id" = e."mission_id" AND lm."seq" = e."seq"
  ORDER BY f2."id", (lm."outcome" IN ('confirmed', 'resolved', 'unresolved')) DESC, lm."rank"
) h WHERE h."id" = f."id";
--> statement-breakpoint
-- Full-text search over what / why / root cause (kept by PostgreSQL as the row changes).
ALTER TABLE "failure_audit" ADD COLUMN "search" tsvector GENERATED ALWAYS AS (to_tsvector('english', coalesce("what", '') || ' ' || coalesce("why", '') || ' ' || coalesce("root_cause", ''))) STORED;
--> statement-breakpoint
-- Indexes for the history's filters, each ending in (timestamp, id) so a filtered page is an index range read in order.
DROP INDEX IF EXISTS "failure_audit_time";
--> statement-breakpoint
CREATE INDEX "failure_audit_time" ON "failure_audit" USING btree ("timestamp", "id");
--> statement-breakpoint
CREATE INDEX "failure_audit_open_time" ON "failure_audit" USING btree ("timestamp", "id") WHERE "resolved_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "failure_audit_mission_time" ON "failure_audit" USING btree ("mission_id", "timestamp", "id");
--> statement-breakpoint
CREATE INDEX "failure_audit_definition_time" ON "failure_audit" USING btree ("definition", "level", "timestamp", "id");
--> statement-breakpoint
CREATE INDEX "failure_audit_error_type_time" ON "failure_audit" USING btree ("error_type", "timestamp", "id");
--> statement-breakpoint
CREATE INDEX "failure_audit_failure_mode_time" ON "failure_audit" USING btree ("failure_mode", "timestamp", "id");
--> statement-breakpoint
CREATE INDEX "failure_audit_decided_by_time" ON "failure_audit" USING btree ("decided_by", "timestamp", "id");
--> statement-breakpoint
CREATE INDEX "failure_audit_actor_time" ON "failure_audit" USING btree ("actor_id", "timestamp", "id");
--> statement-breakpoint
CREATE INDEX "failure_audit_started_by_time" ON "failure_audit" USING btree ("started_by", "timestamp", "id");
--> statement-breakpoint
CREATE INDEX "failure_audit_resolution_ms" ON "failure_audit" USING btree ((coalesce("resolution_ms", 9223372036854775807)), "id");
--> statement-breakpoint
CREATE INDEX "failure_audit_search" ON "failure_audit" USING gin ("search");
