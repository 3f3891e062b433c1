CREATE TABLE `carne_renovacoes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`parcela_id` integer NOT NULL,
	`carne_id` integer NOT NULL,
	`empresa_codigo` integer NOT NULL,
	`representante_cnpj` text NOT NULL,
	`creditos` integer NOT NULL,
	`estado` text DEFAULT 'pendente' NOT NULL,
	`criada_em` text NOT NULL,
	`avisada_em` text,
	`whatsapp_em` text,
	`aplicada_em` text,
	`dias` integer,
	`validade_anterior` text,
	`renovou_ate` text,
	`transferencia_id` integer,
	`motivo` text,
	FOREIGN KEY (`parcela_id`) REFERENCES `carne_parcelas`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`carne_id`) REFERENCES `carnes`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `carne_renovacoes_parcela_idx` ON `carne_renovacoes` (`parcela_id`);--> statement-breakpoint
CREATE INDEX `carne_renovacoes_rep_idx` ON `carne_renovacoes` (`representante_cnpj`,`estado`,`id`);--> statement-breakpoint
CREATE INDEX `carne_renovacoes_estado_idx` ON `carne_renovacoes` (`estado`,`whatsapp_em`);--> statement-breakpoint
CREATE INDEX `carne_renovacoes_carne_idx` ON `carne_renovacoes` (`carne_id`);--> statement-breakpoint
ALTER TABLE `carnes` ADD `renovar_licenca` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `carnes` ADD `creditos_por_parcela` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `notifications` ADD `link` text;