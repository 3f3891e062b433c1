CREATE INDEX `companies_certificado_idx` ON `companies` (`validade_certificado`);--> statement-breakpoint
CREATE INDEX `companies_terminal_count_idx` ON `companies` (`terminal_count`);--> statement-breakpoint
CREATE INDEX `representatives_nome_idx` ON `representatives` (`nome`);--> statement-breakpoint
CREATE INDEX `terminals_nome_idx` ON `terminals` (`nome_computador`);--> statement-breakpoint
CREATE INDEX `terminals_mac_idx` ON `terminals` (`mac`);