-- Extensions first: full-text search with accents folded and typo tolerance (issue 3).
-- PGlite loads them from @electric-sql/pglite/contrib (server/db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;
