// The bulk import endpoint (issue 23): a batch in one request and one transaction, idempotent by source id, every
// record not written answered with why; admin access only, and a malformed batch is a known error.
import type { ImportBatchAnswer } from "@gatehouse/contract";
import { afterAll, beforeAll, expect, it } from "vitest";
import { expectJson, expectKnownError } from "../testing/expect-error.ts";
import {
  type AccessType,
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
} from "../testing/test-server.ts";

let server: TestServer;
let keys: ProjectKeys;
const BCRYPT = "$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy";

beforeAll(async () => {
  server = await createTestServer();
  ({ keys } = await server.createProject());
});
afterAll(() => server.close());

const post = (body: unknown, type: AccessType = "admin") =>
  server.request("/api/v1/internal/imports/users", {
    method: "POST",
    headers: { ...accessHeaders(type, keys), "content-type": "application/json" },
    body: JSON.stringify(body),
  });

it("writes a batch, answers each record, and leaves users imported before alone", async () => {
  await expectJson(
    await server.request("/api/v1/users", {
      method: "POST",
      headers: { ...accessHeaders("server", keys), "content-type": "application/json" },
      body: JSON.stringify({ primary_email: "taken@bulk.test", primary_email_auth_enabled: true }),
    }),
    201,
  );
  const users = [
    {
      id: "a",
      email: "a@bulk.test",
      password_hash: BCRYPT,
      teams: [{ id: "t1", display_name: "Team", role: "admin" }],
    },
    { id: "b", email: "b@bulk.test", oauth_accounts: [{ provider: "google-oauth2", account_id: "g-b" }] },
    { id: "c", email: "c@bulk.test", password_hash: "$md5$nope" },
    { id: "d", email: "TAKEN@bulk.test" },
    { id: "a", email: "a2@bulk.test" },
    { id: "e", email: "e@bulk.test", oauth_accounts: [{ provider: "google.com", account_id: "g-b" }] },
  ];
  const first = await expectJson<ImportBatchAnswer>(await post({ provider: "clerk", users }));
  expect(first).toMatchObject({ created: 2, existing: 0, skipped: 4 });
  expect(first.items.map((item) => [item.id, item.result])).toEqual([
    ["a", "created"],
    ["b", "created"],
    ["c", "skipped"],
    ["d", "skipped"],
    ["a", "skipped"],
    ["e", "skipped"],
  ]);
  expect(first.items[2]?.reason).toContain("password_hash");
  expect(first.items[3]?.reason).toContain("email");
  expect(first.items[4]?.reason).toContain("earlier in this batch");
  expect(first.items[5]?.reason).toContain("oauth_accounts");

  const created = await expectJson<{
    server_metadata: unknown;
    oauth_providers: { id: string }[];
    has_password: boolean;
  }>(
    await server.request(`/api/v1/users/${first.items[0]?.user_id}`, {
      headers: accessHeaders("server", keys),
    }),
  );
  expect(created).toMatchObject({
    server_metadata: { imported_from: { provider: "clerk", id: "a" } },
    has_password: true,
  });
  const team = await expectJson<{ items: { id: string; display_name: string }[] }>(
    await server.request(`/api/v1/teams?user_id=${first.items[0]?.user_id}`, {
      headers: accessHeaders("server", keys),
    }),
  );
  expect(team.items.map((t) => t.display_name)).toEqual(["Team"]);

  // Again: the same source ids are found and left alone; another provider's "a" is someone else.
  const again = await expectJson<ImportBatchAnswer>(
    await post({ provider: "clerk", users: users.slice(0, 2) }),
  );
  expect(again).toMatchObject({ created: 0, existing: 2, skipped: 0 });
  expect(again.items[0]?.user_id).toBe(first.items[0]?.user_id);
  const other = await expectJson<ImportBatchAnswer>(
    await post({ provider: "auth0", users: [{ id: "a", email: "other-a@bulk.test" }] }),
  );
  expect(other).toMatchObject({ created: 1, existing: 0 });
});

it("is for admin callers only, and a malformed or oversized batch is a known error", async () => {
  const one = { provider: "generic", users: [{ id: "x", email: "x@bulk.test" }] };
  await expectKnownError(await post(one, "server"), "INSUFFICIENT_ACCESS_TYPE");
  await expectKnownError(await post({ provider: "generic", users: [{ id: "x", nope: 1 }] }), "SCHEMA_ERROR");
  await expectKnownError(
    await post({ provider: "generic", users: Array.from({ length: 1001 }, (_, i) => ({ id: `${i}` })) }),
    "SCHEMA_ERROR",
  );
});
