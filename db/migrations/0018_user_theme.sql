-- Issue 16: the console's theme is a person's choice, kept with them (not only in one browser).
ALTER TABLE "users" ADD COLUMN "theme" text DEFAULT 'system' NOT NULL CHECK ("theme" IN ('system', 'light', 'dark'));
