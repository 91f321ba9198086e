CREATE TABLE "oauth_accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"provider_id" text NOT NULL,
	"account_id" text NOT NULL,
	"email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "permission_definitions" (
	"project_id" text NOT NULL,
	"id" text NOT NULL,
	"description" text,
	"contained_permission_ids" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "permission_definitions_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "team_members" (
	"project_id" text NOT NULL,
	"team_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"display_name" text,
	"profile_image_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_members_team_id_user_id_pk" PRIMARY KEY("team_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "team_permission_grants" (
	"project_id" text NOT NULL,
	"team_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"permission_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_permission_grants_team_id_user_id_permission_id_pk" PRIMARY KEY("team_id","user_id","permission_id")
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"display_name" text NOT NULL,
	"profile_image_url" text,
	"client_metadata" jsonb,
	"client_read_only_metadata" jsonb,
	"server_metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "webhook_events_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"project_id" text NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "oauth_accounts" ADD CONSTRAINT "oauth_accounts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_accounts" ADD CONSTRAINT "oauth_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permission_definitions" ADD CONSTRAINT "permission_definitions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_permission_grants" ADD CONSTRAINT "team_permission_grants_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_permission_grants" ADD CONSTRAINT "team_permission_grants_team_id_user_id_team_members_team_id_user_id_fk" FOREIGN KEY ("team_id","user_id") REFERENCES "public"."team_members"("team_id","user_id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_accounts_provider_account_idx" ON "oauth_accounts" USING btree ("project_id","provider_id","account_id");--> statement-breakpoint
CREATE INDEX "oauth_accounts_user_idx" ON "oauth_accounts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "team_members_user_idx" ON "team_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "team_permission_grants_user_idx" ON "team_permission_grants" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "team_permission_grants_permission_idx" ON "team_permission_grants" USING btree ("project_id","permission_id");--> statement-breakpoint
CREATE INDEX "teams_project_created_idx" ON "teams" USING btree ("project_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_events_project_idx" ON "webhook_events" USING btree ("project_id","seq");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_selected_team_id_teams_id_fk" FOREIGN KEY ("selected_team_id") REFERENCES "public"."teams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_project_last_active_idx" ON "users" USING btree ("project_id","last_active_at","id");--> statement-breakpoint
-- Projects created before team permissions existed get the default definitions of new projects (WIRE.md §6);
-- the internal project gets its own (§8), as seeding gives it when it creates the project.
INSERT INTO "permission_definitions" ("project_id", "id", "description", "contained_permission_ids")
SELECT "id", 'team_member', 'Default permission for team members', '["$read_members", "$invite_members"]'::jsonb
FROM "projects" WHERE "id" <> 'internal';--> statement-breakpoint
INSERT INTO "permission_definitions" ("project_id", "id", "description", "contained_permission_ids")
SELECT "id", 'team_admin', 'Default permission for team admins',
  '["$update_team", "$delete_team", "$read_members", "$remove_members", "$invite_members", "$manage_api_keys"]'::jsonb
FROM "projects" WHERE "id" <> 'internal';--> statement-breakpoint
INSERT INTO "permission_definitions" ("project_id", "id", "contained_permission_ids")
SELECT "id", 'team_member', '["$read_members"]'::jsonb FROM "projects" WHERE "id" = 'internal';--> statement-breakpoint
INSERT INTO "permission_definitions" ("project_id", "id", "contained_permission_ids")
SELECT "id", 'team_admin', '["$read_members", "$remove_members", "$update_team"]'::jsonb
FROM "projects" WHERE "id" = 'internal';
