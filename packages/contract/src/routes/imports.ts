// Bulk user import (issue 23): an importer (`gatehouse import`) sends users in batches, each batch written in one
// transaction. Idempotent by the source's id: a user already imported from the same provider with the same id is
// reported as existing and left alone, so re-running an interrupted import finishes it without duplicates. Every
// record not written is reported with why. Admin callers only.
import { z } from "zod";
import { defineRoute } from "../route.ts";

/** The generic import record (docs/cli.md "Generic format"); the server also checks the password hash. */
export const importUserRecordSchema = z.strictObject({
  /** The user's id in the system it comes from; kept as `server_metadata.imported_from.id`. */
  id: z.string().min(1).max(512),
  email: z.email().max(320).nullish(),
  email_verified: z.boolean().optional(),
  display_name: z.string().max(1000).nullish(),
  profile_image_url: z.url().max(4096).nullish(),
  /** Any hash `password_hash` accepts (WIRE §4.8) or `$firebase-scrypt$…`; verified at sign-in, then argon2id. */
  password_hash: z.string().max(4096).nullish(),
  oauth_accounts: z
    .array(
      z.strictObject({
        provider: z.string().min(1).max(100),
        account_id: z.string().min(1).max(512),
        email: z.string().max(320).nullish(),
      }),
    )
    .max(50)
    .optional(),
  client_metadata: z.unknown().optional(),
  client_read_only_metadata: z.unknown().optional(),
  server_metadata: z.unknown().optional(),
  teams: z
    .array(
      z.strictObject({
        id: z.string().min(1).max(512),
        display_name: z.string().min(1).max(1000),
        /** `admin` grants the team_admin permission; anything else is plain membership. */
        role: z.string().max(100).optional(),
      }),
    )
    .max(100)
    .optional(),
});
export type ImportUserRecord = z.output<typeof importUserRecordSchema>;

/** The most users one request may carry. */
export const MAX_IMPORT_BATCH = 1000;

export const importBatchSchema = z.strictObject({
  /** Where the users come from (`clerk`, `auth0`, `generic` …); with each record's id, what makes a re-run idempotent. */
  provider: z.string().min(1).max(100),
  users: z.array(importUserRecordSchema).min(1).max(MAX_IMPORT_BATCH),
});

export const importOutcomeSchema = z.object({
  /** The record's id in the source. */
  id: z.string(),
  /** `created`: written now; `existing`: imported before (left alone); `skipped`: not written, see `reason`. */
  result: z.enum(["created", "existing", "skipped"]),
  /** The Gatehouse user: the new one, or the one imported before. */
  user_id: z.string().nullable(),
  reason: z.string().nullable(),
});
export type ImportOutcome = z.output<typeof importOutcomeSchema>;

export const importBatchAnswerSchema = z.object({
  created: z.number(),
  existing: z.number(),
  skipped: z.number(),
  /** One per record, in the request's order. */
  items: z.array(importOutcomeSchema),
});
export type ImportBatchAnswer = z.output<typeof importBatchAnswerSchema>;

export const importUsersRoute = defineRoute({
  method: "POST",
  path: "/api/v1/internal/imports/users",
  access: ["admin"],
  summary:
    "[GO] Imports a batch of users (up to 1,000) in one transaction; a record imported before (same provider and source id) is left alone, and every record not written is answered with why",
  tag: "Import",
  body: importBatchSchema,
  response: { status: 200, kind: "json", schema: importBatchAnswerSchema },
});

// Import jobs (issue 23): the same import as `gatehouse import`, run by the server in the background from an uploaded
// export file, for the dashboard's import screen. The file is read whole at upload (a broken one is refused with its
// line and nothing is kept); any server process then writes its records in batches, recording progress as it goes.

export const IMPORT_PROVIDERS = [
  "generic",
  "clerk",
  "auth0",
  "firebase",
  "supabase",
  "better-auth",
  "stack-auth",
] as const;
export type ImportProvider = (typeof IMPORT_PROVIDERS)[number];

