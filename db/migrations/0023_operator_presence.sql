CREATE TABLE "operator_presence" (
	"web_id" text NOT NULL,
	"user_id" text NOT NULL,
	"sockets" integer NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operator_presence_web_id_user_id_pk" PRIMARY KEY("web_id","user_id")
);
--> statement-breakpoint
CREATE INDEX "operator_presence_user" ON "operator_presence" USING btree ("user_id");