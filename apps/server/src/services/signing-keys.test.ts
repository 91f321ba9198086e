// Signing key rotation (WIRE.md §3.2) through deps.signingKeys and the JWKS route, on the test clock: a new key is
// published at once but signs only after the JWKS cache time, old keys retire one access-token lifetime after they
// were superseded, and private keys are stored sealed.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { createLocalJWKSet, decodeProtectedHeader, type JWK, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../db/client.ts";
import { AUDIENCE_KINDS, type AudienceKind, signingKeys } from "../db/schema.ts";
import { tokenIssuerAndAudience } from "../services/sessions.ts";
import { expectKnownError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  TEST_BASE_URL,
  type TestServer,
} from "../testing/test-server.ts";
import { JWKS_CACHE_MS } from "./signing-keys.ts";

const LONG = 6 * 3600;

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

async function jwks(projectId: string, query = "") {
  const res = await server.request(`/api/v1/projects/${projectId}/.well-known/jwks.json${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as { keys: (JWK & { kid: string })[] };
}
const kidsOf = async (projectId: string, query = "") => (await jwks(projectId, query)).keys.map((k) => k.kid);

/** A rotation in its own transaction, as a scheduled job would run it. */
const rotate = (projectId: string) =>
  inTransaction(server.deps.db, (tx) => server.deps.signingKeys.rotate(tx, projectId));

async function kidOfNewToken(projectId: string, audience: AudienceKind = "default") {
  return decodeProtectedHeader(await server.mintAccessToken(projectId, { audience })).kid as string;
}

/** The app's answer to /projects/current with client keys and this access token. */
const currentWith = (keys: ProjectKeys, token: string) =>
  server.request("/api/v1/projects/current", {
    headers: { ...accessHeaders("client", keys), "x-stack-access-token": token },
  });

async function expectAccepted(keys: ProjectKeys, token: string) {
  const res = await currentWith(keys, token);
  expect(res.status).toBe(200);
  expect(((await res.json()) as { id: string }).id).toBe(keys.projectId);
}

describe("storage", () => {
  it("keeps private keys sealed and public keys without private parts", async () => {
    const { project } = await server.createProject({ displayName: "Sealed" });
    const rows = await server.deps.db.select().from(signingKeys).where(eq(signingKeys.projectId, project.id));
    expect(rows.map((r) => r.audience).sort()).toEqual(["anonymous", "default", "restricted"]);
    for (const row of rows) {
      expect(row.sealedPrivateJwk.startsWith("v1.")).toBe(true);
      expect(row.sealedPrivateJwk).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
      expect(row.sealedPrivateJwk).not.toContain('"d"');
      expect(row.sealedPrivateJwk).not.toContain(row.publicJwk.x);
      expect(Object.keys(row.publicJwk).sort()).toEqual(["alg", "crv", "kid", "kty", "x", "y"]);
      expect(row.publicJwk.kid).toBe(row.id);
      expect(row.retiredAt).toBeNull();
      expect(row.signsFrom.getTime()).toBe(server.clock.now().getTime());
    }
    expect(new Set(rows.map((r) => r.sealedPrivateJwk)).size).toBe(3);
  });
});

describe("rotation", () => {
  let keys: ProjectKeys;
  let start: number;
  const initial = {} as Record<AudienceKind, string>;
  const next = {} as Record<AudienceKind, string>;
  let oldToken: string;
  let newToken: string;

  beforeAll(async () => {
    keys = (await server.createProject({ displayName: "Rotation" })).keys;
    start = server.clock.now().getTime();
    for (const audience of AUDIENCE_KINDS) initial[audience] = await kidOfNewToken(keys.projectId, audience);
    oldToken = await server.mintAccessToken(keys.projectId, { expiresInSeconds: LONG });
  });

  it("starts with one key per audience, signing at once", async () => {
    expect(await kidsOf(keys.projectId)).toEqual([initial.default]);
    expect((await kidsOf(keys.projectId, "?include_anonymous=true")).sort()).toEqual(
      Object.values(initial).sort(),
    );
    await expectAccepted(keys, oldToken);
  });

  it("publishes a new key per audience at once, but keeps signing with the old ones", async () => {
    await rotate(keys.projectId);
    const published = await kidsOf(keys.projectId);
    expect(published).toHaveLength(2);
    expect(published).toContain(initial.default);
    const all = await kidsOf(keys.projectId, "?include_anonymous=true");
    expect(all).toHaveLength(6);
    for (const audience of AUDIENCE_KINDS) {
      expect(await kidOfNewToken(keys.projectId, audience)).toBe(initial[audience]);
    }
    // Just before the JWKS cache time is over, the old keys still sign.
    server.clock.advance(JWKS_CACHE_MS - 1000);
    for (const audience of AUDIENCE_KINDS) {
      expect(await kidOfNewToken(keys.projectId, audience)).toBe(initial[audience]);
    }
    const fresh = all.filter((kid) => !Object.values(initial).includes(kid));
    expect(fresh).toHaveLength(3);
  });

  it("signs with the new keys once the JWKS cache time is over; old tokens still verify", async () => {
    server.clock.set(new Date(start + JWKS_CACHE_MS + 1));
    const published = await kidsOf(keys.projectId, "?include_anonymous=true");
    for (const audience of AUDIENCE_KINDS) {
      next[audience] = await kidOfNewToken(keys.projectId, audience);
      expect(next[audience]).not.toBe(initial[audience]);
      expect(published).toContain(next[audience]);
    }
    expect(await kidsOf(keys.projectId)).toEqual([initial.default, next.default]);
    newToken = await server.mintAccessToken(keys.projectId, { expiresInSeconds: LONG });
    expect(decodeProtectedHeader(newToken).kid).toBe(next.default);
    await expectAccepted(keys, oldToken);
    await expectAccepted(keys, newToken);

    // A third-party verifier holding the JWKS fetched now accepts both.
    const set = createLocalJWKSet(await jwks(keys.projectId));
    const { iss, aud } = tokenIssuerAndAudience(TEST_BASE_URL, keys.projectId, "default");
    const verify = { issuer: iss, audience: aud, currentDate: server.clock.now() };
    expect((await jwtVerify(oldToken, set, verify)).protectedHeader.kid).toBe(initial.default);
    expect((await jwtVerify(newToken, set, verify)).protectedHeader.kid).toBe(next.default);
  });

  it("retires the superseded keys on the next rotation after one access-token lifetime", async () => {
    server.clock.set(new Date(start + JWKS_CACHE_MS + server.deps.accessTokenLifetimeMs + 1));
    // Until the rotation, the old key still verifies (the token itself has not expired).
    await expectAccepted(keys, oldToken);

    await rotate(keys.projectId);
    const published = await kidsOf(keys.projectId);
    expect(published).toHaveLength(2);
    expect(published[0]).toBe(next.default);
    expect(published).not.toContain(initial.default);
    const all = await kidsOf(keys.projectId, "?include_anonymous=true");
    expect(all).toHaveLength(6);
    for (const audience of AUDIENCE_KINDS) {
      expect(all).not.toContain(initial[audience]);
      expect(all).toContain(next[audience]);
      // The newest keys are only published: the current keys keep signing for another JWKS cache time.
      expect(await kidOfNewToken(keys.projectId, audience)).toBe(next[audience]);
    }

    await expectKnownError(await currentWith(keys, oldToken), "UNPARSABLE_ACCESS_TOKEN");
    await expectAccepted(keys, newToken);
  });
});

describe("retirement boundary", () => {
  it("keeps a superseded key until exactly one access-token lifetime after its successor started signing", async () => {
    const { keys } = await server.createProject({ displayName: "Boundary" });
    const start = server.clock.now().getTime();
    const first = await kidOfNewToken(keys.projectId);
    const token = await server.mintAccessToken(keys.projectId, { expiresInSeconds: LONG });
    await rotate(keys.projectId);

    server.clock.set(new Date(start + JWKS_CACHE_MS + server.deps.accessTokenLifetimeMs - 1));
    await rotate(keys.projectId);
    const kept = await kidsOf(keys.projectId);
    expect(kept).toHaveLength(3);
    expect(kept[0]).toBe(first);
    await expectAccepted(keys, token);

    server.clock.set(new Date(start + JWKS_CACHE_MS + server.deps.accessTokenLifetimeMs));
    await rotate(keys.projectId);
    const after = await kidsOf(keys.projectId);
    expect(after).toHaveLength(3);
    expect(after).not.toContain(first);
    await expectKnownError(await currentWith(keys, token), "UNPARSABLE_ACCESS_TOKEN");
  });
});

describe("admin API (issue 23)", () => {
  type Listed = {
    items: { kid: string; audience: AudienceKind; state: string; signs_from_millis: number }[];
  };
  const call = async (keys: ProjectKeys, method: string, path: string) => {
    const res = await server.request(`/api/v1/internal/signing-keys${path}`, {
      method,
      headers: accessHeaders("admin", keys),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Listed;
  };
  const defaults = (listed: Listed) => listed.items.filter((k) => k.audience === "default");

  it("rotates: old tokens verify against the JWKS, new tokens carry the new kid, the old key leaves after its grace", async () => {
    const { keys } = await server.createProject({ displayName: "Rotated by API" });
    const start = server.clock.now().getTime();
    const before = defaults(await call(keys, "GET", ""));
    expect(before.map((k) => k.state)).toEqual(["current"]);
    const oldKid = before[0]?.kid as string;
    const oldToken = await server.mintAccessToken(keys.projectId, { expiresInSeconds: LONG });
    expect(decodeProtectedHeader(oldToken).kid).toBe(oldKid);

    const rotated = defaults(await call(keys, "POST", "/rotate"));
    expect(rotated.map((k) => [k.kid === oldKid, k.state])).toEqual([
      [true, "current"],
      [false, "pending"],
    ]);
    const newKid = rotated[1]?.kid as string;
    expect(rotated[1]?.signs_from_millis).toBe(start + JWKS_CACHE_MS);

    server.clock.set(new Date(start + JWKS_CACHE_MS));
    expect(defaults(await call(keys, "GET", "")).map((k) => k.state)).toEqual(["previous", "current"]);
    const newToken = await server.mintAccessToken(keys.projectId, { expiresInSeconds: LONG });
    expect(decodeProtectedHeader(newToken).kid).toBe(newKid);
    const set = createLocalJWKSet(await jwks(keys.projectId));
    const { iss, aud } = tokenIssuerAndAudience(TEST_BASE_URL, keys.projectId, "default");
    const options = { issuer: iss, audience: aud, currentDate: server.clock.now() };
    expect((await jwtVerify(oldToken, set, options)).protectedHeader.kid).toBe(oldKid);
    expect((await jwtVerify(newToken, set, options)).protectedHeader.kid).toBe(newKid);
    await expectAccepted(keys, oldToken);

    // One access-token lifetime after the new key started signing, the next rotation retires the old one.
    server.clock.set(new Date(start + JWKS_CACHE_MS + server.deps.accessTokenLifetimeMs));
    const later = defaults(await call(keys, "POST", "/rotate"));
    expect(later.map((k) => k.kid)).not.toContain(oldKid);
    expect(later.map((k) => [k.kid === newKid, k.state])).toEqual([
      [true, "current"],
      [false, "pending"],
    ]);
    expect(await kidsOf(keys.projectId)).not.toContain(oldKid);
    await expectKnownError(await currentWith(keys, oldToken), "UNPARSABLE_ACCESS_TOKEN");
    await expectAccepted(keys, newToken);
  });

  it("is for admin callers only", async () => {
    const { keys } = await server.createProject({ displayName: "Not rotated by a server key" });
    const before = await kidsOf(keys.projectId, "?include_anonymous=true");
    for (const type of ["server", "client"] as const) {
      const res = await server.request("/api/v1/internal/signing-keys/rotate", {
        method: "POST",
        headers: accessHeaders(type, keys),
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.headers.get("x-stack-known-error")).toBeTruthy();
    }
    expect(await kidsOf(keys.projectId, "?include_anonymous=true")).toEqual(before);
  });
});

describe("server status (issue 23)", () => {
  it("reports the package version and every migration of the journal as applied", async () => {
    const { keys } = await server.createProject({ displayName: "Status" });
    const res = await server.request("/api/v1/internal/server-status", {
      headers: accessHeaders("admin", keys),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      version: string;
      migrations: { applied: number; known: number; latest_applied: string; pending: string[] };
    };
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8"));
    const journal = JSON.parse(
      readFileSync(join(import.meta.dirname, "../db/migrations/meta/_journal.json"), "utf8"),
    ) as { entries: { tag: string }[] };
    expect(body.version).toBe(pkg.version);
    expect(body.migrations).toEqual({
      applied: journal.entries.length,
      known: journal.entries.length,
      latest_applied: journal.entries.at(-1)?.tag,
      pending: [],
    });
    // A migration this build knows but the database has not applied is listed as pending.
    await server.deps.db.execute(
      sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
    );
    const after = (await (
      await server.request("/api/v1/internal/server-status", { headers: accessHeaders("admin", keys) })
    ).json()) as typeof body;
    expect(after.migrations.pending).toEqual([journal.entries.at(-1)?.tag]);
    expect(after.migrations.applied).toBe(journal.entries.length - 1);
  });
});
