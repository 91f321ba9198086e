// Request and response shapes shared by the sign-in routes (WIRE.md §4.1-4.7).
import { z } from "zod";

/** E-mail addresses: valid, at most 256 characters (WIRE.md §1.6). */
export const emailSchema = z.email().max(256);

/** Absolute http(s) URLs of at most 2048 characters. */
export const urlSchema = z.url({ protocol: /^https?$/ }).max(2048);

/** Passwords are checked for length by the service, which answers the catalogue's errors, not SCHEMA_ERROR. */
export const passwordSchema = z.string();

/** Accepted on sign-up, OTP and OAuth requests and ignored (WIRE.md §0). */
export const botChallengeFields = {
  bot_challenge_token: z.string().optional(),
  bot_challenge_phase: z.string().optional(),
  bot_challenge_unavailable: z.boolean().optional(),
};

export const signInResponseSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  user_id: z.uuid(),
});

export const signInWithNewUserResponseSchema = signInResponseSchema.extend({ is_new_user: z.boolean() });

export const sessionSchema = z
  .object({
    id: z.uuid(),
    user_id: z.uuid(),
    created_at: z.number(),
    last_used_at: z.number(),
    is_impersonation: z.boolean(),
    is_current_session: z.boolean(),
  })
  .meta({ id: "Session" });
