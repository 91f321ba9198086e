// Bot protection (issue 21 item 2) on sign-up, sign-in, e-mailed sign-in codes and OAuth sign-in: Stack's SDK (and our
// pages) send a Cloudflare Turnstile token, or say none could be shown. A project turns it on `always`, or only for
// `suspicious` IPs (many recent failures); the token is verified with Turnstile's siteverify protocol, once.
import { createHash } from "node:crypto";
import { type BotChallengeFields, KnownErrors } from "@gatehouse/contract";
import type { Logger } from "../logger.ts";
import type { Project, ProjectSecrets } from "../services/projects.ts";
import type { RateLimiter } from "../services/rate-limits.ts";

export const DEFAULT_VERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";

/** The flows guarded by a challenge (Stack's Turnstile actions, and [GO] password sign-in). */
export type BotChallengeAction =
  | "sign_up_with_credential"
  | "sign_in_with_credential"
  | "send_magic_link_email"
  | "oauth_authenticate";

export type BotChallenge = {
  /** Throws BOT_CHALLENGE_REQUIRED / BOT_CHALLENGE_FAILED when the project's bot protection refuses the request. */
  check(
    project: Project,
    action: BotChallengeAction,
    fields: BotChallengeFields,
    clientIp: string,
  ): Promise<void>;
  /** Counts a failed sign-in from this IP towards the `suspicious` mode's threshold. */
  recordFailure(project: Project, clientIp: string): Promise<void>;
};

type SiteverifyAnswer = { success?: unknown; "error-codes"?: unknown };

export function createBotChallenge(deps: {
  secrets: ProjectSecrets;
  rateLimits: RateLimiter;
  logger: Logger;
  fetch?: typeof fetch;
  /** A verify service slower than this fails the challenge: sign-up must not hang on a third party. */
  timeoutMs?: number;
}): BotChallenge {
  const doFetch = deps.fetch ?? fetch;
  const timeoutMs = deps.timeoutMs ?? 5000;
  const failureKey = (project: Project, ip: string) => `${project.id}:${ip}`;

  async function verify(project: Project, token: string, clientIp: string): Promise<boolean> {
    const secret = deps.secrets.open(project.config).bot_protection_secret;
    if (!secret) return false;
    const body = new URLSearchParams({ secret, response: token, remoteip: clientIp });
    try {
      const response = await doFetch(project.config.bot_protection_verify_url ?? DEFAULT_VERIFY_URL, {
        method: "POST",
        body,
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) throw new Error(`siteverify answered ${response.status}`);
      const answer = (await response.json()) as SiteverifyAnswer;
      return answer.success === true;
    } catch (error) {
      // Fails closed: an unreachable verifier must not become a way around the challenge.
      deps.logger.warn("bot-challenge verification failed to complete", { project_id: project.id }, error);
      return false;
    }
  }

  return {
    async check(project, _action, fields, clientIp) {
      const mode = project.config.bot_protection ?? "off";
      if (mode === "off") return;
      if (mode === "suspicious" && !(await deps.rateLimits.isSuspicious(failureKey(project, clientIp))))
        return;
      const token = fields.bot_challenge_token;
      // `bot_challenge_unavailable` (no widget could be shown) is no proof of a human, so it cannot pass either.
      if (!token) throw KnownErrors.BOT_CHALLENGE_REQUIRED();
      // A token passes once, checked here before the verifier is asked, so a replay is refused even by a verifier that
      // has not seen the first use (another region, a retry) and costs it no request.
      const tokenKey = `${project.id}:${createHash("sha256").update(token).digest("hex")}`;
      const fresh = await deps.rateLimits.firstUse(tokenKey);
      if (!fresh || !(await verify(project, token, clientIp))) {
        await deps.rateLimits.recordFailure(failureKey(project, clientIp));
        throw KnownErrors.BOT_CHALLENGE_FAILED();
      }
    },
    recordFailure: (project, clientIp) => deps.rateLimits.recordFailure(failureKey(project, clientIp)),
  };
}
