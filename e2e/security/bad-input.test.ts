// Issue 15 item 4, black-box: the malformed requests that answered 500 on the real server (NUL, lone surrogates,
// 100,000-deep JSON, ids that are not ids), each now a known error of the catalogue, from every process of the
// cluster (two on one PostgreSQL database in the postgres run). The in-process fuzz suite covers every route.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Cluster, internalHeaders, startCluster } from "./cluster.ts";

let cluster: Cluster;
let userId: string;
let accessToken: string;
let teamId: string;

type Sent = {
  method: string;
  path: string;
  type: "none" | "client" | "server";
  body?: string;
  form?: string;
};

async function send(i: number, { method, path, type, body, form }: Sent) {
  const server = cluster.servers[i % cluster.servers.length]!;
  const headers: Record<string, string> = type === "none" ? {} : internalHeaders(server, type);
  if (type === "client") headers["x-stack-access-token"] = accessToken;
  if (body !== undefined) headers["content-type"] = "application/json";
  if (form !== undefined) headers["content-type"] = "application/x-www-form-urlencoded";
  const res = await fetch(`${server.baseUrl}/api/v1${path}`, { method, headers, body: body ?? form });
  return { status: res.status, code: res.headers.get("x-stack-known-error"), text: await res.text() };
}

beforeAll(async () => {
  cluster = await startCluster(2);
  const signUp = await send(0, {
    method: "POST",
    path: "/auth/password/sign-up",
    type: "server",
    body: JSON.stringify({ email: "fuzzed@example.com", password: "a good password" }),
  });
  ({ user_id: userId, access_token: accessToken } = JSON.parse(signUp.text));
  const team = await send(0, {
    method: "POST",
    path: "/teams",
    type: "server",
    body: JSON.stringify({ display_name: "Fuzzed", creator_user_id: userId }),
  });
  teamId = JSON.parse(team.text).id;
});
afterAll(() => cluster?.stop());

const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
const hostileBodies = {
  nul: JSON.stringify({ display_name: "a\u0000b" }),
  surrogate: JSON.stringify({ client_metadata: { k: "\ud800" } }),
  deep: `{"client_metadata":{"k":${deep}}}`,
};

describe("requests that answered 500 before", () => {
  const cases = (): [string, Sent, string][] => [
    [
      "a NUL project id at the JWKS, unauthenticated",
      { method: "GET", path: "/projects/%00/.well-known/jwks.json", type: "none" },
      "SCHEMA_ERROR",
    ],
    [
      "client_id=%00 at the token endpoint",
      {
        method: "POST",
        path: "/auth/oauth/token",
        type: "none",
        form: "grant_type=refresh_token&client_id=%00&client_secret=x&refresh_token=x",
      },
      "SCHEMA_ERROR",
    ],
    [
      "a session for a user id that is no id",
      { method: "POST", path: "/auth/sessions", type: "server", body: JSON.stringify({ user_id: "x" }) },
      "USER_ID_DOES_NOT_EXIST",
    ],
    ["a NUL user search", { method: "GET", path: "/users?query=%00", type: "server" }, "SCHEMA_ERROR"],
    ...Object.entries(hostileBodies).flatMap(([name, body]): [string, Sent, string][] => [
      [
        `PATCH /users/me with ${name}`,
        { method: "PATCH", path: "/users/me", type: "client", body },
        name === "deep" ? "BODY_PARSING_ERROR" : "SCHEMA_ERROR",
      ],
      [
        `POST /teams with ${name}`,
        { method: "POST", path: "/teams", type: "server", body },
        name === "deep" ? "BODY_PARSING_ERROR" : "SCHEMA_ERROR",
      ],
      [
        `PATCH /teams/{id} with ${name}`,
        { method: "PATCH", path: `/teams/${teamId}`, type: "server", body },
        name === "deep" ? "BODY_PARSING_ERROR" : "SCHEMA_ERROR",
      ],
      [
        `PATCH /team-member-profiles with ${name}`,
        { method: "PATCH", path: `/team-member-profiles/${teamId}/${userId}`, type: "server", body },
        name === "deep" ? "BODY_PARSING_ERROR" : "SCHEMA_ERROR",
      ],
    ]),
  ];

  it("each answers its known error from every process, never a 5xx", async () => {
    const all = cases();
    for (const [i, [name, sent, code]] of all.entries()) {
      for (let p = 0; p < cluster.servers.length; p++) {
        const answer = await send(i + p, sent);
        expect(answer.status, `${name}: ${answer.text}`).toBeLessThan(500);
        expect(answer.code, `${name}: ${answer.text}`).toBe(code);
      }
    }
    // The user is whole afterwards: nothing was half-written.
    const me = await send(0, { method: "GET", path: "/users/me", type: "client" });
    expect(JSON.parse(me.text)).toMatchObject({ id: userId, display_name: null, client_metadata: {} });
    for (const server of cluster.servers) expect(server.output()).not.toMatch(/"level":("error"|50)/);
  });
});
