-- User search (GET /users?query=): one lower-cased text per user, display name and contact-channel values one per
-- line, indexed by trigrams so substring searches do not read every user. Triggers keep it current, whichever
-- code path changes a name or a channel.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE FUNCTION "gatehouse_user_search_text"("user_id" uuid, "display_name" text) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT concat_ws(E'\n', lower("display_name"), (
    SELECT string_agg(c."normalized", E'\n' ORDER BY c."created_at", c."id")
    FROM "contact_channels" c WHERE c."user_id" = $1
  ))
$$;--> statement-breakpoint
CREATE FUNCTION "gatehouse_users_search_text"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW."search_text" := "gatehouse_user_search_text"(NEW."id", NEW."display_name");
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "users_search_text" BEFORE INSERT OR UPDATE OF "display_name" ON "users"
FOR EACH ROW EXECUTE FUNCTION "gatehouse_users_search_text"();--> statement-breakpoint
CREATE FUNCTION "gatehouse_contact_channels_search_text"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- A channel never moves to another user: its user is NEW's (insert, update) or OLD's (delete).
  UPDATE "users" SET "search_text" = "gatehouse_user_search_text"("id", "display_name")
  WHERE "id" = COALESCE(NEW."user_id", OLD."user_id");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "contact_channels_search_text" AFTER INSERT OR DELETE OR UPDATE OF "normalized" ON "contact_channels"
FOR EACH ROW EXECUTE FUNCTION "gatehouse_contact_channels_search_text"();--> statement-breakpoint
UPDATE "users" SET "search_text" = "gatehouse_user_search_text"("id", "display_name");--> statement-breakpoint
CREATE INDEX "users_search_idx" ON "users" USING gin ("search_text" gin_trgm_ops);
