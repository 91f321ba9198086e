// StackClientApp: what runs in a browser (or any client) with a publishable key: sign-up and sign-in by every method,
// the codes that arrive by e-mail, the current user and the project's public settings. Named and shaped as in Stack
// Auth's SDK. Expected failures come back as `Result.error` with the known error; everything else is thrown.
// What a page loads first is password sign-in, the user, the project and the tokens: the other paths' bodies live in
// client-flows.ts and load on their first call (`this.flow`), the user's calls likewise (users.ts).

import { PUBLIC_CLIENT_SECRET } from "@gatehouse/contract/headers";
// Types only: the admin app builds on this module, and reaches a bundle only when an app passes it in.
import type { AdminAppOptions, StackAdminApp } from "./admin-app.ts";
import {
  type BaseAppOptions,
  CLIENT_VERSION,
  countAppInstance,
  isBrowser,
  type RedirectMethod,
  resolveBaseUrl,
  resolveProjectId,
  resolvePublishableClientKey,
  SDK_VERSION,
} from "./app-options.ts";
import { createAsyncCache } from "./cache.ts";
import type { PromptCliLoginOptions } from "./cli-login.ts";
import type { AppCore, SignUpOptions } from "./client-flows.ts";
import { jsonBody, type ObjectContext } from "./context.ts";
import { convexAuthCalls } from "./convex.ts";
import { expectingErrors, knownErrorIs, Result } from "./errors.ts";
import type { SessionTokens } from "./impersonation.ts";
import { withLazyCalls } from "./lazy-calls.ts";
import type { GetPartialUserOptions } from "./partial-user.ts";
import { createSession, type RefreshResult, type Session } from "./session.ts";
import { type BotChallengeAnswer, botChallengeFields, SIGN_IN_ERRORS } from "./sign-in-fields.ts";
import { resolveTokenStore, type TokenStoreInit } from "./token-store.ts";
import { type Credentials, createTransport, type RequestOptions, type Transport } from "./transport.ts";
import {
  afterAuthTarget,
  assertTrustedRedirect,
  type HandlerUrls,
  resolveUrls,
  withReturnTo,
} from "./urls.ts";
import { authCalls, type CurrentUser, currentUser } from "./users.ts";
import type { ProjectJson, SignInJson, UserJson } from "./wire.ts";

export type ClientAppOptions = BaseAppOptions & {
  /** Where the session's tokens live: "cookie" (browsers), "memory", explicit tokens, a request (servers), or null. */
  tokenStore?: TokenStoreInit;
  urls?: Partial<HandlerUrls>;
  /**
   * [GO] For an app of project `internal` (a dashboard): `StackAdminApp`, which administers the projects its users
   * own (`user.listOwnedProjects()`). Passed in rather than imported here, even lazily: esbuild puts a module that
   * the package entry exports and a client reaches by `import()` into the chunk every page loads, so every client
   * bundle would carry the admin and server app.
   */
  adminAppClass?: new (
    options: AdminAppOptions,
  ) => StackAdminApp;
};

export type GetUserOptions = {
  or?: "return-null" | "redirect" | "throw" | "anonymous";
  /** Also answer a user restricted by an administrator (they are null otherwise). */
  includeRestricted?: boolean;
  /** Read the user of another store than the app's (a server reading the request's cookies). */
  tokenStore?: TokenStoreInit;
};

export type Project = {
  id: string;
  displayName: string;
  /** [GO] The project's logo for light and dark backgrounds (Stack shows logos to admins only); null: none. */
  logoUrl?: string | null;
  logoDarkModeUrl?: string | null;
  config: {
    signUpEnabled: boolean;
    credentialEnabled: boolean;
    magicLinkEnabled: boolean;
    passkeyEnabled: boolean;
    clientTeamCreationEnabled: boolean;
    clientUserDeletionEnabled: boolean;
    allowUserApiKeys: boolean;
    allowTeamApiKeys: boolean;
    oauthProviders: { id: string }[];
    /**
     * [GO] While the project's bot protection is on: the challenge widget to show (Turnstile's site key and the
     * script implementing Turnstile's `turnstile.render`); null when it is off.
     */
    botChallenge: { siteKey: string | null; scriptUrl: string } | null;
  };
};

