CREATE TABLE "ai_chat_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "ai_chat_messages_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"project_id" text NOT NULL,
	"thread_id" text NOT NULL,
	"content" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" text NOT NULL,
	"user_id" uuid,
	"session_id" uuid,
	"event_type" text NOT NULL,
	"data" jsonb NOT NULL,
	"batch_id" uuid NOT NULL,
	"segment_id" uuid NOT NULL,
	"event_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cli_auth_attempts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"polling_code_hash" text NOT NULL,
	"login_code_hash" text NOT NULL,
	"anon_user_id" uuid,
	"user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "config_overrides" (
	"project_id" text NOT NULL,
	"level" text NOT NULL,
	"sealed_config" text NOT NULL,
	"source" jsonb,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "config_overrides_project_id_level_pk" PRIMARY KEY("project_id","level")
);
--> statement-breakpoint
CREATE TABLE "data_vault_entries" (
	"project_id" text NOT NULL,
	"store_id" text NOT NULL,
	"hashed_key" text NOT NULL,
	"sealed_value" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "data_vault_entries_project_id_store_id_hashed_key_pk" PRIMARY KEY("project_id","store_id","hashed_key")
);
--> statement-breakpoint
CREATE TABLE "email_capacity_boosts" (
	"project_id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"project_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"category_id" text NOT NULL,
	"enabled" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_preferences_user_id_category_id_pk" PRIMARY KEY("user_id","category_id")
);
--> statement-breakpoint
CREATE TABLE "owned_api_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"user_id" uuid,
	"team_id" uuid,
	"description" text NOT NULL,
	"is_public" boolean NOT NULL,
	"key_hash" text NOT NULL,
	"last_four" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"manually_revoked_at" timestamp with time zone,
	CONSTRAINT "owned_api_keys_one_owner" CHECK (("owned_api_keys"."user_id" is null) <> ("owned_api_keys"."team_id" is null))
);
--> statement-breakpoint
CREATE TABLE "project_permission_grants" (
	"project_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"permission_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_permission_grants_user_id_permission_id_pk" PRIMARY KEY("user_id","permission_id")
);
--> statement-breakpoint
DROP INDEX "oauth_accounts_provider_account_idx";--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "skipped_reason" text;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "user_id" uuid;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "notification_category_id" text;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "list_unsubscribe_url" text;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "stack_template_id" text;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "variables" jsonb;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "oauth_accounts" ADD COLUMN "allow_sign_in" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_accounts" ADD COLUMN "allow_connected_accounts" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "permission_definitions" ADD COLUMN "scope" text DEFAULT 'team' NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_chat_messages" ADD CONSTRAINT "ai_chat_messages_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_events" ADD CONSTRAINT "analytics_events_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_events" ADD CONSTRAINT "analytics_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_events" ADD CONSTRAINT "analytics_events_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cli_auth_attempts" ADD CONSTRAINT "cli_auth_attempts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cli_auth_attempts" ADD CONSTRAINT "cli_auth_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "config_overrides" ADD CONSTRAINT "config_overrides_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_vault_entries" ADD CONSTRAINT "data_vault_entries_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_capacity_boosts" ADD CONSTRAINT "email_capacity_boosts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owned_api_keys" ADD CONSTRAINT "owned_api_keys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owned_api_keys" ADD CONSTRAINT "owned_api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owned_api_keys" ADD CONSTRAINT "owned_api_keys_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_permission_grants" ADD CONSTRAINT "project_permission_grants_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_permission_grants" ADD CONSTRAINT "project_permission_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_chat_messages_thread_idx" ON "ai_chat_messages" USING btree ("project_id","thread_id","seq");--> statement-breakpoint
CREATE INDEX "analytics_events_project_created_idx" ON "analytics_events" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "analytics_events_created_idx" ON "analytics_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "analytics_events_user_idx" ON "analytics_events" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "analytics_events_session_idx" ON "analytics_events" USING btree ("session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cli_auth_attempts_polling_idx" ON "cli_auth_attempts" USING btree ("polling_code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "cli_auth_attempts_login_idx" ON "cli_auth_attempts" USING btree ("login_code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "owned_api_keys_hash_idx" ON "owned_api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "owned_api_keys_user_idx" ON "owned_api_keys" USING btree ("project_id","user_id");--> statement-breakpoint
CREATE INDEX "owned_api_keys_team_idx" ON "owned_api_keys" USING btree ("project_id","team_id");--> statement-breakpoint
CREATE INDEX "project_permission_grants_permission_idx" ON "project_permission_grants" USING btree ("project_id","permission_id");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_accounts_provider_account_idx" ON "oauth_accounts" USING btree ("project_id","provider_id","account_id") WHERE "oauth_accounts"."allow_sign_in";