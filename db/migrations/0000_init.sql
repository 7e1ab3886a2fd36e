CREATE TABLE "actors" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"display_name" text NOT NULL,
	"user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"mission_id" uuid NOT NULL,
	"name" text NOT NULL,
	"phase" text NOT NULL,
	"priority" text NOT NULL,
	"status" text NOT NULL,
	"attempt" integer NOT NULL,
	"position" integer NOT NULL,
	"error" jsonb,
	CONSTRAINT "agents_mission_id_name_pk" PRIMARY KEY("mission_id","name")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"position" bigserial PRIMARY KEY NOT NULL,
	"mission_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"type" text NOT NULL,
	"actor_id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"reason" text NOT NULL,
	"impact" text NOT NULL,
	"evidence" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"mission_id" uuid NOT NULL,
	"agent" text NOT NULL,
	"phase" text NOT NULL,
	"status" text NOT NULL,
	"options" jsonb NOT NULL,
	"error" jsonb NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"opened_seq" integer NOT NULL,
	"decision" text,
	"decided_by" text,
	"note" text,
	"decided_at" timestamp with time zone,
	"open_ms" bigint
);
--> statement-breakpoint
CREATE TABLE "missions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"definition" jsonb NOT NULL,
	"phase" text NOT NULL,
	"run_state" text NOT NULL,
	"progress" real DEFAULT 0 NOT NULL,
	"open_gates" integer DEFAULT 0 NOT NULL,
	"final_status" text,
	"last_seq" integer NOT NULL,
	"state" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"runnable_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text NOT NULL,
	"roles" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "workers" (
	"id" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stopped_at" timestamp with time zone,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
ALTER TABLE "actors" ADD CONSTRAINT "actors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_actor_id_actors_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."actors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gates" ADD CONSTRAINT "gates_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gates" ADD CONSTRAINT "gates_decided_by_actors_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."actors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "missions" ADD CONSTRAINT "missions_created_by_actors_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."actors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "events_mission_seq" ON "events" USING btree ("mission_id","seq");--> statement-breakpoint
CREATE INDEX "events_type" ON "events" USING btree ("type");--> statement-breakpoint
CREATE INDEX "gates_open" ON "gates" USING btree ("status","opened_at");--> statement-breakpoint
CREATE INDEX "gates_mission" ON "gates" USING btree ("mission_id");--> statement-breakpoint
CREATE INDEX "missions_dispatch" ON "missions" USING btree ("run_state","lease_expires_at");--> statement-breakpoint
CREATE INDEX "missions_created" ON "missions" USING btree ("created_at");