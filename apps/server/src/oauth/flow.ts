// The OAuth flow (WIRE.md §3.5, §4.5), the same for every provider:
//
// 1. AUTHORIZE. The app's request (its redirect URI, state and PKCE challenge, and for `link` the user) is stored as
//    a 10-minute `oauth_flow` code; that code is the inner state sent to the provider, with our own PKCE pair
//    (the verifier sealed in the stored request).
// 2. CALLBACK. The inner state is used once. The provider's code is exchanged and the profile read, outside any
//    transaction. Then one transaction finds, links or creates the user by the account rules, keeps the provider's
//    tokens sealed, and writes a 5-minute `oauth_authorization_code` bound to the app's redirect URI and challenge.
//    The user goes back to the app with it. A known error goes back the same way, as query parameters.
// 3. EXCHANGE. `POST /auth/oauth/token` uses the authorization code once, checks the app's verifier, and opens the
//    session through the MFA gate. [GF] Presenting a used code again ends the session its first use opened.
import { randomBytes } from "node:crypto";
import {
  isKnownError,
  type KnownError,
  KnownErrors,
  type OAuthAuthorizeQuery,
  type ProjectConfig,
} from "@gatehouse/contract";
import type { Clock } from "../clock.ts";
import { constantTimeEqual, pkceChallenge } from "../crypto/hash.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import { type Db, inTransaction } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import type { OAuthAccountsRepo, SealedTokens } from "../db/oauth-accounts-repo.ts";
import type { ProjectsRepo } from "../db/projects-repo.ts";
import type { UserRecord, UsersRepo } from "../db/users-repo.ts";
import type { MfaService, SignedIn } from "../services/mfa.ts";
import type { Project } from "../services/projects.ts";
import type { SessionService } from "../services/sessions.ts";
import { assertTrustedUrl, isTrustedUrl } from "../services/trusted-urls.ts";
import type { UserService } from "../services/users.ts";
import type { VerificationCodeService } from "../services/verification-codes.ts";
import { TextError } from "../text-error.ts";
import { type OAuthBackend, ProviderRefused, type ProviderTokens, ProviderUnavailable } from "./backends.ts";
import { refuseDevelopmentLink } from "./development-provider.ts";
import type { ProviderDirectory } from "./directory.ts";
import type { ProviderProfile } from "./providers.ts";

/** What a provider's backend answers once the code is exchanged: the tokens and who the user is. */
type Finished = Awaited<ReturnType<OAuthBackend["finish"]>>;

const INVALID_STATE = "Invalid OAuth state. Please try signing in again.";
const NO_INNER_COOKIE = "Inner OAuth cookie not found. Please try signing in again.";
const REDIRECT_URI_MISMATCH =
  "Invalid redirect URI. Your redirect URI must be the same as the one used to get the authorization code.";

/** The httpOnly cookie that ties a redirect-mode flow to the browser that started it (WIRE.md §4.5). */
export const innerCookieName = (innerState: string) => `stack-oauth-inner-${innerState}`;

/** What `authorize` stores under the inner state. */
type FlowData = {
  provider_id: string;
  type: "authenticate" | "link";
  /** `link`: the user to link to; `authenticate`: an anonymous caller to upgrade, if any. */
  user_id: string | null;
  redirect_uri: string;
  error_redirect_uri: string | null;
  after_callback_redirect_url: string | null;
  client_state: string;
  code_challenge: string;
  response_mode: "redirect" | "json";
  sealed_verifier: string;
};

/** What the callback (or a cross-domain hand-off, oauth/cross-domain.ts) stores under the authorization code. */
export type AuthorizationCodeData = {
  user_id: string;
  is_new_user: boolean;
  redirect_uri: string;
  code_challenge: string;
  after_callback_redirect_url: string | null;
  /** A hand-off of a session that already passed the second factor: the exchange does not ask for it again. */
  session_proven?: boolean;
  /** Set by the exchange that used it. */
  session_id?: string;
};

/**
 * A sign-in flow's end (OAuth here, SSO in sso/flow.ts), in one transaction: `signIn` finds or makes the user, then
 * the app's authorization code is stored for them. Retried once when `signIn` lost a race (the same account or address
 * claimed meanwhile): the second pass sees the winner's rows and follows the rules.
 */
