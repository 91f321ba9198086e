// The client app's sign-in paths beyond the password, and its other calls a page makes only when a person starts
// them: magic links, the second factor, password reset, e-mail and invitation codes, passkeys, impersonation, OAuth
// and SSO. Loaded on first call with flows.ts; the app (client-app.ts) hands each its `AppCore`.
import { USER_AUTHENTICATION_REQUIRED } from "@gatehouse/contract/client-errors";
import { jsonBody, type ObjectContext } from "./context.ts";
import { expectingErrors, knownErrorIs, type Result, StackAssertionError } from "./errors.ts";
import { isImpersonationSession, type SessionTokens } from "./impersonation.ts";
import { authorizePath, createPkcePair, readOAuthCallback, saveVerifier } from "./oauth.ts";
import { createSession, type RefreshResult, type Session } from "./session.ts";
import {
  type BotChallengeAnswer,
  botChallengeFields,
  CODE_ERRORS,
  SIGN_IN_ERRORS,
} from "./sign-in-fields.ts";
import { memoryTokenStore, type TokenStoreInit } from "./token-store.ts";
import type { Transport } from "./transport.ts";
import {
  constructRedirectUrl,
  type HandlerUrls,
  RETURN_TO_PARAM,
  SIGNED_UP_PARAM,
  withReturnTo,
} from "./urls.ts";
import { browserWebAuthn, usePasskey } from "./webauthn.ts";
import type { SignInJson } from "./wire.ts";

/** What the paths here need of the client app: its connection, its sessions and its navigation. */
export type AppCore = {
  projectId: string;
  publishableClientKey: string | undefined;
  urls: HandlerUrls;
  transport: Transport;
  sessionOf(init?: TokenStoreInit): Session | null;
  requireSession(init?: TokenStoreInit): Session;
  refreshGrant(refreshToken: string): Promise<RefreshResult>;
  /** The token endpoint's client_secret_post fields. */
  clientAuthentication(): Record<string, string>;
  objectContext(session: Session): ObjectContext;
  absoluteUrl(url: string): string;
  currentUrl(): string | undefined;
  /** Goes to a URL the server answered, unchecked. */
  navigate(target: string): void;
  /** Follows a redirect target the app was handed: only a trusted one. */
  redirectTo(target: string): Promise<void>;
  redirectToAfterSignIn(options: { isNewUser?: boolean }): Promise<void>;
  finishSignIn(
    answer: Omit<SignInJson, "user_id">,
    options: { noRedirect?: boolean; isNewUser?: boolean },
  ): Promise<void>;
  invalidateUser(): void;
};

export type SignUpOptions = {
  email: string;
  password: string;
  noRedirect?: boolean;
  noVerificationCallback?: boolean;
  verificationCallbackUrl?: string;
  botChallenge?: BotChallengeAnswer;
};

export function signUpWithCredential(app: AppCore, options: SignUpOptions): Promise<Result<undefined>> {
  return expectingErrors(
    ["USER_EMAIL_ALREADY_EXISTS", "PASSWORD_REQUIREMENTS_NOT_MET", "SIGN_UP_NOT_ENABLED"],
    async () => {
      // The e-mail verification link, where the page has a URL to build it from.
      const callback = options.noVerificationCallback
        ? undefined
        : (options.verificationCallbackUrl ??
          (app.currentUrl() ? app.absoluteUrl(app.urls.emailVerification) : undefined));
      const answer = await app.transport.request<SignInJson>("/auth/password/sign-up", {
        ...jsonBody({
          email: options.email,
          password: options.password,
          verification_callback_url: callback,
          ...botChallengeFields(options.botChallenge),
        }),
        // A signed-in anonymous user is upgraded in place.
        session: app.sessionOf(),
        headers: { "x-stack-allow-anonymous-user": "true" },
      });
      await app.finishSignIn(answer, { noRedirect: options.noRedirect, isNewUser: true });
      return undefined;
    },
  );
}

