// The generic import record (docs/cli.md "Generic format"): what every provider's export is turned into before it is
// written, and what `gatehouse export` writes. Validated here once, so a bad record is a line-numbered skip, never a
// half-made user.
import { importUserRecordSchema } from "@gatehouse/contract";
import type { z } from "zod";
import { parsePasswordHash } from "../crypto/imported-hash.ts";

/** The contract's record, with the password hash checked the way sign-in will read it. */
export const importUserSchema = importUserRecordSchema.superRefine((user, ctx) => {
  if (user.password_hash && parsePasswordHash(user.password_hash) === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["password_hash"],
      message: "unsupported or malformed password hash",
    });
  }
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