export async function issueAuthorizationCode(
  deps: { db: Db; codes: VerificationCodeService },
  projectId: string,
  flow: Pick<AuthorizationCodeData, "redirect_uri" | "code_challenge" | "after_callback_redirect_url">,
  signIn: (tx: Db) => Promise<{ userId: string; isNewUser: boolean }>,
): Promise<string> {
  const attempt = () =>
    inTransaction(deps.db, async (tx) => {
      const signedIn = await signIn(tx);
      const data: AuthorizationCodeData = {
        user_id: signedIn.userId,
        is_new_user: signedIn.isNewUser,
        redirect_uri: flow.redirect_uri,
        code_challenge: flow.code_challenge,
        after_callback_redirect_url: flow.after_callback_redirect_url,
      };
      const { code } = await deps.codes.create(tx, { projectId, purpose: "oauth_authorization_code", data });
      return code;
    });
  try {
    return await attempt();
  } catch (error) {
    if (isUniqueViolation(error)) return attempt();
    throw error;
  }
}

type AccountRow = { providerId: string; accountId: string; email: string | null } & SealedTokens;

/** Who the provider says the user is, and whether that came from the development provider (unverified, unlinkable). */
type Identity = { profile: ProviderProfile; development: boolean };

/** What is stored of a provider account: who it is at the provider, and its tokens. */
const accountRow = (providerId: string, profile: ProviderProfile, tokens: SealedTokens): AccountRow => ({
  providerId,
  accountId: profile.accountId,
  email: profile.email,
  ...tokens,
});

/** A known error as the callback reports it to the app: query parameters on its redirect URI (WIRE.md §4.5). */
export function errorRedirect(target: string, error: KnownError): string {
  const url = new URL(target);
  const body = error.toBody() as { details?: unknown };
  url.searchParams.set("error", "server_error");
  url.searchParams.set("error_description", error.message);
  url.searchParams.set("errorCode", error.code);
  url.searchParams.set("message", error.message);
  url.searchParams.set("details", JSON.stringify(body.details ?? {}));
  return url.toString();
}

/** How a provider's failure reaches the user. */
function providerError(error: unknown): unknown {
  if (error instanceof ProviderUnavailable) return KnownErrors.OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE();
  if (error instanceof ProviderRefused) return KnownErrors.OAUTH_PROVIDER_ACCESS_DENIED();
  return error;
}

export type OAuthFlowDeps = {
  db: Db;
  clock: Clock;
  codes: VerificationCodeService;
  projectsRepo: ProjectsRepo;
  usersRepo: UsersRepo;
  users: UserService;
  sessions: SessionService;
  mfa: MfaService;
  accounts: OAuthAccountsRepo;
  directory: ProviderDirectory;
  /** Seals provider tokens and our PKCE verifiers at rest. */
  tokenBox: SecretBox;
};