/** A project the signed-in internal user's teams own, with an admin app acting through their session. */
export type OwnedProject = {
  id: string;
  displayName: string;
  description: string | null;
  createdAt: Date;
  app: StackAdminApp;
};

/** The signed-in user of project `internal` (the dashboard's operators): a CurrentUser that also owns projects. */
export type CurrentInternalUser = CurrentUser & {
  listOwnedProjects(): Promise<OwnedProject[]>;
  createProject(options: {
    displayName: string;
    teamId: string;
    description?: string;
  }): Promise<OwnedProject>;
};

const projectOf = (json: ProjectJson): Project => ({
  id: json.id,
  displayName: json.display_name,
  logoUrl: json.logo_url ?? null,
  logoDarkModeUrl: json.logo_dark_mode_url ?? null,
  config: {
    signUpEnabled: json.config.sign_up_enabled,
    credentialEnabled: json.config.credential_enabled,
    magicLinkEnabled: json.config.magic_link_enabled,
    passkeyEnabled: json.config.passkey_enabled,
    clientTeamCreationEnabled: json.config.client_team_creation_enabled,
    clientUserDeletionEnabled: json.config.client_user_deletion_enabled,
    allowUserApiKeys: json.config.allow_user_api_keys,
    allowTeamApiKeys: json.config.allow_team_api_keys,
    oauthProviders: json.config.oauth_providers.map((p) => ({ id: p.id })),
    botChallenge:
      json.config.bot_challenge_script_url === undefined
        ? null
        : {
            siteKey: json.config.bot_challenge_site_key ?? null,
            scriptUrl: json.config.bot_challenge_script_url,
          },
  },
});

export class StackClientApp {
  readonly projectId: string;
  readonly version = SDK_VERSION;
  readonly urls: HandlerUrls;
  protected readonly baseUrl: string;
  protected readonly transport: Transport;
  protected readonly tokenStoreInit: TokenStoreInit;
  protected readonly publishableClientKey: string | undefined;
  private readonly redirectMethod: RedirectMethod;
  /** How this app reaches the server (fetch, extra headers): the owned projects' admin apps reach it the same way. */
  private readonly connection: Pick<ClientAppOptions, "fetch" | "extraRequestHeaders">;
  private readonly adminAppClass: ClientAppOptions["adminAppClass"];
  private readonly sessions = new Map<unknown, Session>();
  private readonly userObjects = new WeakMap<UserJson, CurrentUser>();
  private readonly userCache;
  private readonly projectCache;

