// ES256 compact JWS with node:crypto: every authenticated request verifies a token and every refresh signs one, and
// node:crypto does both several times faster than the WebCrypto path jose takes.
import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from "node:crypto";
import { promisify } from "node:util";
import type { PublicJwk } from "@gatehouse/contract";

export type VerifiedJws = { header: Record<string, unknown>; payload: Record<string, unknown> };

export function publicKeyFromJwk(jwk: PublicJwk): KeyObject {
  return createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }, format: "jwk" });
}

const decodeJson = (part: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
};

export function privateKeyFromJwk(jwk: Record<string, unknown>): KeyObject {
  return createPrivateKey({ key: jwk as { kty: string }, format: "jwk" });
}

const encodeJson = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64url");

const signOnThreadPool = promisify(sign);

/**
 * A compact JWS: base64url header and payload, signed as raw r||s as JWS requires for ES256. The signature is made on
 * libuv's thread pool (node:crypto's callback form): an ECDSA signature was 12-14 % of the event loop's time in a
 * refresh, and the event loop is what a refresh-heavy process runs out of first.
 */
export async function signEs256(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  key: KeyObject,
): Promise<string> {
  const signingInput = `${encodeJson({ ...header, alg: "ES256" })}.${encodeJson(payload)}`;
  const signature = await signOnThreadPool("sha256", Buffer.from(signingInput, "utf8"), {
    key,
    dsaEncoding: "ieee-p1363",
  });
  return `${signingInput}.${signature.toString("base64url")}`;
}

/** The token's header without checking anything: only to find the key that must then verify it. */
export function peekHeader(token: string): Record<string, unknown> | undefined {
  const [header] = token.split(".");
  return header ? decodeJson(header) : undefined;
}

/** Verifies the signature (raw r||s, 64 bytes for P-256) and decodes the parts; undefined when anything is off. */
export function verifyEs256(token: string, key: KeyObject): VerifiedJws | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const signature = Buffer.from(signaturePart, "base64url");
  if (signature.length !== 64) return undefined;
  const signed = Buffer.from(`${headerPart}.${payloadPart}`, "utf8");
  if (!verify("sha256", signed, { key, dsaEncoding: "ieee-p1363" }, signature)) return undefined;
  const header = decodeJson(headerPart);
  const payload = decodeJson(payloadPart);
  if (!header || !payload || header.alg !== "ES256") return undefined;
  return { header, payload };
}
