// Issue 15 item 4: input that made the server answer 500. NUL and unpaired surrogates anywhere in any input part are
// a SCHEMA_ERROR; JSON nested beyond 1,000 levels is a BODY_PARSING_ERROR; ids that cannot exist name nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueIp,
} from "../testing/test-server.ts";
import { MAX_JSON_DEPTH } from "./body.ts";

let server: TestServer;
let keys: ProjectKeys;
let user: { accessToken: string; userId: string };
let teamId: string;

type Who = "client" | "server" | null;

function call(method: string, path: string, who: Who, body?: string, contentType = "application/json") {
  const headers: Record<string, string> = { "x-forwarded-for": uniqueIp() };
  if (who) Object.assign(headers, accessHeaders(who, keys), { "x-stack-access-token": user.accessToken });
  if (body !== undefined) headers["content-type"] = contentType;
  return server.request(`/api/v1${path}`, { method, headers, body });
}

beforeAll(async () => {
  server = await createTestServer();
  ({ keys } = await server.createProject({ config: { client_team_creation_enabled: true } }));
  user = await server.signIn(keys.projectId);
  const team = await expectJson<{ id: string }>(
    await call(
      "POST",
      "/teams",
      "server",
      JSON.stringify({ display_name: "T", creator_user_id: user.userId }),
    ),
    201,
  );
  teamId = team.id;
});
afterAll(() => server.close());

/** JSON text of `[[[…0…]]]`, `depth` arrays deep. */
const nested = (depth: number) => `${"[".repeat(depth)}0${"]".repeat(depth)}`;

describe("NUL and unpaired surrogates are a SCHEMA_ERROR wherever they are", () => {
  const cases: [string, string, string, Who, string?, string?][] = [
    ["a path id", "GET", "/projects/%00/.well-known/jwks.json", null],
    [
      "a form field of the token endpoint",
      "POST",
      "/auth/oauth/token",
      null,
      "grant_type=refresh_token&client_id=%00&client_secret=x&refresh_token=y",
      "application/x-www-form-urlencoded",
    ],
    ["a display name", "PATCH", "/users/me", "client", '{"display_name":"a\\u0000b"}'],
    ["a metadata value", "PATCH", "/users/me", "client", '{"client_metadata":{"k":"\\ud800"}}'],
    ["a metadata key", "PATCH", "/users/me", "server", '{"server_metadata":{"a\\u0000":1}}'],
    [
      "a nested metadata value",
      "PATCH",
      "/users/me",
      "server",
      '{"client_read_only_metadata":[{"k":["x\\udc00"]}]}',
    ],
    ["a new team's name", "POST", "/teams", "client", '{"display_name":"a\\u0000b","creator_user_id":"me"}'],
    ["a team's name", "PATCH", "/teams/{team}", "server", '{"display_name":"\\udbff"}'],
    [
      "a member profile's name",
      "PATCH",
      "/team-member-profiles/{team}/me",
      "client",
      '{"display_name":"a\\u0000b"}',
    ],
    ["a search query", "GET", "/users?query=%00", "server"],
    ["an unknown field's key", "PATCH", "/users/me", "client", '{"\\u0000":1}'],
  ];
  it.each(cases)("in %s", async (_what, method, path, who, body, contentType) => {
    const res = await call(method, path.replace("{team}", teamId), who, body, contentType);
    const answer = await expectKnownError(res, "SCHEMA_ERROR");
    expect(answer.message).toContain("must not contain NUL characters or unpaired surrogates");
  });

  it("and the text is not echoed back", async () => {
    const res = await call("PATCH", "/users/me", "client", '{"client_metadata":{"a\\u0000b":1}}');
    const answer = await expectKnownError(res, "SCHEMA_ERROR");
    expect(answer.message).toContain("body.client_metadata: has a key that must not contain");
    expect(answer.message).not.toContain("\u0000");
  });
});

describe("JSON bodies nest at most 1,000 levels", () => {
  it("100,000 nested arrays are a BODY_PARSING_ERROR, not a stack overflow", async () => {
    const res = await call("PATCH", "/users/me", "client", `{"client_metadata":${nested(100_000)}}`);
    await expectKnownError(res, "BODY_PARSING_ERROR");
  });

  it("one level beyond the limit is refused, brackets inside strings do not count", async () => {
    // The body object is one level, the metadata array the rest.
    const over = await call("PATCH", "/users/me", "client", `{"client_metadata":${nested(MAX_JSON_DEPTH)}}`);
    expect((await expectKnownError(over, "BODY_PARSING_ERROR")).message).toBe("Invalid JSON in request body");
    const quoted = JSON.stringify({ client_metadata: { k: `${"[".repeat(5000)}"\\` } });
    await expectJson(await call("PATCH", "/users/me", "client", quoted));
  });

  it("metadata at the limit is stored and read back whole", async () => {
    const deepest = nested(MAX_JSON_DEPTH - 1);
    const res = await call("PATCH", "/users/me", "client", `{"client_metadata":${deepest}}`);
    const updated = await expectJson<{ client_metadata: unknown }>(res);
    expect(JSON.stringify(updated.client_metadata)).toBe(deepest);
  });
});

describe("ids that cannot exist are checked before any query", () => {
  it("POST /auth/sessions with a user id that is not a UUID: USER_ID_DOES_NOT_EXIST", async () => {
    const res = await call("POST", "/auth/sessions", "server", '{"user_id":"x"}');
    await expectKnownError(res, "USER_ID_DOES_NOT_EXIST", { user_id: "x" });
  });

  it("sessions of a user id that is not a UUID: none, and no such session", async () => {
    const list = await expectJson<{ items: unknown[] }>(
      await call("GET", "/auth/sessions?user_id=x", "server"),
    );
    expect(list.items).toEqual([]);
    const res = await call("DELETE", `/auth/sessions/x?user_id=${user.userId}`, "server", "{}");
    await expectTextError(res, 404, "Session not found.");
  });

  it("an access token whose key id PostgreSQL cannot store: UNPARSABLE_ACCESS_TOKEN", async () => {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const forged = `${part({ alg: "ES256", kid: "\u0000" })}.${part({ aud: keys.projectId, sub: "x" })}.AAAA`;
    const res = await server.request("/api/v1/users/me", {
      headers: { ...accessHeaders("client", keys), "x-stack-access-token": forged },
    });
    await expectKnownError(res, "UNPARSABLE_ACCESS_TOKEN");
  });
});
