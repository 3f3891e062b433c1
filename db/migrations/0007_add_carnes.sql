CREATE TABLE `carne_parcelas` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`carne_id` integer NOT NULL,
	`empresa_codigo` integer NOT NULL,
	`representante_cnpj` text NOT NULL,
	`asaas_payment_id` text NOT NULL,
	`numero` integer NOT NULL,
	`valor_centavos` integer NOT NULL,
	`vencimento` text NOT NULL,
	`status` text NOT NULL,
	`data_pagamento` text,
	`boleto_url` text,
	`invoice_url` text,
	`linha_digitavel` text,
	`pix_copia_cola` text,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`carne_id`) REFERENCES `carnes`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `carne_parcelas_payment_idx` ON `carne_parcelas` (`asaas_payment_id`);--> statement-breakpoint
CREATE INDEX `carne_parcelas_carne_idx` ON `carne_parcelas` (`carne_id`,`numero`);--> statement-breakpoint
CREATE INDEX `carne_parcelas_empresa_idx` ON `carne_parcelas` (`empresa_codigo`,`vencimento`);--> statement-breakpoint
CREATE INDEX `carne_parcelas_status_idx` ON `carne_parcelas` (`status`,`vencimento`);--> statement-breakpoint
CREATE INDEX `carne_parcelas_rep_idx` ON `carne_parcelas` (`representante_cnpj`,`vencimento`);--> statement-breakpoint
CREATE INDEX `carne_parcelas_vencimento_idx` ON `carne_parcelas` (`vencimento`);--> statement-breakpoint
CREATE TABLE `carnes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`referencia` text NOT NULL,
	`empresa_codigo` integer NOT NULL,
	`representante_cnpj` text NOT NULL,
	`asaas_installment_id` text NOT NULL,
	`asaas_customer_id` text NOT NULL,
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
	FOREIGN KEY (`empresa_codigo`) REFERENCES `companies`(`codigo`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`representante_cnpj`) REFERENCES `representatives`(`cnpj`) ON UPDATE cascade ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `carnes_referencia_idx` ON `carnes` (`referencia`);--> statement-breakpoint
CREATE UNIQUE INDEX `carnes_installment_idx` ON `carnes` (`asaas_installment_id`);--> statement-breakpoint
CREATE INDEX `carnes_empresa_idx` ON `carnes` (`empresa_codigo`,`status`);--> statement-breakpoint
CREATE INDEX `carnes_rep_idx` ON `carnes` (`representante_cnpj`,`created_at`);--> statement-breakpoint
CREATE INDEX `carnes_status_idx` ON `carnes` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `historico_pagamentos` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tipo_evento` text NOT NULL,
	`parcela_id` integer,
	`carne_id` integer,
	`empresa_codigo` integer NOT NULL,
	`representante_cnpj` text NOT NULL,
	`valor_centavos` integer,
	`data_evento` text NOT NULL,
	`descricao` text,
	`boleto_id` text NOT NULL,
	`asaas_evento_id` text,
	FOREIGN KEY (`parcela_id`) REFERENCES `carne_parcelas`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`carne_id`) REFERENCES `carnes`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `historico_pagamentos_once_idx` ON `historico_pagamentos` (`boleto_id`,`tipo_evento`);--> statement-breakpoint
CREATE INDEX `historico_pagamentos_data_idx` ON `historico_pagamentos` (`data_evento`);--> statement-breakpoint
CREATE INDEX `historico_pagamentos_rep_idx` ON `historico_pagamentos` (`representante_cnpj`,`data_evento`);--> statement-breakpoint
CREATE INDEX `historico_pagamentos_empresa_idx` ON `historico_pagamentos` (`empresa_codigo`,`data_evento`);--> statement-breakpoint
CREATE INDEX `historico_pagamentos_tipo_idx` ON `historico_pagamentos` (`tipo_evento`,`data_evento`);