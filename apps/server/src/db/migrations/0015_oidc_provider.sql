CREATE TABLE "oidc_clients" (
	"client_id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"display_name" text NOT NULL,
	"client_type" text NOT NULL,
	"secret_hash" text,
	"redirect_uris" jsonb NOT NULL,
	"post_logout_redirect_uris" jsonb NOT NULL,
	"allowed_scopes" jsonb NOT NULL,
	"logo_url" text,
	"first_party" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oidc_clients_type" CHECK ("oidc_clients"."client_type" in ('confidential', 'public'))
);
--> statement-breakpoint
CREATE TABLE "oidc_payloads" (
	"project_id" text NOT NULL,
	"model" text NOT NULL,
	"id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"account_id" uuid,
	"client_id" text,
	"grant_id" text,
	"uid" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "oidc_payloads_project_id_model_id_pk" PRIMARY KEY("project_id","model","id")
);
--> statement-breakpoint
ALTER TABLE "oidc_clients" ADD CONSTRAINT "oidc_clients_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oidc_payloads" ADD CONSTRAINT "oidc_payloads_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oidc_payloads" ADD CONSTRAINT "oidc_payloads_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oidc_clients_project_idx" ON "oidc_clients" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "oidc_payloads_grant_idx" ON "oidc_payloads" USING btree ("project_id","grant_id");--> statement-breakpoint
CREATE INDEX "oidc_payloads_uid_idx" ON "oidc_payloads" USING btree ("project_id","uid");--> statement-breakpoint
CREATE INDEX "oidc_payloads_account_idx" ON "oidc_payloads" USING btree ("project_id","account_id","client_id");--> statement-breakpoint
CREATE INDEX "oidc_payloads_expiry_idx" ON "oidc_payloads" USING btree ("expires_at");