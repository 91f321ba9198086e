// The request lookup asks for what its request reads (issue 24): pg and drizzle spend per column of every answer,
// and the database per join and subquery. Recorded at the driver, so widening a lookup again fails here.
import { sql } from "drizzle-orm";
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
  // The first request of a process reads the project's row; the lookups below are the ones that follow.
  await expectJson(
    await server.request("/api/v1/projects/current", { headers: accessHeaders("client", keys) }),
  );
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
/** The statements reading the projects table (on PostgreSQL, a request's rate-limit counters are statements too). */
const projectReads = (statements: string[]) => statements.filter((s) => s.includes('from "projects"'));
const lookupOf = (statements: string[]) => {
  const lookups = projectReads(statements);
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

describe("the project row", () => {
  const current = async (projectKeys: ProjectKeys) =>
    server.request("/api/v1/projects/current", { headers: accessHeaders("client", projectKeys) });

  it("is read once: later lookups read its version, not its columns", async () => {
    const reads = projectReads(
      await statementsOf("/api/v1/projects/current", { headers: accessHeaders("client", keys) }),
    );
    expect(reads).toHaveLength(1);
    expect(reads[0]).toContain("xmin");
    expect(reads[0]).not.toContain('"config"');
  });

  it("is read again after any change, a route's or one made in the database by hand", async () => {
    const own = (await server.createProject()).keys;
    await expectJson(await current(own));
    const renamed = await server.request("/api/v1/projects/current", {
      method: "PATCH",
      headers: { ...accessHeaders("admin", own), "content-type": "application/json" },
      body: JSON.stringify({ display_name: "Renamed by the API" }),
    });
    await expectJson(renamed);
    expect(await expectJson(await current(own))).toMatchObject({ display_name: "Renamed by the API" });
    // Not through Gatehouse at all (an operator's psql, another process, a trigger): the row version still moves.
    await server.deps.db.execute(
      sql`update projects set display_name = 'Renamed by hand' where id = ${own.projectId}`,
    );
    const reads = projectReads(
      await statementsOf("/api/v1/projects/current", { headers: accessHeaders("client", own) }),
    );
    expect(reads).toHaveLength(2);
    expect(reads[1]).toContain('"config"');
    expect(await expectJson(await current(own))).toMatchObject({ display_name: "Renamed by hand" });
  });

  it("is read once by the requests that arrive together after a change", async () => {
    const own = (await server.createProject()).keys;
    await expectJson(await current(own));
    await server.deps.db.execute(sql`update projects set display_name = 'Busy' where id = ${own.projectId}`);
    const statements = await recordStatements(server.deps.database, async () => {
      const answers = await Promise.all(Array.from({ length: 50 }, () => current(own)));
      for (const answer of answers) expect(await expectJson(answer)).toMatchObject({ display_name: "Busy" });
    });
    expect(projectReads(statements).filter((s) => s.includes('"config"'))).toHaveLength(1);
  });

  it("is gone with its project: the next request names no project", async () => {
    const own = (await server.createProject()).keys;
    await expectJson(await current(own));
    await server.deps.db.execute(sql`delete from projects where id = ${own.projectId}`);
    const res = await current(own);
    expect(res.headers.get("x-stack-known-error")).toBe("CURRENT_PROJECT_NOT_FOUND");
  });

  it("is shared by requests, so it is frozen: code that would change it fails instead of leaking", async () => {
    const found = await server.deps.requestRepo.lookup({ projectId: keys.projectId, now: new Date() });
    expect(Object.isFrozen(found?.project)).toBe(true);
    expect(Object.isFrozen(found?.project.config)).toBe(true);
    expect(() => {
      (found?.project.config as { sign_up_enabled: boolean }).sign_up_enabled = false;
    }).toThrow(TypeError);
  });
});
