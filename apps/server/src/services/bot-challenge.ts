// The seam for bot protection on sign-up, e-mailed sign-in codes and OAuth: Stack's SDK sends a challenge token
// (Cloudflare Turnstile) or says none could be shown. No bot check is configured yet, so every request passes.
import type { BotChallengeFields } from "@gatehouse/contract";

/** The flows Stack guards with a challenge (its Turnstile actions). */
export type BotChallengeAction = "sign_up_with_credential" | "send_magic_link_email" | "oauth_authenticate";

export type BotChallenge = {
  /**
   * Throws BOT_CHALLENGE_REQUIRED / BOT_CHALLENGE_FAILED when a configured check refuses the request. With none
   * configured the fields are accepted and ignored, as Stack's backend does without Turnstile keys.
   */
  check(action: BotChallengeAction, fields: BotChallengeFields): Promise<void>;
};

export function createBotChallenge(): BotChallenge {
  return {
    async check() {},
  };
}
