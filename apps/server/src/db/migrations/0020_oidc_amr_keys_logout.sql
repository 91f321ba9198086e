CREATE TABLE "oidc_rsa_keys" (
	"project_id" text PRIMARY KEY NOT NULL,
	"kid" text NOT NULL,
	"sealed_private_jwk" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "oidc_clients" ADD COLUMN "jwks" jsonb;--> statement-breakpoint
ALTER TABLE "oidc_clients" ADD COLUMN "jwks_uri" text;--> statement-breakpoint
ALTER TABLE "oidc_clients" ADD COLUMN "id_token_signed_response_alg" text DEFAULT 'ES256' NOT NULL;--> statement-breakpoint
ALTER TABLE "oidc_clients" ADD COLUMN "backchannel_logout_uri" text;--> statement-breakpoint
ALTER TABLE "oidc_payloads" ADD COLUMN "gatehouse_session_id" uuid;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "amr" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "oidc_rsa_keys" ADD CONSTRAINT "oidc_rsa_keys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oidc_payloads_gatehouse_session_idx" ON "oidc_payloads" USING btree ("gatehouse_session_id");