-- Failure-mode library query speed (issue 5): an inverted index of the published library kept by
-- PostgreSQL itself, so a query reads only the postings of its rarest terms instead of every entry
-- that shares a common word with it.
--
-- library_terms: one row per (lexeme, active entry) with the entry's best field weight for it
--   (A title/surface symptom 1.0, B hidden reality 0.7, C context tags 0.4, D 0.2), read by
--   index-only scans.
-- library_term_stats: document frequency of each lexeme over active (not deprecated) entries; the
--   row with the empty lexeme holds the number of active entries. Used for IDF weights, for picking a
--   query's rarest terms, and (trigram index) for matching misspelt query words to the vocabulary.
-- Both are maintained by statement-level triggers on library_entries (transition tables), so bulk
-- loads, publishes, deprecations and rollbacks keep them exact without any caller doing anything.
CREATE TABLE "library_terms" (
	"lexeme" text NOT NULL,
	"failure_id" text NOT NULL,
	"weight" real NOT NULL,
	CONSTRAINT "library_terms_pk" PRIMARY KEY ("lexeme", "failure_id") INCLUDE ("weight")
);
--> statement-breakpoint
CREATE TABLE "library_term_stats" (
	"lexeme" text PRIMARY KEY NOT NULL,
	"df" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "library_term_stats_trgm" ON "library_term_stats" USING gin ("lexeme" gin_trgm_ops);
--> statement-breakpoint
-- Postings of a set of entries: best weight per lexeme (A 1.0, B 0.7, C 0.4, D 0.2).
CREATE OR REPLACE FUNCTION faultline_library_postings(search tsvector) RETURNS TABLE (lexeme text, weight real) AS $$
  SELECT u.lexeme, max(CASE w WHEN 'A' THEN 1.0 WHEN 'B' THEN 0.7 WHEN 'C' THEN 0.4 ELSE 0.2 END)::real
  FROM unnest(search) u, unnest(u.weights) w
  GROUP BY u.lexeme
$$ LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE;
--> statement-breakpoint
-- Adds the postings of active entries `added` (already written to library_entries) and counts them.
CREATE OR REPLACE FUNCTION faultline_library_terms_add(added text[]) RETURNS void AS $$
  WITH ins AS (
    INSERT INTO library_terms (lexeme, failure_id, weight)
    SELECT p.lexeme, e.failure_id, p.weight
    FROM library_entries e, faultline_library_postings(e.search) p
    WHERE e.failure_id = ANY (added) AND NOT e.deprecated
    RETURNING lexeme
  ), counts AS (
    SELECT i.lexeme, count(*)::int AS n FROM ins i GROUP BY i.lexeme
    UNION ALL SELECT '', (SELECT count(*) FROM library_entries e WHERE e.failure_id = ANY (added) AND NOT e.deprecated)::int
  )
  INSERT INTO library_term_stats AS s (lexeme, df) SELECT c.lexeme, c.n FROM counts c
  ON CONFLICT (lexeme) DO UPDATE SET df = s.df + excluded.df;
$$ LANGUAGE sql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION faultline_library_terms_insert() RETURNS trigger AS $$
BEGIN
  PERFORM faultline_library_terms_add((SELECT coalesce(array_agg(n.failure_id), '{}') FROM new_rows n WHERE NOT n.deprecated));
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- An update that changes an entry's text or its deprecation replaces its postings (found by the old
-- text's lexemes, so no second index is needed).
CREATE OR REPLACE FUNCTION faultline_library_terms_update() RETURNS trigger AS $$
DECLARE
  changed text[];
BEGIN
  SELECT coalesce(array_agg(n.failure_id), '{}') INTO changed
  FROM new_rows n JOIN old_rows o USING (failure_id)
  WHERE n.search IS DISTINCT FROM o.search OR n.deprecated <> o.deprecated;
  IF cardinality(changed) = 0 THEN
    RETURN NULL;
  END IF;
  WITH old_postings AS (
    SELECT o.failure_id, p.lexeme FROM old_rows o, faultline_library_postings(o.search) p
    WHERE o.failure_id = ANY (changed) AND NOT o.deprecated
  ), gone AS (
    DELETE FROM library_terms t USING old_postings x WHERE t.lexeme = x.lexeme AND t.failure_id = x.failure_id RETURNING t.lexeme
  ), counts AS (
    SELECT g.lexeme, count(*)::int AS n FROM gone g GROUP BY g.lexeme
    UNION ALL SELECT '', (SELECT count(*) FROM old_rows o WHERE o.failure_id = ANY (changed) AND NOT o.deprecated)::int
  )
  UPDATE library_term_stats s SET df = s.df - c.n FROM counts c WHERE s.lexeme = c.lexeme;
  PERFORM faultline_library_terms_add(changed);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER library_entries_terms_insert AFTER INSERT ON library_entries
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION faultline_library_terms_insert();
--> statement-breakpoint
CREATE TRIGGER library_entries_terms_update AFTER UPDATE ON library_entries
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION faultline_library_terms_update();
--> statement-breakpoint
INSERT INTO library_term_stats (lexeme, df) VALUES ('', 0);
--> statement-breakpoint
SELECT faultline_library_terms_add((SELECT coalesce(array_agg(failure_id), '{}') FROM library_entries WHERE NOT deprecated));
