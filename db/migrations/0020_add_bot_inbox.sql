CREATE TABLE `bot_inbox` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`message_id` text NOT NULL,
	`phone_key` text NOT NULL,
	`phone` text NOT NULL,
	`from_me` integer NOT NULL,
	`text` text NOT NULL,
	`received_at` text NOT NULL,
	`takes` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `bot_inbox_phone_idx` ON `bot_inbox` (`phone_key`,`seq`);