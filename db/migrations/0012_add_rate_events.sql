CREATE TABLE `rate_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`at` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rate_events_key_idx` ON `rate_events` (`key`,`at`);--> statement-breakpoint
CREATE INDEX `rate_events_expiry_idx` ON `rate_events` (`expires_at`);