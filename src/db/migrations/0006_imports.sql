CREATE TABLE "file_chunks" (
	"file_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "file_chunks_file_id_seq_pk" PRIMARY KEY("file_id","seq")
);
--> statement-breakpoint
CREATE TABLE "import_keys" (
	"import_id" uuid NOT NULL,
	"key" text NOT NULL,
	"entity_id" uuid,
	CONSTRAINT "import_keys_import_id_key_pk" PRIMARY KEY("import_id","key")
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"code" integer NOT NULL,
	"type" text NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"delimiter" text NOT NULL,
	"created_by_id" uuid,
	"file_id" uuid,
	"dry_run" boolean DEFAULT false NOT NULL,
	"allow_delete" boolean DEFAULT false NOT NULL,
	"stats" jsonb NOT NULL,
	"file_archived" boolean DEFAULT false NOT NULL,
	"processed_rows" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"worker_id" text,
	"heartbeat_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "file_chunks" ADD CONSTRAINT "file_chunks_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_keys" ADD CONSTRAINT "import_keys_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "imports_org_code_uq" ON "imports" USING btree ("organisation_id","code");--> statement-breakpoint
CREATE INDEX "imports_org_created_idx" ON "imports" USING btree ("organisation_id","created_at");--> statement-breakpoint
CREATE INDEX "imports_org_status_idx" ON "imports" USING btree ("organisation_id","status");--> statement-breakpoint
CREATE INDEX "imports_unfinished_idx" ON "imports" USING btree ("status") WHERE "imports"."status" in (1, 2, 5);