  constructor(options: ClientAppOptions, credentials?: Partial<Credentials>) {
    countAppInstance();
    this.projectId = resolveProjectId(options.projectId);
    this.baseUrl = resolveBaseUrl(options.baseUrl);
    this.urls = resolveUrls(options.urls ?? {});
    this.redirectMethod = options.redirectMethod ?? (isBrowser() ? "window" : "none");
    this.tokenStoreInit = options.tokenStore ?? null;
    this.connection = { fetch: options.fetch, extraRequestHeaders: options.extraRequestHeaders };
    this.adminAppClass = options.adminAppClass;
    this.publishableClientKey = resolvePublishableClientKey(options.publishableClientKey);
    this.transport = createTransport({
      baseUrl: this.baseUrl,
      clientVersion: CLIENT_VERSION,
      extraHeaders: options.extraRequestHeaders,
      fetch: options.fetch,
      isOffline: () => (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine === false,
      credentials: {
        projectId: this.projectId,
        accessType: "client",
        publishableClientKey: this.publishableClientKey,
        ...credentials,
      },
    });
    this.userCache = createAsyncCache((session: Session) => this.readUser(session));
    this.projectCache = createAsyncCache(async () =>
      projectOf(await this.transport.request<ProjectJson>("/projects/current")),
    );
  }

  // ---------------------------------------------------------------- sessions and requests

  /** The session of a token store; one per store, so every read through it shares one refresh at a time. */
  protected sessionOf(init: TokenStoreInit = this.tokenStoreInit): Session | null {
    const key = init ?? null;
    const existing = this.sessions.get(key);
    if (existing) return existing;
    const store = resolveTokenStore(init, this.projectId);
    if (!store) return null;
    const session = createSession({ store, refresh: (refreshToken) => this.refreshGrant(refreshToken) });
    session.subscribe(() => this.userCache.invalidate(() => true));
    this.sessions.set(key, session);
    return session;
  }

  /** The token endpoint's refresh grant; "refused" when the session is over. */
  private async refreshGrant(refreshToken: string): Promise<RefreshResult> {
    try {
      const answer = await this.transport.request<{ access_token: string; refresh_token?: string }>(
        "/auth/oauth/token",
        {
          method: "POST",
          form: { grant_type: "refresh_token", refresh_token: refreshToken, ...this.clientAuthentication() },
        },
      );
      return { accessToken: answer.access_token, refreshToken: answer.refresh_token };
    } catch (error) {
      if (knownErrorIs(error, "REFRESH_TOKEN_ERROR")) return "refused";
      throw error;
    }
  }

  /** The token endpoint's client_secret_post fields: the project and its publishable key, or the public sentinel. */
  private clientAuthentication() {
    return { client_id: this.projectId, client_secret: this.publishableClientKey ?? PUBLIC_CLIENT_SECRET };
  }

  private requireSession(init?: TokenStoreInit): Session {
    const session = this.sessionOf(init);
    if (!session) {
      throw new Error(
        "Cannot call this function on a Stack app without a persistent token store. Pass `tokenStore`.",
      );
    }
    return session;
  }

  /** The context objects of this session use for their calls. */
  protected objectContext(session: Session): ObjectContext {
    return {
      request: (path, options: RequestOptions = {}) => this.transport.request(path, { ...options, session }),
      callbackUrl: (name) => this.absoluteUrl(this.urls[name]),
      invalidate: () => this.userCache.invalidate(() => true),
    };
  }

  /**
   * Runs one of the sign-in paths and calls loaded on first use (client-flows.ts, with flows.ts) with what it needs of
   * this app: a page that only signs in with a password and reads the user never loads them.
   */
  private async flow<T>(run: (flows: typeof import("./flows.ts"), core: AppCore) => Promise<T>): Promise<T> {
    return run(await import("./flows.ts"), {
      projectId: this.projectId,
      publishableClientKey: this.publishableClientKey,
      urls: this.urls,
      transport: this.transport,
      sessionOf: (init) => this.sessionOf(init),
      requireSession: (init) => this.requireSession(init),
      refreshGrant: (refreshToken) => this.refreshGrant(refreshToken),
      clientAuthentication: () => this.clientAuthentication(),
      objectContext: (session) => this.objectContext(session),
      absoluteUrl: (url) => this.absoluteUrl(url),
      currentUrl: () => this.currentUrl(),
      navigate: (target) => this.navigate(target),
      redirectTo: (target) => this.redirectTo(target),
      redirectToAfterSignIn: (options) => this.redirectToAfterSignIn(options),
      finishSignIn: (answer, options) => this.finishSignIn(answer, options),
      invalidateUser: () => this.userCache.invalidate(() => true),
    });
  }

  private absoluteUrl(url: string): string {
    const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
    if (/^[a-z][a-z0-9+.-]*:/i.test(url) || !origin) return url;
    return new URL(url, origin).toString();
  }

  private async readUser(session: Session): Promise<UserJson | null> {
    if (!session.isSignedIn()) return null;
    try {
      return await this.transport.request<UserJson>("/users/me", { session });
    } catch (error) {
      // The session ended (signed out elsewhere, user deleted): no user.
      if (knownErrorIs(error, "CANNOT_GET_OWN_USER_WITHOUT_USER") || knownErrorIs(error, "USER_NOT_FOUND")) {
        return null;
      }
      throw error;
    }
  }

  // ---------------------------------------------------------------- redirects

  /** Follows a redirect target the app was handed (return targets, handler URLs): only a trusted one. */
  protected async redirectTo(target: string): Promise<void> {
    const current = (globalThis as { location?: { href?: string } }).location?.href;
    if (current) assertTrustedRedirect(target, current);
    this.navigate(target);
  }

  /** Goes to `target` unchecked: for a URL the server answered, such as the OAuth provider's authorize page. */
  private navigate(target: string): void {
    if (this.redirectMethod === "window")
      (globalThis as unknown as { location: Location }).location.assign(target);
    else if (this.redirectMethod !== "none") this.redirectMethod.navigate(target);
  }

  private currentUrl(): string | undefined {
    return (globalThis as { location?: { href?: string } }).location?.href;
  }

  async redirectToSignIn(): Promise<void> {
    const current = this.currentUrl();
    await this.redirectTo(current ? withReturnTo(this.urls.signIn, current) : this.urls.signIn);
  }
  async redirectToSignUp(): Promise<void> {
    const current = this.currentUrl();
    await this.redirectTo(current ? withReturnTo(this.urls.signUp, current) : this.urls.signUp);
  }
  redirectToSignOut = () => this.redirectTo(this.urls.signOut);
  redirectToHome = () => this.redirectTo(this.urls.home);
  redirectToAccountSettings = () => this.redirectTo(this.urls.accountSettings);
  redirectToAfterSignOut = () => this.redirectTo(this.urls.afterSignOut);
  redirectToAfterSignUp = () => this.redirectTo(this.urls.afterSignUp);
  redirectToEmailVerification = () => this.redirectTo(this.urls.emailVerification);
  redirectToPasswordReset = () => this.redirectTo(this.urls.passwordReset);
  redirectToForgotPassword = () => this.redirectTo(this.urls.forgotPassword);
  redirectToOAuthCallback = () => this.redirectTo(this.urls.oauthCallback);
  redirectToMagicLinkCallback = () => this.redirectTo(this.urls.magicLinkCallback);
  redirectToTeamInvitation = () => this.redirectTo(this.urls.teamInvitation);
  redirectToMfa = () => this.redirectTo(this.urls.mfa);
  redirectToError = () => this.redirectTo(this.urls.error);
  redirectToCliAuthConfirm = () => this.redirectTo(this.urls.cliAuthConfirm);
  /**
   * To the onboarding page, carrying the page's `after_auth_return_to` so onboarding goes on where the sign-in would
   * have. [GO] `signedUp`: the user has just signed up, so the page says the verification e-mail went out and goes
   * on to afterSignUp.
   */
  redirectToOnboarding(options: { signedUp?: boolean } = {}): Promise<void> {
    return this.flow((flows, core) => flows.redirectToOnboarding(core, options));
  }

  /** Where a finished sign-in goes: the page that sent the user to sign in, else afterSignUp / afterSignIn. */
  async redirectToAfterSignIn(options: { isNewUser?: boolean } = {}): Promise<void> {
    await this.redirectTo(
      afterAuthTarget(this.urls, this.currentUrl(), { isNewUser: options.isNewUser ?? false }),
    );
  }

  // ---------------------------------------------------------------- sign-in paths

  private async finishSignIn(
    answer: Omit<SignInJson, "user_id">,
    options: { noRedirect?: boolean; isNewUser?: boolean },
  ) {
    const session = this.requireSession();
    session.signIn({ accessToken: answer.access_token, refreshToken: answer.refresh_token });
    this.userCache.invalidate(() => true);
    if (!options.noRedirect)
      await this.redirectToAfterSignIn({ isNewUser: options.isNewUser ?? answer.is_new_user });
  }

  signInWithCredential(options: {
    email: string;
    password: string;
    noRedirect?: boolean;
    botChallenge?: BotChallengeAnswer;
  }): Promise<Result<undefined>> {
    return expectingErrors(SIGN_IN_ERRORS, async () => {
      const answer = await this.transport.request<SignInJson>(
        "/auth/password/sign-in",
        jsonBody({
          email: options.email,
          password: options.password,
          ...botChallengeFields(options.botChallenge),
        }),
      );
      await this.finishSignIn(answer, { noRedirect: options.noRedirect, isNewUser: false });
      return undefined;
    });
  }

  signUpWithCredential(options: SignUpOptions): Promise<Result<undefined>> {
    return this.flow((flows, core) => flows.signUpWithCredential(core, options));
  }

  sendMagicLinkEmail(
    email: string,
    options: { callbackUrl?: string; botChallenge?: BotChallengeAnswer } = {},
  ): Promise<Result<{ nonce: string }>> {
    return this.flow((flows, core) => flows.sendMagicLinkEmail(core, email, options));
  }

  signInWithMagicLink(code: string, options: { noRedirect?: boolean } = {}): Promise<Result<undefined>> {
    return this.flow((flows, core) => flows.signInWithMagicLink(core, code, options));
  }

  /** Completes a sign-in paused by MULTI_FACTOR_AUTHENTICATION_REQUIRED (its `attempt_code`). */
  signInWithMfa(
    totp: string,
    attemptCode: string,
    options: { noRedirect?: boolean } = {},
  ): Promise<Result<undefined>> {
    return this.flow((flows, core) => flows.signInWithMfa(core, totp, attemptCode, options));
  }

  /** [GO] Completes a paused sign-in with one of the user's single-use recovery codes instead of a TOTP value. */
  signInWithRecoveryCode(
    recoveryCode: string,
    attemptCode: string,
    options: { noRedirect?: boolean } = {},
  ): Promise<Result<undefined>> {
    return this.flow((flows, core) => flows.signInWithRecoveryCode(core, recoveryCode, attemptCode, options));
  }

  sendForgotPasswordEmail(email: string, options: { callbackUrl?: string } = {}): Promise<Result<undefined>> {
    return this.flow((flows, core) => flows.sendForgotPasswordEmail(core, email, options));
  }

  resetPassword(options: { code: string; password: string }): Promise<Result<undefined>> {
    return this.flow((flows, core) => flows.resetPassword(core, options));
  }

  verifyPasswordResetCode = (code: string) =>
    this.flow((flows, core) => flows.checkCode(core, "passwordReset", code));
  verifyEmail = (code: string) => this.flow((flows, core) => flows.checkCode(core, "email", code));
  /** Invitations are checked for the signed-in user (the one who would join). */
  verifyTeamInvitationCode = (code: string) =>
    this.flow((flows, core) => flows.checkCode(core, "teamInvitation", code));

  acceptTeamInvitation(code: string): Promise<Result<undefined>> {
    return this.flow((flows, core) => flows.acceptTeamInvitation(core, code));
  }

  getTeamInvitationDetails(code: string): Promise<Result<{ teamDisplayName: string }>> {
    return this.flow((flows, core) => flows.getTeamInvitationDetails(core, code));
  }

  /** Logs a command-line app in through the browser: shows the confirmation URL, polls, answers a refresh token. */
  async promptCliLogin(options: PromptCliLoginOptions) {
    const { promptCliLogin } = await import("./flows.ts");
    return promptCliLogin(this.transport, this.urls.cliAuthConfirm, options);
  }

  /** [GO] The CLI confirmation page's call: the signed-in user authorizes the CLI login of `loginCode`. */
  async completeCliLogin(loginCode: string) {
    const session = this.requireSession();
    const { completeCliLogin } = await import("./flows.ts");
    return completeCliLogin(this.transport, session, loginCode);
  }

  /** [GO] The OIDC consent page's calls: what an app signing in through this project asks of the signed-in user. */
  async getOidcConsent(interactionId: string) {
    const { getOidcConsent } = await import("./oidc-consent.ts");
    return getOidcConsent(this.transport, this.requireSession(), interactionId);
  }

  /** [GO] Accepts or denies the app; answers the URL the browser goes to next. */
  async answerOidcConsent(interactionId: string, accept: boolean): Promise<string> {
    const { answerOidcConsent } = await import("./oidc-consent.ts");
    return answerOidcConsent(this.transport, this.requireSession(), interactionId, accept);
  }

  /** [GO] The apps the user has let sign them in through this project, and revoking one. */
  async listOidcGrants() {
    const { listOidcGrants } = await import("./oidc-consent.ts");
    return listOidcGrants(this.transport, this.requireSession());
  }

  async revokeOidcGrant(clientId: string): Promise<void> {
    const { revokeOidcGrant } = await import("./oidc-consent.ts");
    await revokeOidcGrant(this.transport, this.requireSession(), clientId);
  }

  /** Signs in with a passkey of this site (discoverable: the browser offers the user's passkeys). */
  signInWithPasskey(options: { noRedirect?: boolean } = {}): Promise<Result<undefined>> {
    return this.flow((flows, core) => flows.signInWithPasskey(core, options));
  }

  /**
   * [GO] Signs in with an impersonation session an administrator opened (the dashboard's Impersonate hands its tokens
   * to the app's impersonation page); false for any other session (client-flows.ts).
   */
  signInWithImpersonation(tokens: SessionTokens, options: { noRedirect?: boolean } = {}): Promise<boolean> {
    return this.flow((flows, core) => flows.signInWithImpersonation(core, tokens, options));
  }

  // ---------------------------------------------------------------- OAuth

  /** Sends the browser to the provider; it comes back to the oauthCallback page, which calls `callOAuthCallback`. */
  async signInWithOAuth(provider: string, options: { returnTo?: string } = {}): Promise<void> {
    await this.flow((flows, core) => flows.startOAuth(core, provider, "authenticate", options.returnTo));
  }

  /**
   * [GO] Where to send the browser for an SSO sign-in: the identity provider of the connection of the e-mail's
   * verified domain (or of `connectionId`); it comes back to the oauthCallback page, as an OAuth sign-in does.
   */
  getSsoSignInUrl(options: { email?: string; connectionId?: string; returnTo?: string }): Promise<string> {
    return this.flow((flows, core) => flows.getSsoSignInUrl(core, options));
  }

  /** [GO] "Continue with SSO": sends the browser to the identity provider (`getSsoSignInUrl`). */
  async signInWithSso(options: { email?: string; connectionId?: string; returnTo?: string }): Promise<void> {
    this.navigate(await this.getSsoSignInUrl(options));
  }

  /**
   * On the oauthCallback page: exchanges the code for the session and goes on (the callback's return target, else
   * afterSignUp for a new user, else afterSignIn). False when the page was not reached from a flow of this browser.
   */
  callOAuthCallback(): Promise<boolean> {
    return this.flow((flows, core) => flows.callOAuthCallback(core));
  }

  // ---------------------------------------------------------------- the current user and the project

  /** The signed-in user, or null; `or` decides what happens without one. */
  async getUser(options: GetUserOptions & { or: "redirect" | "throw" | "anonymous" }): Promise<CurrentUser>;
  async getUser(options?: GetUserOptions): Promise<CurrentUser | null>;
  async getUser(options: GetUserOptions = {}): Promise<CurrentUser | null> {
    const session = this.requireSession(options.tokenStore);
    let json = await this.userCache.get(session);
    // Anonymous users count only when asked for; restricted ones when asked for (or anonymous ones are).
    const includeAnonymous = options.or === "anonymous";
    const includeRestricted = options.includeRestricted || includeAnonymous;
    if (json && ((json.is_anonymous && !includeAnonymous) || (json.is_restricted && !includeRestricted))) {
      json = null;
    }
    if (!json && options.or === "anonymous") {
      const answer = await this.transport.request<SignInJson>("/auth/anonymous/sign-up", jsonBody({}));
      session.signIn({ accessToken: answer.access_token, refreshToken: answer.refresh_token });
      json = await this.userCache.refresh(session);
    }
    if (json) return this.userObjectOf(session, json);
    if (options.or === "redirect") {
      await this.redirectToSignIn();
      throw new Error("Redirecting to the sign-in page.");
    }
    if (options.or === "throw")
      throw new Error("User is not signed in but getUser was called with { or: 'throw' }.");
    return null;
  }

  protected currentUserOf(session: Session, json: UserJson): CurrentUser {
    const user = currentUser(
      this.objectContext(session),
      json,
      {
        getTokens: async () => ({
          accessToken: await session.getAccessToken(),
          refreshToken: session.getRefreshToken(),
        }),
        signOut: () => this.endSession(session),
        link: (provider, options) =>
          this.flow((flows, core) =>
            flows.startOAuth(core, provider, "link", options.returnTo, options.scopes),
          ),
      },
      () => import("./flows.ts"),
    );
    return this.projectId === "internal" ? Object.assign(user, this.internalUserCalls(session)) : user;
  }

  /** Ends the session at the server and here, then goes to afterSignOut. */
  private async endSession(session: Session): Promise<void> {
    try {
      await this.transport.request("/auth/sessions/current", { method: "DELETE", body: {}, session });
    } catch (error) {
      // Already signed out on the server (or the user is deleted): the local tokens go anyway.
      const gone = ["INVALID_ACCESS_TOKEN", "REFRESH_TOKEN_ERROR", "USER_AUTHENTICATION_REQUIRED"];
      if (!gone.some((code) => knownErrorIs(error, code))) throw error;
    } finally {
      session.signOut();
      this.userCache.invalidate(() => true);
    }
    await this.redirectToAfterSignOut();
  }

  /**
   * What a user of the internal project (the dashboard's) can do beyond any user: its owned projects (WIRE.md §8),
   * from owned-projects.ts, loaded on first call so no other app's first load carries it.
   */
  private internalUserCalls(session: Session): Omit<CurrentInternalUser, keyof CurrentUser> {
    const deps = {
      transport: this.transport,
      session,
      baseUrl: this.baseUrl,
      connection: this.connection,
      adminAppClass: this.adminAppClass,
    };
    return withLazyCalls(["listOwnedProjects", "createProject"], async () =>
      (await import("./flows.ts")).ownedProjectCalls(deps),
    );
  }

  // ---------------------------------------------------------------- the session's tokens (Stack's AuthLike calls)

  private tokensOf(tokenStore?: TokenStoreInit) {
    const session = this.sessionOf(tokenStore);
    return async () => ({
      accessToken: (await session?.getAccessToken()) ?? null,
      refreshToken: session?.getRefreshToken() ?? null,
    });
  }

  getAccessToken = (options: { tokenStore?: TokenStoreInit } = {}) =>
    authCalls(this.tokensOf(options.tokenStore)).getAccessToken();
  getRefreshToken = (options: { tokenStore?: TokenStoreInit } = {}) =>
    authCalls(this.tokensOf(options.tokenStore)).getRefreshToken();
  getAuthJson = (options: { tokenStore?: TokenStoreInit } = {}) =>
    authCalls(this.tokensOf(options.tokenStore)).getAuthJson();
  getAuthHeaders = (options: { tokenStore?: TokenStoreInit } = {}) =>
    authCalls(this.tokensOf(options.tokenStore)).getAuthHeaders();
  getAuthorizationHeader = (options: { tokenStore?: TokenStoreInit } = {}) =>
    authCalls(this.tokensOf(options.tokenStore)).getAuthorizationHeader();

  private readonly convex = convexAuthCalls((tokenStore) => this.sessionOf(tokenStore));
  readonly getConvexClientAuth = this.convex.getConvexClientAuth;
  readonly getConvexHttpClientAuth = this.convex.getConvexHttpClientAuth;

  /** Who is signed in, as the access token says, without reading the user (Stack's `from: "token"`). */
  async getPartialUser(options: GetPartialUserOptions & { tokenStore?: TokenStoreInit }) {
    const accessToken = await this.getAccessToken({ tokenStore: options.tokenStore });
    return (await import("./flows.ts")).partialUserOf(accessToken, options);
  }

  /** Signs the session's user out (at the server too) and goes to afterSignOut; nothing when nobody is signed in. */
  async signOut(options: { tokenStore?: TokenStoreInit } = {}): Promise<void> {
    const session = this.sessionOf(options.tokenStore);
    if (session?.isSignedIn()) await this.endSession(session);
  }

  /** Subscribes to changes of the signed-in user (sign-in, sign-out, writes); for UI bindings. */
  onUserChange(listener: () => void, tokenStore?: TokenStoreInit): () => void {
    const session = this.sessionOf(tokenStore);
    if (!session) return () => {};
    return this.userCache.subscribe(session, listener);
  }

  async getProject(): Promise<Project> {
    return this.projectCache.get(undefined);
  }

  // Stack's payments calls naming their customer in the options (customer-apps.ts), on the app's current session;
  // loaded on first call.
  private readonly payments = withLazyCalls(
    ["getItem", "listProducts", "listInvoices", "cancelSubscription"],
    async () =>
      (await import("./flows.ts")).clientAppPaymentCalls(
        () => this.objectContext(this.requireSession()),
        async () => (await this.getUser())?.id ?? null,
      ),
  );
  readonly getItem = this.payments.getItem;
  readonly listProducts = this.payments.listProducts;
  readonly listInvoices = this.payments.listInvoices;
  readonly cancelSubscription = this.payments.cancelSubscription;

  /** The user of a session as last read, without a request (undefined when it was never read). */
  peekUser(tokenStore?: TokenStoreInit): CurrentUser | null | undefined {
    const session = this.sessionOf(tokenStore);
    if (!session) return null;
    const json = this.userCache.getSnapshot(session);
    return json === undefined ? undefined : json && this.userObjectOf(session, json);
  }

  /** One user object per read: the same object until the user is read again (stable snapshots for UI bindings). */
  private userObjectOf(session: Session, json: UserJson): CurrentUser {
    let user = this.userObjects.get(json);
    if (!user) {
      user = this.currentUserOf(session, json);
      this.userObjects.set(json, user);
    }
    return user;
  }
}

export type { BotChallengeAnswer };
export { Result };
