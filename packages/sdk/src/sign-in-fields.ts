// What the client app's sign-in paths share, whether they load first (password sign-in and sign-up, client-app.ts)
// or on use (the other paths, client-flows.ts): the errors each expects and the bot challenge's fields.

/** The errors each sign-in path expects; the MFA pause is one of them, so a page can ask for the code. */
export const SIGN_IN_ERRORS = [
  "EMAIL_PASSWORD_MISMATCH",
  "INVALID_TOTP_CODE",
  "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
];
export const CODE_ERRORS = ["VERIFICATION_ERROR"];

/**
 * [GO] A bot challenge's outcome, sent with a sign-up, sign-in or code request as Stack's SDK sends it: the widget's
 * token, or `unavailable` when no widget could be shown.
 */
export type BotChallengeAnswer = { token: string } | { unavailable: true };

export const botChallengeFields = (answer: BotChallengeAnswer | undefined) =>
  !answer
    ? {}
    : "token" in answer
      ? { bot_challenge_token: answer.token, bot_challenge_phase: "visible" }
      : { bot_challenge_unavailable: "true" };
