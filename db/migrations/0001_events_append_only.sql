-- The event log is append-only: UPDATE, DELETE and TRUNCATE are rejected.
CREATE OR REPLACE FUNCTION faultline_events_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'events is append-only: % is not allowed (mission %, seq %)', TG_OP, OLD.mission_id, OLD.seq
    USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
  FOR EACH ROW EXECUTE FUNCTION faultline_events_append_only();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION faultline_events_no_truncate() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'events is append-only: TRUNCATE is not allowed' USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION faultline_events_no_truncate();
