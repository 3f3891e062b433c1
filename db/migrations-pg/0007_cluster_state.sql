CREATE TABLE "access_refusal_records" (
	"line_key" text NOT NULL,
	"record" text NOT NULL,
	"seen" bigint NOT NULL,
	CONSTRAINT "access_refusal_records_line_key_record_pk" PRIMARY KEY("line_key","record")
);
--> statement-breakpoint
CREATE TABLE "access_refusals" (
	"line_key" text PRIMARY KEY NOT NULL,
	"who" text NOT NULL,
	"user_id" bigint,
	"ip" text NOT NULL,
	"method" text NOT NULL,
	"route" text NOT NULL,
	"status" bigint NOT NULL,
	"count" bigint NOT NULL,
	"first_at" text NOT NULL,
	"last_at" text NOT NULL
);
--> statement-breakpoint
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
CREATE TABLE "rate_counts" (
	"key" text NOT NULL,
	"window_start" bigint NOT NULL,
	"hits" bigint NOT NULL,
	"expires_at" text NOT NULL,
	CONSTRAINT "rate_counts_key_window_start_pk" PRIMARY KEY("key","window_start")
);
--> statement-breakpoint
ALTER TABLE "job_leases" ADD COLUMN "token" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "access_refusal_records_seen_idx" ON "access_refusal_records" USING btree ("line_key","seen");--> statement-breakpoint
CREATE INDEX "access_refusals_last_idx" ON "access_refusals" USING btree ("last_at");--> statement-breakpoint
CREATE INDEX "bot_phones_updated_idx" ON "bot_phones" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "rate_counts_expiry_idx" ON "rate_counts" USING btree ("expires_at");