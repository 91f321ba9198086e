// For the bindings' tests: a real StackClientApp (memory token store, navigation recorded) whose fetch is a small
// in-memory Gatehouse that knows one user, their teams, permissions and contact channels, and records each call.
import { StackClientApp } from "@gatehouse/sdk";

export type Call = { method: string; path: string };

/** An access token the session can read the expiry of (no signature: the SDK never checks one). */
function accessToken(): string {
  const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, "");
  return `${part({ alg: "ES256" })}.${part({ exp: Math.floor(Date.now() / 1000) + 600 })}.sig`;
}

const USER_ID = "4f1c2d9e-0000-4000-8000-000000000001";

function userJson(fields: { displayName: string; isAnonymous: boolean }) {
  return {
    id: USER_ID,
    primary_email: fields.isAnonymous ? null : "ada@example.com",
    primary_email_verified: true,
    display_name: fields.displayName,
    selected_team: null,
    selected_team_id: null,
    profile_image_url: null,
    signed_up_at_millis: 1_700_000_000_000,
    has_password: !fields.isAnonymous,
    otp_auth_enabled: false,
    passkey_auth_enabled: false,
    client_metadata: null,
    client_read_only_metadata: null,
    is_anonymous: fields.isAnonymous,
    is_restricted: false,
    restricted_reason: null,
    oauth_providers: [],
    auth_with_email: !fields.isAnonymous,
    requires_totp_mfa: false,
  };
}

const team = (id: string, name: string) => ({
  id,
  display_name: name,
  profile_image_url: null,
  client_metadata: null,
  client_read_only_metadata: null,
});

export const PROJECT = {
  id: "p1",
  display_name: "Shop",
  config: {
    sign_up_enabled: true,
    credential_enabled: true,
    magic_link_enabled: false,
    passkey_enabled: false,
    client_team_creation_enabled: true,
    client_user_deletion_enabled: false,
    oauth_providers: [{ id: "github" }],
  },
};

const list = (items: unknown[]) => ({ items, is_paginated: false });

const apiKeyJson = (key: { description: string; team_id?: string }, index: number) => ({
  id: `4f1c2d9e-0000-4000-8000-${String(index).padStart(12, "0")}`,
  description: key.description,
  created_at_millis: 1_700_000_000_000,
  is_public: false,
  value: { last_four: "abcd" },
  ...(key.team_id ? { type: "team", team_id: key.team_id } : { type: "user", user_id: USER_ID }),
});
const json = (body: unknown, status = 200, knownError?: string) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...(knownError && { "x-stack-known-error": knownError }) },
  });

/** The fake server's state; tests change it and hold requests back with `gate`. */
export type FakeServer = ReturnType<typeof createFakeServer>;

export function createFakeServer() {
  const state = {
    displayName: "Ada",
    isAnonymous: false,
    signedIn: false,
    /** When set, `GET /users/me` answers 500. */
    failUserReads: false,
    teams: [team("t1", "Engineering"), team("t2", "Sales")],
    /** Permission ids per team id. */
    permissions: { t1: ["$read_members", "$invite_members"], t2: [] } as Record<string, string[]>,
    /** User and team API keys, by description (`team_id` set for a team's). */
    apiKeys: [] as { description: string; team_id?: string }[],
  };
  const calls: Call[] = [];
  /** While set, `GET /users/me` waits for it (a slow first read). */
  let gate: Promise<void> | undefined;

  async function answer(method: string, url: URL, body: Record<string, unknown>): Promise<Response> {
    const route = `${method} ${url.pathname.replace(/^\/api\/v1/, "")}`;
    const signIn = () => {
      state.signedIn = true;
      return json({ access_token: accessToken(), refresh_token: "refresh-1", user_id: USER_ID });
    };
    if (route === "POST /auth/password/sign-in") return signIn();
    if (route === "POST /auth/anonymous/sign-up") {
      state.isAnonymous = true;
      state.displayName = "Anonymous";
      return signIn();
    }
    if (route === "GET /projects/current") return json(PROJECT);
    if (!state.signedIn) {
      return json({ code: "CANNOT_GET_OWN_USER_WITHOUT_USER" }, 400, "CANNOT_GET_OWN_USER_WITHOUT_USER");
    }
    switch (route) {
      case "GET /users/me":
        await gate;
        if (state.failUserReads) return new Response("Database unavailable.", { status: 500 });
        return json(userJson(state));
      case "PATCH /users/me":
        if (typeof body.display_name === "string") state.displayName = body.display_name;
        return json(userJson(state));
      case "DELETE /auth/sessions/current":
        state.signedIn = false;
        return json({});
      case "GET /teams":
        return json(list(state.teams));
      case "PATCH /teams/t1":
        state.teams = state.teams.map((t) =>
          t.id === "t1" ? { ...t, display_name: String(body.display_name) } : t,
        );
        return json(state.teams[0]);
      case "GET /team-permissions": {
        const teamId = url.searchParams.get("team_id") ?? "";
        return json(
          list((state.permissions[teamId] ?? []).map((id) => ({ id, user_id: USER_ID, team_id: teamId }))),
        );
      }
      case "GET /user-api-keys":
      case "GET /team-api-keys": {
        const teamId = url.searchParams.get("team_id") ?? undefined;
        return json(list(state.apiKeys.filter((k) => k.team_id === teamId).map((k, i) => apiKeyJson(k, i))));
      }
      case "POST /user-api-keys": {
        const key = { description: String(body.description) };
        state.apiKeys.push(key);
        return json({ ...apiKeyJson(key, state.apiKeys.length), value: "sk_full_key" });
      }
      case "GET /contact-channels":
        return json(
          list([
            {
              id: "c1",
              user_id: USER_ID,
              value: "ada@example.com",
              type: "email",
              used_for_auth: true,
              is_verified: true,
              is_primary: true,
            },
          ]),
        );
    }
    return new Response("Not found.", { status: 404 });
  }

  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const method = init?.method ?? "GET";
    calls.push({ method, path: url.pathname.replace(/^\/api\/v1/, "") });
    const text = typeof init?.body === "string" ? init.body : "";
    return answer(method, url, text.startsWith("{") ? JSON.parse(text) : {});
  };

  return {
    state,
    calls,
    fetch: fetch as typeof globalThis.fetch,
    /** How many times `METHOD /path` was asked. */
    count: (method: string, path: string) =>
      calls.filter((c) => c.method === method && c.path === path).length,
    /** Holds `GET /users/me` back until the answered function is called. */
    holdUserReads() {
      let release = () => {};
      gate = new Promise((resolve) => {
        release = () => {
          gate = undefined;
          resolve();
        };
      });
      return release;
    },
  };
}

export function createTestApp() {
  const server = createFakeServer();
  const navigated: string[] = [];
  const app = new StackClientApp({
    projectId: "p1",
    publishableClientKey: "pck_test",
    baseUrl: "https://auth.example.com",
    tokenStore: "memory",
    redirectMethod: { navigate: (to) => navigated.push(to) },
    fetch: server.fetch,
  });
  const signIn = async () => {
    const result = await app.signInWithCredential({
      email: "ada@example.com",
      password: "pw",
      noRedirect: true,
    });
    if (result.status !== "ok") throw new Error("The fake server refused the sign-in.");
  };
  return { app, server, navigated, signIn };
}
