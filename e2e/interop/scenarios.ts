// The interop scenarios: what an app does with Stack Auth's SDK, written once against the SDK's public API (the
// module's StackClientApp, StackServerApp and StackAdminApp) and run with every SDK of sdk-interop.test.ts against
// one real Gatehouse server. Each scenario drives one flow end to end through the SDK and checks the result through
// the SDK, the development inbox or the exchange log, so a failure names the call that went wrong.
import type { RunningServer } from "@gatehouse/server/testing/server-process";
import type { AdminProject, StackAdminApp, StackClientApp, StackServerApp } from "@stackframe/js";
import { expect } from "vitest";
import type { ExchangeLog } from "./exchange-log.ts";

/** What an SDK package exports for apps; the scenarios are typed against Stack's published API. */
export type SdkModule = {
  StackClientApp: typeof StackClientApp;
  StackServerApp: typeof StackServerApp;
  StackAdminApp: typeof StackAdminApp;
};

export type Sdk = {
  name: string;
  /** A short name for unique e-mails and ids. */
  tag: string;
  module: SdkModule;
  /** The spelling of the request headers this SDK sends (WIRE.md §1.2). */
  headerPrefix: "x-stack" | "x-hexclave";
  /** Constructor options added to every app (our SDK takes the recording `fetch` here). */
  options: { fetch?: typeof fetch };
  /** Stack's SDKs edit e-mail templates through `/internal/email-templates` (TSX), ours through §4.15's API. */
  emailTemplates: "wire" | "internal-tsx";
};

export type Context = ReturnType<typeof createContext>;
export type Scenario = { name: string; run: (ctx: Context) => Promise<void> };

export const PASSWORD = "correct horse battery";
let counter = 0;

