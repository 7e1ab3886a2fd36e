-- Issue 19: the event log, the audit log and the failure history, range-partitioned by month (docs/deploy.md,
-- "Time partitions"). Each table is rebuilt in this migration's transaction: the old one is renamed, a partitioned
-- one takes its name, the partitions that the existing rows need are created, the rows are copied, the old table is
-- dropped, and every key, index, foreign key and trigger is created again under its old name.
--
-- events: by the MISSION's creation time (new column mission_created_at, missions.created_at copied on insert), so
-- every event of a mission sits in one partition and the key (mission_id, mission_created_at, seq) still makes
-- (mission_id, seq) unique: a foreign key (mission_id, mission_created_at) -> missions (id, created_at) admits only
-- the mission's own creation time. audit_log by its own time (at), failure_audit by its own (timestamp).
--
-- faultline_create_partitions(table, from, to) creates the monthly partitions (UTC months) from..to that are
-- missing; rows of a month without a partition land in <table>_default and are moved into the month's partition
-- when it is created (copied, never updated or deleted). The worker calls it at start and once an hour.

-- Partitions hold the append-only rule themselves: row triggers are cloned to each partition by PostgreSQL,
-- statement (TRUNCATE) triggers are not, so each partition gets its own.
CREATE OR REPLACE FUNCTION faultline_create_partitions(parent text, from_ts timestamptz, to_ts timestamptz) RETURNS integer AS $$
DECLARE
  key text;
  m timestamptz := date_trunc('month', from_ts, 'UTC');
  last timestamptz := date_trunc('month', to_ts, 'UTC');
  part text;
  cols text;
  created integer := 0;
  strays boolean;
BEGIN
  IF from_ts IS NULL OR to_ts IS NULL THEN RETURN 0; END IF;
  SELECT a.attname INTO key FROM pg_partitioned_table p JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
    WHERE p.partrelid = to_regclass(format('public.%I', parent));
  IF key IS NULL THEN
    RAISE EXCEPTION 'faultline_create_partitions: % is not a partitioned table of this database', parent USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF last - m > interval '10 years' THEN
    RAISE EXCEPTION 'faultline_create_partitions: % to % is more than 10 years of monthly partitions; pass a shorter range', from_ts, to_ts USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- Several workers start at once: one creates, the others find the partitions made.
  PERFORM pg_advisory_xact_lock(7242002);
  WHILE m <= last LOOP
    part := format('%s_p%s', parent, to_char(m AT TIME ZONE 'UTC', 'YYYYMM'));
    IF to_regclass(format('public.%I', part)) IS NULL THEN
      EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE %I >= $1 AND %I < $2)', parent || '_default', key, key) INTO strays USING m, m + interval '1 month';
      IF strays THEN
        -- The default partition holds rows of this month: detach it, create the month, copy every row of the old
        -- default back through the parent (each lands in its partition), drop the old default.
        SELECT string_agg(format('%I', attname), ', ' ORDER BY attnum) INTO cols FROM pg_attribute
          WHERE attrelid = to_regclass(format('public.%I', parent)) AND attnum > 0 AND NOT attisdropped AND attgenerated = '';
        EXECUTE format('ALTER TABLE %I DETACH PARTITION %I', parent, parent || '_default');
        EXECUTE format('ALTER TABLE %I RENAME TO %I', parent || '_default', parent || '_default_moving');
        EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT', parent || '_default', parent);
        EXECUTE format('CREATE TRIGGER %I BEFORE TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION faultline_partition_no_truncate()', parent || '_default_no_truncate', parent || '_default');
        EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', part, parent, m, m + interval '1 month');
        EXECUTE format('INSERT INTO %I (%s) SELECT %s FROM %I', parent, cols, cols, parent || '_default_moving');
        EXECUTE format('DROP TABLE %I', parent || '_default_moving');
      ELSE
        EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', part, parent, m, m + interval '1 month');
      END IF;
      EXECUTE format('CREATE TRIGGER %I BEFORE TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION faultline_partition_no_truncate()', part || '_no_truncate', part);
      created := created + 1;
    END IF;
    m := m + interval '1 month';
  END LOOP;
  RETURN created;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION faultline_partition_no_truncate() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: TRUNCATE is not allowed (retention drops whole partitions: docs/deploy.md)', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint

