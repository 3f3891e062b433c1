CREATE TABLE `access_refusal_records` (
	`line_key` text NOT NULL,
	`record` text NOT NULL,
	`seen` integer NOT NULL,
	PRIMARY KEY(`line_key`, `record`)
);
--> statement-breakpoint
CREATE INDEX `access_refusal_records_seen_idx` ON `access_refusal_records` (`line_key`,`seen`);--> statement-breakpoint
CREATE TABLE `access_refusals` (
	`line_key` text PRIMARY KEY NOT NULL,
	`who` text NOT NULL,
	`user_id` integer,
	`ip` text NOT NULL,
	`method` text NOT NULL,
	`route` text NOT NULL,
	`status` integer NOT NULL,
	`count` integer NOT NULL,
	`first_at` text NOT NULL,
	`last_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `access_refusals_last_idx` ON `access_refusals` (`last_at`);--> statement-breakpoint
CREATE TABLE `bot_phones` (
	`phone_key` text PRIMARY KEY NOT NULL,
	`holder` text,
	`token` integer DEFAULT 0 NOT NULL,
	`lease_until` text,
	`told_text_only` integer DEFAULT false NOT NULL,
	`told_to_wait` integer DEFAULT false NOT NULL,
	`replies` text DEFAULT '[]' NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `bot_phones_updated_idx` ON `bot_phones` (`updated_at`);--> statement-breakpoint
CREATE TABLE `rate_counts` (
	`key` text NOT NULL,
	`window_start` integer NOT NULL,
	`hits` integer NOT NULL,
	`expires_at` text NOT NULL,
	PRIMARY KEY(`key`, `window_start`)
);
--> statement-breakpoint
CREATE INDEX `rate_counts_expiry_idx` ON `rate_counts` (`expires_at`);--> statement-breakpoint
ALTER TABLE `job_leases` ADD `token` integer DEFAULT 0 NOT NULL;