-- Rate limits slide (services/rate-limits.ts): each bucket key keeps the times of the attempts in its window instead
-- of a fixed-window counter. Counts in flight at upgrade are dropped: at worst a bucket starts empty once.
CREATE TABLE "rate_limit_hits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" bigint[] NOT NULL,
	"last_allowed" boolean NOT NULL
);
--> statement-breakpoint
DROP TABLE "rate_limit_counters" CASCADE;