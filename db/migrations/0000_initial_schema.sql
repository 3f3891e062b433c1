CREATE TABLE `activities` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_at` text NOT NULL,
	`user_id` integer,
	`user_nome` text,
	`type` text NOT NULL,
	`icon` text NOT NULL,
	`title` text NOT NULL,
	`subtitle` text DEFAULT '' NOT NULL,
	`entity` text,
	`entity_id` text,
	`representante_cnpj` text
);
--> statement-breakpoint
CREATE INDEX `activities_created_idx` ON `activities` (`created_at`);--> statement-breakpoint
CREATE INDEX `activities_rep_idx` ON `activities` (`representante_cnpj`);--> statement-breakpoint
CREATE INDEX `activities_user_idx` ON `activities` (`user_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` text NOT NULL,
	`last_active_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`ip` text,
	`user_agent` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`cnpj` text NOT NULL,
	`nome` text NOT NULL,
	`email` text,
	`tipo` text NOT NULL,
	`representante_id` text,
	`senha_hash` text NOT NULL,
	`ativo` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_cnpj_unique` ON `users` (`cnpj`);--> statement-breakpoint
CREATE TABLE `credit_balances` (
	`representante_id` text PRIMARY KEY NOT NULL,
	`disponivel` integer DEFAULT 0 NOT NULL,
	`utilizado` integer DEFAULT 0 NOT NULL,
	`inativo` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`representante_id`) REFERENCES `representatives`(`cnpj`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "credit_balances_check" CHECK(disponivel >= 0 and utilizado >= 0 and inativo >= 0)
);
--> statement-breakpoint
CREATE INDEX `credit_balances_disponivel_idx` ON `credit_balances` (`disponivel`);--> statement-breakpoint
CREATE TABLE `credit_consumptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`transfer_id` integer NOT NULL,
	`batch_id` integer NOT NULL,
	`quantidade` integer NOT NULL,
	`valor_unitario_centavos` integer NOT NULL,
	FOREIGN KEY (`transfer_id`) REFERENCES `credits`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`batch_id`) REFERENCES `credits`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "credit_consumptions_quantidade_check" CHECK(quantidade > 0)
);
--> statement-breakpoint
CREATE INDEX `credit_consumptions_transfer_idx` ON `credit_consumptions` (`transfer_id`);--> statement-breakpoint
CREATE INDEX `credit_consumptions_batch_idx` ON `credit_consumptions` (`batch_id`);--> statement-breakpoint
CREATE TABLE `credits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`valor` integer NOT NULL,
	`valor_original` integer,
	`representante_id` text NOT NULL,
	`fk_empresa` integer,
	`empresa_razao` text,
	`sistema` text,
	`ativo` integer DEFAULT 1 NOT NULL,
	`data_compra` text NOT NULL,
	`data_uso` text,
	`valor_unitario_centavos` integer DEFAULT 0 NOT NULL,
	`origem` text DEFAULT 'admin' NOT NULL,
	`criado_por` integer,
	FOREIGN KEY (`representante_id`) REFERENCES `representatives`(`cnpj`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`fk_empresa`) REFERENCES `companies`(`codigo`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "credits_valor_check" CHECK(valor >= 0 and (origem <> 'transferencia' or valor > 0))
);
--> statement-breakpoint
CREATE INDEX `credits_pool_available_idx` ON `credits` (`representante_id`,`data_compra`,`id`,`valor`) WHERE origem <> 'transferencia' and ativo = 1 and data_uso is null;--> statement-breakpoint
CREATE INDEX `credits_transfers_idx` ON `credits` (`representante_id`,`valor`) WHERE origem = 'transferencia';--> statement-breakpoint
CREATE INDEX `credits_pool_inactive_idx` ON `credits` (`representante_id`,`valor`) WHERE origem <> 'transferencia' and ativo = 0;--> statement-breakpoint
CREATE INDEX `credits_rep_kind_idx` ON `credits` (`representante_id`,`origem`,`id`);--> statement-breakpoint
CREATE INDEX `credits_empresa_idx` ON `credits` (`fk_empresa`);--> statement-breakpoint
CREATE INDEX `credits_data_compra_idx` ON `credits` (`data_compra`);--> statement-breakpoint
CREATE INDEX `credits_data_uso_idx` ON `credits` (`data_uso`);--> statement-breakpoint
CREATE TABLE `companies` (
	`codigo` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`razao` text NOT NULL,
	`cnpj` text NOT NULL,
	`cnpj_representante` text NOT NULL,
	`endereco` text,
	`bairro` text,
	`cidade` text,
	`uf` text,
	`cep` text,
	`fone` text,
	`email` text,
	`link` text,
	`nterminais` integer DEFAULT 1 NOT NULL,
	`terminal_count` integer DEFAULT 0 NOT NULL,
	`ativarapi` text DEFAULT 'N' NOT NULL,
	`evo_instancia` text,
	`serial` text NOT NULL,
	`on_line` text DEFAULT 'N' NOT NULL,
	`validade_certificado` text,
	`validade_licenca` text,
	`valor_mensal_centavos` integer DEFAULT 0 NOT NULL,
	`dia_venc` integer,
	`data` text NOT NULL,
	`data_ultima_utilizacao` text,
	`hora_ultima_utilizacao` text,
	`obs` text,
	`exibir_aviso` text DEFAULT 'N' NOT NULL,
	`aviso_titulo` text,
	`avisos` text,
	`manutencao` text DEFAULT 'N' NOT NULL,
	`liberacao_confianca_data` text,
	`liberacao_confianca_expira` text,
	`bloqueado` text DEFAULT 'N' NOT NULL,
	`bloqueadopdv` text DEFAULT 'N' NOT NULL,
	`bloqueado_kchef` text DEFAULT 'N' NOT NULL,
	`bloqueado_katelie` text DEFAULT 'N' NOT NULL,
	`bloqueado_kprevenda` text DEFAULT 'N' NOT NULL,
	FOREIGN KEY (`cnpj_representante`) REFERENCES `representatives`(`cnpj`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `companies_cnpj_unique` ON `companies` (`cnpj`);--> statement-breakpoint
CREATE UNIQUE INDEX `companies_serial_unique` ON `companies` (`serial`);--> statement-breakpoint
CREATE INDEX `companies_rep_idx` ON `companies` (`cnpj_representante`);--> statement-breakpoint
CREATE INDEX `companies_validade_idx` ON `companies` (`validade_licenca`);--> statement-breakpoint
CREATE INDEX `companies_razao_idx` ON `companies` (`razao`);--> statement-breakpoint
CREATE INDEX `companies_unblocked_idx` ON `companies` (`validade_licenca`,`cnpj_representante`) WHERE bloqueado = 'N' and bloqueadopdv = 'N' and bloqueado_kchef = 'N' and bloqueado_katelie = 'N' and bloqueado_kprevenda = 'N';--> statement-breakpoint
CREATE INDEX `companies_blocked_kreta_idx` ON `companies` (`cnpj_representante`) WHERE bloqueado = 'S';--> statement-breakpoint
CREATE INDEX `companies_blocked_kpdv_idx` ON `companies` (`cnpj_representante`) WHERE bloqueadopdv = 'S';--> statement-breakpoint
CREATE INDEX `companies_blocked_kchef_idx` ON `companies` (`cnpj_representante`) WHERE bloqueado_kchef = 'S';--> statement-breakpoint
CREATE INDEX `companies_blocked_katelie_idx` ON `companies` (`cnpj_representante`) WHERE bloqueado_katelie = 'S';--> statement-breakpoint
CREATE INDEX `companies_blocked_kprevenda_idx` ON `companies` (`cnpj_representante`) WHERE bloqueado_kprevenda = 'S';--> statement-breakpoint
CREATE TABLE `downloads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`titulo` text NOT NULL,
	`link` text NOT NULL,
	`ativo` integer DEFAULT 1 NOT NULL,
	`data` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `signing_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_key` text NOT NULL,
	`private_key` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `terminals` (
	`codigo` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`fk_empresa` integer NOT NULL,
	`nome_computador` text,
	`mac` text NOT NULL,
	`data` text NOT NULL,
	FOREIGN KEY (`fk_empresa`) REFERENCES `companies`(`codigo`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `terminals_company_mac_idx` ON `terminals` (`fk_empresa`,`mac`);--> statement-breakpoint
CREATE INDEX `terminals_data_idx` ON `terminals` (`data`);--> statement-breakpoint
CREATE TABLE `avisos_gerais` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`titulo` text NOT NULL,
	`texto` text NOT NULL,
	`urgente` integer DEFAULT 0 NOT NULL,
	`ativo` integer DEFAULT 1 NOT NULL,
	`data` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `avisos_gerais_ativo_idx` ON `avisos_gerais` (`ativo`);--> statement-breakpoint
CREATE TABLE `avisos_individuais` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`representante_id` text NOT NULL,
	`titulo` text NOT NULL,
	`texto` text NOT NULL,
	`urgente` integer DEFAULT 0 NOT NULL,
	`ativo` integer DEFAULT 1 NOT NULL,
	`data` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`representante_id`) REFERENCES `representatives`(`cnpj`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `avisos_individuais_rep_idx` ON `avisos_individuais` (`representante_id`,`ativo`);--> statement-breakpoint
CREATE TABLE `avisos_lidos` (
	`user_id` integer NOT NULL,
	`tipo` text NOT NULL,
	`aviso_id` integer NOT NULL,
	`read_at` text NOT NULL,
	PRIMARY KEY(`user_id`, `tipo`, `aviso_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`title` text NOT NULL,
	`message` text NOT NULL,
	`type` text DEFAULT 'info' NOT NULL,
	`read` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notifications_user_idx` ON `notifications` (`user_id`,`read`);--> statement-breakpoint
CREATE TABLE `representatives` (
	`codigo` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`nome` text NOT NULL,
	`cnpj` text NOT NULL,
	`endereco` text,
	`bairro` text,
	`cidade` text,
	`uf` text,
	`cep` text,
	`fone` text,
	`whatsapp` text,
	`email` text,
	`gerente_id` integer,
	`plink` text,
	`ativar_api_asaas` text DEFAULT 'N' NOT NULL,
	`evo_instancia` text,
	`promo` text,
	`data` text NOT NULL,
	FOREIGN KEY (`gerente_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `representatives_cnpj_unique` ON `representatives` (`cnpj`);--> statement-breakpoint
CREATE INDEX `representatives_gerente_idx` ON `representatives` (`gerente_id`);--> statement-breakpoint
CREATE TABLE `configuracoes` (
	`chave` text PRIMARY KEY NOT NULL,
	`valor` text NOT NULL,
	`descricao` text,
	`categoria` text,
	`tipo` text,
	`updated_at` text NOT NULL
);
