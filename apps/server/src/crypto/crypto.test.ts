// The security primitives with known vectors (ARCHITECTURE.md §4): SHA-256 and constant-time comparison, random
// keys in the WIRE.md §4.14 format, the AES-GCM secret box, and ES256 signing-key generation.
import { importJWK, jwtVerify, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { constantTimeEqual, sha256Hex } from "./hash.ts";
import {
  type ApiKeyKind,
  CROCKFORD_ALPHABET,
  generateApiKey,
  generateServerSecret,
  randomCrockford,
} from "./random.ts";
import { createSecretBox } from "./secret-box.ts";
import { generateSigningKey } from "./signing-key.ts";

const KEY_FORMAT = /^(pck|ssk|sak)_[0-9a-hjkmnp-tv-z]{45}$/;
const SECRET = "secret-box-test-secret-0123456789abcdef";

describe("sha256Hex", () => {
  it("matches the FIPS 180-2 vectors", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
  });

  it("hashes text as UTF-8", () => {
    // "é" is c3 a9 in UTF-8 (digest from sha256sum); the Latin-1 byte e9 would give de2e331d….
    expect(sha256Hex("é")).toBe("4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c");
  });
});

describe("constantTimeEqual", () => {
  it("is true for equal strings", () => {
    expect(constantTimeEqual("", "")).toBe(true);
    expect(constantTimeEqual("abc", "abc")).toBe(true);
    expect(constantTimeEqual("pck_0123456789", "pck_0123456789")).toBe(true);
    expect(constantTimeEqual("ünïcødé", "ünïcødé")).toBe(true);
  });

  it("is false for different strings of the same length", () => {
    expect(constantTimeEqual("abc", "abd")).toBe(false);
    expect(constantTimeEqual("abc", "Abc")).toBe(false);
  });

  it("is false for strings of different lengths, including empty ones", () => {
    expect(constantTimeEqual("abc", "abcd")).toBe(false);
    expect(constantTimeEqual("abcd", "abc")).toBe(false);
    expect(constantTimeEqual("", "a")).toBe(false);
    expect(constantTimeEqual("a", "")).toBe(false);
    expect(constantTimeEqual("abc", "abc\0")).toBe(false);
  });
});

describe("random keys", () => {
  it("uses the lowercase Crockford alphabet", () => {
    expect(CROCKFORD_ALPHABET).toBe("0123456789abcdefghjkmnpqrstvwxyz");
  });

  it("randomCrockford returns the requested length from the alphabet", () => {
    expect(randomCrockford(0)).toBe("");
    expect(randomCrockford(1)).toMatch(/^[0-9a-hjkmnp-tv-z]$/);
    expect(randomCrockford(200)).toMatch(/^[0-9a-hjkmnp-tv-z]{200}$/);
  });

  it("generateApiKey gives the prefix and 45 Crockford characters", () => {
    for (const kind of ["pck", "ssk", "sak"] as const satisfies readonly ApiKeyKind[]) {
      const key = generateApiKey(kind);
      expect(key).toMatch(KEY_FORMAT);
      expect(key.startsWith(`${kind}_`)).toBe(true);
      expect(key).toHaveLength(4 + 45);
    }
  });

  it("generates 1000 distinct keys, all well formed", () => {
    const keys = Array.from({ length: 1000 }, (_, i) =>
      generateApiKey((["pck", "ssk", "sak"] as const)[i % 3]!),
    );
    for (const key of keys) expect(key).toMatch(KEY_FORMAT);
    expect(new Set(keys).size).toBe(1000);
    // Distinct without their prefixes too: the random part alone must not repeat.
    expect(new Set(keys.map((k) => k.slice(4))).size).toBe(1000);
  });

  it("draws every character of the alphabet and nothing else", () => {
    // 32 000 characters: each of the 32 is expected ~1000 times, so a missing one cannot be chance.
    const sample = randomCrockford(32_000);
    const counts = new Map<string, number>();
    for (const ch of sample) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect([...counts.keys()].sort().join("")).toBe(CROCKFORD_ALPHABET);
    for (const [ch, n] of counts) {
      // Binomial(32000, 1/32): mean 1000, sd ~31. ±25 % is over 8 sd: only a biased generator fails.
      expect({ ch, inRange: n > 750 && n < 1250 }).toEqual({ ch, inRange: true });
    }
  });

  it("generateServerSecret is 256 bits of hex and differs each time", () => {
    const a = generateServerSecret();
    const b = generateServerSecret();
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toMatch(/^[0-9a-f]{64}$/);
    expect(a).not.toBe(b);
  });
});