/** The apps, unique names and inbox access a scenario needs, for one SDK and the running server. */
export function createContext(sdk: Sdk, server: RunningServer, log: ExchangeLog, realFetch: typeof fetch) {
  // Node has no window: no redirects, and no prefetch of data a scenario does not look at.
  const common = () => ({
    baseUrl: server.baseUrl,
    projectId: "internal",
    publishableClientKey: server.keys.pck,
    redirectMethod: "none" as const,
    noAutomaticPrefetch: true,
    ...sdk.options,
  });
  const clientApp = (keys: { publishableClientKey?: string } = {}) =>
    new sdk.module.StackClientApp({ ...common(), ...keys, tokenStore: "memory" });
  const serverApp = (keys: { publishableClientKey?: string; secretServerKey?: string } = {}) =>
    new sdk.module.StackServerApp({
      ...common(),
      secretServerKey: server.keys.ssk,
      ...keys,
      tokenStore: "memory",
    });
  const adminApp = () =>
    new sdk.module.StackAdminApp({
      ...common(),
      secretServerKey: server.keys.ssk,
      superSecretAdminKey: server.keys.sak,
      tokenStore: "memory",
    });

  const uniqueName = (what: string) => `${what}-${sdk.tag}-${Date.now()}-${++counter}`;
  const uniqueEmail = () => `${uniqueName("sdk")}@example.com`;

  /** The newest e-mail to `to` in the development inbox, read with the admin key as an operator would. */
  async function latestEmail(to: string): Promise<{ subject: string; text: string }> {
    const res = await realFetch(`${server.baseUrl}/api/v1/internal/emails?to=${encodeURIComponent(to)}`, {
      headers: {
        "x-stack-access-type": "admin",
        "x-stack-project-id": "internal",
        "x-stack-super-secret-admin-key": server.keys.sak,
      },
    });
    const { items } = (await res.json()) as { items: { subject: string; text: string }[] };
    const [email] = items;
    if (!email) throw new Error(`No e-mail to ${to} in the development inbox`);
    return email;
  }

  /** A refresh-token grant made directly at the token endpoint, as a third party would (WIRE.md §3.5). */
  const refreshDirectly = (refreshToken: string) =>
    realFetch(`${server.baseUrl}/api/v1/auth/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        client_id: "internal",
        client_secret: server.keys.pck,
        refresh_token: refreshToken,
      }),
    });

  return {
    sdk,
    server,
    log,
    clientApp,
    serverApp,
    adminApp,
    uniqueName,
    uniqueEmail,
    latestEmail,
    refreshDirectly,
  };
}

export type ClientApp = ReturnType<Context["clientApp"]>;

/** Password sign-up as an app without a browser does it (no redirect, no verification callback). */
export const signUp = (app: ClientApp, email: string, password = PASSWORD) =>
  app.signUpWithCredential({ email, password, noRedirect: true, noVerificationCallback: true });

export const signIn = (app: ClientApp, email: string, password = PASSWORD) =>
  app.signInWithCredential({ email, password, noRedirect: true });

/** A signed-up user's app and user (the scenario's main actor). */
export async function signedUpUser(ctx: Context, email = ctx.uniqueEmail()) {
  const app = ctx.clientApp();
  const log = ctx.log.mark();
  const result = await signUp(app, email);
  expect(result.status, log.failures()).toBe("ok");
  const user = await app.getUser({ or: "throw" });
  return { app, user, email };
}

type Tokens = { accessToken: string | null; refreshToken: string | null };

/** The tokens of a signed-in user, for a fresh app that reads through them (no cache shared with `user`). */
export async function tokensOf(user: { currentSession: { getTokens(): Promise<Tokens> } }) {
  const { accessToken, refreshToken } = await user.currentSession.getTokens();
  if (!accessToken || !refreshToken) throw new Error("The signed-in user has no tokens");
  return { accessToken, refreshToken };
}

/** The code of a failed SDK result; Stack's known errors carry it as `errorCode`, ours as `code`. */
export function errorCodeOf(
  result: { status: "ok" } | { status: "error"; error: unknown },
): string | undefined {
  if (result.status !== "error") return undefined;
  const error = result.error as { errorCode?: string; code?: string };
  return error.errorCode ?? error.code;
}

/** The known-error code of a thrown error, else its message. */
export function describeThrown(error: unknown): string {
  const e = error as { errorCode?: string; code?: string; message?: string };
  return e.errorCode ?? e.code ?? String(e.message);
}

/** What a call answered, or `{ thrown }` naming what it threw (so a soft assertion can report it and go on). */
export async function settled<T>(action: () => Promise<T>): Promise<T | { thrown: string }> {
  try {
    return await action();
  } catch (error) {
    return { thrown: describeThrown(error) };
  }
}

/** What a call threw: the known-error code, else the message. */
export async function thrown(action: () => Promise<unknown>): Promise<string> {
  try {
    await action();
  } catch (error) {
    return describeThrown(error);
  }
  throw new Error("The call did not fail");
}

export const codeInLink = (text: string) => /[?&]code=([0-9a-z]{45})/.exec(text)?.[1] ?? "";

/** The JWT with some claims changed; its signature no longer matches (the SDK reads claims without checking it). */
export function withClaims(jwt: string, change: Record<string, unknown>): string {
  const [header, payload, signature] = jwt.split(".");
  const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString()) as Record<string, unknown>;
  const changed = Buffer.from(JSON.stringify({ ...claims, ...change })).toString("base64url");
  return [header, changed, signature].join(".");
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

// ------------------------------------------------------------------------------------------------ scenarios

export const scenarios: Scenario[] = [
  {
    name: "password: signs up, reads the new user, and speaks the SDK's own header spelling",
    async run(ctx) {
      const app = ctx.clientApp();
      const email = ctx.uniqueEmail();
      const log = ctx.log.mark();
      expect((await signUp(app, email)).status, log.failures()).toBe("ok");

      const user = await app.getUser();
      expect(user, log.failures()).not.toBeNull();
      expect(user?.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(user?.primaryEmail).toBe(email);
      expect(user?.primaryEmailVerified).toBe(false);
      expect(user?.hasPassword).toBe(true);
      expect(user?.isAnonymous).toBe(false);
      expect(user?.signedUpAt).toBeInstanceOf(Date);
      expect(log.calls()).toContain("POST /api/v1/auth/password/sign-up 200");

      // 2.8.108 speaks x-hexclave-*, 2.8.102 and ours x-stack-* (WIRE.md §1.2); never both.
      const signUpCall = log.since().find((e) => e.path === "/api/v1/auth/password/sign-up");
      const p = ctx.sdk.headerPrefix;
      expect(signUpCall?.requestHeaders).toMatchObject({
        [`${p}-access-type`]: "client",
        [`${p}-project-id`]: "internal",
        [`${p}-publishable-client-key`]: ctx.server.keys.pck,
        [`${p}-override-error-status`]: "true",
      });
      const other = p === "x-stack" ? "x-hexclave-" : "x-stack-";
      expect(Object.keys(signUpCall?.requestHeaders ?? {}).filter((h) => h.startsWith(other))).toEqual([]);
      const me = log.since().find((e) => e.path.startsWith("/api/v1/users/me"));
      expect(me?.requestHeaders[`${p}-access-token`]).toMatch(/^ey/);
    },
  },
  {
    name: "password: a taken e-mail and a short password come back as the SDK's known errors",
    async run(ctx) {
      const email = ctx.uniqueEmail();
      expect((await signUp(ctx.clientApp(), email)).status).toBe("ok");
      expect(errorCodeOf(await signUp(ctx.clientApp(), email.toUpperCase()))).toBe(
        "USER_EMAIL_ALREADY_EXISTS",
      );
      expect(errorCodeOf(await signUp(ctx.clientApp(), ctx.uniqueEmail(), "short"))).toBe(
        "PASSWORD_TOO_SHORT",
      );
    },
  },
  {
    name: "password: signs out (ending the session at the server) and in again; a wrong password is EMAIL_PASSWORD_MISMATCH",
    async run(ctx) {
      const { app, user, email } = await signedUpUser(ctx);
      const { refreshToken } = await tokensOf(user);
      const log = ctx.log.mark();
      await user.signOut();
      expect(log.calls(), log.failures()).toContain("DELETE /api/v1/auth/sessions/current 200");
      expect(await app.getUser()).toBeNull();
      // The session is over at the server, not only forgotten by the SDK.
      const refresh = await ctx.refreshDirectly(refreshToken);
      expect(refresh.headers.get("x-stack-known-error")).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");

      expect((await signIn(app, email)).status, log.failures()).toBe("ok");
      const again = await app.getUser();
      expect(again?.id).toBe(user.id);
      expect(again?.primaryEmail).toBe(email);

      const other = ctx.clientApp();
      expect(errorCodeOf(await signIn(other, email, "wrong password"))).toBe("EMAIL_PASSWORD_MISMATCH");
      expect(errorCodeOf(await signIn(other, ctx.uniqueEmail()))).toBe("EMAIL_PASSWORD_MISMATCH");
      expect(await other.getUser()).toBeNull();
    },
  },
  {
    name: "errors: a Result error is a known error with Stack's fields (errorCode, statusCode, humanReadableMessage)",
    async run(ctx) {
      const { email } = await signedUpUser(ctx);
      const result = await signIn(ctx.clientApp(), email, "wrong password");
      expect(result.status).toBe("error");
      const error = (result.status === "error" ? result.error : {}) as Record<string, unknown>;
      expect(error).toBeInstanceOf(Error);
      // What apps written for Stack's SDK read (`if (result.error.errorCode === "EMAIL_PASSWORD_MISMATCH")`).
      expect(
        { errorCode: error.errorCode, statusCode: error.statusCode, message: error.humanReadableMessage },
        "known errors carry Stack's errorCode / statusCode / humanReadableMessage",
      ).toEqual({
        errorCode: "EMAIL_PASSWORD_MISMATCH",
        statusCode: 400,
        message: "Wrong e-mail or password.",
      });
    },
  },
  {
    name: "password: updates the password, which ends the other sessions; a wrong old password is returned",
    async run(ctx) {
      const { user, email } = await signedUpUser(ctx);
      const second = ctx.clientApp();
      expect((await signIn(second, email)).status).toBe("ok");
      const secondTokens = await tokensOf(await second.getUser({ or: "throw" }));
      const log = ctx.log.mark();
      // Stack's SDK returns the expected error (it does not throw it, and it is no Result) and nothing on success.
      const wrong = await user.updatePassword({
        oldPassword: "not the password",
        newPassword: "a new password 1",
      });
      expect
        .soft(wrong, "updatePassword returns the known error itself")
        .toMatchObject({ errorCode: "PASSWORD_CONFIRMATION_MISMATCH" });
      const done = await user.updatePassword({ oldPassword: PASSWORD, newPassword: "a new password 1" });
      expect.soft(done, "updatePassword returns nothing on success").toBeUndefined();
      expect(log.calls(), log.failures()).toContain("POST /api/v1/auth/password/update 200");

      // The session that changed it lives on; every other session of the user ends (WIRE.md §4.1).
      expect((await ctx.clientApp().getUser({ tokenStore: await tokensOf(user) }))?.id).toBe(user.id);
      expect(await ctx.clientApp().getUser({ tokenStore: secondTokens })).toBeNull();
      expect(errorCodeOf(await signIn(ctx.clientApp(), email))).toBe("EMAIL_PASSWORD_MISMATCH");
      expect((await signIn(ctx.clientApp(), email, "a new password 1")).status, log.failures()).toBe("ok");
    },
  },
  {
    name: "password: resets a forgotten password with the code from the development inbox",
    async run(ctx) {
      const { app, email } = await signedUpUser(ctx);
      const log = ctx.log.mark();
      const sent = await app.sendForgotPasswordEmail(email, {
        callbackUrl: `${ctx.server.baseUrl}/handler/password-reset`,
      });
      expect(sent.status, log.failures()).toBe("ok");
      const code = codeInLink((await ctx.latestEmail(email)).text);
      expect(code).toHaveLength(45);
      expect((await app.verifyPasswordResetCode(code)).status, log.failures()).toBe("ok");
      expect(
        (await app.resetPassword({ code, password: "a brand new password" })).status,
        log.failures(),
      ).toBe("ok");
      const fresh = ctx.clientApp();
      expect(errorCodeOf(await signIn(fresh, email))).toBe("EMAIL_PASSWORD_MISMATCH");
      expect((await signIn(fresh, email, "a brand new password")).status, log.failures()).toBe("ok");
      // A used code does not work twice.
      expect(errorCodeOf(await app.resetPassword({ code, password: "yet another password" }))).toBe(
        "VERIFICATION_CODE_ALREADY_USED",
      );
    },
  },
  {
    name: "magic link: sends the e-mail and signs in with the code typed from it",
    async run(ctx) {
      const app = ctx.clientApp();
      const email = ctx.uniqueEmail();
      const log = ctx.log.mark();
      const sent = await app.sendMagicLinkEmail(email, {
        callbackUrl: `${ctx.server.baseUrl}/handler/magic-link-callback`,
      });
      expect(sent.status, log.failures()).toBe("ok");
      const nonce = sent.status === "ok" ? sent.data.nonce : "";
      expect(nonce).toHaveLength(39);
      const mail = await ctx.latestEmail(email);
      const otp = /Your code is ([0-9A-Z]{6})/.exec(mail.subject)?.[1] ?? "";
      expect(otp).toHaveLength(6);
      // The link carries the whole code; typing the six characters plus the nonce is the same code.
      expect(codeInLink(mail.text)).toBe(otp.toLowerCase() + nonce);

      const signedIn = await app.signInWithMagicLink(otp.toLowerCase() + nonce, { noRedirect: true });
      expect(signedIn.status, log.failures()).toBe("ok");
      const user = await app.getUser();
      expect(user?.primaryEmail).toBe(email);
      expect(user?.primaryEmailVerified).toBe(true);
      expect(user?.otpAuthEnabled).toBe(true);
      // A second sign-in with the same code fails as the SDK expects.
      const again = await ctx
        .clientApp()
        .signInWithMagicLink(otp.toLowerCase() + nonce, { noRedirect: true });
      expect(errorCodeOf(again)).toBe("VERIFICATION_CODE_ALREADY_USED");
    },
  },
  {
    name: "refresh: an access token past its expiry is refreshed before the call, transparently",
    async run(ctx) {
      const { user, email } = await signedUpUser(ctx);
      const { accessToken, refreshToken } = await tokensOf(user);
      // The stored access token expired a minute ago (the SDK reads `exp` without checking the signature).
      const expired = withClaims(accessToken, { exp: nowSeconds() - 60 });
      const log = ctx.log.mark();
      const app = ctx.clientApp();
      const again = await app.getUser({ tokenStore: { accessToken: expired, refreshToken } });
      expect(again?.primaryEmail, log.failures()).toBe(email);
      expect(log.calls()).toContain("POST /api/v1/auth/oauth/token 200");
      const tokenHeader = `${ctx.sdk.headerPrefix}-access-token`;
      expect(log.since().filter((e) => e.requestHeaders[tokenHeader] === expired)).toEqual([]);
      const refreshed = await tokensOf(again!);
      expect(refreshed.accessToken).not.toBe(expired);
      expect(refreshed.refreshToken).toBe(refreshToken);
    },
  },
  {
    name: "refresh: an access token the server calls invalid is refreshed and the call retried",
    async run(ctx) {
      const { user, email } = await signedUpUser(ctx);
      const { accessToken, refreshToken } = await tokensOf(user);
      // An hour to go by its claims, but its signature no longer matches: UNPARSABLE_ACCESS_TOKEN.
      const forged = withClaims(accessToken, { exp: nowSeconds() + 3600 });
      const log = ctx.log.mark();
      const again = await ctx.clientApp().getUser({ tokenStore: { accessToken: forged, refreshToken } });
      expect(again?.primaryEmail, log.failures()).toBe(email);
      expect(log.calls()).toEqual([
        "GET /api/v1/users/me 401",
        "POST /api/v1/auth/oauth/token 200",
        "GET /api/v1/users/me 200",
      ]);
      expect(log.since()[0]?.body).toContain("UNPARSABLE_ACCESS_TOKEN");
    },
  },
  {
    name: "refresh: a client holding only a refresh token refreshes through the token endpoint",
    async run(ctx) {
      const { user, email } = await signedUpUser(ctx);
      const { refreshToken } = await tokensOf(user);
      const log = ctx.log.mark();
      const again = await ctx.clientApp().getUser({ tokenStore: { accessToken: "", refreshToken } });
      expect(again?.primaryEmail, log.failures()).toBe(email);
      expect(log.calls()).toContain("POST /api/v1/auth/oauth/token 200");
    },
  },
  {
    name: "sessions: lists them with the current one marked, revokes another, whose holder is then signed out",
    async run(ctx) {
      const { user, email } = await signedUpUser(ctx);
      const second = ctx.clientApp();
      expect((await signIn(second, email)).status).toBe("ok");
      const secondTokens = await tokensOf(await second.getUser({ or: "throw" }));

      const log = ctx.log.mark();
      const sessions = await user.getActiveSessions();
      expect(sessions, log.failures()).toHaveLength(2);
      const current = sessions.filter((s) => s.isCurrentSession);
      expect(current).toHaveLength(1);
      expect(sessions.every((s) => s.userId === user.id && s.createdAt instanceof Date)).toBe(true);
      const other = sessions.find((s) => !s.isCurrentSession);
      await user.revokeSession(other?.id ?? "");
      expect(
        (await user.getActiveSessions()).map((s) => s.id),
        log.failures(),
      ).toEqual([current[0]?.id]);

      // The revoked session's tokens no longer sign anyone in: the access token is refused, the refresh fails, and
      // the SDK reads that as signed out.
      const revokedLog = ctx.log.mark();
      expect(await ctx.clientApp().getUser({ tokenStore: secondTokens })).toBeNull();
      expect(revokedLog.calls()).toContain("POST /api/v1/auth/oauth/token 401");
    },
  },
  {
    name: "current user: updates the display name and client metadata, seen by a fresh read and the server",
    async run(ctx) {
      const { user } = await signedUpUser(ctx);
      const log = ctx.log.mark();
      await user.update({ displayName: "Ada Lovelace", clientMetadata: { theme: "dark", n: 1 } });
      expect(log.calls(), log.failures()).toContain("PATCH /api/v1/users/me 200");
      const fresh = await ctx.clientApp().getUser({ tokenStore: await tokensOf(user) });
      expect(fresh?.displayName).toBe("Ada Lovelace");
      expect(fresh?.clientMetadata).toEqual({ theme: "dark", n: 1 });

      await user.setDisplayName("Grace Hopper");
      await user.setClientMetadata({ theme: "light" });
      const onServer = await ctx.serverApp().getUser(user.id);
      expect(onServer?.displayName, log.failures()).toBe("Grace Hopper");
      expect(onServer?.clientMetadata).toEqual({ theme: "light" });
    },
  },
  {
    name: "current user: the server app reads the signed-in user in the server view",
    async run(ctx) {
      const { user, email } = await signedUpUser(ctx);
      const log = ctx.log.mark();
      const onServer = await ctx.serverApp().getUser({ tokenStore: await tokensOf(user) });
      expect(onServer, log.failures()).not.toBeNull();
      expect(onServer?.id).toBe(user.id);
      expect(onServer?.primaryEmail).toBe(email);
      const me = log.since().find((e) => e.path.startsWith("/api/v1/users/me"));
      expect(me?.requestHeaders[`${ctx.sdk.headerPrefix}-access-type`]).toBe("server");
      expect(me?.status).toBe(200);
      // The server view: server metadata and the calls only servers may make (a CurrentServerUser).
      expect
        .soft(onServer?.serverMetadata, "the server app's current user carries serverMetadata")
        .toBeNull();
      expect
        .soft(typeof onServer?.setServerMetadata, "the server app's current user is a server user")
        .toBe("function");
    },
  },
  {
    name: "current user: a back end reads the user of a request from x-stack-auth, Authorization or cookies",
    async run(ctx) {
      const { user, email } = await signedUpUser(ctx);
      const tokens = await tokensOf(user);
      const authJson = JSON.stringify(tokens);
      // The cookies of WIRE.md §3.6, as the browser SDK writes them.
      const refreshCookie = JSON.stringify({
        refresh_token: tokens.refreshToken,
        updated_at_millis: Date.now(),
      });
      const accessCookie = JSON.stringify([tokens.refreshToken, tokens.accessToken]);
      const requests = {
        "the x-stack-auth header": { "x-stack-auth": authJson },
        "an Authorization: Bearer stackauth_… header": {
          authorization: `Bearer stackauth_${Buffer.from(authJson).toString("base64")}`,
        },
        cookies: {
          cookie: `stack-refresh-internal--default=${encodeURIComponent(refreshCookie)}; stack-access=${encodeURIComponent(accessCookie)}`,
        },
      };
      for (const [carrier, headers] of Object.entries(requests)) {
        const log = ctx.log.mark();
        const read = await settled(() => ctx.serverApp().getUser({ tokenStore: { headers } }));
        expect
          .soft(read && "primaryEmail" in read ? read.primaryEmail : read, `${carrier} (${log.failures()})`)
          .toBe(email);
      }
    },
  },
  {
    name: "current user: the app and the user offer Stack's token calls (getAccessToken, getAuthJson, signOut)",
    async run(ctx) {
      const { app, user } = await signedUpUser(ctx);
      const tokens = await tokensOf(user);
      const appCalls = app as unknown as Record<string, unknown>;
      const userCalls = user as unknown as Record<string, unknown>;
      const names = ["getAccessToken", "getRefreshToken", "getAuthJson", "getAuthHeaders", "signOut"];
      const appLacks = names.filter((n) => typeof appCalls[n] !== "function");
      const userLacks = names.filter((n) => typeof userCalls[n] !== "function");
      expect.soft(appLacks, "the app lacks Stack's AuthLike calls").toEqual([]);
      expect.soft(userLacks, "the user lacks Stack's AuthLike calls").toEqual([]);
      if (appLacks.length > 0 || userLacks.length > 0) return;
      expect(await user.getAccessToken()).toMatch(/^ey/);
      expect(await user.getAuthHeaders()).toEqual({
        "x-stack-auth": JSON.stringify(await user.getAuthJson()),
      });
      expect(await app.getRefreshToken()).toBe(tokens.refreshToken);
      expect(await app.getAuthJson()).toEqual({
        accessToken: await app.getAccessToken(),
        refreshToken: tokens.refreshToken,
      });
      await app.signOut();
      expect(await app.getUser()).toBeNull();
      expect(await app.getAccessToken()).toBeNull();
    },
  },
  {
    name: "anonymous: signs up anonymously and upgrades the same user with a password",
    async run(ctx) {
      const app = ctx.clientApp();
      const log = ctx.log.mark();
      const anonymous = await app.getUser({ or: "anonymous" });
      expect(anonymous.isAnonymous, log.failures()).toBe(true);
      expect(anonymous.primaryEmail).toBeNull();
      expect(log.calls()).toContain("POST /api/v1/auth/anonymous/sign-up 200");
      // The default getUser hides anonymous users.
      expect
        .soft(await app.getUser(), "getUser() without `or: 'anonymous'` hides anonymous users")
        .toBeNull();

      const email = ctx.uniqueEmail();
      expect((await signUp(app, email)).status, log.failures()).toBe("ok");
      const user = await app.getUser();
      expect(user?.id).toBe(anonymous.id);
      expect(user?.isAnonymous).toBe(false);
      expect(user?.primaryEmail).toBe(email);
    },
  },
  {
    name: "contact channels: lists the primary e-mail, creates a second address and deletes it",
    async run(ctx) {
      const { user, email } = await signedUpUser(ctx);
      const log = ctx.log.mark();
      const channels = await user.listContactChannels();
      expect(
        channels.map((c) => ({ value: c.value, type: c.type, primary: c.isPrimary, auth: c.usedForAuth })),
        log.failures(),
      ).toEqual([{ value: email, type: "email", primary: true, auth: true }]);
      expect(channels[0]?.isVerified).toBe(false);

      const second = ctx.uniqueEmail();
      const created = await user.createContactChannel({ value: second, type: "email", usedForAuth: false });
      expect(created.value, log.failures()).toBe(second);
      expect(created.isPrimary).toBe(false);
      expect(created.isVerified).toBe(false);
      expect((await user.listContactChannels()).map((c) => c.value).sort()).toEqual([email, second].sort());

      await created.delete();
      expect(
        (await user.listContactChannels()).map((c) => c.value),
        log.failures(),
      ).toEqual([email]);
      const onServer = await ctx.serverApp().getUser(user.id);
      expect((await onServer?.listContactChannels())?.map((c) => c.value)).toEqual([email]);
    },
  },
  {
    name: "teams: creates and selects a team, invites an address by e-mail, the invitee accepts by code and leaves",
    async run(ctx) {
      const { user: owner } = await signedUpUser(ctx);
      const log = ctx.log.mark();
      const name = ctx.uniqueName("team");
      const team = await owner.createTeam({ displayName: name });
      expect(team.displayName, log.failures()).toBe(name);
      expect((await owner.listTeams()).map((t) => t.id)).toContain(team.id);
      // Stack's SDK selects the team it created (WIRE.md §4.10).
      const reread = await ctx.clientApp().getUser({ tokenStore: await tokensOf(owner) });
      expect.soft(reread?.selectedTeam?.id, "the new team is selected").toBe(team.id);

      // In the internal project team_admin does not hold $invite_members (WIRE.md §8): the back end grants it.
      await (await ctx.serverApp().getUser(owner.id))?.grantPermission(team, "$invite_members");
      const inviteeEmail = ctx.uniqueEmail();
      await team.inviteUser({
        email: inviteeEmail,
        callbackUrl: `${ctx.server.baseUrl}/handler/team-invitation`,
      });
      expect(
        (await team.listInvitations()).map((i) => i.recipientEmail),
        log.failures(),
      ).toEqual([inviteeEmail]);
      const code = codeInLink((await ctx.latestEmail(inviteeEmail)).text);
      expect(code).toHaveLength(45);

      const { app: inviteeApp, user: invitee } = await signedUpUser(ctx, inviteeEmail);
      const checked = await settled(() => inviteeApp.verifyTeamInvitationCode(code));
      expect
        .soft(checked, "verifyTeamInvitationCode sends the user's session (check-code requires a user)")
        .toMatchObject({ status: "ok" });
      const details = await inviteeApp.getTeamInvitationDetails(code);
      expect(details.status === "ok" ? details.data.teamDisplayName : details, log.failures()).toBe(name);
      expect((await inviteeApp.acceptTeamInvitation(code)).status, log.failures()).toBe("ok");
      const joined = await invitee.getTeam(team.id);
      expect(joined?.displayName, log.failures()).toBe(name);
      // The owner sees both members, by user id (Stack's TeamUser).
      const members = await team.listUsers();
      expect
        .soft(members.map((m) => m.id).sort(), "Team.listUsers() items carry the user id as `id`")
        .toEqual([owner.id, invitee.id].sort());
      expect(errorCodeOf(await inviteeApp.acceptTeamInvitation(code))).toBe("VERIFICATION_CODE_ALREADY_USED");

      await invitee.leaveTeam(joined!);
      const inviteeOnServer = await ctx.serverApp().getUser(invitee.id);
      expect(
        (await inviteeOnServer?.listTeams())?.map((t) => t.id),
        log.failures(),
      ).not.toContain(team.id);
      // The owner stays.
      const ownerTeams = await (await ctx.serverApp().getUser(owner.id))?.listTeams();
      expect(ownerTeams?.map((t) => t.id)).toContain(team.id);
    },
  },
  {
    name: "permissions: the server grants team_admin and the member's client sees it with hasPermission",
    async run(ctx) {
      const { user: admin, email: adminEmail } = await signedUpUser(ctx);
      const { user: member, email: memberEmail } = await signedUpUser(ctx);
      const server = ctx.serverApp();
      const log = ctx.log.mark();
      const team = await server.createTeam({ displayName: ctx.uniqueName("perm-team") });
      await team.addUser(admin.id);
      await team.addUser(member.id);
      const adminOnServer = await server.getUser(admin.id);
      await adminOnServer?.grantPermission(team, "team_admin");
      expect(await adminOnServer?.hasPermission(team, "team_admin"), log.failures()).toBe(true);

      // Fresh sign-ins, so nothing the client read before the grant is reused.
      const adminApp = ctx.clientApp();
      expect((await signIn(adminApp, adminEmail)).status).toBe("ok");
      const adminClient = await adminApp.getUser({ or: "throw" });
      const adminTeam = await adminClient.getTeam(team.id);
      expect(adminTeam, log.failures()).not.toBeNull();
      expect(await adminClient.hasPermission(adminTeam!, "team_admin"), log.failures()).toBe(true);
      // The internal project's team_admin = {$read_members, $remove_members, $update_team} (WIRE.md §8).
      expect(await adminClient.hasPermission(adminTeam!, "$update_team")).toBe(true);
      expect(await adminClient.hasPermission(adminTeam!, "$delete_team")).toBe(false);
      expect((await adminClient.listPermissions(adminTeam!)).map((p) => p.id).sort()).toEqual(
        ["$read_members", "$remove_members", "$update_team", "team_admin", "team_member"].sort(),
      );
      await adminTeam!.update({ displayName: "Renamed by its admin" });

      const memberApp = ctx.clientApp();
      expect((await signIn(memberApp, memberEmail)).status).toBe("ok");
      const memberClient = await memberApp.getUser({ or: "throw" });
      const memberTeam = await memberClient.getTeam(team.id);
      expect(memberTeam?.displayName, log.failures()).toBe("Renamed by its admin");
      expect(await memberClient.hasPermission(memberTeam!, "team_admin")).toBe(false);
      expect(await memberClient.hasPermission(memberTeam!, "$read_members")).toBe(true);
      expect(await memberClient.hasPermission(memberTeam!, "$update_team"), log.failures()).toBe(false);
    },
  },
  {
    name: "server app: creates users, pages through them with a cursor, reads, updates and deletes one",
    async run(ctx) {
      const app = ctx.serverApp();
      const log = ctx.log.mark();
      const tag = ctx.uniqueName("pager");
      const created = [];
      for (let i = 0; i < 5; i++) {
        created.push(
          await app.createUser({
            primaryEmail: `${tag}-${i}@example.com`,
            primaryEmailAuthEnabled: true,
            password: PASSWORD,
            displayName: `Pager ${i}`,
          }),
        );
      }
      expect(created[0]?.primaryEmail, log.failures()).toBe(`${tag}-0@example.com`);
      // Page through the search results two at a time, as a dashboard would.
      const pages: string[][] = [];
      let cursor: string | undefined;
      do {
        const page = await app.listUsers({
          query: tag.toUpperCase(),
          limit: 2,
          ...(cursor ? { cursor } : {}),
        });
        pages.push(page.map((u) => u.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor && pages.length < 10);
      expect(
        pages.map((p) => p.length),
        log.failures(),
      ).toEqual([2, 2, 1]);
      expect(pages.flat()).toEqual(created.map((u) => u.id));

      const [first, second] = created;
      const read = await ctx.serverApp().getUser(first!.id);
      expect(read?.displayName, log.failures()).toBe("Pager 0");
      expect(read?.serverMetadata).toBeNull();
      await read!.update({
        displayName: "Pager renamed",
        serverMetadata: { plan: "pro" },
        clientReadOnlyMetadata: { tier: 2 },
      });
      const updated = await ctx.serverApp().getUser(first!.id);
      expect(
        {
          name: updated?.displayName,
          server: updated?.serverMetadata,
          readOnly: updated?.clientReadOnlyMetadata,
        },
        log.failures(),
      ).toEqual({ name: "Pager renamed", server: { plan: "pro" }, readOnly: { tier: 2 } });

      // A created user signs in with the password it was given.
      expect((await signIn(ctx.clientApp(), `${tag}-1@example.com`)).status, log.failures()).toBe("ok");

      await second!.delete();
      expect(await ctx.serverApp().getUser(second!.id), log.failures()).toBeNull();
      expect((await ctx.serverApp().listUsers({ query: tag })).map((u) => u.id)).toEqual(
        created.filter((u) => u.id !== second!.id).map((u) => u.id),
      );
    },
  },
  {
    name: "server app: creates a team, adds members, grants a permission and creates a session for a user",
    async run(ctx) {
      const app = ctx.serverApp();
      const log = ctx.log.mark();
      const tag = ctx.uniqueName("srv");
      const alice = await app.createUser({ primaryEmail: `${tag}-a@example.com`, displayName: "Alice" });
      const bob = await app.createUser({ primaryEmail: `${tag}-b@example.com`, displayName: "Bob" });
      const team = await app.createTeam({ displayName: `${tag} team` });
      expect(team.displayName, log.failures()).toBe(`${tag} team`);
      await team.addUser(alice.id);
      await team.addUser(bob.id);
      const members = await (await ctx.serverApp().getTeam(team.id))?.listUsers();
      expect
        .soft(members?.map((m) => m.id).sort(), "ServerTeam.listUsers() items are users with `id`")
        .toEqual([alice.id, bob.id].sort());

      await alice.grantPermission(team, "team_admin");
      expect(await alice.hasPermission(team, "$remove_members"), log.failures()).toBe(true);
      expect(await bob.hasPermission(team, "$remove_members")).toBe(false);
      await bob.grantPermission(team, "$update_team");
      expect(await bob.hasPermission(team, "$update_team")).toBe(true);
      await bob.revokePermission(team, "$update_team");
      expect(await bob.hasPermission(team, "$update_team")).toBe(false);

      // A session made for Alice by the back end signs her in on a client.
      const session = await alice.createSession({ expiresInMillis: 60 * 60 * 1000 });
      const tokens = await session.getTokens();
      expect(tokens.refreshToken, log.failures()).toMatch(/^[0-9a-z]{45}$/);
      const client = await ctx.clientApp().getUser({
        tokenStore: { accessToken: tokens.accessToken ?? "", refreshToken: tokens.refreshToken ?? "" },
      });
      expect(client?.id, log.failures()).toBe(alice.id);
      const clientTeam = await client?.getTeam(team.id);
      expect(clientTeam?.id).toBe(team.id);
      expect(await client?.hasPermission(clientTeam!, "$update_team")).toBe(true);

      await team.removeUser(bob.id);
      const after = await (await ctx.serverApp().getTeam(team.id))?.listUsers();
      expect
        .soft(
          after?.map((m) => m.id),
          "ServerTeam.listUsers() items are users with `id`",
        )
        .toEqual([alice.id]);
      expect(after).toHaveLength(1);
    },
  },
  {
    name: "admin: reads the project in the admin view (and the client view through a client app)",
    async run(ctx) {
      const log = ctx.log.mark();
      const project = await ctx.adminApp().getProject();
      expect(project.id, log.failures()).toBe("internal");
      expect(typeof project.displayName).toBe("string");
      const admin = project as Partial<AdminProject>;
      expect
        .soft(
          {
            isProductionMode: admin.isProductionMode,
            createdAt: admin.createdAt instanceof Date,
            allowLocalhost: admin.config?.allowLocalhost,
            createTeamOnSignUp: admin.config?.createTeamOnSignUp,
            magicLinkEnabled: admin.config?.magicLinkEnabled,
            teamCreatorDefaultPermissions: admin.config?.teamCreatorDefaultPermissions,
          },
          "the admin app's getProject() answers the admin view (AdminProject)",
        )
        .toEqual({
          isProductionMode: false,
          createdAt: true,
          allowLocalhost: true,
          createTeamOnSignUp: true,
          magicLinkEnabled: true,
          teamCreatorDefaultPermissions: [{ id: "team_admin" }],
        });
      // What would block production mode, computed by the SDK from the admin view: the seeded internal project
      // allows localhost and trusts the dashboard's own origin (WIRE.md §7, §8).
      expect
        .soft(typeof admin.getProductionModeErrors, "AdminProject has getProductionModeErrors()")
        .toBe("function");
      if (typeof admin.getProductionModeErrors === "function") {
        const fixUrl = "/projects/internal/domains";
        expect(await project.getProductionModeErrors()).toEqual([
          {
            message:
              "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings",
            relativeFixUrl: fixUrl,
          },
          {
            message: `Localhost domains are not allowed to be trusted in production mode: ${ctx.server.baseUrl}`,
            relativeFixUrl: fixUrl,
          },
        ]);
      }

      const client = await ctx.clientApp().getProject();
      expect(client.id).toBe("internal");
      expect(client.config.magicLinkEnabled).toBe(true);
      expect(client.config.clientTeamCreationEnabled).toBe(true);
      expect((client as { isProductionMode?: unknown }).isProductionMode).toBeUndefined();
    },
  },
  {
    name: "admin: creates an internal API key whose keys work, lists it, revokes it, and its keys stop working",
    async run(ctx) {
      const admin = ctx.adminApp();
      const log = ctx.log.mark();
      const description = ctx.uniqueName("key");
      const created = await admin.createInternalApiKey({
        description,
        expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000),
        hasPublishableClientKey: true,
        hasSecretServerKey: true,
        hasSuperSecretAdminKey: false,
      });
      expect(created.publishableClientKey, log.failures()).toMatch(/^pck_[0-9a-z]{45}$/);
      expect(created.secretServerKey).toMatch(/^ssk_[0-9a-z]{45}$/);
      expect(created.superSecretAdminKey).toBeUndefined();
      const keys = {
        publishableClientKey: created.publishableClientKey,
        secretServerKey: created.secretServerKey,
      };
      expect((await ctx.serverApp(keys).listUsers({ limit: 1 })).length, log.failures()).toBe(1);

      const listed = (await admin.listInternalApiKeys()).find((k) => k.id === created.id);
      expect(listed?.description, log.failures()).toBe(description);
      expect(listed?.publishableClientKey).toEqual({ lastFour: created.publishableClientKey?.slice(-4) });
      expect(listed?.secretServerKey).toEqual({ lastFour: created.secretServerKey?.slice(-4) });
      expect.soft(listed?.superSecretAdminKey, "a key type the set lacks is null").toBeNull();
      expect(listed?.isValid()).toBe(true);

      await listed!.revoke();
      const revoked = (await ctx.adminApp().listInternalApiKeys()).find((k) => k.id === created.id);
      expect(revoked?.manuallyRevokedAt, log.failures()).toBeInstanceOf(Date);
      expect(revoked?.whyInvalid()).toBe("manually-revoked");
      expect(await thrown(() => ctx.serverApp(keys).listUsers({ limit: 1 }))).toBe(
        "INVALID_SECRET_SERVER_KEY",
      );
      expect(await thrown(() => ctx.clientApp(keys).getProject())).toBe("INVALID_PUBLISHABLE_CLIENT_KEY");
    },
  },
  {
    name: "admin: lists, creates, updates and deletes a team permission definition",
    async run(ctx) {
      const admin = ctx.adminApp();
      const log = ctx.log.mark();
      const definitions = await admin.listTeamPermissionDefinitions();
      const teamAdmin = definitions.find((d) => d.id === "team_admin");
      expect(teamAdmin?.containedPermissionIds.slice().sort(), log.failures()).toEqual([
        "$read_members",
        "$remove_members",
        "$update_team",
      ]);
      expect(definitions.map((d) => d.id)).toContain("$invite_members");

      const id = ctx.uniqueName("interop").replace(/-/g, "_");
      await admin.createTeamPermissionDefinition({
        id,
        description: "Made by the interop suite",
        containedPermissionIds: ["$read_members"],
      });
      const created = (await admin.listTeamPermissionDefinitions()).find((d) => d.id === id);
      expect(created, log.failures()).toEqual({
        id,
        description: "Made by the interop suite",
        containedPermissionIds: ["$read_members"],
      });

      await admin.updateTeamPermissionDefinition(id, {
        description: "Changed",
        containedPermissionIds: ["$read_members", "$update_team"],
      });
      const updated = (await admin.listTeamPermissionDefinitions()).find((d) => d.id === id);
      expect(updated?.description, log.failures()).toBe("Changed");
      expect(updated?.containedPermissionIds.slice().sort()).toEqual(["$read_members", "$update_team"]);

      await admin.deleteTeamPermissionDefinition(id);
      expect(
        (await admin.listTeamPermissionDefinitions()).map((d) => d.id),
        log.failures(),
      ).not.toContain(id);
    },
  },
  {
    name: "admin: lists the e-mail templates and sends a sign-in invitation e-mail",
    async run(ctx) {
      const admin = ctx.adminApp();
      const log = ctx.log.mark();
      if (ctx.sdk.emailTemplates === "internal-tsx") {
        // Stack's SDKs (2.8.102 and 2.8.108) list TSX templates at /internal/email-templates: Gatehouse serves its
        // five templates there under Stack's template ids, and the new-device notice under an id of its own (their HTML as the source; TSX writes are refused).
        const templates = await admin.listEmailTemplates();
        expect(
          templates.map((t) => t.displayName),
          log.failures(),
        ).toEqual([
          "Email Verification",
          "Password Reset",
          "Magic Link/OTP",
          "Team Invitation",
          "Sign In Invitation",
          "New Device Sign-In",
        ]);
        const magicLink = templates.find((t) => t.id === "822687fe-8d0a-4467-a0d1-416b6e639478");
        expect(magicLink?.tsxSource).toContain("{{ otp }}");
        expect(log.calls()).toContain("GET /api/v1/internal/email-templates 200");
      } else {
        // Our SDK speaks WIRE.md §4.15: {type, subject, content, isDefault}.
        const templates = (await admin.listEmailTemplates()) as unknown as {
          type: string;
          subject: string;
        }[];
        expect(templates.map((t) => t.type).sort(), log.failures()).toEqual([
          "email_verification",
          "magic_link",
          "new_device_notice",
          "password_reset",
          "sign_in_invitation",
          "team_invitation",
        ]);
        expect(templates.find((t) => t.type === "magic_link")?.subject).toBe(
          "Sign in to {{ projectDisplayName }}: Your code is {{ otp }}",
        );
      }

      const invited = ctx.uniqueEmail();
      expect(typeof admin.sendSignInInvitationEmail, "the admin app has sendSignInInvitationEmail").toBe(
        "function",
      );
      await admin.sendSignInInvitationEmail(invited, `${ctx.server.baseUrl}/handler/sign-in`);
      expect(log.calls(), log.failures()).toContain("POST /api/v1/internal/send-sign-in-invitation 200");
      expect((await ctx.latestEmail(invited)).subject).toMatch(/^You have been invited to sign in to /);
    },
  },
];