/** The largest export file a job takes; bigger ones go through `gatehouse import`, which streams from disk. */
export const MAX_IMPORT_FILE_BYTES = 200 * 1024 * 1024;

export const importJobStatusSchema = z.enum(["queued", "running", "succeeded", "failed", "cancelled"]);
export type ImportJobStatus = z.output<typeof importJobStatusSchema>;

export const importJobSkipSchema = z.object({
  /** The line (or array position) of the record in the file. */
  line: z.number(),
  /** The record's id in the source, when it has one. */
  id: z.string().nullable(),
  reason: z.string(),
});

export const importJobSchema = z.object({
  id: z.string(),
  provider: z.string(),
  file_name: z.string(),
  dry_run: z.boolean(),
  status: importJobStatusSchema,
  /** Records in the file, those skipped when it was read included. */
  total: z.number(),
  processed: z.number(),
  /** In a dry run: the records that would be written. */
  created: z.number(),
  existing: z.number(),
  skipped: z.number(),
  /** Records per second since the job started; null until it has. */
  rate_per_second: z.number().nullable(),
  /** Seconds left at that rate; null when not running. */
  eta_seconds: z.number().nullable(),
  /** Why a failed job stopped. */
  error: z.string().nullable(),
  created_at_millis: z.number(),
  started_at_millis: z.number().nullable(),
  finished_at_millis: z.number().nullable(),
});
export type ImportJob = z.output<typeof importJobSchema>;

export const importJobDetailSchema = importJobSchema.extend({
  /** Records not imported and why, in file order (the first 1,000). */
  skipped_records: z.array(importJobSkipSchema),
});
export type ImportJobDetail = z.output<typeof importJobDetailSchema>;

const jobParams = z.strictObject({ job_id: z.uuid() });

export const createImportJobRoute = defineRoute({
  method: "POST",
  path: "/api/v1/internal/imports/jobs",
  access: ["admin"],
  summary:
    "[GO] Starts a background import from an export file sent as the body (up to 200 MB); the whole file is read first, and a broken one answers IMPORT_FILE_INVALID with its line and imports nothing",
  tag: "Import",
  query: z.strictObject({
    provider: z.enum(IMPORT_PROVIDERS),
    /** The file's name, shown in the list of imports. */
    file_name: z.string().min(1).max(255).optional(),
    /** Reads and checks every record, writes none. */
    dry_run: z.enum(["true", "false"]).optional(),
  }),
  upload: {
    media: ["application/octet-stream", "text/csv", "application/json", "application/x-ndjson"],
    description: "The provider's export file as it was downloaded (Clerk CSV, Auth0 NDJSON, Firebase JSON …)",
  },
  response: { status: 201, kind: "json", schema: importJobDetailSchema },
});

export const listImportJobsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/imports/jobs",
  access: ["admin"],
  summary: "[GO] The project's import jobs, newest first (the last 50)",
  tag: "Import",
  response: { status: 200, kind: "json", schema: z.object({ items: z.array(importJobSchema) }) },
});

export const getImportJobRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/imports/jobs/{job_id}",
  access: ["admin"],
  summary: "[GO] An import job's progress, counts and skipped records",
  tag: "Import",
  params: jobParams,
  response: { status: 200, kind: "json", schema: importJobDetailSchema },
});

export const cancelImportJobRoute = defineRoute({
  method: "POST",
  path: "/api/v1/internal/imports/jobs/{job_id}/cancel",
  access: ["admin"],
  summary:
    "[GO] Stops an import job after the batch being written; users written so far stay (a finished job is answered as it is)",
  tag: "Import",
  params: jobParams,
  response: { status: 200, kind: "json", schema: importJobDetailSchema },
});

export const importRoutes = [
  importUsersRoute,
  createImportJobRoute,
  listImportJobsRoute,
  getImportJobRoute,
  cancelImportJobRoute,
] as const;
