-- Unlogged: written on every request, and counts lost in a crash only forgive a minute of requests.
CREATE UNLOGGED TABLE "rate_limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" bigint NOT NULL,
	"count" integer NOT NULL,
	"previous" integer NOT NULL,
	"last_allowed" boolean NOT NULL
);
