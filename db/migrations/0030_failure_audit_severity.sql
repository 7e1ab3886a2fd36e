-- Issue 19: the failure history's severity within a time span ("critical, last 24 h") was read row by row through
-- failure_audit_time to check each row's severity; with severity first the count reads the index alone.
CREATE INDEX IF NOT EXISTS "failure_audit_severity_time" ON "failure_audit" USING btree ("severity","timestamp","id");