// Stack Auth's published SDK (@stackframe/js 2.8.108, which sends x-hexclave-* headers) against the real server
// process: password sign-up and sign-in, the current user on the client and server apps, sessions, refresh through
// the token endpoint, anonymous upgrade and sign-out. Every request is recorded so that a failure names the call.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, type RunningServer, startServer } from "@gatehouse/server/testing/server-process";
import { adminQuery, withDatabase } from "@gatehouse/server/testing/test-database";
import { StackClientApp, StackServerApp } from "@stackframe/js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

type Exchange = {
  method: string;
  path: string;
  /** The real status, also when the SDK asked for status masking (WIRE.md §1.8). */
  status: number;
  body: string;
  requestHeaders: Record<string, string>;
};

let server: RunningServer;
let dataDir: string;
let databaseName: string | undefined;
const exchanges: Exchange[] = [];
const originalFetch = globalThis.fetch;

/** Wraps fetch to record every exchange with the server under test. */
function recordingFetch(baseUrl: string): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(baseUrl)) return originalFetch(request);
    const url = new URL(request.url);
    // Logged in the order the requests start; status and body are filled in when the answer is read.
    const exchange: Exchange = {
      method: request.method,
      path: `${url.pathname}${url.search}`,
      status: 0,
      body: "",
      requestHeaders: Object.fromEntries(request.headers),
    };
    exchanges.push(exchange);
    const response = await originalFetch(request);
    const masked =
      response.headers.get("x-hexclave-actual-status") ?? response.headers.get("x-stack-actual-status");
    exchange.status = masked ? Number(masked) : response.status;
    exchange.body = await response.clone().text();
    return response;
  };
}

/** A mark in the log, and a description of every failed exchange after it (for assertion messages). */
function mark() {
  const from = exchanges.length;
  const since = () => exchanges.slice(from);
  const failures = () =>
    since()
      .filter((e) => e.status >= 400)
      .map((e) => `${e.method} ${e.path} → ${e.status} ${e.body.slice(0, 400)}`)
      .join("\n") || "(no failed requests)";
  const calls = () => since().map((e) => `${e.method} ${e.path.split("?")[0]} ${e.status}`);
  return { since, failures, calls };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "gatehouse-sdk-"));
  const env: Record<string, string> = {
    PORT: String(await freePort()),
    GATEHOUSE_DATA_DIR: dataDir,
    STACK_SEED_INTERNAL_PROJECT_OTP_ENABLED: "true",
  };
  const template = inject("testDbTemplate");
  if (template.kind === "postgres") {
    databaseName = `gatehouse_sdk_${process.pid}_${Date.now()}`;
    await adminQuery(template.adminUrl, `create database ${databaseName}`);
    env.DATABASE_URL = withDatabase(template.adminUrl, databaseName);
  }
  server = await startServer(env);
  globalThis.fetch = recordingFetch(server.baseUrl);
});

afterAll(async () => {
  globalThis.fetch = originalFetch;
  if (server) expect(await server.stop()).toBe(0);
  await rm(dataDir, { recursive: true, force: true });
  const template = inject("testDbTemplate");
  if (databaseName && template.kind === "postgres") {
    await adminQuery(template.adminUrl, `drop database if exists ${databaseName} with (force)`);
  }
});

// Node has no window: no redirects, and no prefetch of data this test does not look at.
const common = () => ({
  baseUrl: server.baseUrl,
  projectId: "internal",
  publishableClientKey: server.keys.pck,
  redirectMethod: "none" as const,
  noAutomaticPrefetch: true,
});
const clientApp = () => new StackClientApp({ ...common(), tokenStore: "memory" });
const serverApp = () =>
  new StackServerApp({ ...common(), tokenStore: "memory", secretServerKey: server.keys.ssk });

let counter = 0;
const uniqueEmail = () => `sdk-${Date.now()}-${++counter}@example.com`;
const PASSWORD = "correct horse battery";

