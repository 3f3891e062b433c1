CREATE TABLE "uploaded_files" (
	"name" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"data" text NOT NULL,
	"created_at" text NOT NULL
);
