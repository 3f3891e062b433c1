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
CREATE INDEX "access_refusal_records_seen_idx" ON "access_refusal_records" USING btree ("line_key","seen");--> statement-breakpoint
CREATE INDEX "access_refusals_last_idx" ON "access_refusals" USING btree ("last_at");