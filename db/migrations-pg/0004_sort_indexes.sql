-- The companies list's sort keys on PostgreSQL. A list sorts empty values first ascending and last descending
-- (modules/core/sql.ts, sortedBy: SQLite's own order), then by code in the same way. SQLite's single-column indexes serve that order
-- because each ends in the rowid, the code; PostgreSQL's sort NULLs last and end in nothing, so these say both.
CREATE INDEX "companies_razao_sort_idx" ON "companies" ("razao" ASC NULLS FIRST, "codigo" ASC NULLS FIRST);
--> statement-breakpoint
CREATE INDEX "companies_cnpj_sort_idx" ON "companies" ("cnpj" ASC NULLS FIRST, "codigo" ASC NULLS FIRST);
--> statement-breakpoint
CREATE INDEX "companies_validade_sort_idx" ON "companies" ("validade_licenca" ASC NULLS FIRST, "codigo" ASC NULLS FIRST);
--> statement-breakpoint
CREATE INDEX "companies_certificado_sort_idx" ON "companies" ("validade_certificado" ASC NULLS FIRST, "codigo" ASC NULLS FIRST);
--> statement-breakpoint
CREATE INDEX "companies_terminal_count_sort_idx" ON "companies" ("terminal_count" ASC NULLS FIRST, "codigo" ASC NULLS FIRST);
