-- A project's SSO-enforced domains on its own row (issue 24): every password sign-in and sign-up asked sso_domains
-- with a query of its own; the request already reads the project row. A trigger keeps the list current whichever
-- path changes a domain (the SSO API, a team's or project's deletion cascading).
ALTER TABLE "projects" ADD COLUMN "sso_enforced_domains" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE FUNCTION "gatehouse_sso_enforced_domains"("project_id" text) RETURNS text[]
LANGUAGE sql STABLE AS $$
  SELECT ARRAY(
    SELECT d."domain" FROM "sso_domains" d
    WHERE d."project_id" = $1 AND d."verified_at" IS NOT NULL AND d."enforce_sso"
    ORDER BY d."domain"
  )
$$;--> statement-breakpoint
CREATE FUNCTION "gatehouse_sso_domains_enforced"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  -- A domain never moves to another project: its project is NEW's (insert, update) or OLD's (delete).
  changed text := COALESCE(NEW."project_id", OLD."project_id");
  enforced text[] := "gatehouse_sso_enforced_domains"(changed);
BEGIN
  -- Only a change of the list rewrites the project row (a new unverified domain, say, leaves it alone).
  UPDATE "projects" SET "sso_enforced_domains" = enforced
  WHERE "id" = changed AND "sso_enforced_domains" IS DISTINCT FROM enforced;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "sso_domains_enforced" AFTER INSERT OR DELETE OR UPDATE OF "domain", "verified_at", "enforce_sso"
ON "sso_domains" FOR EACH ROW EXECUTE FUNCTION "gatehouse_sso_domains_enforced"();--> statement-breakpoint
UPDATE "projects" SET "sso_enforced_domains" = "gatehouse_sso_enforced_domains"("id");