/** The newest e-mail to `to` in the development inbox, read with the admin key as an operator would. */
async function latestEmail(to: string): Promise<{ subject: string; text: string }> {
  const res = await originalFetch(`${server.baseUrl}/api/v1/internal/emails?to=${encodeURIComponent(to)}`, {
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

const codeInLink = (text: string) => /[?&]code=([0-9a-z]{45})/.exec(text)?.[1] ?? "";

type ClientApp = ReturnType<typeof clientApp>;

/** Password sign-up as an app without a browser does it (no redirect, no verification callback). */
const signUp = (app: ClientApp, email: string, password = PASSWORD) =>
  app.signUpWithCredential({ email, password, noRedirect: true, noVerificationCallback: true });

/** The error code of a failed SDK result (the SDK rebuilds known errors from the wire code). */
function errorCodeOf(result: { status: "ok" } | { status: "error"; error: unknown }): string | undefined {
  if (result.status !== "error") return undefined;
  const error = result.error as { errorCode?: string; code?: string };
  return error.errorCode ?? error.code;
}

describe("@stackframe/js 2.8.108 against Gatehouse", () => {
  it("signs up with a password and reads the new user", async () => {
    const app = clientApp();
    const email = uniqueEmail();
    const log = mark();
    const result = await signUp(app, email);
    expect(result.status, log.failures()).toBe("ok");

    const user = await app.getUser();
    expect(user, log.failures()).not.toBeNull();
    expect(user?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(user?.primaryEmail).toBe(email);
    expect(user?.primaryEmailVerified).toBe(false);
    expect(user?.hasPassword).toBe(true);
    expect(user?.isAnonymous).toBe(false);
    expect(log.calls()).toContain("POST /api/v1/auth/password/sign-up 200");

    // 2.8.108 speaks the x-hexclave-* spelling.
    const signUpCall = log.since().find((e) => e.path === "/api/v1/auth/password/sign-up");
    expect(signUpCall?.requestHeaders).toMatchObject({
      "x-hexclave-access-type": "client",
      "x-hexclave-project-id": "internal",
      "x-hexclave-publishable-client-key": server.keys.pck,
    });
  });

  it("reports a taken e-mail and a short password as the SDK's known errors", async () => {
    const email = uniqueEmail();
    const first = await signUp(clientApp(), email);
    expect(first.status).toBe("ok");
    const again = await signUp(clientApp(), email.toUpperCase());
    expect(errorCodeOf(again)).toBe("USER_EMAIL_ALREADY_EXISTS");
    const short = await signUp(clientApp(), uniqueEmail(), "short");
    expect(errorCodeOf(short)).toBe("PASSWORD_TOO_SHORT");
  });

  it("signs out and signs in again; a wrong password is EMAIL_PASSWORD_MISMATCH", async () => {
    const app = clientApp();
    const email = uniqueEmail();
    const log = mark();
    const signedUp = await signUp(app, email);
    expect(signedUp.status, log.failures()).toBe("ok");
    const user = await app.getUser();
    const { refreshToken } = (await user?.currentSession.getTokens()) ?? {};
    expect(refreshToken).toBeTruthy();

    await app.signOut();
    expect(await app.getUser()).toBeNull();
    expect(log.calls()).toContain("DELETE /api/v1/auth/sessions/current 200");
    // The session is over at the server, not only forgotten by the SDK.
    const refresh = await originalFetch(`${server.baseUrl}/api/v1/auth/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        client_id: "internal",
        client_secret: server.keys.pck,
        refresh_token: refreshToken ?? "",
      }),
    });
    expect(refresh.headers.get("x-hexclave-known-error")).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");

    const signedIn = await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    expect(signedIn.status, log.failures()).toBe("ok");
    const again = await app.getUser();
    expect(again?.id).toBe(user?.id);
    expect(again?.primaryEmail).toBe(email);

    const other = clientApp();
    const wrong = await other.signInWithCredential({ email, password: "wrong password", noRedirect: true });
    expect(errorCodeOf(wrong)).toBe("EMAIL_PASSWORD_MISMATCH");
    const unknown = await other.signInWithCredential({
      email: uniqueEmail(),
      password: PASSWORD,
      noRedirect: true,
    });
    expect(errorCodeOf(unknown)).toBe("EMAIL_PASSWORD_MISMATCH");
    expect(await other.getUser()).toBeNull();
  });

  it("lists the user's sessions with the current one marked", async () => {
    const app = clientApp();
    const email = uniqueEmail();
    await signUp(app, email);
    const second = clientApp();
    expect((await second.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe(
      "ok",
    );
    const log = mark();
    const user = await app.getUser();
    const sessions = (await user?.getActiveSessions()) ?? [];
    expect(sessions, log.failures()).toHaveLength(2);
    expect(sessions.filter((s) => s.isCurrentSession)).toHaveLength(1);
  });

  it("refreshes through the token endpoint when it has only a refresh token", async () => {
    const app = clientApp();
    const email = uniqueEmail();
    await signUp(app, email);
    const tokens = await (await app.getUser())?.currentSession.getTokens();
    const refreshToken = tokens?.refreshToken ?? "";
    expect(refreshToken).not.toBe("");

    const log = mark();
    const user = await clientApp().getUser({ tokenStore: { accessToken: "", refreshToken } });
    expect(user?.primaryEmail, log.failures()).toBe(email);
    expect(log.calls()).toContain("POST /api/v1/auth/oauth/token 200");
  });

  it("gives the server app the server view of the signed-in user", async () => {
    const app = clientApp();
    const email = uniqueEmail();
    await signUp(app, email);
    const clientUser = await app.getUser();
    const tokens = await clientUser?.currentSession.getTokens();
    const log = mark();
    const user = await serverApp().getUser({
      tokenStore: { accessToken: tokens?.accessToken ?? "", refreshToken: tokens?.refreshToken ?? "" },
    });
    expect(user, log.failures()).not.toBeNull();
    expect(user?.id).toBe(clientUser?.id);
    expect(user?.primaryEmail).toBe(email);
    expect(user?.serverMetadata).toBeNull();
    const me = log.since().find((e) => e.path.startsWith("/api/v1/users/me"));
    expect(me?.requestHeaders["x-hexclave-access-type"]).toBe("server");
    expect(me?.status).toBe(200);
  });

  it("signs up anonymously and upgrades the same user with a password", async () => {
    const app = clientApp();
    const log = mark();
    const anonymous = await app.getUser({ or: "anonymous" });
    expect(anonymous.isAnonymous, log.failures()).toBe(true);
    expect(anonymous.primaryEmail).toBeNull();
    expect(log.calls()).toContain("POST /api/v1/auth/anonymous/sign-up 200");
    // The default getUser hides anonymous users.
    expect(await app.getUser()).toBeNull();

    const email = uniqueEmail();
    const upgraded = await signUp(app, email);
    expect(upgraded.status, log.failures()).toBe("ok");
    const user = await app.getUser();
    expect(user?.id).toBe(anonymous.id);
    expect(user?.isAnonymous).toBe(false);
    expect(user?.primaryEmail).toBe(email);
  });

  it("updates the display name and reads it back", async () => {
    const app = clientApp();
    await signUp(app, uniqueEmail());
    const log = mark();
    const user = await app.getUser({ or: "throw" });
    await user.update({ displayName: "Ada Lovelace" });
    expect(log.calls()).toContain("PATCH /api/v1/users/me 200");
    expect(
      (
        await clientApp().getUser({
          tokenStore: (await user.currentSession.getTokens()) as {
            accessToken: string;
            refreshToken: string;
          },
        })
      )?.displayName,
    ).toBe("Ada Lovelace");
  });

  it("resets a forgotten password with the code from the development inbox", async () => {
    const app = clientApp();
    const email = uniqueEmail();
    await signUp(app, email);
    const log = mark();
    const sent = await app.sendForgotPasswordEmail(email, {
      callbackUrl: `${server.baseUrl}/handler/password-reset`,
    });
    expect(sent.status, log.failures()).toBe("ok");
    const code = codeInLink((await latestEmail(email)).text);
    expect(code).toHaveLength(45);
    expect((await app.verifyPasswordResetCode(code)).status).toBe("ok");
    expect((await app.resetPassword({ code, password: "a brand new password" })).status, log.failures()).toBe(
      "ok",
    );
    const fresh = clientApp();
    expect(
      errorCodeOf(await fresh.signInWithCredential({ email, password: PASSWORD, noRedirect: true })),
    ).toBe("EMAIL_PASSWORD_MISMATCH");
    const signedIn = await fresh.signInWithCredential({
      email,
      password: "a brand new password",
      noRedirect: true,
    });
    expect(signedIn.status, log.failures()).toBe("ok");
  });

  it("signs in with a magic-link code typed from the e-mail", async () => {
    const app = clientApp();
    const email = uniqueEmail();
    const log = mark();
    const sent = await app.sendMagicLinkEmail(email, {
      callbackUrl: `${server.baseUrl}/handler/magic-link-callback`,
    });
    expect(sent.status, log.failures()).toBe("ok");
    const nonce = sent.status === "ok" ? sent.data.nonce : "";
    const otp = /Your code is ([0-9A-Z]{6})/.exec((await latestEmail(email)).subject)?.[1] ?? "";
    expect(otp).toHaveLength(6);
    const signedIn = await app.signInWithMagicLink(otp.toLowerCase() + nonce, { noRedirect: true });
    expect(signedIn.status, log.failures()).toBe("ok");
    const user = await app.getUser();
    expect(user?.primaryEmail).toBe(email);
    expect(user?.primaryEmailVerified).toBe(true);
  });

  it("lets a server app create users, page and search them, and manage a team's members and permissions", async () => {
    const app = serverApp();
    const log = mark();
    const tag = `pager${Date.now()}`;
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
    // Page through the search results two at a time, as a dashboard would.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await app.listUsers({ query: tag.toUpperCase(), limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...page.map((u) => u.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen, log.failures()).toEqual(created.map((u) => u.id));

    const team = await app.createTeam({ displayName: `${tag} team` });
    const [first, second] = created;
    if (!first || !second) throw new Error("users missing");
    await team.addUser(first.id);
    await team.addUser(second.id);
    expect((await team.listUsers()).map((u) => u.id).sort(), log.failures()).toEqual(
      [first.id, second.id].sort(),
    );
    // The internal project's team_admin holds $update_team and $remove_members, but not $delete_team.
    await first.grantPermission(team, "team_admin");
    expect(await first.hasPermission(team, "$remove_members"), log.failures()).toBe(true);
    expect(await first.hasPermission(team, "$delete_team")).toBe(false);
    expect(await second.hasPermission(team, "$remove_members")).toBe(false);
    expect(await second.hasPermission(team, "$read_members")).toBe(true);
    // A created user signs in with the password it was given.
    const signedIn = await clientApp().signInWithCredential({
      email: `${tag}-0@example.com`,
      password: PASSWORD,
      noRedirect: true,
    });
    expect(signedIn.status, log.failures()).toBe("ok");
  });

  it("lets a client user create a team and invite an address whose owner accepts from the e-mail", async () => {
    const owner = clientApp();
    const log = mark();
    await signUp(owner, uniqueEmail());
    const ownerUser = await owner.getUser({ or: "throw" });
    const team = await ownerUser.createTeam({ displayName: "Invitation team" });
    expect(team.displayName, log.failures()).toBe("Invitation team");
    expect((await ownerUser.listTeams()).map((t) => t.id)).toContain(team.id);

    // In the internal project team_admin does not hold $invite_members (WIRE.md §8): the back end grants it.
    const ownerOnServer = await serverApp().getUser(ownerUser.id);
    await ownerOnServer?.grantPermission(team, "$invite_members");
    const inviteeEmail = uniqueEmail();
    await team.inviteUser({ email: inviteeEmail, callbackUrl: `${server.baseUrl}/handler/team-invitation` });
    expect(
      (await team.listInvitations()).map((i) => i.recipientEmail),
      log.failures(),
    ).toEqual([inviteeEmail]);
    const code = codeInLink((await latestEmail(inviteeEmail)).text);
    expect(code).toHaveLength(45);

    const invitee = clientApp();
    await signUp(invitee, inviteeEmail);
    const details = await invitee.getTeamInvitationDetails(code);
    expect(details.status === "ok" ? details.data.teamDisplayName : details, log.failures()).toBe(
      "Invitation team",
    );
    expect((await invitee.acceptTeamInvitation(code)).status, log.failures()).toBe("ok");
    const inviteeUser = await invitee.getUser({ or: "throw" });
    const joined = await inviteeUser.getTeam(team.id);
    expect(joined?.displayName, log.failures()).toBe("Invitation team");
    // The creator holds team_admin, the invitee team_member ({$read_members} in the internal project).
    expect(await inviteeUser.hasPermission(joined!, "$read_members")).toBe(true);
    expect(await inviteeUser.hasPermission(joined!, "$update_team")).toBe(false);
    expect(await ownerUser.hasPermission(team, "$update_team"), log.failures()).toBe(true);
    // Used codes do not work twice.
    expect(errorCodeOf(await invitee.acceptTeamInvitation(code))).toBe("VERIFICATION_CODE_ALREADY_USED");
  });
});
