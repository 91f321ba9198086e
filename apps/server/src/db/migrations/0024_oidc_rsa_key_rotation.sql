-- The OpenID Provider's RS256 keys rotate (with the ES256 keys): several per project, keyed by kid. The existing key of
-- each project signs from the epoch, as a first key does.
ALTER TABLE "oidc_rsa_keys" DROP CONSTRAINT "oidc_rsa_keys_pkey";--> statement-breakpoint
ALTER TABLE "oidc_rsa_keys" ADD PRIMARY KEY ("kid");--> statement-breakpoint
ALTER TABLE "oidc_rsa_keys" ADD COLUMN "signs_from" timestamp with time zone DEFAULT '1970-01-01T00:00:00.000Z' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "oidc_rsa_keys_project_signs_from_idx" ON "oidc_rsa_keys" USING btree ("project_id","signs_from");
