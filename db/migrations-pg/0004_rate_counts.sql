CREATE TABLE "rate_counts" (
	"key" text NOT NULL,
	"window_start" bigint NOT NULL,
	"hits" bigint NOT NULL,
	"expires_at" text NOT NULL,
	CONSTRAINT "rate_counts_key_window_start_pk" PRIMARY KEY("key","window_start")
);
--> statement-breakpoint
CREATE INDEX "rate_counts_expiry_idx" ON "rate_counts" USING btree ("expires_at");