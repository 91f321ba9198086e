// Hashing for secrets stored at rest (API keys, later refresh tokens and codes) and constant-time comparison.
import { createHash, timingSafeEqual } from "node:crypto";

/**
 * SHA-256 in hex. The secrets hashed here carry 225+ bits of entropy, so a fast hash is enough: it cannot be
 * brute-forced, and lookup by hash means the plaintext never sits in the database.
 */
export function sha256Hex(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}

/** The PKCE S256 challenge of a code verifier (RFC 7636): base64url of its SHA-256. */
export function pkceChallenge(verifier: string): string {
  return createHash("sha256").update(verifier, "utf8").digest("base64url");
}

/** Compares two strings without leaking where they differ through timing. */
export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  // Comparing fixed-length digests hides the length of the inputs as well as their content.
  return timingSafeEqual(ha, hb);
}