/**
 * To the onboarding page, carrying the page's `after_auth_return_to` so onboarding goes on where the sign-in would
 * have. [GO] `signedUp`: the user has just signed up, so the page says the verification e-mail went out and goes on to
 * afterSignUp.
 */
export async function redirectToOnboarding(app: AppCore, options: { signedUp?: boolean }): Promise<void> {
  const current = app.currentUrl();
  const target = new URL(app.urls.onboarding, "http://relative.invalid");
  if (options.signedUp) target.searchParams.set(SIGNED_UP_PARAM, "1");
  const url =
    target.origin === "http://relative.invalid" ? `${target.pathname}${target.search}` : target.href;
  const carry = current !== undefined && new URL(current).searchParams.has(RETURN_TO_PARAM);
  await app.redirectTo(carry ? withReturnTo(url, current) : url);
}

export function sendMagicLinkEmail(
  app: AppCore,
  email: string,
  options: { callbackUrl?: string; botChallenge?: BotChallengeAnswer },
): Promise<Result<{ nonce: string }>> {
  return expectingErrors(
    ["REDIRECT_URL_NOT_WHITELISTED", "SIGN_UP_NOT_ENABLED", "USER_EMAIL_ALREADY_EXISTS"],
    () =>
      app.transport.request<{ nonce: string }>(
        "/auth/otp/send-sign-in-code",
        jsonBody({
          email,
          callback_url: options.callbackUrl ?? app.absoluteUrl(app.urls.magicLinkCallback),
          ...botChallengeFields(options.botChallenge),
        }),
      ),
  );
}

/** A sign-in that a code finishes (magic link, second factor): the code's errors and the sign-in's are expected. */
function signInWithCode(
  app: AppCore,
  path: string,
  body: Record<string, string>,
  expected: string[],
  options: { noRedirect?: boolean },
): Promise<Result<undefined>> {
  return expectingErrors(expected, async () => {
    const answer = await app.transport.request<SignInJson>(path, jsonBody(body));
    await app.finishSignIn(answer, options);
    return undefined;
  });
}

export const signInWithMagicLink = (app: AppCore, code: string, options: { noRedirect?: boolean }) =>
  signInWithCode(app, "/auth/otp/sign-in", { code }, [...CODE_ERRORS, ...SIGN_IN_ERRORS], options);

/** Completes a sign-in paused by MULTI_FACTOR_AUTHENTICATION_REQUIRED (its `attempt_code`). */
export const signInWithMfa = (
  app: AppCore,
  totp: string,
  attemptCode: string,
  options: { noRedirect?: boolean },
) =>
  signInWithCode(
    app,
    "/auth/mfa/sign-in",
    { code: attemptCode, type: "totp", totp },
    [...CODE_ERRORS, "INVALID_TOTP_CODE"],
    options,
  );

/** [GO] Completes a paused sign-in with one of the user's single-use recovery codes instead of a TOTP value. */
export const signInWithRecoveryCode = (
  app: AppCore,
  recoveryCode: string,
  attemptCode: string,
  options: { noRedirect?: boolean },
) =>
  signInWithCode(
    app,
    "/auth/mfa/sign-in",
    { code: attemptCode, type: "recovery_code", recovery_code: recoveryCode },
    [...CODE_ERRORS, "INVALID_TOTP_CODE"],
    options,
  );

export function sendForgotPasswordEmail(
  app: AppCore,
  email: string,
  options: { callbackUrl?: string },
): Promise<Result<undefined>> {
  return expectingErrors(["USER_NOT_FOUND"], async () => {
    await app.transport.request(
      "/auth/password/send-reset-code",
      jsonBody({ email, callback_url: options.callbackUrl ?? app.absoluteUrl(app.urls.passwordReset) }),
    );
    return undefined;
  });
}

export function resetPassword(
  app: AppCore,
  options: { code: string; password: string },
): Promise<Result<undefined>> {
  return expectingErrors([...CODE_ERRORS, "PASSWORD_REQUIREMENTS_NOT_MET"], async () => {
    await app.transport.request("/auth/password/reset", jsonBody(options));
    return undefined;
  });
}

