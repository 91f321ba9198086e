// Request and response shapes shared by the sign-in routes (WIRE.md §4.1-4.7).
import { z } from "zod";

/** E-mail addresses: valid, at most 256 characters (WIRE.md §1.6). */
export const emailSchema = z.email().max(256);

/** Absolute http(s) URLs of at most 2048 characters. */
export const urlSchema = z.url({ protocol: /^https?$/ }).max(2048);

/** Passwords are checked for length by the service, which answers the catalogue's errors, not SCHEMA_ERROR. */
export const passwordSchema = z.string();

/**
 * Stack's bot-challenge fields, on sign-up, OTP and OAuth requests (WIRE.md §0): a Turnstile token and the phase it
 * came from, or `bot_challenge_unavailable: "true"` when no challenge could be shown (a string, as Stack's SDK sends
 * it; `true` too, which Stack's backend also takes). Without a configured bot check they are accepted and ignored.
 */
export const botChallengeFields = {
  bot_challenge_token: z.string().max(4096).optional(),
  bot_challenge_phase: z.enum(["invisible", "visible"]).optional(),
  bot_challenge_unavailable: z.union([z.literal("true"), z.literal(true)]).optional(),
};

export type BotChallengeFields = {
  bot_challenge_token?: string;
  bot_challenge_phase?: "invisible" | "visible";
  bot_challenge_unavailable?: "true" | true;
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
