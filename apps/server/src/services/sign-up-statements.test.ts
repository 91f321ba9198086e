// Sign-up's transaction does what must be in it and nothing more (issue 24): the statements one password sign-up
// sends are recorded at the database driver, so each saving below fails this test if it is undone.

import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectJson, expectKnownError } from "../testing/expect-error.ts";
import { recordStatements } from "../testing/statement-recorder.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueEmail,
} from "../testing/test-server.ts";

let server: TestServer;
let keys: ProjectKeys;

beforeAll(async () => {
  server = await createTestServer();
  ({ keys } = await server.createProject({ config: { create_team_on_sign_up: true } }));
});

afterAll(async () => {
  await server?.close();
});

/** A password sign-up or sign-in of this address, as a client sends it. */
const passwordCall = (path: "sign-up" | "sign-in", email: string) =>
  server.request(`/api/v1/auth/password/${path}`, {
    method: "POST",
    headers: { ...accessHeaders("client", keys), "content-type": "application/json" },
    body: JSON.stringify({ email, password: "a long enough password 1" }),
  });

async function signUpStatements(): Promise<string[]> {
  return recordStatements(server.deps.database, async () => {
    await expectJson(await passwordCall("sign-up", uniqueEmail()));
  });
}

const transactionOf = (statements: string[]) =>
  statements.slice(statements.indexOf("begin"), statements.lastIndexOf("commit") + 1);

