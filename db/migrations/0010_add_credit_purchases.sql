CREATE TABLE `credit_purchases` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`representante_id` text NOT NULL,
	`usuario_id` integer,
	`quantidade` integer NOT NULL,
	`valor_unitario_centavos` integer NOT NULL,
	`valor_total_centavos` integer NOT NULL,
	`metodo_pagamento` text DEFAULT 'PIX' NOT NULL,
	`status` text DEFAULT 'criando' NOT NULL,
	`charge_id` text,
	`vencimento` text NOT NULL,
	`pix_copia_e_cola` text,
	`pix_qr_code` text,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`next_check_at` text,
	`checks` integer DEFAULT 0 NOT NULL,
	`paid_at` text,
	`valor_pago_centavos` integer,
	`batch_id` integer,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`representante_id`) REFERENCES `representatives`(`cnpj`) ON UPDATE cascade ON DELETE no action,
	FOREIGN KEY (`batch_id`) REFERENCES `credits`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "credit_purchases_quantidade_check" CHECK(quantidade between 1 and 1000)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `credit_purchases_charge_idx` ON `credit_purchases` (`charge_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `credit_purchases_batch_idx` ON `credit_purchases` (`batch_id`);--> statement-breakpoint
CREATE INDEX `credit_purchases_due_idx` ON `credit_purchases` (`status`,`next_check_at`);--> statement-breakpoint
CREATE INDEX `credit_purchases_rep_idx` ON `credit_purchases` (`representante_id`,`id`);