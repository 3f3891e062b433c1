CREATE TABLE `regua_envios` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`parcela_id` integer NOT NULL,
	`ciclo` integer NOT NULL,
	`tipo` text DEFAULT 'lembrete' NOT NULL,
	`dias` integer NOT NULL,
	`empresa_codigo` integer NOT NULL,
	`representante_cnpj` text NOT NULL,
	`telefone` text,
	`texto` text,
	`status` text DEFAULT 'pendente' NOT NULL,
	`tentativas` integer DEFAULT 0 NOT NULL,
	`proxima_tentativa` text NOT NULL,
	`message_id` text,
	`erro` text,
	`criado_em` text NOT NULL,
	`enviado_em` text,
	FOREIGN KEY (`parcela_id`) REFERENCES `carne_parcelas`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `regua_envios_key_idx` ON `regua_envios` (`parcela_id`,`ciclo`,`tipo`,`dias`);--> statement-breakpoint
CREATE INDEX `regua_envios_due_idx` ON `regua_envios` (`status`,`proxima_tentativa`);--> statement-breakpoint
CREATE TABLE `reguas_cobranca` (
	`representante_cnpj` text PRIMARY KEY NOT NULL,
	`ativa` integer NOT NULL,
	`passos` text NOT NULL,
	`horario_envio` text NOT NULL,
	`enviar_fins_semana` integer NOT NULL,
	`bloquear_apos_dias` integer,
	`ultima_execucao` text,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`representante_cnpj`) REFERENCES `representatives`(`cnpj`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `companies` ADD `bloqueio_inadimplencia` text;