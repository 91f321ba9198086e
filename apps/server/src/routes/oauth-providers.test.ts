// OAuth provider records over HTTP (Stack's `/oauth-providers`): listing, reading, linking, changing and unlinking
// provider accounts, Stack's uniqueness rules and refusals, the access matrix, and what `allow_sign_in` and
// `allow_connected_accounts` switch off (sign-in through the development provider; connected accounts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import { cookiesOf, local, oauthClient, pkcePair } from "../testing/oauth-client.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueEmail,
  uniqueIp,
} from "../testing/test-server.ts";

const PROVIDERS = "/api/v1/oauth-providers";
const APP = "https://app.example.com";
const UNKNOWN = "00000000-0000-4000-8000-000000000000";

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer({ developmentOAuth: ["*"] });
});
afterAll(() => server.close());

const { postForm, authorize, followCallback, redeem } = oauthClient(
  () => server,
  `${APP}/handler/oauth-callback`,
);

async function newProject(config: Record<string, unknown> = {}): Promise<ProjectKeys> {
  const { keys } = await server.createProject({
    displayName: "OAuth providers",
    config: {
      oauth_providers: [
        { id: "github", type: "shared", enabled: true },
        { id: "gitlab", type: "standard", enabled: true, client_id: "id", client_secret: "secret" },
      ],
      domains: [{ domain: APP, handler_path: "/handler" }],
      ...config,
    },
  });
  return keys;
}

/** Sign-in through the development provider as `email`; answers the landing URL of the app. */
async function throughProvider(keys: ProjectKeys, email: string) {
  const pkce = pkcePair();
  const state = `state-${Math.random()}`;
  const authorized = await authorize("github", keys, pkce, { state });
  const page = new URL(authorized.headers.get("location") ?? "");
  const chosen = await postForm(page.pathname, {
    state: page.searchParams.get("state") ?? "",
    code_challenge: page.searchParams.get("code_challenge") ?? "",
    redirect_uri: page.searchParams.get("redirect_uri") ?? "",
    action: "allow",
    email,
  });
  expect(local(chosen.headers.get("location") ?? "")).toContain("/callback/github");
  return {
    landing: await followCallback(chosen.headers.get("location") ?? "", cookiesOf(authorized)),
    pkce,
    state,
  };
}

