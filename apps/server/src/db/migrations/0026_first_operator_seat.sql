-- The internal project's first operator is made once. The first full sign-up joins the owner team when the team
-- has no member; before this, a team emptied later (its last operator left it or was deleted) handed the instance
-- to whoever signed up next. The seat is now taken for good, on the project row the request already reads.
ALTER TABLE "projects" ADD COLUMN "first_operator_at" timestamp with time zone;--> statement-breakpoint
-- An instance with an operator has had its first one.
UPDATE "projects" p SET "first_operator_at" = now()
WHERE p."id" = 'internal' AND p."first_operator_at" IS NULL AND EXISTS (
  SELECT 1 FROM "team_members" m WHERE m."team_id" = p."owner_team_id"
);
