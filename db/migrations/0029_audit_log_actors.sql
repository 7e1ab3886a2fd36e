-- Issue 19: part of an actor's name in the audit log. A trigram index on audit_log.actor_name cannot find "Person 13"
-- quickly: its trigrams ("per", "son", …) are in nearly every row, so every posting list is read. The log holds
-- few distinct (actor, name at the time) pairs; they are kept here, and a name part is looked up among them, then
-- read through audit_log_actor (actor_id, at). An insert trigger on audit_log keeps the pairs complete.
CREATE TABLE "audit_log_actors" (
  "actor_id" text NOT NULL,
  "actor_name" text NOT NULL,
  CONSTRAINT "audit_log_actors_pkey" PRIMARY KEY ("actor_id", "actor_name")
);
--> statement-breakpoint
CREATE INDEX "audit_log_actors_name_trgm" ON "audit_log_actors" USING gin ("actor_name" gin_trgm_ops);
--> statement-breakpoint
INSERT INTO "audit_log_actors" ("actor_id", "actor_name") SELECT DISTINCT "actor_id", "actor_name" FROM "audit_log";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION faultline_audit_log_actors() RETURNS trigger AS $$
BEGIN
  INSERT INTO audit_log_actors (actor_id, actor_name) SELECT DISTINCT actor_id, actor_name FROM new_rows ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER audit_log_actors AFTER INSERT ON audit_log REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION faultline_audit_log_actors();
--> statement-breakpoint
-- The trigram index on every row's name served only the name part: the pairs above serve it now.
DROP INDEX IF EXISTS "audit_log_actor_name_trgm";
