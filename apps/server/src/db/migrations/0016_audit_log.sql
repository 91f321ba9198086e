CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"type" text NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text,
	"target_type" text,
	"target_id" text,
	"ip" text,
	"user_agent" text,
	"request_id" text,
	"details" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_project_time_idx" ON "audit_log" USING btree ("project_id","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_project_type_idx" ON "audit_log" USING btree ("project_id","type","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_project_actor_idx" ON "audit_log" USING btree ("project_id","actor_id","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_project_target_idx" ON "audit_log" USING btree ("project_id","target_id","created_at","id");