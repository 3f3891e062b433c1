CREATE TABLE `notification_sends` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tipo` text NOT NULL,
	`empresa_codigo` integer NOT NULL,
	`data_licenca` text NOT NULL,
	`telefone` text,
	`texto` text,
	`status` text NOT NULL,
	`tentativas` integer DEFAULT 0 NOT NULL,
	`proxima_tentativa` text NOT NULL,
	`message_id` text,
	`erro` text,
	`criado_em` text NOT NULL,
	`enviado_em` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_sends_key_idx` ON `notification_sends` (`tipo`,`empresa_codigo`,`data_licenca`);--> statement-breakpoint
CREATE INDEX `notification_sends_due_idx` ON `notification_sends` (`status`,`proxima_tentativa`);--> statement-breakpoint
CREATE INDEX `notification_sends_created_idx` ON `notification_sends` (`criado_em`);--> statement-breakpoint
CREATE TABLE `notification_settings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tipo` text NOT NULL,
	`ativo` integer NOT NULL,
	`dias_antecedencia` integer NOT NULL,
	`template_mensagem` text NOT NULL,
	`horario_envio` text NOT NULL,
	`enviar_fins_semana` integer NOT NULL,
	`ativado_em` text,
	`boas_vindas_apos_codigo` integer,
	`ultima_execucao` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_settings_tipo_unique` ON `notification_settings` (`tipo`);--> statement-breakpoint
CREATE TABLE `whatsapp_opt_outs` (
	`phone_key` text PRIMARY KEY NOT NULL,
	`criado_em` text NOT NULL
);
