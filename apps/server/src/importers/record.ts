// The generic import record (docs/cli.md "Generic format"): what every provider's export is turned into before it is
// written, and what `gatehouse export` writes. Validated here once, so a bad record is a line-numbered skip, never a
// half-made user.
import { z } from "zod";
import { parsePasswordHash } from "../crypto/imported-hash.ts";

const json = z.unknown();

export const importUserSchema = z.strictObject({
  /** The user's id in the system it comes from; kept as `server_metadata.imported_from.id`. */
  id: z.string().min(1).max(512),
  email: z.email().max(320).nullish(),
  email_verified: z.boolean().optional(),
  display_name: z.string().max(1000).nullish(),
  profile_image_url: z.url().max(4096).nullish(),
  /** Any hash `password_hash` accepts (WIRE §4.8) or `$firebase-scrypt$…`; verified at sign-in, then argon2id. */
  password_hash: z
    .string()
    .refine((hash) => parsePasswordHash(hash) !== undefined, "unsupported or malformed password hash")
    .nullish(),
  oauth_accounts: z
    .array(
      z.strictObject({
        provider: z.string().min(1),
        account_id: z.string().min(1),
        email: z.string().nullish(),
      }),
    )
    .optional(),
  client_metadata: json.optional(),
  client_read_only_metadata: json.optional(),
  server_metadata: json.optional(),
  teams: z
    .array(
      z.strictObject({
        id: z.string().min(1),
        display_name: z.string().min(1).max(1000),
        /** `admin` grants the team_admin permission; anything else is plain membership. */
        role: z.string().optional(),
      }),
    )
    .optional(),
});

export type ImportUser = z.infer<typeof importUserSchema>;

/** One item an importer yields: a record, or why the input at that place is not one. */
export type SourceItem =
  | { line: number; user: ImportUser }
  | { line: number; skip: string }
  /** The file itself is broken (bad JSON, ragged CSV): nothing of it is imported. */
  | { line: number; fatal: string };

/** Validates a record built by an importer: a schema failure becomes a skip with its reason. */
export function checked(line: number, candidate: unknown): SourceItem {
  const result = importUserSchema.safeParse(candidate);
  if (result.success) return { line, user: result.data };
  const issue = result.error.issues[0];
  return { line, skip: `${issue?.path.join(".") || "record"}: ${issue?.message ?? "invalid"}` };
}

/** Gatehouse's names for the OAuth providers other systems spell their own way. */
export function providerId(name: string): string {
  const known: Record<string, string> = {
    "google-oauth2": "google",
    "google.com": "google",
    oauth_google: "google",
    "github.com": "github",
    oauth_github: "github",
    windowslive: "microsoft",
    "microsoft.com": "microsoft",
    oauth_microsoft: "microsoft",
    "facebook.com": "facebook",
    oauth_facebook: "facebook",
    "apple.com": "apple",
    oauth_apple: "apple",
    "gitlab.com": "gitlab",
    oauth_gitlab: "gitlab",
    "bitbucket.org": "bitbucket",
    "linkedin.com": "linkedin",
    oauth_linkedin_oidc: "linkedin",
    oauth_linkedin: "linkedin",
    "twitter.com": "x",
    twitter: "x",
    oauth_x: "x",
    "discord.com": "discord",
    oauth_discord: "discord",
  };
  return known[name] ?? name;
}

/** A JSON text column (Supabase, Better Auth, Firebase custom claims): the value, or undefined when unreadable. */
export function parseJsonColumn(text: string | undefined | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
