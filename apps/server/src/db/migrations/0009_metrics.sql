-- The overview metrics (GET /internal/metrics): counting a project's unexpired sessions reads this index, not
-- every session of the instance.
CREATE INDEX "sessions_project_expires_idx" ON "sessions" USING btree ("project_id","expires_at");