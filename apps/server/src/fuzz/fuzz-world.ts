// The world a fuzzed route runs in: a fresh project with keys, a signed-in user, a team, a contact channel, a
// webhook endpoint and the ids of them all, so that generated requests can get past "not found" into the handlers.
import { expect } from "vitest";
import { accessHeaders, type ProjectKeys, type TestServer, uniqueEmail } from "../testing/test-server.ts";

export type FuzzWorld = {
  keys: ProjectKeys;
  /** Keys of another project: right keys, wrong project. */
  otherKeys: ProjectKeys;
  accessToken: string;
  /** An access token of another project's user. */
  otherAccessToken: string;
  ids: string[];
};

/** Settings that open the most paths: every sign-in method, client teams and client user deletion. */
const OPEN_CONFIG = {
  magic_link_enabled: true,
  passkey_enabled: true,
  client_team_creation_enabled: true,
  client_user_deletion_enabled: true,
  allow_user_api_keys: true,
  allow_team_api_keys: true,
  oauth_providers: [{ id: "github", type: "shared" as const, enabled: true }],
};

async function json(res: Response, status: number): Promise<Record<string, unknown>> {
  const text = await res.text();
  expect({ status: res.status, text }).toMatchObject({ status });
  return JSON.parse(text) as Record<string, unknown>;
}

/** A world of its own for each route, so that one route's deletes and revocations do not starve the next. */
export async function createFuzzWorld(server: TestServer, otherKeys: ProjectKeys, otherToken: string) {
  const { keys } = await server.createProject({ displayName: "Fuzz", config: OPEN_CONFIG });
  const { accessToken, userId, sessionId } = await server.signIn(keys.projectId, {
    email: uniqueEmail("fuzz"),
  });
  const call = async (method: string, path: string, body?: unknown, status = 200) =>
    json(
      await server.request(`/api/v1${path}`, {
        method,
        headers: { ...accessHeaders("admin", keys), "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      status,
    );
  const team = await call("POST", "/teams", { display_name: "Fuzz team", creator_user_id: userId }, 201);
  const channels = await call("GET", `/contact-channels?user_id=${userId}`);
  const endpoint = await call(
    "POST",
    "/internal/webhooks/endpoints",
    { url: "http://127.0.0.1:9/hook", filter_types: ["user.updated"] },
    201,
  );
  const apiKeys = await call("GET", "/internal/api-keys");
  const newKey = { description: "fuzz", expires_at_millis: null };
  const userKey = await call("POST", "/user-api-keys", { ...newKey, user_id: userId });
  const teamKey = await call("POST", "/team-api-keys", { ...newKey, team_id: team.id });
  const itemIds = (list: Record<string, unknown>) => (list.items as { id: string }[]).map((item) => item.id);
  const ids = [
    userId,
    sessionId,
    team.id as string,
    endpoint.id as string,
    ...itemIds(channels),
    ...itemIds(apiKeys),
    userKey.id as string,
    teamKey.id as string,
  ];
  return { keys, otherKeys, accessToken, otherAccessToken: otherToken, ids } satisfies FuzzWorld;
}
