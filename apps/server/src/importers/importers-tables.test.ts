// Supabase, Better Auth and Stack Auth exports, made here in each one's table or API format with real hashes
// (bcrypt as Supabase's GoTrue stores it; Better Auth's scrypt computed as its password module does), imported
// through a real app; the users then sign in with their original passwords over HTTP.
import { randomBytes, scryptSync } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import bcrypt from "bcryptjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../cli/api-client.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueIp,
} from "../testing/test-server.ts";
import { betterAuthHash } from "./better-auth.ts";
import { httpSink } from "./http-sink.ts";
import { type ImportOptions, importReader, type Provider } from "./index.ts";
import { runImport } from "./run.ts";

let server: TestServer;
let keys: ProjectKeys;
const dir = mkdtempSync(join(tmpdir(), "gatehouse-import-tables-"));

beforeAll(async () => {
  server = await createTestServer();
  ({ keys } = await server.createProject());
});
afterAll(() => server.close());

const api = () =>
  apiClient({
    url: "http://localhost",
    projectId: keys.projectId,
    adminKey: keys.sak,
    fetch: (url, init) => server.app.request(url, init),
  });
const importFile = async (provider: Provider, file: string, options: ImportOptions = {}) =>
  runImport({
    provider,
    file,
    read: await importReader(provider, file, options),
    sink: httpSink(api(), provider),
  });
const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const signIn = async (email: string, password: string) =>
  (
    await server.request("/api/v1/auth/password/sign-in", {
      method: "POST",
      headers: {
        ...accessHeaders("client", keys),
        "content-type": "application/json",
        "x-forwarded-for": uniqueIp(),
      },
      body: JSON.stringify({ email, password }),
    })
  ).status;
const findUser = async (email: string) =>
  (await api()<{ items: Record<string, unknown>[] }>("GET", `/users?query=${encodeURIComponent(email)}`))
    .items[0];

describe("Supabase auth.users + auth.identities (CSV)", () => {
  it("imports bcrypt passwords, confirmation state, metadata and identities", async () => {
    const hash = (await bcrypt.hash("supa-pass-1", 10)).replace(/^\$2b\$/, "$2a$");
    const users = write(
      "users.csv",
      [
        "instance_id,id,aud,role,email,encrypted_password,email_confirmed_at,raw_app_meta_data,raw_user_meta_data,created_at,is_anonymous",
        `00000000-0000-0000-0000-000000000000,6b2c8a3e-0000-4000-8000-000000000001,authenticated,authenticated,sam@supa.test,${hash},2024-01-01 00:00:00+00,"{""provider"":""email""}","{""full_name"":""Sam S""}",2024-01-01 00:00:00+00,false`,
        `00000000-0000-0000-0000-000000000000,6b2c8a3e-0000-4000-8000-000000000002,authenticated,authenticated,gh@supa.test,,,"{""provider"":""github""}",{},2024-01-01 00:00:00+00,false`,
      ].join("\n"),
    );
    const identities = write(
      "identities.csv",
      [
        "provider_id,user_id,identity_data,provider,id",
        `6b2c8a3e-0000-4000-8000-000000000001,6b2c8a3e-0000-4000-8000-000000000001,"{""sub"":""6b2c""}",email,i1`,
        `4242,6b2c8a3e-0000-4000-8000-000000000002,"{""sub"":""4242"",""email"":""gh@supa.test""}",github,i2`,
      ].join("\n"),
    );
    expect(await importFile("supabase", users, { identities })).toMatchObject({
      records: 2,
      created: 2,
      skipped_count: 0,
    });
    expect(await signIn("sam@supa.test", "supa-pass-1")).toBe(200);
    expect(await findUser("sam@supa.test")).toMatchObject({
      display_name: "Sam S",
      primary_email_verified: true,
    });
    expect((await findUser("gh@supa.test"))?.oauth_providers).toEqual([
      expect.objectContaining({ id: "github", account_id: "4242" }),
    ]);
  });
});

describe("Better Auth user + account (JSON rows)", () => {
  it("turns its salt:key scrypt into a PHC string that verifies", async () => {
    // As better-auth's password module: a 16-byte hex salt used as text, scrypt N=16384 r=16 p=1, 64 bytes.
    const salt = randomBytes(16).toString("hex");
    const key = scryptSync("better-pass-1".normalize("NFKC"), salt, 64, {
      N: 16384,
      r: 16,
      p: 1,
      maxmem: 64 * 1024 * 1024,
    });
    const stored = `${salt}:${key.toString("hex")}`;
    expect(betterAuthHash(stored)).toMatch(/^\$scrypt\$ln=14,r=16,p=1\$/);
    const users = write(
      "user.json",
      JSON.stringify([
        {
          id: "ba1",
          name: "Bea",
          email: "bea@better.test",
          emailVerified: true,
          image: null,
          createdAt: "2024-01-01T00:00:00Z",
        },
        { id: "ba2", name: "Ben", email: "ben@better.test", emailVerified: false },
      ]),
    );
    const accounts = write(
      "account.ndjson",
      [
        { id: "a1", accountId: "ba1", providerId: "credential", userId: "ba1", password: stored },
        { id: "a2", accountId: "g-99", providerId: "google", userId: "ba1" },
        { id: "a3", accountId: "ba2", providerId: "credential", userId: "ba2", password: "plaintext?" },
      ]
        .map((line) => JSON.stringify(line))
        .join("\n"),
    );
    const report = await importFile("better-auth", users, { accounts });
    expect(report).toMatchObject({
      records: 2,
      created: 1,
      skipped: [{ line: 2, reason: expect.stringContaining("salt:key") }],
    });
    expect(await signIn("bea@better.test", "better-pass-1")).toBe(200);
    expect((await findUser("bea@better.test"))?.oauth_providers).toEqual([
      expect.objectContaining({ id: "google", account_id: "g-99" }),
    ]);
  });
});

describe("Stack Auth users export", () => {
  it("imports users as Stack's API lists them", async () => {
    const file = write(
      "stack.json",
      JSON.stringify({
        items: [
          {
            id: "st1",
            primary_email: "sia@stack.test",
            primary_email_verified: true,
            display_name: "Sia",
            client_metadata: { a: 1 },
            server_metadata: { tier: "gold" },
            oauth_providers: [],
          },
        ],
        is_paginated: true,
      }),
    );
    expect(await importFile("stack-auth", file)).toMatchObject({ records: 1, created: 1 });
    expect(await findUser("sia@stack.test")).toMatchObject({
      display_name: "Sia",
      client_metadata: { a: 1 },
      server_metadata: { tier: "gold", imported_from: { provider: "stack-auth", id: "st1" } },
    });
  });
});
