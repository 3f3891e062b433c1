CREATE TABLE `asaas_accounts` (
	`representante_cnpj` text PRIMARY KEY NOT NULL,
	`ambiente` text DEFAULT 'sandbox' NOT NULL,
	`api_key` text,
	`webhook_token` text,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`representante_cnpj`) REFERENCES `representatives`(`cnpj`) ON UPDATE cascade ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `asaas_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` text NOT NULL,
	`account` text NOT NULL,
	`event` text NOT NULL,
	`payment_id` text,
	`payload` text NOT NULL,
	`received_at` text NOT NULL,
	`status` text DEFAULT 'pendente' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text NOT NULL,
	`claimed_until` text,
	`last_error` text,
	`processed_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `asaas_events_event_idx` ON `asaas_events` (`event_id`);--> statement-breakpoint
CREATE INDEX `asaas_events_due_idx` ON `asaas_events` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `asaas_webhooks` (
	`account` text PRIMARY KEY NOT NULL,
	`webhook_id` text,
	`status` text NOT NULL,
	`penalized` integer DEFAULT 0 NOT NULL,
	`message` text,
	`checked_at` text NOT NULL
);