/** Checks a code without using it; invitations are checked for the signed-in user (the one who would join). */
export function checkCode(
  app: AppCore,
  kind: "passwordReset" | "email" | "teamInvitation",
  code: string,
): Promise<Result<undefined>> {
  const path = {
    passwordReset: "/auth/password/reset/check-code",
    email: "/contact-channels/verify",
    teamInvitation: "/team-invitations/accept/check-code",
  }[kind];
  const session = kind === "teamInvitation" ? app.requireSession() : undefined;
  return expectingErrors(CODE_ERRORS, async () => {
    await app.transport.request(path, { ...jsonBody({ code }), session });
    return undefined;
  });
}

export function acceptTeamInvitation(app: AppCore, code: string): Promise<Result<undefined>> {
  return expectingErrors(CODE_ERRORS, async () => {
    await app.transport.request("/team-invitations/accept", {
      ...jsonBody({ code }),
      session: app.requireSession(),
    });
    app.invalidateUser();
    return undefined;
  });
}

export function getTeamInvitationDetails(
  app: AppCore,
  code: string,
): Promise<Result<{ teamDisplayName: string }>> {
  return expectingErrors(CODE_ERRORS, async () => {
    const details = await app.transport.request<{ team_display_name: string }>(
      "/team-invitations/accept/details",
      { ...jsonBody({ code }), session: app.requireSession() },
    );
    return { teamDisplayName: details.team_display_name };
  });
}

/** Signs in with a passkey of this site (discoverable: the browser offers the user's passkeys). */
export function signInWithPasskey(
  app: AppCore,
  options: { noRedirect?: boolean },
): Promise<Result<undefined>> {
  return expectingErrors(
    [...SIGN_IN_ERRORS, "PASSKEY_AUTHENTICATION_FAILED", "PASSKEY_WEBAUTHN_ERROR"],
    async () => {
      const { credentials, hostname } = browserWebAuthn();
      const { options_json, code } = await app.transport.request<{
        options_json: Record<string, unknown>;
        code: string;
      }>("/auth/passkey/initiate-passkey-authentication", jsonBody({}));
      const authentication_response = await usePasskey(options_json, hostname, credentials);
      const answer = await app.transport.request<SignInJson>(
        "/auth/passkey/sign-in",
        jsonBody({ authentication_response, code }),
      );
      await app.finishSignIn(answer, { noRedirect: options.noRedirect, isNewUser: false });
      return undefined;
    },
  );
}

/**
 * [GO] Signs in with an impersonation session an administrator opened (the dashboard's Impersonate hands its tokens
 * to the app's impersonation page). Only an impersonation session is taken, as the server lists it to its holder:
 * a link carrying an ordinary session's tokens cannot sign a visitor into someone else's account. False (and
 * nothing changed) for any other session, or one that has ended.
 */
export async function signInWithImpersonation(
  app: AppCore,
  tokens: SessionTokens,
  options: { noRedirect?: boolean },
): Promise<boolean> {
  const probe = createSession({
    store: memoryTokenStore(tokens),
    refresh: (refreshToken) => app.refreshGrant(refreshToken),
  });
  try {
    // An ended session refreshes to nothing: no access token, no session to take.
    if (!(await probe.getAccessToken())) return false;
    if (!(await isImpersonationSession(app.objectContext(probe)))) return false;
  } catch (error) {
    if (knownErrorIs(error, "INVALID_ACCESS_TOKEN") || knownErrorIs(error, "REFRESH_TOKEN_ERROR"))
      return false;
    throw error;
  }
  const accessToken = await probe.getAccessToken();
  const refreshToken = probe.getRefreshToken();
  if (!accessToken || !refreshToken) return false;
  await app.finishSignIn(
    { access_token: accessToken, refresh_token: refreshToken },
    { noRedirect: options.noRedirect, isNewUser: false },
  );
  return true;
}

// ---------------------------------------------------------------- OAuth and SSO