-- ───────────── events ─────────────
ALTER TABLE "events" RENAME TO "events_unpartitioned";
--> statement-breakpoint
ALTER SEQUENCE "events_position_seq" OWNED BY NONE;
--> statement-breakpoint
ALTER TABLE "events_unpartitioned" ALTER COLUMN "position" DROP DEFAULT;
--> statement-breakpoint
CREATE TABLE "events" (
  "position" bigint NOT NULL DEFAULT nextval('events_position_seq'),
  "mission_id" uuid NOT NULL,
  "mission_created_at" timestamp with time zone NOT NULL,
  "seq" integer NOT NULL,
  "type" text NOT NULL,
  "actor_id" text NOT NULL,
  "payload" jsonb NOT NULL,
  "reason" text NOT NULL,
  "impact" text NOT NULL,
  "evidence" jsonb,
  "created_at" timestamp with time zone NOT NULL DEFAULT now()
) PARTITION BY RANGE ("mission_created_at");
--> statement-breakpoint
ALTER SEQUENCE "events_position_seq" OWNED BY "events"."position";
--> statement-breakpoint
CREATE TABLE "events_default" PARTITION OF "events" DEFAULT;
--> statement-breakpoint
CREATE TRIGGER "events_default_no_truncate" BEFORE TRUNCATE ON "events_default" FOR EACH STATEMENT EXECUTE FUNCTION faultline_partition_no_truncate();
--> statement-breakpoint
SELECT faultline_create_partitions('events', m, m) FROM (SELECT DISTINCT date_trunc('month', "created_at", 'UTC') AS m FROM "missions" WHERE "id" IN (SELECT DISTINCT "mission_id" FROM "events_unpartitioned")) months;
--> statement-breakpoint
SELECT faultline_create_partitions('events', now(), now() + interval '3 months');
--> statement-breakpoint
INSERT INTO "events" ("position", "mission_id", "mission_created_at", "seq", "type", "actor_id", "payload", "reason", "impact", "evidence", "created_at")
  SELECT e."position", e."mission_id", m."created_at", e."seq", e."type", e."actor_id", e."payload", e."reason", e."impact", e."evidence", e."created_at"
  FROM "events_unpartitioned" e JOIN "missions" m ON m."id" = e."mission_id";
--> statement-breakpoint
DO $$
DECLARE lost bigint;
BEGIN
  SELECT count(*) INTO lost FROM "events_unpartitioned" e WHERE NOT EXISTS (SELECT 1 FROM "missions" m WHERE m."id" = e."mission_id");
  IF lost > 0 THEN
    RAISE EXCEPTION 'migration 0028: % event(s) belong to no mission (events.mission_id not in missions); they cannot be placed by the mission''s creation time. Nothing was changed.', lost;
  END IF;
END $$;
--> statement-breakpoint
DROP TABLE "events_unpartitioned";
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_pkey" PRIMARY KEY ("mission_id", "mission_created_at", "seq");
--> statement-breakpoint
CREATE INDEX "events_position" ON "events" USING btree ("position");
--> statement-breakpoint
CREATE INDEX "events_type" ON "events" USING btree ("type");
--> statement-breakpoint
CREATE UNIQUE INDEX "missions_id_created_at" ON "missions" USING btree ("id", "created_at");
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_mission_fk" FOREIGN KEY ("mission_id", "mission_created_at") REFERENCES "public"."missions"("id", "created_at") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_actor_id_actors_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."actors"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events FOR EACH ROW EXECUTE FUNCTION faultline_events_append_only();
--> statement-breakpoint
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events FOR EACH STATEMENT EXECUTE FUNCTION faultline_events_no_truncate();
--> statement-breakpoint

-- ───────────── audit_log ─────────────
ALTER TABLE "audit_log" RENAME TO "audit_log_unpartitioned";
--> statement-breakpoint
ALTER SEQUENCE "audit_log_id_seq" OWNED BY NONE;
--> statement-breakpoint
ALTER TABLE "audit_log_unpartitioned" ALTER COLUMN "id" DROP DEFAULT;
--> statement-breakpoint
CREATE TABLE "audit_log" (
  "id" bigint NOT NULL DEFAULT nextval('audit_log_id_seq'),
  "at" timestamp with time zone NOT NULL DEFAULT clock_timestamp(),
  "actor_id" text NOT NULL,
  "actor_name" text NOT NULL,
  "action" text NOT NULL,
  "outcome" text NOT NULL DEFAULT 'ok',
  "target_type" text,
  "target_id" text,
  "mission_id" uuid,
  "summary" text NOT NULL,
  "via" text NOT NULL,
  "ip" text,
  "user_agent" text,
  "before" jsonb,
  "after" jsonb
) PARTITION BY RANGE ("at");
--> statement-breakpoint
ALTER SEQUENCE "audit_log_id_seq" OWNED BY "audit_log"."id";
--> statement-breakpoint
CREATE TABLE "audit_log_default" PARTITION OF "audit_log" DEFAULT;
--> statement-breakpoint
CREATE TRIGGER "audit_log_default_no_truncate" BEFORE TRUNCATE ON "audit_log_default" FOR EACH STATEMENT EXECUTE FUNCTION faultline_partition_no_truncate();
--> statement-breakpoint
SELECT faultline_create_partitions('audit_log', m, m) FROM (SELECT DISTINCT date_trunc('month', "at", 'UTC') AS m FROM "audit_log_unpartitioned") months;
--> statement-breakpoint
SELECT faultline_create_partitions('audit_log', now(), now() + interval '3 months');
--> statement-breakpoint
INSERT INTO "audit_log" ("id", "at", "actor_id", "actor_name", "action", "outcome", "target_type", "target_id", "mission_id", "summary", "via", "ip", "user_agent", "before", "after")
  SELECT "id", "at", "actor_id", "actor_name", "action", "outcome", "target_type", "target_id", "mission_id", "summary", "via", "ip", "user_agent", "before", "after" FROM "audit_log_unpartitioned";
