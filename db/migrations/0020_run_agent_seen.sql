ALTER TABLE "missions" ADD COLUMN IF NOT EXISTS "agent_seen_at" timestamp with time zone;
