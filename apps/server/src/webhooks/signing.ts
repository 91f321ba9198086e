// Webhook signing as Standard Webhooks defines it, compatible with Svix (WIRE.md §4.16): secrets, message ids and
// the three headers each request carries, in their svix-* and webhook-* spellings.
import { createHmac, randomBytes } from "node:crypto";
import { randomCrockford } from "../crypto/random.ts";

const SECRET_PREFIX = "whsec_";

/** `whsec_` + base64 of 24 random bytes. */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString("base64")}`;
}

/** `msg_` + 27 random characters, like a Svix message id; the same on every attempt of a message. */
export function generateMessageId(): string {
  return `msg_${randomCrockford(27)}`;
}

/** `v1,<base64 HMAC-SHA256>` of `{id}.{timestamp}.{body}`, keyed with the base64 part of the secret. */
export function signature(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
  const mac = createHmac("sha256", key).update(`${messageId}.${timestampSeconds}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/**
 * The headers of one request. `secrets` are the endpoint's current secret first, then the previous one while it
 * still signs; the signature header carries one signature per secret, space-separated.
 */
export function webhookHeaders(
  secrets: readonly string[],
  messageId: string,
  sentAt: Date,
  body: string,
): Record<string, string> {
  const timestamp = Math.floor(sentAt.getTime() / 1000);
  const signatures = secrets.map((secret) => signature(secret, messageId, timestamp, body)).join(" ");
  return {
    "content-type": "application/json",
    "svix-id": messageId,
    "svix-timestamp": String(timestamp),
    "svix-signature": signatures,
    "webhook-id": messageId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatures,
  };
}
