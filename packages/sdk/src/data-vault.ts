// Stack's data vault stores on the server app: values are encrypted here with a secret only the app knows, under a
// key hashed with it, so the server holds neither. The format is Stack's, byte for byte, so a value set through
// Stack's SDK reads back through ours and the other way round: no library implements it, hence this port over
// WebCrypto (PBKDF2-SHA-256 for the key hashes, HKDF-SHA-256 and AES-256-GCM for the values).
import { jsonBody, type ObjectContext } from "./context.ts";
import { knownErrorIs } from "./errors.ts";

const HASH_PURPOSE = "stack-data-vault-client-side-encryption-key-hash";
const KEY_PURPOSE = "stack-data-vault-client-side-encryption-value-encryption-key-hash";
const VALUE_PURPOSE = "stack-data-vault-client-side-encryption-value-encryption-value-encryption";

const utf8 = (text: string) => new TextEncoder().encode(text);
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** Stack's iteratedHash: PBKDF2 over the value, salted with the purpose and the extra input. */
async function iteratedHash(
  purpose: string,
  value: Uint8Array<ArrayBuffer>,
  extra: string,
  iterations: number,
) {
  const input = await crypto.subtle.importKey("raw", value, "PBKDF2", false, ["deriveBits"]);
  const salt = utf8(
    JSON.stringify(["stack-crypto-helper-iterated-hash", purpose, toBase64(utf8("")), toBase64(utf8(extra))]),
  );
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", salt, iterations, hash: "SHA-256" },
    input,
    256,
  );
  return new Uint8Array(bits);
}

/** The key's own secret: 100,000 rounds, so a guessed key costs what it costs in Stack's SDK. */
const derivedKey = (secret: string, key: string) => iteratedHash(KEY_PURPOSE, utf8(key), secret, 100_000);

/** Stack's getDerivedSymmetricKey: HKDF of a binary secret into an AES-GCM key, bound to purpose and salt. */
async function symmetricKey(secret: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>) {
  const base = await crypto.subtle.importKey("raw", secret, "HKDF", false, ["deriveKey"]);
  const info = utf8(
    JSON.stringify([
      "stack-crypto-helper-derived-symmetric-key",
      VALUE_PURPOSE,
      "binary-key",
      toBase64(salt),
    ]),
  );
  return crypto.subtle.deriveKey(
    { name: "HKDF", salt, hash: "SHA-256", info },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

async function hashKey(secret: string, key: string): Promise<string> {
  return toBase64(await iteratedHash(HASH_PURPOSE, await derivedKey(secret, key), secret, 1));
}

/** Version 1.0, then salt (16 bytes), IV (12 bytes) and the AES-GCM cipher text with its tag. */
async function encryptValue(secret: string, key: string, value: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const aes = await symmetricKey(await derivedKey(secret, key), salt);
  const cipher = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, aes, utf8(value)));
  return toBase64(new Uint8Array([1, 0, ...salt, ...iv, ...cipher]));
}

async function decryptValue(secret: string, key: string, encrypted: string): Promise<string> {
  const bytes = fromBase64(encrypted);
  if (bytes[0] !== 1 || bytes[1] !== 0) throw new Error("Invalid ciphertext version in the data vault value");
  const aes = await symmetricKey(await derivedKey(secret, key), bytes.slice(2, 18));
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.slice(18, 30) },
      aes,
      bytes.slice(30),
    );
    return new TextDecoder().decode(plain);
  } catch (cause) {
    throw new Error(
      "Data vault client-side decryption failed. Are you sure you're using the correct secret?",
      {
        cause,
      },
    );
  }
}

export type DataVaultStore = {
  id: string;
  setValue(key: string, value: string, options: { secret: string }): Promise<void>;
  /** The value, or null when the store holds none under this key. */
  getValue(key: string, options: { secret: string }): Promise<string | null>;
};

export function dataVaultStore(ctx: ObjectContext, id: string): DataVaultStore {
  const path = `/data-vault/stores/${encodeURIComponent(id)}`;
  const secretOf = (options: { secret: string }) => {
    if (typeof options?.secret !== "string")
      throw new Error(`secret must be a string, got ${typeof options?.secret}`);
    return options.secret;
  };
  return {
    id,
    async setValue(key, value, options) {
      const secret = secretOf(options);
      const body = {
        hashed_key: await hashKey(secret, key),
        encrypted_value: await encryptValue(secret, key, value),
      };
      await ctx.request(`${path}/set`, jsonBody(body));
    },
    async getValue(key, options) {
      const secret = secretOf(options);
      try {
        const { encrypted_value } = await ctx.request<{ encrypted_value: string }>(
          `${path}/get`,
          jsonBody({ hashed_key: await hashKey(secret, key) }),
        );
        return await decryptValue(secret, key, encrypted_value);
      } catch (error) {
        if (knownErrorIs(error, "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST")) return null;
        throw error;
      }
    },
  };
}
