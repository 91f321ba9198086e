// The client app with an injected fetch and navigation: sign-in results and redirects (after_auth_return_to,
// untrusted targets), getUser's `or` modes, shared reads, and the construction rules (owned admin apps, the
// instance-count warning).
import { afterEach, describe, expect, it, vi } from "vitest";
import { StackAdminApp } from "./admin-app.ts";
import { type CurrentInternalUser, StackClientApp } from "./client-app.ts";

type Call = { method: string; path: string; headers: Headers; body: string };

const USER = {
  id: "4f1c2d9e-0000-4000-8000-000000000001",
  primary_email: "ada@example.com",
  primary_email_verified: true,
  display_name: "Ada",
  selected_team: null,
  selected_team_id: null,
  profile_image_url: null,
  signed_up_at_millis: 1_700_000_000_000,
  has_password: true,
  otp_auth_enabled: false,
  passkey_auth_enabled: false,
  client_metadata: null,
  client_read_only_metadata: null,
  is_anonymous: false,
  is_restricted: false,
  restricted_reason: null,
  oauth_providers: [],
  auth_with_email: true,
  requires_totp_mfa: false,
};

/** An access token the session can read the expiry of (no signature: the SDK never checks one). */
function accessToken(expiresInSeconds = 600): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "ES256" })}.${part({ exp: Math.floor(Date.now() / 1000) + expiresInSeconds })}.sig`;
}

/** A fetch that answers from `routes` ("METHOD /path" → status and JSON) and records each call. */
function fakeServer(routes: Record<string, { status?: number; body: unknown; knownError?: string }>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const method = init?.method ?? "GET";
    const path = url.pathname.replace(/^\/api\/v1/, "");
    calls.push({ method, path, headers: new Headers(init?.headers), body: String(init?.body ?? "") });
    const route = routes[`${method} ${path}`];
    if (!route) return new Response("Not found.", { status: 404 });
    const headers = new Headers({ "content-type": "application/json" });
    if (route.knownError) headers.set("x-stack-known-error", route.knownError);
    return new Response(JSON.stringify(route.body), { status: route.status ?? 200, headers });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

const signIn = { access_token: accessToken(), refresh_token: "refresh-1", user_id: USER.id };

function app(fetch: typeof globalThis.fetch, navigate = vi.fn()) {
  return {
    navigate,
    app: new StackClientApp({
      projectId: "p1",
      publishableClientKey: "pck_test",
      baseUrl: "https://auth.example.com",
      tokenStore: "memory",
      redirectMethod: { navigate },
      fetch,
    }),
  };
}

/** Runs `fn` as if on a page at `href`. */
async function onPage<T>(href: string, fn: () => Promise<T>): Promise<T> {
  vi.stubGlobal("location", new URL(href));
  try {
    return await fn();
  } finally {
    vi.unstubAllGlobals();
  }
}

afterEach(() => vi.unstubAllGlobals());

describe("signing in", () => {
  it("stores the session and goes where sign-in was asked for (after_auth_return_to)", async () => {
    const server = fakeServer({
      "POST /auth/password/sign-in": { body: signIn },
      "GET /users/me": { body: USER },
    });
    const { app: client, navigate } = app(server.fetch);
    const result = await onPage("https://shop.example.com/handler/sign-in?after_auth_return_to=%2Fcart", () =>
      client.signInWithCredential({ email: "ada@example.com", password: "pw" }),
    );
    expect(result).toEqual({ status: "ok", data: undefined });
    expect(navigate).toHaveBeenCalledWith("/cart");
    const user = await client.getUser();
    expect(user?.primaryEmail).toBe("ada@example.com");
    const me = server.calls.find((c) => c.path === "/users/me");
    expect(me?.headers.get("x-stack-access-token")).toBe(signIn.access_token);
  });

  it("ignores an untrusted return target and falls back to afterSignIn", async () => {
    const server = fakeServer({ "POST /auth/password/sign-in": { body: signIn } });
    const { app: client, navigate } = app(server.fetch);
    await onPage(
      "https://shop.example.com/handler/sign-in?after_auth_return_to=https%3A%2F%2Fevil.com%2F",
      () => client.signInWithCredential({ email: "ada@example.com", password: "pw" }),
    );
    expect(navigate).toHaveBeenCalledWith("/");
  });

  it("answers a wrong password as a Result error and does not navigate", async () => {
    const server = fakeServer({
      "POST /auth/password/sign-in": {
        status: 400,
        knownError: "EMAIL_PASSWORD_MISMATCH",
        body: { code: "EMAIL_PASSWORD_MISMATCH", message: "Wrong e-mail or password." },
      },
    });
    const { app: client, navigate } = app(server.fetch);
    const result = await client.signInWithCredential({ email: "a@b.c", password: "x", noRedirect: true });
    expect(result.status).toBe("error");
    expect(result.status === "error" && result.error.code).toBe("EMAIL_PASSWORD_MISMATCH");
    expect(navigate).not.toHaveBeenCalled();
    expect(await client.getUser()).toBeNull();
  });
});

describe("getUser", () => {
  it("answers null, throws, or redirects to sign-in with the page to come back to", async () => {
    const { app: client, navigate } = app(fakeServer({}).fetch);
    expect(await client.getUser()).toBeNull();
    await expect(client.getUser({ or: "throw" })).rejects.toThrow(/not signed in/);
    await onPage("https://shop.example.com/orders?page=2", () =>
      expect(client.getUser({ or: "redirect" })).rejects.toThrow(/Redirecting/),
    );
    const target = new URL(navigate.mock.calls[0]?.[0], "https://shop.example.com");
    expect(target.pathname).toBe("/handler/sign-in");
    // Same-origin pages are carried as a path, as Stack Auth's SDK does.
    expect(target.searchParams.get("after_auth_return_to")).toBe("/orders?page=2");
  });

  it("shares one read among concurrent callers", async () => {
    const server = fakeServer({
      "POST /auth/password/sign-in": { body: signIn },
      "GET /users/me": { body: USER },
    });
    const { app: client } = app(server.fetch);
    await client.signInWithCredential({ email: "ada@example.com", password: "pw", noRedirect: true });
    const users = await Promise.all(Array.from({ length: 10 }, () => client.getUser()));
    expect(users.map((u) => u?.id)).toEqual(Array(10).fill(USER.id));
    expect(server.calls.filter((c) => c.path === "/users/me")).toHaveLength(1);
  });
});

describe("constructing apps", () => {
  it("refuses a token store on an admin app owned by a project owner's session", () => {
    expect(
      () =>
        new StackAdminApp({
          projectId: "p1",
          tokenStore: "memory",
          projectOwnerSession: { getTokens: async () => ({ accessToken: "t" }) },
        }),
    ).toThrow(/no token store/);
  });

  it("refuses project data of another project", () => {
    expect(
      () => new StackAdminApp({ projectId: "p1", superSecretAdminKey: "sak", projectJson: { id: "p2" } }),
    ).toThrow(/not this app's project/);
  });

  it("administers an internal user's owned projects with the admin app class it was given, and only then", async () => {
    const { fetch } = fakeServer({
      "GET /users/me": { body: USER },
      "GET /internal/projects": { body: { items: [{ id: "p7", display_name: "Seven", config: {} }] } },
    });
    const internalApp = (options: { adminAppClass?: typeof StackAdminApp }) =>
      new StackClientApp({
        projectId: "internal",
        baseUrl: "https://auth.example.com",
        tokenStore: { accessToken: accessToken(), refreshToken: "refresh-1" },
        redirectMethod: "none",
        fetch,
        ...options,
      });
    const owner = (await internalApp({ adminAppClass: StackAdminApp }).getUser({
      or: "throw",
    })) as CurrentInternalUser;
    const [project] = await owner.listOwnedProjects();
    expect(project?.app).toBeInstanceOf(StackAdminApp);
    expect(project?.app.projectId).toBe("p7");

    // Without it the client app never reaches the admin code (kept out of client bundles), and says what to pass.
    const unequipped = (await internalApp({}).getUser({ or: "throw" })) as CurrentInternalUser;
    await expect(unequipped.listOwnedProjects()).rejects.toThrow(/adminAppClass: StackAdminApp/);
  });

  it("warns once more than ten apps exist", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    for (let i = 0; i < 11; i++) app(fakeServer({}).fetch);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/app instances have been created/));
    warn.mockRestore();
  });
});

describe("SSO sign-in", () => {
  it("asks for the identity provider's URL with a PKCE challenge whose verifier waits for the callback page", async () => {
    const server = fakeServer({
      "POST /auth/sso/authorize": {
        body: { location: "https://idp.corp.example/sso?SAMLRequest=x", connection_id: USER.id },
      },
    });
    const cookies: string[] = [];
    vi.stubGlobal("document", {
      get cookie() {
        return cookies.map((c) => c.split(";")[0]).join("; ");
      },
      set cookie(line: string) {
        cookies.push(line);
      },
    });
    const { app: client, navigate } = app(server.fetch);
    vi.stubGlobal("location", new URL("https://shop.example.com/handler/sign-in"));
    await client.signInWithSso({ email: "jo@corp.example" });
    expect(navigate).toHaveBeenCalledWith("https://idp.corp.example/sso?SAMLRequest=x");
    const call = server.calls.find((c) => c.path === "/auth/sso/authorize");
    const body = JSON.parse(call?.body ?? "{}");
    expect(body).toMatchObject({
      email: "jo@corp.example",
      redirect_uri: "https://shop.example.com/handler/oauth-callback",
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    // The verifier is kept under the state, where callOAuthCallback reads it back.
    expect(cookies.some((c) => c.includes(body.state))).toBe(true);
  });
});
