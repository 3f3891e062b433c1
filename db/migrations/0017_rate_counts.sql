CREATE TABLE `rate_counts` (
	`key` text NOT NULL,
	`window_start` integer NOT NULL,
	`hits` integer NOT NULL,
	`expires_at` text NOT NULL,
	PRIMARY KEY(`key`, `window_start`)
);
--> statement-breakpoint
CREATE INDEX `rate_counts_expiry_idx` ON `rate_counts` (`expires_at`);