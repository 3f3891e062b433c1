CREATE TABLE "bot_phones" (
	"phone_key" text PRIMARY KEY NOT NULL,
	"holder" text,
	"token" bigint DEFAULT 0 NOT NULL,
	"lease_until" text,
	"told_text_only" boolean DEFAULT false NOT NULL,
	"told_to_wait" boolean DEFAULT false NOT NULL,
	"replies" text DEFAULT '[]' NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "bot_phones_updated_idx" ON "bot_phones" USING btree ("updated_at");