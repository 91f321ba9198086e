// Cross-domain hand-off (Stack's `/auth/oauth/cross-domain/authorize`): the signed-in session on one trusted domain
// gets a one-time `oauth_authorization_code` (stored hashed, 5 minutes, bound to the redirect URI and the PKCE
// challenge) for another trusted domain, which exchanges it at `POST /auth/oauth/token` through the OAuth flow's
// own exchange (oauth/flow.ts) for a new session of the same user.
import { KnownErrors } from "@gatehouse/contract";
import type { Clock } from "../clock.ts";
import { sha256Hex } from "../crypto/hash.ts";
import { type Db, inTransaction } from "../db/client.ts";
import type { UsersRepo } from "../db/users-repo.ts";
import type { Project } from "../services/projects.ts";
import { isTrustedUrl } from "../services/trusted-urls.ts";
import type { VerificationCodeService } from "../services/verification-codes.ts";
import { TextError } from "../text-error.ts";
import type { AuthorizationCodeData } from "./flow.ts";

export type HandOffRequest = {
  redirectUri: string;
  state: string;
  codeChallenge: string;
  afterCallbackRedirectUrl?: string;
};

export function createCrossDomainHandOff(deps: {
  db: Db;
  clock: Clock;
  codes: VerificationCodeService;
  usersRepo: UsersRepo;
}) {
  return {
    /**
     * The redirect URL carrying the code. The caller proves the session twice, as Stack requires: its access token
     * (`session`), and that session's current refresh token, so a leaked access token alone cannot mint a
     * long-lived session elsewhere.
     */
    async authorize(
      project: Project,
      session: { userId: string; sessionId: string },
      refreshToken: string | undefined,
      request: HandOffRequest,
    ): Promise<string> {
      if (!refreshToken)
        throw new TextError(400, "Cross-domain auth handoff requires passing the current refresh token.");
      const found = await deps.usersRepo.findByRefreshHash(project.id, sha256Hex(refreshToken));
      if (!found || found.sessionId !== session.sessionId || found.user.id !== session.userId)
        throw new TextError(
          401,
          "Cross-domain auth handoff refresh token does not match the authenticated session.",
        );
      if (found.sessionExpiresAt <= deps.clock.now() || found.user.restrictedByAdmin)
        throw new TextError(401, "Cross-domain auth handoff refresh token is not valid.");
      // The code goes only to the project's trusted domains (exact origin match), like an OAuth sign-in's.
      for (const url of [request.redirectUri, request.afterCallbackRedirectUrl]) {
        if (url !== undefined && !isTrustedUrl(project.config, url))
          throw KnownErrors.REDIRECT_URL_NOT_WHITELISTED();
      }
      const data: AuthorizationCodeData = {
        user_id: session.userId,
        is_new_user: false,
        redirect_uri: request.redirectUri,
        code_challenge: request.codeChallenge,
        after_callback_redirect_url: request.afterCallbackRedirectUrl ?? null,
        session_proven: true,
      };
      const { code } = await inTransaction(deps.db, (tx) =>
        deps.codes.create(tx, { projectId: project.id, purpose: "oauth_authorization_code", data }),
      );
      const target = new URL(request.redirectUri);
      target.searchParams.set("code", code);
      target.searchParams.set("state", request.state);
      return target.toString();
    },
  };
}

export type CrossDomainHandOff = ReturnType<typeof createCrossDomainHandOff>;