/** Sends the browser to the provider to sign in, or to link an account to the signed-in user (`link`). */
export async function startOAuth(
  app: AppCore,
  provider: string,
  type: "authenticate" | "link",
  returnTo?: string,
  scopes?: string[],
): Promise<void> {
  const document = (globalThis as { document?: { cookie: string } }).document;
  if (!document) throw new StackAssertionError("OAuth sign-in needs a browser.");
  const pkce = await createPkcePair();
  saveVerifier(document, pkce.state, pkce.verifier);
  const session = app.sessionOf();
  const token = type === "link" ? await session?.getAccessToken() : undefined;
  if (type === "link" && !token) throw USER_AUTHENTICATION_REQUIRED();
  const current = app.currentUrl() ?? app.urls.home;
  const path = authorizePath({
    provider,
    projectId: app.projectId,
    publishableClientKey: app.publishableClientKey,
    // The callback page keeps the page's after_auth_return_to, so the user ends up where sign-in was asked for.
    redirectUri: constructRedirectUrl(app.urls.oauthCallback, current),
    errorRedirectUrl: constructRedirectUrl(app.urls.error, current),
    afterCallbackRedirectUrl: returnTo && app.absoluteUrl(returnTo),
    state: pkce.state,
    codeChallenge: pkce.challenge,
    type,
    token,
    providerScope: scopes?.join(" "),
  });
  const { location } = await app.transport.request<{ location: string }>(path);
  app.navigate(location);
}

/**
 * [GO] Where to send the browser for an SSO sign-in: the identity provider of the connection of the e-mail's
 * verified domain (or of `connectionId`). The sign-in comes back to the oauthCallback page and finishes like an
 * OAuth one (`callOAuthCallback`). Needs a browser: the PKCE verifier waits in a cookie, as for OAuth.
 */
export async function getSsoSignInUrl(
  app: AppCore,
  options: { email?: string; connectionId?: string; returnTo?: string },
): Promise<string> {
  const document = (globalThis as { document?: { cookie: string } }).document;
  if (!document) throw new StackAssertionError("SSO sign-in needs a browser.");
  const pkce = await createPkcePair();
  saveVerifier(document, pkce.state, pkce.verifier);
  const current = app.currentUrl() ?? app.urls.home;
  const { location } = await app.transport.request<{ location: string }>(
    "/auth/sso/authorize",
    jsonBody({
      ...(options.email ? { email: options.email } : {}),
      ...(options.connectionId ? { connection_id: options.connectionId } : {}),
      redirect_uri: constructRedirectUrl(app.urls.oauthCallback, current),
      error_redirect_uri: constructRedirectUrl(app.urls.error, current),
      ...(options.returnTo ? { after_callback_redirect_url: app.absoluteUrl(options.returnTo) } : {}),
      state: pkce.state,
      code_challenge: pkce.challenge,
    }),
  );
  return location;
}

/**
 * On the oauthCallback page: exchanges the code for the session and goes on (the callback's return target, else
 * afterSignUp for a new user, else afterSignIn). False when the page was not reached from a flow of this browser.
 */
export async function callOAuthCallback(app: AppCore): Promise<boolean> {
  const document = (globalThis as { document?: { cookie: string } }).document;
  const href = app.currentUrl();
  if (!document || !href) return false;
  const callback = readOAuthCallback(href, document);
  if (!callback) return false;
  const answer = await app.transport.request<SignInJson & { after_callback_redirect_url?: string | null }>(
    "/auth/oauth/token",
    {
      method: "POST",
      form: {
        grant_type: "authorization_code",
        ...app.clientAuthentication(),
        code: callback.code,
        redirect_uri: callback.redirectUri,
        code_verifier: callback.verifier,
      },
    },
  );
  const session = app.requireSession();
  session.signIn({ accessToken: answer.access_token, refreshToken: answer.refresh_token });
  const target = answer.after_callback_redirect_url;
  if (target) await app.redirectTo(target);
  else await app.redirectToAfterSignIn({ isNewUser: answer.is_new_user });
  return true;
}
