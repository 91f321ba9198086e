// ES256 (P-256) key pairs for access tokens: generation, and the public half as a JWK for the JWKS.
import { randomUUID } from "node:crypto";
import type { PublicJwk } from "@gatehouse/contract";
import { exportJWK, generateKeyPair } from "jose";

export type GeneratedSigningKey = { kid: string; publicJwk: PublicJwk; privateJwk: string };

export async function generateSigningKey(): Promise<GeneratedSigningKey> {
  const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
  const kid = randomUUID();
  const pub = await exportJWK(publicKey);
  if (!pub.x || !pub.y) throw new Error("P-256 key export lacks coordinates");
  const publicJwk: PublicJwk = { kty: "EC", alg: "ES256", crv: "P-256", kid, x: pub.x, y: pub.y };
  return { kid, publicJwk, privateJwk: JSON.stringify(await exportJWK(privateKey)) };
}
