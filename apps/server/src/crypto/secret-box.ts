// Authenticated encryption of secrets at rest (signing keys, later OAuth client secrets and TOTP secrets).
// AES-256-GCM with a key derived from the server secret per purpose, so one leaked purpose key opens nothing else.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const VERSION = "v1";
const TAG_BYTES = 16;

export type SecretBox = {
  seal(plaintext: string): string;
  open(sealed: string): string;
};

export function createSecretBox(serverSecret: string, purpose: string): SecretBox {
  const key = Buffer.from(hkdfSync("sha256", serverSecret, "gatehouse", `secret-box:${purpose}`, 32));
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
      return `${VERSION}.${iv.toString("base64url")}.${body.toString("base64url")}`;
    },
    open(sealed) {
      const parts = sealed.split(".");
      const [version, ivText, bodyText] = parts;
      const body = Buffer.from(bodyText ?? "", "base64url");
      if (parts.length !== 3 || version !== VERSION || !ivText || body.length < TAG_BYTES) {
        throw new Error("Sealed value has an unknown format");
      }
      // A fixed tag length: Node would otherwise accept a 4-byte tag, which is guessable.
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(ivText, "base64url"), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      const ciphertext = body.subarray(0, body.length - TAG_BYTES);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
    },
  };
}