describe("createSecretBox", () => {
  const box = createSecretBox(SECRET, "signing-keys");

  it("round-trips text, including unicode and the empty string", () => {
    for (const text of ["hello", "", "ünïcødé ✓ 日本語 🔐", "x".repeat(10_000), '{"d":"abc"}']) {
      expect(box.open(box.seal(text))).toBe(text);
    }
  });

  it("opens with a second box made from the same secret and purpose", () => {
    const again = createSecretBox(SECRET, "signing-keys");
    expect(again.open(box.seal("shared"))).toBe("shared");
  });

  it("seals the same text differently each time (random IV)", () => {
    const a = box.seal("same text");
    const b = box.seal("same text");
    expect(a).not.toBe(b);
    expect(a.split(".")[1]).not.toBe(b.split(".")[1]);
  });

  it("produces v1.<iv>.<body> with a 96-bit IV and a 128-bit tag", () => {
    const sealed = box.seal("abc");
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const [version, iv, body] = sealed.split(".");
    expect(version).toBe("v1");
    expect(Buffer.from(iv!, "base64url")).toHaveLength(12);
    // Ciphertext is as long as the plaintext (GCM is a stream mode), plus 16 bytes of tag.
    expect(Buffer.from(body!, "base64url")).toHaveLength(3 + 16);
    expect(sealed).not.toContain("abc");
  });

  it("refuses a value sealed with another secret", () => {
    const other = createSecretBox("another-secret-0123456789abcdef0123456789", "signing-keys");
    expect(() => other.open(box.seal("private"))).toThrow();
  });

  it("refuses a value sealed for another purpose with the same secret", () => {
    const other = createSecretBox(SECRET, "oauth-client-secrets");
    expect(() => other.open(box.seal("private"))).toThrow();
  });

  it("refuses a body with one character changed", () => {
    const sealed = box.seal("authenticated text");
    const [version, iv, body] = sealed.split(".") as [string, string, string];
    // Change the first character: it carries 6 full bits of the first ciphertext byte.
    const flipped = `${body[0] === "A" ? "B" : "A"}${body.slice(1)}`;
    expect(() => box.open(`${version}.${iv}.${flipped}`)).toThrow();
    // A changed IV fails too.
    const flippedIv = `${iv[0] === "A" ? "B" : "A"}${iv.slice(1)}`;
    expect(() => box.open(`${version}.${flippedIv}.${body}`)).toThrow();
  });

  it("refuses every single-byte change of the ciphertext and tag", () => {
    const sealed = box.seal("abcd");
    const [version, iv, body] = sealed.split(".") as [string, string, string];
    const bytes = Buffer.from(body, "base64url");
    for (let i = 0; i < bytes.length; i++) {
      const changed = Buffer.from(bytes);
      changed[i] = (changed[i] ?? 0) ^ 0x01;
      expect(() => box.open(`${version}.${iv}.${changed.toString("base64url")}`)).toThrow();
    }
  });

  it("refuses a truncated authentication tag", () => {
    // GCM accepts shortened tags unless the tag length is pinned; a 4-byte tag could be forged in 2^32 tries.
    const sealed = box.seal("");
    const [version, iv, body] = sealed.split(".") as [string, string, string];
    const tag = Buffer.from(body, "base64url");
    expect(tag).toHaveLength(16);
    for (const length of [4, 8, 12, 15]) {
      const truncated = `${version}.${iv}.${tag.subarray(0, length).toString("base64url")}`;
      expect(() => box.open(truncated), `a ${length}-byte tag`).toThrow();
    }
  });

  it("refuses an unknown version or a malformed value", () => {
    const sealed = box.seal("text");
    const rest = sealed.slice("v1".length);
    expect(() => box.open(`v2${rest}`)).toThrow("Sealed value has an unknown format");
    expect(() => box.open(`V1${rest}`)).toThrow("Sealed value has an unknown format");
    expect(() => box.open(rest.slice(1))).toThrow();
    expect(() => box.open("")).toThrow("Sealed value has an unknown format");
    expect(() => box.open("v1")).toThrow("Sealed value has an unknown format");
    expect(() => box.open("v1..")).toThrow("Sealed value has an unknown format");
    expect(() => box.open(`v1.${sealed.split(".")[1]}.`)).toThrow("Sealed value has an unknown format");
  });
});

describe("generateSigningKey", () => {
  it("returns a public P-256 JWK without the private part", async () => {
    const key = await generateSigningKey();
    expect(key.kid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(key.publicJwk).toEqual({
      kty: "EC",
      crv: "P-256",
      alg: "ES256",
      kid: key.kid,
      x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      y: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(Object.keys(key.publicJwk).sort()).toEqual(["alg", "crv", "kid", "kty", "x", "y"]);
    expect("d" in key.publicJwk).toBe(false);
  });

  it("returns the private JWK as JSON with the same public point", async () => {
    const key = await generateSigningKey();
    const priv = JSON.parse(key.privateJwk) as Record<string, unknown>;
    expect(priv).toMatchObject({ kty: "EC", crv: "P-256", x: key.publicJwk.x, y: key.publicJwk.y });
    expect(priv.d).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]{43}$/));
  });

  it("gives each key its own kid and key material", async () => {
    const a = await generateSigningKey();
    const b = await generateSigningKey();
    expect(a.kid).not.toBe(b.kid);
    expect(a.publicJwk.x).not.toBe(b.publicJwk.x);
  });

  it("signs tokens that verify with its public JWK and not with another key", async () => {
    const key = await generateSigningKey();
    const other = await generateSigningKey();
    const privateKey = await importJWK(JSON.parse(key.privateJwk), "ES256");
    const token = await new SignJWT({ sub: "user-1" })
      .setProtectedHeader({ alg: "ES256", kid: key.kid })
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);

    const { payload, protectedHeader } = await jwtVerify(token, await importJWK(key.publicJwk, "ES256"));
    expect(payload.sub).toBe("user-1");
    expect(protectedHeader).toEqual({ alg: "ES256", kid: key.kid });

    await expect(jwtVerify(token, await importJWK(other.publicJwk, "ES256"))).rejects.toThrow(
      "signature verification failed",
    );
  });
});

describe("crockfordOf", () => {
  it("encodes five bits a character, most significant first (known vector)", async () => {
    const { crockfordOf } = await import("./random.ts");
    // 0x00 0x44 0x32 0x14 0xc7 = 00000 00001 00010 00011 00100 00101 00110 00111
    expect(crockfordOf(Uint8Array.from([0x00, 0x44, 0x32, 0x14, 0xc7]), 8)).toBe("01234567");
    expect(crockfordOf(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff]), 8)).toBe("zzzzzzzz");
    expect(crockfordOf(new Uint8Array(32).fill(0xa5), 45)).toHaveLength(45);
  });
});
