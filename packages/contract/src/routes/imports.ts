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

export const importRoutes = [importUsersRoute] as const;
