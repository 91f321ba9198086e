// The request lookup asks for what its request reads (issue 24): pg and drizzle spend per column of every answer,
// and the database per join and subquery. Recorded at the driver, so widening a lookup again fails here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectJson } from "../testing/expect-error.ts";
import { recordStatements } from "../testing/statement-recorder.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  withToken,
} from "../testing/test-server.ts";

let server: TestServer;
let keys: ProjectKeys;

beforeAll(async () => {
  server = await createTestServer();
  ({ keys } = await server.createProject());
});

afterAll(async () => {
  await server?.close();
});

/** The statements one request sends, and its JSON answer. */
async function statementsOf(path: string, init: RequestInit): Promise<string[]> {
  return recordStatements(server.deps.database, async () => {
    await expectJson(await server.request(path, init));
  });
}
const lookupOf = (statements: string[]) => {
  const lookups = statements.filter((s) => s.includes('from "projects"'));
  expect(lookups).toHaveLength(1);
  return lookups[0] ?? "";
};

describe("the request lookup", () => {
  it("joins no session, user or team for a request without an access token", async () => {
    const lookup = lookupOf(
      await statementsOf("/api/v1/projects/current", { headers: accessHeaders("client", keys) }),
    );
    expect(lookup).not.toContain('"sessions"');
    expect(lookup).not.toContain('"users"');
  });

  it("reads the whole user record for a request with an access token (GET /users/me answers with it)", async () => {
    const { accessToken } = await server.signIn(keys.projectId);
    const lookup = lookupOf(
      await statementsOf("/api/v1/users/me", {
        headers: { ...accessHeaders("client", keys), ...withToken(accessToken) },
      }),
    );
    expect(lookup).toContain('"selected_team"');
    expect(lookup).toContain("from passkeys");
  });

  it("reads only the token's subject for a refresh: no team, linked accounts or passkeys", async () => {
    const { refreshToken } = await server.signIn(keys.projectId);
    const statements = await statementsOf("/api/v1/auth/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        client_id: keys.projectId,
        client_secret: keys.pck,
        refresh_token: refreshToken,
      }).toString(),
    });
    const lookup = lookupOf(statements);
    expect(lookup).toContain('"sessions"."refresh_token_hash"');
    expect(lookup).not.toContain('"selected_team"');
    expect(lookup).not.toContain("oauth_accounts");
    expect(lookup).not.toContain("passkeys");
    expect(lookup).not.toContain('"password_hash"');
  });
});