export function createOAuthFlow(deps: OAuthFlowDeps) {
  const sealTokens = (tokens: ProviderTokens): SealedTokens => ({
    sealedAccessToken: tokens.accessToken ? deps.tokenBox.seal(tokens.accessToken) : null,
    accessTokenExpiresAt: tokens.expiresAt,
    sealedRefreshToken: tokens.refreshToken ? deps.tokenBox.seal(tokens.refreshToken) : null,
    grantedScopes: tokens.scope,
  });

  /** Finds or creates the user this provider account signs in, by the rules of WIRE.md §4.5 and §7. */
  async function authenticate(
    tx: Db,
    project: Project,
    flow: FlowData,
    providerId: string,
    { profile, development }: Identity,
    tokens: SealedTokens,
  ): Promise<{ userId: string; isNewUser: boolean }> {
    const known = await deps.accounts.find(tx, project.id, providerId, profile.accountId);
    if (known) {
      await deps.accounts.updateTokens(known.id, tokens, { email: profile.email, executor: tx });
      return { userId: known.userId, isNewUser: false };
    }
    const account = accountRow(providerId, profile, tokens);
    const owner = profile.email
      ? await deps.usersRepo.findAuthChannel(project.id, profile.email, tx)
      : undefined;
    let duplicate = false;
    if (owner) {
      const strategy = project.config.oauth_account_merge_strategy;
      const bothVerified = owner.channel.isVerified && profile.emailVerified;
      // A development identity is whatever someone typed, so it never joins the account that owns the address,
      // whatever the merge setting: like Keycloak's and Kratos's rule that only an address the identity provider
      // verified may link accounts. Only allow_duplicates lets it through, as a separate user (below).
      if (development && strategy !== "allow_duplicates") {
        throw KnownErrors.CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE({
          type: "email",
          contact_channel_value: owner.channel.value,
        });
      }
      if (!development && strategy === "link_method" && bothVerified) {
        await insertAccount(tx, project, owner.user.id, account);
        return { userId: owner.user.id, isNewUser: false };
      }
      if (strategy !== "allow_duplicates") {
        throw KnownErrors.CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE({
          type: "email",
          contact_channel_value: owner.channel.value,
          ...(strategy === "link_method" && !owner.channel.isVerified
            ? { would_work_if_email_was_verified: true }
            : {}),
        });
      }
      duplicate = true;
    }
    const email = profile.email
      ? { value: profile.email, verified: profile.emailVerified, usedForAuth: !duplicate }
      : undefined;
    const anonymous = flow.user_id ? await deps.usersRepo.find(project.id, flow.user_id, tx) : undefined;
    if (!project.config.sign_up_enabled) throw KnownErrors.SIGN_UP_NOT_ENABLED();
    if (anonymous?.isAnonymous) {
      await upgradeAnonymous(tx, project, anonymous, email);
      await insertAccount(tx, project, anonymous.id, account);
      return { userId: anonymous.id, isNewUser: true };
    }
    const userId = await deps.users.create(tx, {
      project,
      email,
      displayName: profile.displayName,
      columns: { profileImageUrl: profile.profileImageUrl },
      oauthProviders: [account],
    });
    return { userId, isNewUser: true };
  }

  async function insertAccount(tx: Db, project: Project, userId: string, account: AccountRow): Promise<void> {
    await deps.accounts.insert(tx, {
      id: crypto.randomUUID(),
      projectId: project.id,
      userId,
      ...account,
      createdAt: deps.clock.now(),
    });
    await deps.users.recordEvent(tx, project.id, userId, "user.updated");
  }

  async function upgradeAnonymous(
    tx: Db,
    project: Project,
    user: UserRecord,
    email: { value: string; verified: boolean; usedForAuth: boolean } | undefined,
  ): Promise<void> {
    // The e-mail first: the personal team endAnonymity creates is named after it. `insertAccount` then records the
    // one user.updated event of the upgrade.
    if (email) await deps.users.addPrimaryEmail(tx, project.id, user.id, email);
    await deps.users.endAnonymity(tx, project, user.id);
  }

  /** `link`: the account joins the user who started the flow (WIRE.md §4.5). */
  async function link(
    tx: Db,
    project: Project,
    flow: FlowData,
    providerId: string,
    { profile, development }: Identity,
    tokens: SealedTokens,
  ): Promise<{ userId: string; isNewUser: boolean }> {
    refuseDevelopmentLink(flow.type, development);
    const user = flow.user_id ? await deps.usersRepo.find(project.id, flow.user_id, tx) : undefined;
    if (!user) throw KnownErrors.USER_AUTHENTICATION_REQUIRED();
    const known = await deps.accounts.find(tx, project.id, providerId, profile.accountId);
    if (known && known.userId !== user.id)
      throw KnownErrors.OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER();
    if (known) {
      await deps.accounts.updateTokens(known.id, tokens, { email: profile.email, executor: tx });
      return { userId: user.id, isNewUser: false };
    }
    if ((await deps.accounts.listForUser(user.id, providerId, tx)).length > 0) {
      throw KnownErrors.USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION();
    }
    if (user.isAnonymous) {
      // Linking makes an anonymous user a real one; its e-mail is only used to sign in when nobody else does.
      const taken = profile.email && (await deps.usersRepo.findAuthChannel(project.id, profile.email, tx));
      const email = profile.email
        ? { value: profile.email, verified: profile.emailVerified, usedForAuth: !taken }
        : undefined;
      await upgradeAnonymous(tx, project, user, email);
    }
    await insertAccount(tx, project, user.id, accountRow(providerId, profile, tokens));
    return { userId: user.id, isNewUser: false };
  }

  /** One transaction from the profile to the authorization code; retried once when a concurrent sign-in won a race. */
  async function settle(
    project: Project,
    flow: FlowData,
    providerId: string,
    result: Finished,
    development: boolean,
  ): Promise<string> {
    const tokens = sealTokens(result.tokens);
    const identity: Identity = { profile: result.profile, development };
    return issueAuthorizationCode(deps, project.id, flow, (tx) =>
      flow.type === "link"
        ? link(tx, project, flow, providerId, identity, tokens)
        : authenticate(tx, project, flow, providerId, identity, tokens),
    );
  }

  return {
    /** Step 1: checks the request and answers the provider URL and the inner state. */
    async authorize(
      project: Project,
      providerId: string,
      query: OAuthAuthorizeQuery,
      user: UserRecord | null,
    ): Promise<{ location: string; innerState: string }> {
      const provider = await deps.directory.resolve(project, providerId);
      if (query.scope !== "legacy") throw KnownErrors.INVALID_SCOPE({ scope: query.scope });
      const errorRedirect = query.error_redirect_uri ?? query.error_redirect_url ?? null;
      for (const url of [query.redirect_uri, errorRedirect ?? undefined, query.after_callback_redirect_url]) {
        assertTrustedUrl(project.config, url);
      }
      const extraScopes = (query.provider_scope ?? "").split(/\s+/).filter(Boolean);
      if (extraScopes.length > 0 && provider.shared) {
        throw KnownErrors.OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS();
      }
      if (query.type === "link" && !user) throw KnownErrors.USER_AUTHENTICATION_REQUIRED();
      refuseDevelopmentLink(query.type, provider.development);
      const verifier = randomBytes(32).toString("base64url");
      const data: FlowData = {
        provider_id: providerId,
        type: query.type,
        user_id: query.type === "link" || user?.isAnonymous ? (user?.id ?? null) : null,
        redirect_uri: query.redirect_uri,
        error_redirect_uri: errorRedirect,
        after_callback_redirect_url: query.after_callback_redirect_url ?? null,
        client_state: query.state,
        code_challenge: query.code_challenge,
        response_mode: query.stack_response_mode,
        sealed_verifier: deps.tokenBox.seal(verifier),
      };
      const { code: innerState } = await inTransaction(deps.db, (tx) =>
        deps.codes.create(tx, { projectId: project.id, purpose: "oauth_flow", data }),
      );
      const location = await provider.backend.authorizationUrl({
        state: innerState,
        codeChallenge: pkceChallenge(verifier),
        redirectUri: provider.redirectUri,
        extraScopes,
      });
      return { location, innerState };
    },

    /**
     * Step 2: where the user goes next — the app's redirect URI with a code, or with an error. Throws (as a plain
     * error response) only when the request cannot be tied to a flow or no trusted URL is left to report to.
     */
    async callback(providerId: string, params: URLSearchParams, cookies: string): Promise<string> {
      const state = params.get("state") ?? "";
      const { project, flow } = await pending(providerId, state);
      if (flow.response_mode === "redirect" && !hasCookie(cookies, innerCookieName(state))) {
        throw new TextError(400, NO_INNER_COOKIE);
      }
      try {
        await consumeFlow(project.id, state);
        const providerFailure = params.get("error");
        if (providerFailure) {
          throw providerFailure === "access_denied"
            ? KnownErrors.OAUTH_PROVIDER_ACCESS_DENIED()
            : KnownErrors.OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE();
        }
        const provider = await deps.directory.resolve(project, providerId);
        const finished = await provider.backend
          .finish({
            params,
            state,
            redirectUri: provider.redirectUri,
            codeVerifier: deps.tokenBox.open(flow.sealed_verifier),
          })
          .catch((error: unknown) => {
            throw providerError(error);
          });
        const code = await settle(project, flow, providerId, finished, provider.development);
        const target = new URL(flow.redirect_uri);
        target.searchParams.set("code", code);
        target.searchParams.set("state", flow.client_state);
        return target.toString();
      } catch (error) {
        if (!isKnownError(error)) throw error;
        const target = trustedTarget(project.config, flow);
        if (!target) throw error;
        return errorRedirect(target, error);
      }
    },

    /**
     * For the development provider's page: the project of a pending flow with this provider, and the origins the
     * callback may send the browser on to (the app's redirect URI and error redirect URL).
     */
    async pendingFlow(
      providerId: string,
      state: string,
    ): Promise<{ project: Project; appOrigins: string[] }> {
      const { project, flow } = await pending(providerId, state);
      const urls = [flow.redirect_uri, flow.error_redirect_uri].filter((url): url is string => Boolean(url));
      return { project, appOrigins: [...new Set(urls.map((url) => new URL(url).origin))] };
    },

    /** Step 3, the `authorization_code` grant: the session, or MULTI_FACTOR_AUTHENTICATION_REQUIRED. */
    async exchange(
      project: Project,
      input: { code: string; redirectUri: string | undefined; codeVerifier: string | undefined },
    ): Promise<SignedIn & { afterCallbackRedirectUrl: string | null }> {
      let afterCallbackRedirectUrl: string | null = null;
      const opened = await deps.codes
        .use(
          { projectId: project.id, purpose: "oauth_authorization_code", code: input.code },
          async (tx, row) => {
            const data = row.data as AuthorizationCodeData;
            if (
              !input.codeVerifier ||
              !constantTimeEqual(pkceChallenge(input.codeVerifier), data.code_challenge)
            ) {
              throw KnownErrors.INVALID_AUTHORIZATION_CODE();
            }
            if (input.redirectUri !== data.redirect_uri) throw new TextError(400, REDIRECT_URI_MISMATCH);
            const user = await deps.usersRepo.find(project.id, data.user_id, tx);
            if (!user) throw KnownErrors.INVALID_AUTHORIZATION_CODE();
            afterCallbackRedirectUrl = data.after_callback_redirect_url;
            const signIn = data.session_proven
              ? {
                  session: await deps.sessions.open(tx, user, {
                    signIn: { method: "oauth", isNewUser: false },
                  }),
                  isNewUser: false,
                }
              : await deps.mfa.open(tx, user, { isNewUser: data.is_new_user, method: "oauth" });
            if ("session" in signIn)
              await deps.codes.annotate(tx, row.id, { session_id: signIn.session.sessionId });
            return signIn;
          },
        )
        .catch(async (error: unknown) => {
          if (!isKnownError(error) || !error.code.startsWith("VERIFICATION_CODE_")) throw error;
          if (error.code === "VERIFICATION_CODE_ALREADY_USED") await endReplayedSession(project, input.code);
          throw KnownErrors.INVALID_AUTHORIZATION_CODE();
        });
      return { ...(await deps.mfa.issue(opened)), afterCallbackRedirectUrl };
    },
  };

  /** The flow stored under this inner state for this provider, and its project; an invalid state otherwise. */
  async function pending(providerId: string, state: string): Promise<{ project: Project; flow: FlowData }> {
    const stored = state ? await deps.codes.find("oauth_flow", state) : undefined;
    const flow = stored?.data as FlowData | undefined;
    if (!stored || !flow || flow.provider_id !== providerId) throw new TextError(400, INVALID_STATE);
    const project = await deps.projectsRepo.find(stored.projectId);
    if (!project) throw new TextError(400, INVALID_STATE);
    return { project, flow };
  }

  /** The flow's inner state, used once; an old one is OUTER_OAUTH_TIMEOUT, a used one an invalid state. */
  async function consumeFlow(projectId: string, state: string): Promise<void> {
    try {
      await deps.codes.use({ projectId, purpose: "oauth_flow", code: state }, async () => undefined);
    } catch (error) {
      if (isKnownError(error) && error.code === "VERIFICATION_CODE_EXPIRED")
        throw KnownErrors.OUTER_OAUTH_TIMEOUT();
      if (isKnownError(error) && error.code.startsWith("VERIFICATION_CODE_"))
        throw new TextError(400, INVALID_STATE);
      throw error;
    }
  }

  /** [GF] A used code presented again may have been stolen: the session of its first use ends. */
  async function endReplayedSession(project: Project, code: string): Promise<void> {
    const row = await deps.codes.find("oauth_authorization_code", code);
    const sessionId = (row?.data as AuthorizationCodeData | undefined)?.session_id;
    if (row?.projectId === project.id && sessionId) await deps.sessions.end(sessionId);
  }
}

/** The app's redirect URI, or its error redirect URL, whichever is still trusted. */
function trustedTarget(config: ProjectConfig, flow: FlowData): string | undefined {
  if (isTrustedUrl(config, flow.redirect_uri)) return flow.redirect_uri;
  if (flow.error_redirect_uri && isTrustedUrl(config, flow.error_redirect_uri))
    return flow.error_redirect_uri;
  return undefined;
}

function hasCookie(header: string, name: string): boolean {
  return header.split(";").some((part) => part.trim().split("=")[0] === name);
}

export type OAuthFlow = ReturnType<typeof createOAuthFlow>;
