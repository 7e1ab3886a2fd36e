-- Issue 19: the mission id in every primary key of the per-mission tables, so they can be distributed by
-- mission on Citus (docs/deploy.md, "Beyond one database: Citus"). Each key was unique alone already (a uuid,
-- a serial, or events' (mission_id, seq)), so the new keys hold on any existing data. Lookups by id alone keep
-- an index of their own; events.position (the webhook cursor's order) keeps a plain index.
ALTER TABLE "counterfactual_checks" DROP CONSTRAINT "counterfactual_checks_pkey";--> statement-breakpoint
ALTER TABLE "diagnosis_feedback" DROP CONSTRAINT "diagnosis_feedback_pkey";--> statement-breakpoint
ALTER TABLE "episodic_memory" DROP CONSTRAINT "episodic_memory_pkey";--> statement-breakpoint
ALTER TABLE "events" DROP CONSTRAINT "events_pkey";--> statement-breakpoint
ALTER TABLE "failure_audit" DROP CONSTRAINT "failure_audit_pkey";--> statement-breakpoint
ALTER TABLE "gates" DROP CONSTRAINT "gates_pkey";--> statement-breakpoint
ALTER TABLE "proposals" DROP CONSTRAINT "proposals_pkey";--> statement-breakpoint
ALTER TABLE "session_memory" DROP CONSTRAINT "session_memory_pkey";--> statement-breakpoint
DROP INDEX "events_mission_seq";--> statement-breakpoint
ALTER TABLE "counterfactual_checks" ADD CONSTRAINT "counterfactual_checks_pkey" PRIMARY KEY("mission_id","id");--> statement-breakpoint
ALTER TABLE "diagnosis_feedback" ADD CONSTRAINT "diagnosis_feedback_pkey" PRIMARY KEY("mission_id","id");--> statement-breakpoint
ALTER TABLE "episodic_memory" ADD CONSTRAINT "episodic_memory_pkey" PRIMARY KEY("mission_id","id");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_pkey" PRIMARY KEY("mission_id","seq");--> statement-breakpoint
ALTER TABLE "failure_audit" ADD CONSTRAINT "failure_audit_pkey" PRIMARY KEY("mission_id","id");--> statement-breakpoint
ALTER TABLE "gates" ADD CONSTRAINT "gates_pkey" PRIMARY KEY("mission_id","id");--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_pkey" PRIMARY KEY("mission_id","id");--> statement-breakpoint
ALTER TABLE "session_memory" ADD CONSTRAINT "session_memory_pkey" PRIMARY KEY("mission_id","id");--> statement-breakpoint
CREATE INDEX "counterfactual_checks_id" ON "counterfactual_checks" USING btree ("id");--> statement-breakpoint
CREATE INDEX "diagnosis_feedback_id" ON "diagnosis_feedback" USING btree ("id");--> statement-breakpoint
CREATE INDEX "episodic_memory_id" ON "episodic_memory" USING btree ("id");--> statement-breakpoint
CREATE INDEX "failure_audit_id" ON "failure_audit" USING btree ("id");--> statement-breakpoint
CREATE INDEX "gates_id" ON "gates" USING btree ("id");--> statement-breakpoint
CREATE INDEX "proposals_id" ON "proposals" USING btree ("id");--> statement-breakpoint
CREATE INDEX "session_memory_id" ON "session_memory" USING btree ("id");--> statement-breakpoint
CREATE INDEX "events_position" ON "events" USING btree ("position");
