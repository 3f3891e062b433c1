-- Trigram full-text index over razão social, CNPJ and city, so the companies search finds any
-- substring of 3+ characters (accents ignored) without scanning the table. Kept in step by triggers.
CREATE VIRTUAL TABLE `companies_fts` USING fts5(razao, cnpj, cidade, content='companies', content_rowid='codigo', tokenize='trigram remove_diacritics 1');
--> statement-breakpoint
INSERT INTO `companies_fts`(rowid, razao, cnpj, cidade) SELECT codigo, razao, cnpj, coalesce(cidade, '') FROM `companies`;
--> statement-breakpoint
CREATE TRIGGER `companies_fts_insert` AFTER INSERT ON `companies` BEGIN
	INSERT INTO `companies_fts`(rowid, razao, cnpj, cidade) VALUES (new.codigo, new.razao, new.cnpj, coalesce(new.cidade, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `companies_fts_delete` AFTER DELETE ON `companies` BEGIN
	INSERT INTO `companies_fts`(`companies_fts`, rowid, razao, cnpj, cidade) VALUES ('delete', old.codigo, old.razao, old.cnpj, coalesce(old.cidade, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `companies_fts_update` AFTER UPDATE OF razao, cnpj, cidade ON `companies` BEGIN
	INSERT INTO `companies_fts`(`companies_fts`, rowid, razao, cnpj, cidade) VALUES ('delete', old.codigo, old.razao, old.cnpj, coalesce(old.cidade, ''));
	INSERT INTO `companies_fts`(rowid, razao, cnpj, cidade) VALUES (new.codigo, new.razao, new.cnpj, coalesce(new.cidade, ''));
END;
