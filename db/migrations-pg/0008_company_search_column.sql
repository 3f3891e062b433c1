-- The companies search on PostgreSQL through one folded column instead of three indexed expressions (0001). With
-- those, every row a search touched was folded again (unaccent, three times) to recheck the trigram match, and the
-- list took hundreds of milliseconds over 100,000 companies. `busca` keeps the folded text, written by PostgreSQL with
-- the row: razão social, city and CNPJ joined by the unit separator (U+001F), which no search term holds (the search
-- drops control characters) and the validators refuse in stored text, so a match lies within one of the three, as in
-- SQLite's companies_fts. Not in the Drizzle schema, which both databases share: the search reads it through
-- trigramMatch (modules/core/sql.ts; companiesFolded in modules/companies/service.ts names its parts).
ALTER TABLE "companies" ADD COLUMN "busca" text GENERATED ALWAYS AS (portal_fold("razao" || E'\x1f' || coalesce("cidade", '') || E'\x1f' || "cnpj")) STORED;
--> statement-breakpoint
-- New entries wait in the index's pending list until it is merged; a search reads all of that list, and at the default
-- 4 MB (a few thousand updated companies: the licence check's last-use writes) it made a search five times slower.
-- 128 kB keeps that read short and the writes as cheap as before.
CREATE INDEX "companies_busca_trgm_idx" ON "companies" USING gin ("busca" gin_trgm_ops) WITH (gin_pending_list_limit = 128);
--> statement-breakpoint
DROP INDEX "companies_razao_trgm_idx";
--> statement-breakpoint
DROP INDEX "companies_cnpj_trgm_idx";
--> statement-breakpoint
DROP INDEX "companies_cidade_trgm_idx";
