// Imports fixture exports made here in each provider's real format, with hashes made by each provider's algorithm
// (bcrypt for Clerk and Auth0, Firebase's scrypt variant by an independent implementation), through the API of a
// real app; then the users sign in with their original passwords over HTTP, and the stored hash becomes argon2id.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import bcrypt from "bcryptjs";
import { FirebaseScrypt } from "firebase-scrypt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../cli/api-client.ts";
import {
  createTestServer,
  type ProjectKeys,
  passwordSignInStatus,
  type TestServer,
} from "../testing/test-server.ts";
import { httpSink } from "./http-sink.ts";
import { type ImportOptions, importReader, type Provider } from "./index.ts";
import { ImportFileError, runImport } from "./run.ts";

let server: TestServer;
let keys: ProjectKeys;
const dir = mkdtempSync(join(tmpdir(), "gatehouse-import-"));

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

async function importFile(provider: Provider, file: string, options: ImportOptions = {}, dryRun = false) {
  return runImport({
    provider,
    file,
    read: await importReader(provider, file, options),
    sink: httpSink(api(), provider),
    dryRun,
  });
}

const signIn = (email: string, password: string) => passwordSignInStatus(server, keys, email, password);

async function storedHash(email: string) {
  const page = await api()<{ items: { id: string }[] }>("GET", `/users?query=${encodeURIComponent(email)}`);
  const user = await server.deps.usersRepo.find(keys.projectId, page.items[0]?.id ?? "");
  return user?.passwordHash;
}

const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe("Clerk CSV", () => {
  it("imports users with bcrypt digests who then sign in with their old passwords", async () => {
    const digest = await bcrypt.hash("clerk-pass-1", 10);
    const header =
      "id,first_name,last_name,username,primary_email_address,primary_phone_number,verified_email_addresses,unverified_email_addresses,verified_phone_numbers,unverified_phone_numbers,totp_secret,password_digest,password_hasher";
    const file = write(
      "clerk.csv",
      `${header}\nuser_2a,Ada,Lovelace,ada,ada@clerk.test,,ada@clerk.test,,,,,${digest},bcrypt\nuser_2b,Bob,,,bob@clerk.test,,,bob@clerk.test,,,,,\nuser_2c,Cy,,,cy@clerk.test,,cy@clerk.test,,,,,abc,argon2\n`,
    );
    const report = await importFile("clerk", file);
    expect(report).toMatchObject({ records: 3, created: 2, existing: 0, skipped_count: 1 });
    expect(report.skipped[0]).toMatchObject({ line: 4, reason: expect.stringContaining("argon2") });
    expect(await signIn("ada@clerk.test", "clerk-pass-1")).toBe(200);
    expect(await storedHash("ada@clerk.test")).toMatch(/^\$argon2id\$/);
    expect(await signIn("ada@clerk.test", "wrong-pass-1")).toBe(400);
    const [ada] = (await api()<{ items: Record<string, unknown>[] }>("GET", "/users?query=ada%40clerk.test"))
      .items;
    expect(ada).toMatchObject({
      primary_email_verified: true,
      display_name: "Ada Lovelace",
      server_metadata: { username: "ada", imported_from: { provider: "clerk", id: "user_2a" } },
    });
    // Idempotent: a second run finds them all there.
    expect(await importFile("clerk", file)).toMatchObject({ created: 0, existing: 2 });
  });
});

