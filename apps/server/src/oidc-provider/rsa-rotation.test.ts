// The OpenID Provider's RS256 keys rotate with the project's signing keys: a rotation publishes a new RSA key at once,
// which signs id_tokens an hour later; the key it supersedes keeps verifying until an id_token's life after that, and
// the next rotation then takes it out of the JWKS. Checked with openid-client and jose against the published JWKS.
import { createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  api,
  exchange,
  type OpSuite,
  type Project,
  project,
  registerClient,
  rs256Rp,
  signIn,
  startOpSuite,
} from "../testing/oidc-relying-party.ts";
import { uniqueEmail } from "../testing/test-server.ts";

let suite: OpSuite & { close: () => Promise<void> };
let p: Project;
beforeAll(async () => {
  suite = await startOpSuite();
  p = await project(suite);
});
afterAll(() => suite?.close());

const HOUR = 60 * 60 * 1000;

describe("RS256 key rotation", () => {
  it("publishes the new key an hour before it signs, and retires the old one after an id_token's life", async () => {
    const { server } = suite;
    const started = server.clock.now().getTime();
    const client = await registerClient(suite, p, { id_token_signed_response_alg: "RS256" });
    const config = await rs256Rp(p, client);
    const jwks = async () =>
      (await (await fetch(String(config.serverMetadata().jwks_uri))).json()) as JSONWebKeySet;
    const rsaKids = async () =>
      (await jwks()).keys.filter((key) => key.kty === "RSA").map((key) => key.kid as string);
    /** An id_token for a user signed in now, checked against the JWKS as published now; its kid. */
    const idTokenKid = async () => {
      const user = await server.signIn(p.keys.projectId, { email: uniqueEmail("rsa") });
      const idToken = (await exchange(config, await signIn(suite, p, config, user))).id_token ?? "";
      await jwtVerify(idToken, createLocalJWKSet(await jwks()), {
        issuer: p.issuer,
        audience: client.client_id,
      });
      return decodeProtectedHeader(idToken).kid;
    };
    const rotate = async () => {
      const res = await api(suite, p, "POST", "/api/v1/internal/signing-keys/rotate", {});
      expect(res.status).toBe(200);
    };

    const first = await idTokenKid();
    expect(await rsaKids()).toEqual([first]);

    await rotate();
    const published = await rsaKids();
    expect(published).toHaveLength(2);
    const second = published.find((kid) => kid !== first);
    // Published, not yet signing: verifiers holding an hour-old JWKS could not check it.
    expect(await idTokenKid()).toBe(first);

    // An hour on, the next rotation's rebuild signs with it; the first key still verifies id_tokens it signed.
    server.clock.set(new Date(started + HOUR + 1000));
    await rotate();
    expect(await idTokenKid()).toBe(second);
    expect(await rsaKids()).toContain(first);

    // Another hour on, the first key has been superseded longer than an id_token lives: the rotation retires it.
    server.clock.set(new Date(started + 2 * HOUR + 2000));
    await rotate();
    const after = await rsaKids();
    expect(after).not.toContain(first);
    expect(after).toContain(second);
    const audit = await api(suite, p, "GET", "/api/v1/audit-log?type=signing_key.rotated");
    const entries = (audit.body.items ?? []) as { details: { published: string[]; retired: string[] } }[];
    expect(entries.some((entry) => entry.details.retired.includes(first as string))).toBe(true);
    expect(entries.some((entry) => entry.details.published.includes(second as string))).toBe(true);
  });
});
