-- Reserved (issue 6): filled in by the part that needs it; a no-op until then.
SELECT 1;
