CREATE TABLE `bot_cnpj_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`phone_key` text NOT NULL,
	`cnpj` text NOT NULL,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `bot_cnpj_attempts_phone_idx` ON `bot_cnpj_attempts` (`phone_key`,`at`);--> statement-breakpoint
CREATE TABLE `bot_own_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `bot_own_messages_at_idx` ON `bot_own_messages` (`at`);--> statement-breakpoint
CREATE TABLE `bot_seen_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `bot_seen_messages_at_idx` ON `bot_seen_messages` (`at`);--> statement-breakpoint
CREATE TABLE `bot_sessions` (
	`phone_key` text PRIMARY KEY NOT NULL,
	`phone` text NOT NULL,
	`step` text NOT NULL,
	`cnpj` text,
	`empresa_codigo` integer,
	`wrong_cnpjs` integer DEFAULT 0 NOT NULL,
	`choices` text,
	`paused_until` text,
	`waiting_since` text,
	`blocked_until` text,
	`last_activity` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `bot_sessions_activity_idx` ON `bot_sessions` (`last_activity`);--> statement-breakpoint
CREATE TABLE `bot_state` (
	`id` integer PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`connection_state` text,
	`connection_at` text,
	`last_event_at` text,
	`webhook_status` text,
	`webhook_message` text,
	`webhook_at` text
);