describe("Auth0 NDJSON with the password-hash export", () => {
  it("joins hashes to users by id and keeps social identities", async () => {
    const hash = await bcrypt.hash("auth0-pass-1", 10);
    const users = write(
      "auth0.ndjson",
      [
        {
          user_id: "auth0|64a1",
          email: "Ann@Auth0.test",
          email_verified: true,
          name: "Ann",
          user_metadata: { theme: "dark" },
          identities: [{ provider: "auth0", user_id: "64a1", isSocial: false }],
        },
        {
          user_id: "github|777",
          email: "gil@auth0.test",
          email_verified: true,
          identities: [{ provider: "github", user_id: 777, isSocial: true }],
        },
      ]
        .map((line) => JSON.stringify(line))
        .join("\n"),
    );
    const hashes = write(
      "auth0-hashes.ndjson",
      `${JSON.stringify({ _id: { $oid: "64a1" }, email: "ann@auth0.test", passwordHash: hash })}\n`,
    );
    const report = await importFile("auth0", users, { passwords: hashes });
    expect(report).toMatchObject({ records: 2, created: 2, skipped_count: 0 });
    expect(await signIn("ann@auth0.test", "auth0-pass-1")).toBe(200);
    const [gil] = (await api()<{ items: Record<string, unknown>[] }>("GET", "/users?query=gil%40auth0.test"))
      .items;
    expect(gil?.oauth_providers).toEqual([expect.objectContaining({ id: "github", account_id: "777" })]);
  });
});

describe("Firebase auth:export", () => {
  it("imports scrypt hashes with the project's parameters; the users sign in", async () => {
    const firebase = {
      memCost: 14,
      rounds: 8,
      signerKey: Buffer.alloc(64, 7).toString("base64"),
      saltSeparator: "Bw==",
    };
    const reference = new FirebaseScrypt(firebase);
    const salt = "42xEC+ixf3L2lw==";
    const passwordHash: string = await reference.hash("firebase-pass-1", salt);
    const file = write(
      "firebase.json",
      JSON.stringify(
        {
          users: [
            {
              localId: "fb1",
              email: "fay@firebase.test",
              emailVerified: true,
              passwordHash,
              salt,
              displayName: "Fay",
              customAttributes: '{"plan":"pro"}',
              providerUserInfo: [{ providerId: "password", rawId: "fay@firebase.test" }],
            },
          ],
        },
        null,
        2,
      ),
    );
    // Without the parameters the hash cannot be read: the record is skipped, not imported without its password.
    expect(await importFile("firebase", file, {}, true)).toMatchObject({ skipped_count: 1 });
    expect(await importFile("firebase", file, { firebase })).toMatchObject({ created: 1 });
    expect(await signIn("fay@firebase.test", "firebase-pass-1")).toBe(200);
    expect(await storedHash("fay@firebase.test")).toMatch(/^\$argon2id\$/);
  });
});

describe("generic format", () => {
  it("imports teams with memberships and roles, and a broken file imports nothing", async () => {
    const hash = await bcrypt.hash("generic-pass-1", 8);
    const lines = [
      {
        id: "g1",
        email: "gus@generic.test",
        email_verified: true,
        password_hash: hash,
        teams: [{ id: "t1", display_name: "Acme", role: "admin" }],
      },
      { id: "g2", email: "gia@generic.test", teams: [{ id: "t1", display_name: "Acme" }] },
      { id: "g3", email: "not-an-email" },
    ];
    const file = write("generic.ndjson", `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
    const report = await importFile("generic", file);
    expect(report).toMatchObject({
      records: 3,
      created: 2,
      skipped: [{ line: 3, reason: expect.stringContaining("email") }],
    });
    const teams = await api()<{ items: { id: string; display_name: string }[] }>("GET", "/teams");
    const acme = teams.items.filter((team) => team.display_name === "Acme");
    expect(acme).toHaveLength(1);
    const members = await api()<{ items: unknown[] }>("GET", `/users?team_id=${acme[0]?.id}`);
    expect(members.items).toHaveLength(2);
    expect(await signIn("gus@generic.test", "generic-pass-1")).toBe(200);

    const broken = write(
      "broken.ndjson",
      `${JSON.stringify({ id: "b1", email: "b1@generic.test" })}\n{"id": "b2",\n`,
    );
    await expect(importFile("generic", broken)).rejects.toThrow(ImportFileError);
    await expect(importFile("generic", broken)).rejects.toThrow(/^line 2: malformed JSON/);
    expect((await api()<{ items: unknown[] }>("GET", "/users?query=b1%40generic.test")).items).toHaveLength(
      0,
    );
  });
});
