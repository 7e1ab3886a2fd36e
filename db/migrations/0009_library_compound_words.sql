-- Compound tokens in entries: PostgreSQL's parser reads "sqlite3.OperationalError", "registry.npmjs.org"
-- or "lock-frontend" as one token (host, file, hyphenated word), so a report that says
-- "sqlite3.OperationalError: database is locked" never matched its parts. Each field is now indexed as
-- written AND with . _ / : @ = \ - between word characters read as spaces (a token is indexed whole and
-- in parts; the query side splits the same way). Then every entry's search vector (and, through the
-- statement triggers of migration 0008, the postings and term statistics) is rebuilt. This is an index
-- rebuild, not a content change: no revision and no library version.
CREATE OR REPLACE FUNCTION faultline_library_split(t text) RETURNS text AS $$
  SELECT coalesce(t, '') || ' ' || regexp_replace(coalesce(t, ''), '([[:alnum:]])[._/:@=\\-]+(?=[[:alnum:]])', '\1 ', 'g');
$$ LANGUAGE sql IMMUTABLE;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION faultline_library_search() RETURNS trigger AS $$
BEGIN
  NEW.search :=
    setweight(to_tsvector('english', faultline_library_split(NEW.title)), 'A') ||
    setweight(to_tsvector('english', faultline_library_split(NEW.surface_symptom)), 'A') ||
    setweight(to_tsvector('english', faultline_library_split(NEW.hidden_reality)), 'B') ||
    setweight(to_tsvector('english', replace(array_to_string(NEW.context_tags, ' '), '_', ' ')), 'C');
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
UPDATE library_entries SET search = NULL;
