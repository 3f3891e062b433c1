CREATE TABLE `asaas_identities` (
	`account` text PRIMARY KEY NOT NULL,
	`wallet_id` text,
	`status` text DEFAULT 'ok' NOT NULL,
	`message` text,
	`checked_at` text NOT NULL
);
--> statement-breakpoint
DROP INDEX `historico_pagamentos_once_idx`;--> statement-breakpoint
ALTER TABLE `historico_pagamentos` ADD `ciclo` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `historico_pagamentos_once_idx` ON `historico_pagamentos` (`boleto_id`,`tipo_evento`,`ciclo`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_carnes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`referencia` text NOT NULL,
	`empresa_codigo` integer NOT NULL,
	`representante_cnpj` text NOT NULL,
	`asaas_installment_id` text,
	`asaas_customer_id` text,
	`asaas_conta` text,
	`valor_total_centavos` integer NOT NULL,
	`valor_parcela_centavos` integer NOT NULL,
	`numero_parcelas` integer NOT NULL,
	`data_primeiro_vencimento` text NOT NULL,
	`tipo_cobranca` text NOT NULL,
	`descricao` text,
	`status` text DEFAULT 'ativo' NOT NULL,
	`criado_por` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`conferido_em` text,
	FOREIGN KEY (`empresa_codigo`) REFERENCES `companies`(`codigo`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`representante_cnpj`) REFERENCES `representatives`(`cnpj`) ON UPDATE cascade ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_carnes`("id", "referencia", "empresa_codigo", "representante_cnpj", "asaas_installment_id", "asaas_customer_id", "asaas_conta", "valor_total_centavos", "valor_parcela_centavos", "numero_parcelas", "data_primeiro_vencimento", "tipo_cobranca", "descricao", "status", "criado_por", "created_at", "updated_at", "conferido_em") SELECT "id", "referencia", "empresa_codigo", "representante_cnpj", "asaas_installment_id", "asaas_customer_id", "asaas_conta", "valor_total_centavos", "valor_parcela_centavos", "numero_parcelas", "data_primeiro_vencimento", "tipo_cobranca", "descricao", "status", "criado_por", "created_at", "updated_at", "conferido_em" FROM `carnes`;--> statement-breakpoint
DROP TABLE `carnes`;--> statement-breakpoint
ALTER TABLE `__new_carnes` RENAME TO `carnes`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `carnes_referencia_idx` ON `carnes` (`referencia`);--> statement-breakpoint
CREATE UNIQUE INDEX `carnes_installment_idx` ON `carnes` (`asaas_installment_id`);--> statement-breakpoint
CREATE INDEX `carnes_empresa_idx` ON `carnes` (`empresa_codigo`,`status`);--> statement-breakpoint
CREATE INDEX `carnes_rep_idx` ON `carnes` (`representante_cnpj`,`created_at`);--> statement-breakpoint
CREATE INDEX `carnes_status_idx` ON `carnes` (`status`,`created_at`);--> statement-breakpoint
ALTER TABLE `carne_parcelas` ADD `ciclo` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `credit_purchases` ADD `asaas_conta` text;