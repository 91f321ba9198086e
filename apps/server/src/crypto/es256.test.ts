// ES256 verification with node:crypto, checked against tokens signed by jose (the library the signer uses).
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { peekHeader, privateKeyFromJwk, publicKeyFromJwk, signEs256, verifyEs256 } from "./es256.ts";

async function keyPair() {
  const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = await exportJWK(publicKey);
  const key = publicKeyFromJwk({
    kty: "EC",
    alg: "ES256",
    crv: "P-256",
    kid: "k",
    x: jwk.x ?? "",
    y: jwk.y ?? "",
  });
  return { key, privateKey };
}

describe("verifyEs256", () => {
  it("accepts a token jose signed and returns its header and claims", async () => {
    const { key, privateKey } = await keyPair();
    const token = await new SignJWT({ sub: "u1", n: 1 })
      .setProtectedHeader({ alg: "ES256", kid: "k" })
      .sign(privateKey);
    expect(peekHeader(token)).toEqual({ alg: "ES256", kid: "k" });
    expect(verifyEs256(token, key)).toEqual({
      header: { alg: "ES256", kid: "k" },
      payload: { sub: "u1", n: 1 },
    });
  });

  it("refuses another key, a changed payload or signature, and malformed tokens", async () => {
    const { key, privateKey } = await keyPair();
    const other = await keyPair();
    const token = await new SignJWT({ sub: "u1" }).setProtectedHeader({ alg: "ES256" }).sign(privateKey);
    const [h, p, s] = token.split(".") as [string, string, string];
    expect(verifyEs256(token, other.key)).toBeUndefined();
    const forged = Buffer.from(JSON.stringify({ sub: "admin" })).toString("base64url");
    expect(verifyEs256(`${h}.${forged}.${s}`, key)).toBeUndefined();
    const flipped = Buffer.from(s, "base64url");
    flipped[10] = (flipped[10] ?? 0) ^ 1;
    expect(verifyEs256(`${h}.${p}.${flipped.toString("base64url")}`, key)).toBeUndefined();
    expect(verifyEs256(`${h}.${p}`, key)).toBeUndefined();
    expect(verifyEs256(`${h}.${p}.${s}.x`, key)).toBeUndefined();
    expect(verifyEs256("not a token", key)).toBeUndefined();
    expect(peekHeader("%%%.x.y")).toBeUndefined();
  });

  it("refuses a validly signed token whose header names another algorithm", async () => {
    const { key, privateKey } = await keyPair();
    // Signed with the right key, but the header claims "none": the header must not be trusted either way.
    const header = Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url");
    const payload = Buffer.from(JSON.stringify({ sub: "u1" })).toString("base64url");
    const { sign } = await import("node:crypto");
    const { KeyObject } = await import("node:crypto");
    const signature = sign("sha256", Buffer.from(`${header}.${payload}`), {
      key: KeyObject.from(privateKey as CryptoKey),
      dsaEncoding: "ieee-p1363",
    });
    expect(verifyEs256(`${header}.${payload}.${signature.toString("base64url")}`, key)).toBeUndefined();
  });
});

describe("signEs256", () => {
  it("makes tokens jose verifies", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    const key = privateKeyFromJwk(await exportJWK(privateKey));
    const token = await signEs256(
      { kid: "k1", typ: "JWT" },
      { sub: "u2", exp: Math.floor(Date.now() / 1000) + 60 },
      key,
    );
    const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256" }] });
    const { payload, protectedHeader } = await jwtVerify(token, jwks);
    expect(payload.sub).toBe("u2");
    expect(protectedHeader).toEqual({ alg: "ES256", kid: "k1", typ: "JWT" });
  });
});