--> statement-breakpoint
DROP TABLE "audit_log_unpartitioned";
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id", "at");
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
CREATE INDEX "audit_log_summary_trgm" ON "audit_log" USING gin ("summary" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "audit_log_actor_name_trgm" ON "audit_log" USING gin ("actor_name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "audit_log_refused" ON "audit_log" USING btree ("at" DESC, "id" DESC) INCLUDE ("via", "action") WHERE "outcome" = 'refused';
--> statement-breakpoint
CREATE INDEX "audit_log_via" ON "audit_log" USING btree ("via", "at" DESC, "id" DESC);
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION faultline_audit_log_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION faultline_audit_log_append_only();
--> statement-breakpoint

-- ───────────── failure_audit ─────────────
-- Not append-only (the projection attributes and resolves rows), but its time never changes, so rows never move.
ALTER TABLE "failure_audit" RENAME TO "failure_audit_unpartitioned";
--> statement-breakpoint
CREATE TABLE "failure_audit" (
  "id" uuid NOT NULL DEFAULT gen_random_uuid(),
  "mission_id" uuid NOT NULL,
  "seq" integer NOT NULL,
  "timestamp" timestamp with time zone NOT NULL,
  "level" text NOT NULL,
  "severity" text NOT NULL,
  "what" text NOT NULL,
  "why" text,
  "context" jsonb NOT NULL,
  "agent" text,
  "gate_id" uuid,
  "resolution" jsonb,
  "resolved_at" timestamp with time zone,
  "definition" text,
  "phase" text,
  "step" integer,
  "attempt" integer,
  "error_type" text NOT NULL DEFAULT 'unknown',
  "actor_id" text,
  "started_by" text,
  "root_cause" text,
  "failure_mode" text,
  "failure_mode_confirmed" boolean NOT NULL DEFAULT false,
  "decided_by" text,
  "resolution_action" text,
  "resolution_ms" bigint,
  "search" tsvector GENERATED ALWAYS AS (to_tsvector('english', coalesce("what", '') || ' ' || coalesce("why", '') || ' ' || coalesce("root_cause", ''))) STORED
) PARTITION BY RANGE ("timestamp");
--> statement-breakpoint
CREATE TABLE "failure_audit_default" PARTITION OF "failure_audit" DEFAULT;
--> statement-breakpoint
CREATE TRIGGER "failure_audit_default_no_truncate" BEFORE TRUNCATE ON "failure_audit_default" FOR EACH STATEMENT EXECUTE FUNCTION faultline_partition_no_truncate();
--> statement-breakpoint
SELECT faultline_create_partitions('failure_audit', m, m) FROM (SELECT DISTINCT date_trunc('month', "timestamp", 'UTC') AS m FROM "failure_audit_unpartitioned") months;
--> statement-breakpoint
SELECT faultline_create_partitions('failure_audit', now(), now() + interval '3 months');
--> statement-breakpoint
INSERT INTO "failure_audit" ("id", "mission_id", "seq", "timestamp", "level", "severity", "what", "why", "context", "agent", "gate_id", "resolution", "resolved_at", "definition", "phase", "step", "attempt", "error_type", "actor_id", "started_by", "root_cause", "failure_mode", "failure_mode_confirmed", "decided_by", "resolution_action", "resolution_ms")
  SELECT "id", "mission_id", "seq", "timestamp", "level", "severity", "what", "why", "context", "agent", "gate_id", "resolution", "resolved_at", "definition", "phase", "step", "attempt", "error_type", "actor_id", "started_by", "root_cause", "failure_mode", "failure_mode_confirmed", "decided_by", "resolution_action", "resolution_ms"
  FROM "failure_audit_unpartitioned";
--> statement-breakpoint
DROP TABLE "failure_audit_unpartitioned";
--> statement-breakpoint
ALTER TABLE "failure_audit" ADD CONSTRAINT "failure_audit_pkey" PRIMARY KEY ("mission_id", "id", "timestamp");
--> statement-breakpoint
ALTER TABLE "failure_audit" ADD CONSTRAINT "failure_audit_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "failure_audit_id" ON "failure_audit" USING btree ("id");
--> statement-breakpoint
CREATE INDEX "failure_audit_mission" ON "failure_audit" USING btree ("mission_id", "seq");
--> statement-breakpoint
CREATE INDEX "failure_audit_open" ON "failure_audit" USING btree ("resolved_at");
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
--> statement-breakpoint
ANALYZE "events";
--> statement-breakpoint
ANALYZE "audit_log";
--> statement-breakpoint
ANALYZE "failure_audit";