function caller(keys: ProjectKeys, type: "client" | "server", token?: string) {
  return (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { "x-forwarded-for": uniqueIp(), ...accessHeaders(type, keys) };
    if (token) headers["x-stack-access-token"] = token;
    if (body !== undefined) headers["content-type"] = "application/json";
    return server.request(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  };
}

type Record_ = { id: string; user_id: string; account_id?: string; allow_sign_in: boolean };

describe("/oauth-providers", () => {
  it("lists, reads, changes and unlinks a user's provider accounts", async () => {
    const keys = await newProject();
    const email = uniqueEmail("op");
    const { tokens, user } = await redeem(keys, await throughProvider(keys, email));
    const client = caller(keys, "client", tokens.access_token);
    const srv = caller(keys, "server");

    const listed = await expectJson<{ items: Record_[] }>(await client("GET", `${PROVIDERS}?user_id=me`));
    expect(listed.items).toEqual([
      {
        user_id: user.id,
        id: expect.any(String),
        email,
        provider_config_id: "github",
        type: "github",
        allow_sign_in: true,
        allow_connected_accounts: true,
      },
    ]);
    const id = listed.items[0]?.id ?? "";
    // Servers see the account id too.
    expect(await expectJson(await srv("GET", `${PROVIDERS}/${user.id}/${id}`))).toMatchObject({
      account_id: email,
    });
    expect(await expectJson(await client("GET", `${PROVIDERS}/me/${id}`))).not.toHaveProperty("account_id");

    const changed = await expectJson(
      await client("PATCH", `${PROVIDERS}/me/${id}`, { allow_connected_accounts: false }),
    );
    expect(changed).toMatchObject({ allow_sign_in: true, allow_connected_accounts: false });
    // Off, the account is no connected account any more.
    const connected = await expectJson(await client("GET", "/api/v1/connected-accounts/me"));
    expect(connected).toEqual({ items: [], is_paginated: false });
    // Clients may not change the e-mail or account id.
    await expectKnownError(
      await client("PATCH", `${PROVIDERS}/me/${id}`, { account_id: "x" }),
      "SCHEMA_ERROR",
    );

    await expectJson(await client("DELETE", `${PROVIDERS}/me/${id}`));
    await expectTextError(
      await client("GET", `${PROVIDERS}/me/${id}`),
      404,
      `OAuth provider ${id} for user ${user.id} not found`,
    );
  });

  it("links accounts from the server, with Stack's uniqueness rules", async () => {
    const keys = await newProject();
    const srv = caller(keys, "server");
    const [alice, bob] = [await server.signIn(keys.projectId), await server.signIn(keys.projectId)];
    const link = (userId: string, extra: Record<string, unknown> = {}) =>
      srv("POST", PROVIDERS, {
        user_id: userId,
        provider_config_id: "gitlab",
        account_id: "acct-1",
        allow_sign_in: true,
        allow_connected_accounts: true,
        ...extra,
      });
    const created = await expectJson<Record_>(await link(alice.userId, { email: "a@example.com" }), 201);
    expect(created).toMatchObject({
      user_id: alice.userId,
      account_id: "acct-1",
      type: "gitlab",
      email: "a@example.com",
    });
    // Its tokens are asked for (none stored: not available); with connected accounts off, it is not connected.
    const token = () =>
      caller(keys, "client", alice.accessToken)(
        "POST",
        "/api/v1/connected-accounts/me/gitlab/access-token",
        {},
      );
    await expectKnownError(await token(), "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE");
    await expectJson(
      await srv("PATCH", `${PROVIDERS}/${alice.userId}/${created.id}`, { allow_connected_accounts: false }),
    );
    await expectKnownError(await token(), "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER");
    await expectKnownError(await link(bob.userId), "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN");
    // Without sign-in the same provider account may be linked to someone else.
    const connectedOnly = await expectJson<Record_>(await link(bob.userId, { allow_sign_in: false }), 201);
    await expectTextError(
      await link(alice.userId, { account_id: "acct-2" }),
      400,
      "The same provider type with sign-in enabled already exists for this user.",
    );
    await expectTextError(
      await link(alice.userId, { allow_sign_in: false }),
      400,
      "The same provider type with the same account ID already exists for this user.",
    );
    await expectKnownError(
      await srv("PATCH", `${PROVIDERS}/${bob.userId}/${connectedOnly.id}`, { allow_sign_in: true }),
      "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN",
    );
    const moved = await expectJson(
      await srv("PATCH", `${PROVIDERS}/${bob.userId}/${connectedOnly.id}`, {
        account_id: "acct-3",
        allow_sign_in: true,
      }),
    );
    expect(moved).toMatchObject({ account_id: "acct-3", allow_sign_in: true });
    await expectTextError(
      await link(alice.userId, { provider_config_id: "bitbucket" }),
      404,
      "OAuth provider bitbucket not found or not configured",
    );
    await expectKnownError(await link(UNKNOWN), "USER_NOT_FOUND");
    const all = await expectJson<{ items: Record_[] }>(await srv("GET", PROVIDERS));
    // The test clock stands still, so both were created at the same instant: compare as a set.
    expect(all.items.map((r) => r.account_id).sort()).toEqual(["acct-1", "acct-3"]);
  });

  it("lets clients touch only their own records, and never link", async () => {
    const keys = await newProject();
    const alice = await server.signIn(keys.projectId);
    const bob = await server.signIn(keys.projectId);
    const client = caller(keys, "client", alice.accessToken);
    await expectTextError(
      await client("GET", `${PROVIDERS}?user_id=${bob.userId}`),
      403,
      "Client can only list OAuth providers for their own user.",
    );
    await expectTextError(
      await client("GET", PROVIDERS),
      403,
      "Client can only list OAuth providers for their own user.",
    );
    await expectTextError(
      await client("DELETE", `${PROVIDERS}/${bob.userId}/${UNKNOWN}`),
      403,
      "Client can only delete OAuth providers for their own user.",
    );
    await expectKnownError(
      await client("POST", PROVIDERS, {
        user_id: "me",
        provider_config_id: "github",
        account_id: "1",
        allow_sign_in: true,
        allow_connected_accounts: true,
      }),
      "INSUFFICIENT_ACCESS_TYPE",
    );
    await expectKnownError(
      await caller(keys, "client")("GET", `${PROVIDERS}?user_id=me`),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
    );
  });

  it("signs nobody in through a record whose sign-in is off", async () => {
    const keys = await newProject({ oauth_account_merge_strategy: "allow_duplicates" });
    const email = uniqueEmail("off");
    const first = await redeem(keys, await throughProvider(keys, email));
    const srv = caller(keys, "server");
    const [record] = (
      await expectJson<{ items: Record_[] }>(await srv("GET", `${PROVIDERS}?user_id=${first.user.id}`))
    ).items;
    await expectJson(
      await srv("PATCH", `${PROVIDERS}/${first.user.id}/${record?.id}`, { allow_sign_in: false }),
    );
    // The same provider account now signs up a new user instead of signing in the first one.
    const second = await redeem(keys, await throughProvider(keys, email));
    expect(second.user.id).not.toBe(first.user.id);
    expect(second.tokens.is_new_user).toBe(true);
  });
});
