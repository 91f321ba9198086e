CREATE TABLE "api_key_sets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"description" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"manually_revoked_at" timestamp with time zone,
	"publishable_client_key_hash" text,
	"publishable_client_key_last_four" text,
	"secret_server_key_hash" text,
	"secret_server_key_last_four" text,
	"super_secret_admin_key_hash" text,
	"super_secret_admin_key_last_four" text
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" text PRIMARY KEY NOT NULL,
	"display_name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"is_production_mode" boolean DEFAULT false NOT NULL,
	"owner_team_id" uuid,
	"config" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signing_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"audience" text NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"sealed_private_jwk" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"signs_from" timestamp with time zone NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "api_key_sets" ADD CONSTRAINT "api_key_sets_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_keys" ADD CONSTRAINT "signing_keys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_key_sets_project_idx" ON "api_key_sets" USING btree ("project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "api_key_sets_pck_hash_idx" ON "api_key_sets" USING btree ("publishable_client_key_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "api_key_sets_ssk_hash_idx" ON "api_key_sets" USING btree ("secret_server_key_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "api_key_sets_sak_hash_idx" ON "api_key_sets" USING btree ("super_secret_admin_key_hash");--> statement-breakpoint
CREATE INDEX "signing_keys_project_idx" ON "signing_keys" USING btree ("project_id") WHERE "signing_keys"."retired_at" is null;