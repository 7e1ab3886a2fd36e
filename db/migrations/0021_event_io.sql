CREATE TABLE "event_io" (
	"mission_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"count" integer NOT NULL,
	"tape" jsonb NOT NULL,
	CONSTRAINT "event_io_mission_id_seq_pk" PRIMARY KEY("mission_id","seq")
);
--> statement-breakpoint
-- The engine's readings are part of the record: append-only like the events they explain.
CREATE OR REPLACE FUNCTION faultline_event_io_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'event_io is append-only: % is not allowed (mission %, seq %)', TG_OP, OLD.mission_id, OLD.seq
    USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER event_io_append_only BEFORE UPDATE OR DELETE ON event_io
  FOR EACH ROW EXECUTE FUNCTION faultline_event_io_append_only();