describe("a password sign-up's transaction", () => {
  it("inserts its webhook events (team, membership and grant, user) in one statement", async () => {
    const tx = transactionOf(await signUpStatements());
    const eventInserts = tx.filter((s) => s.startsWith('insert into "webhook_events" ("id"'));
    expect(eventInserts).toHaveLength(1);
    // team.created, team_membership.created, team_permission.created, user.created: four rows.
    expect(eventInserts[0]?.match(/\(\$\d+, default,/g)).toHaveLength(4);
  });

  it("inserts the user with its personal team selected instead of updating it afterwards", async () => {
    const tx = transactionOf(await signUpStatements());
    expect(tx.filter((s) => s.startsWith('update "users"'))).toEqual([]);
    const team = tx.findIndex((s) => s.startsWith('insert into "teams"'));
    const user = tx.findIndex((s) => s.startsWith('insert into "users"'));
    expect(team).toBeGreaterThan(-1);
    expect(team).toBeLessThan(user);
  });

  it("builds the user.created record from what the inserts returned, without reading the user back", async () => {
    const tx = transactionOf(await signUpStatements());
    expect(tx.filter((s) => s.startsWith('select "users"."id"'))).toEqual([]);
  });

  it("records user.created with the user exactly as a read finds it afterwards", async () => {
    const server_ = accessHeaders("server", keys);
    const created = await expectJson(
      await server.request("/api/v1/users", {
        method: "POST",
        headers: { ...server_, "content-type": "application/json" },
        body: JSON.stringify({
          primary_email: uniqueEmail(),
          primary_email_verified: true,
          primary_email_auth_enabled: true,
          display_name: "Full User",
          password: "a long enough password 1",
          client_metadata: { a: 1 },
          server_metadata: { b: 2 },
          oauth_providers: [{ id: "github", account_id: "gh-1", email: "gh@example.com" }],
          country_code: "de",
        }),
      }),
      201,
    );
    const read = await expectJson(await server.request(`/api/v1/users/${created.id}`, { headers: server_ }));
    const events = await server.deps.events.list(keys.projectId);
    const event = events.findLast((e) => e.type === "user.created" && e.data.id === created.id);
    expect(read.selected_team).not.toBeNull();
    expect(event?.data).toEqual(read);
  });

  it("grants the personal team's default permissions in one statement, definitions checked inside it", async () => {
    const tx = transactionOf(await signUpStatements());
    expect(tx.filter((s) => s.includes('from "permission_definitions"') && s.startsWith("select"))).toEqual(
      [],
    );
    const grants = tx.filter((s) => s.includes('insert into "team_permission_grants"'));
    expect(grants).toHaveLength(1);
    expect(grants[0]).toContain('from "permission_definitions"');
  });

  it("leaves the address to the unique index: nothing of it is read before the transaction", async () => {
    const statements = await signUpStatements();
    const before = statements.slice(0, statements.indexOf("begin"));
    expect(before.filter((s) => s.includes('"contact_channels"'))).toEqual([]);
  });

  it("refuses a taken address with the known error, and writes nothing of the second sign-up", async () => {
    const email = uniqueEmail();
    await expectJson(await passwordCall("sign-up", email));
    const count = async () => {
      const rows = await server.deps.db.execute(sql`
        select (select count(*) from teams where project_id = ${keys.projectId})::int as teams,
               (select count(*) from users where project_id = ${keys.projectId})::int as users,
               (select count(*) from webhook_events where project_id = ${keys.projectId})::int as events`);
      return (rows as unknown as { rows: unknown[] }).rows[0];
    };
    const before = await count();
    // The same address in other letters: the index compares the normalised form.
    await expectKnownError(await passwordCall("sign-up", email.toUpperCase()), "USER_EMAIL_ALREADY_EXISTS");
    expect(await count()).toEqual(before);
  });

  it("records the new user's device with the session's insert, without reading the devices it cannot have", async () => {
    const tx = transactionOf(await signUpStatements());
    expect(tx.filter((s) => s.includes('from "known_devices"'))).toEqual([]);
    const deviceWrites = tx.filter((s) => s.includes('insert into "known_devices"'));
    expect(deviceWrites).toHaveLength(1);
    expect(deviceWrites[0]).toMatch(/^with opened as \(insert into "sessions"/);
  });
});

describe("minting the access token of a password sign-up or sign-in", () => {
  const projectReads = (statements: string[]) =>
    statements.filter((s) => s.startsWith('select "id", "display_name"'));

  it("uses the project the request read, not a second read of it", async () => {
    expect(projectReads(await signUpStatements())).toEqual([]);
    const email = uniqueEmail();
    await expectJson(await passwordCall("sign-up", email));
    const signIn = await recordStatements(server.deps.database, async () => {
      expect(typeof (await expectJson(await passwordCall("sign-in", email))).access_token).toBe("string");
    });
    expect(projectReads(signIn)).toEqual([]);
  });

  it("checks the address's domain for enforced SSO against the project row the request read, not a query", async () => {
    const email = uniqueEmail();
    const signUp = await recordStatements(server.deps.database, async () =>
      expectJson(await passwordCall("sign-up", email)),
    );
    const signIn = await recordStatements(server.deps.database, async () =>
      expectJson(await passwordCall("sign-in", email)),
    );
    const domainQueries = (statements: string[]) => statements.filter((s) => s.includes('"sso_domains"'));
    expect(signUp.length).toBeGreaterThan(0);
    expect(domainQueries(signUp)).toEqual([]);
    expect(domainQueries(signIn)).toEqual([]);
  });

  it("reads what the new-device notice needs with the sign-in's user, not in a statement of its own", async () => {
    const email = uniqueEmail();
    await expectJson(await passwordCall("sign-up", email));
    const signIn = await recordStatements(server.deps.database, async () =>
      expectJson(await passwordCall("sign-in", email)),
    );
    const deviceReads = signIn.filter((s) => s.startsWith("select") && s.includes('"known_devices"'));
    expect(deviceReads).toHaveLength(1);
    expect(deviceReads[0]).toContain('from "contact_channels"');
  });

  it("writes the session and its audit entry in one statement", async () => {
    const email = uniqueEmail();
    await expectJson(await passwordCall("sign-up", email));
    const signIn = await recordStatements(server.deps.database, async () =>
      expectJson(await passwordCall("sign-in", email)),
    );
    // The rate limits' own counters aside (off in the benchmark, on here).
    const statements = signIn.filter((s) => !/^(insert into|update) "rate_limit_/.test(s));
    const writes = statements.filter((s) => !s.startsWith("select"));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^with opened as \(insert into "sessions"/);
    expect(writes[0]).toContain('insert into "audit_log"');
    expect(statements).toHaveLength(3);
  });
});

describe("a refresh", () => {
  it("mints its token with the project the request read, not a second read of it", async () => {
    const signedUp = await expectJson(
      await server.request("/api/v1/auth/password/sign-up", {
        method: "POST",
        headers: { ...accessHeaders("client", keys), "content-type": "application/json" },
        body: JSON.stringify({ email: uniqueEmail(), password: "a long enough password 1" }),
      }),
    );
    const statements = await recordStatements(server.deps.database, async () => {
      const response = await server.request("/api/v1/auth/sessions/current/refresh", {
        method: "POST",
        headers: {
          ...accessHeaders("client", keys),
          "x-stack-refresh-token": String(signedUp.refresh_token),
        },
      });
      expect(typeof (await expectJson(response)).access_token).toBe("string");
    });
    expect(statements.filter((s) => s.startsWith('select "id", "display_name"'))).toEqual([]);
  });
});
