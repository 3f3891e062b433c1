-- The trigram searches of SQLite's companies_fts and historico_pagamentos_fts (0001 and 0009 there), on PostgreSQL:
-- pg_trgm indexes over the folded text (lower case, accents removed), so a search for any substring of 3+
-- characters finds what SQLite's trigram tokenizer with remove_diacritics finds, without scanning the table.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
-- unaccent() is only STABLE (its dictionary could change), and an index needs an IMMUTABLE function.
CREATE OR REPLACE FUNCTION portal_fold(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;
--> statement-breakpoint
CREATE INDEX "companies_razao_trgm_idx" ON "companies" USING gin (portal_fold("razao") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "companies_cnpj_trgm_idx" ON "companies" USING gin (portal_fold("cnpj") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "companies_cidade_trgm_idx" ON "companies" USING gin (portal_fold(coalesce("cidade", '')) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "historico_pagamentos_descricao_trgm_idx" ON "historico_pagamentos" USING gin (portal_fold(coalesce("descricao", '')) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "historico_pagamentos_boleto_trgm_idx" ON "historico_pagamentos" USING gin (portal_fold("boleto_id") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "historico_pagamentos_evento_trgm_idx" ON "historico_pagamentos" USING gin (portal_fold(coalesce("asaas_evento_id", '')) gin_trgm_ops);
