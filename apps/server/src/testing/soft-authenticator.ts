// A software WebAuthn authenticator for tests: it answers registration and sign-in ceremonies the way a browser with
// a platform authenticator would (RegistrationResponseJSON / AuthenticationResponseJSON), from a P-256 key pair of
// its own, with "none" attestation. Built from node:crypto and a few lines of CBOR, not from the library the server
// verifies with, so the tests check the server against the WebAuthn formats themselves.
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

// The CBOR this needs (RFC 8949): integers, byte and text strings, and maps with keys in the order given.
type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const head = Buffer.alloc(5);
  head[0] = (major << 5) | 26;
  head.writeUInt32BE(length, 1);
  return head;
}

export function cbor(value: Cbor): Buffer {
  if (typeof value === "number") return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === "string") {
    const text = Buffer.from(value, "utf8");
    return Buffer.concat([cborHead(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), value]);
  const parts = [...value].flatMap(([k, v]) => [cbor(k), cbor(v)]);
  return Buffer.concat([cborHead(5, value.size), ...parts]);
}

// Authenticator-data flags: user present, user verified, attested credential data included.
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export type Ceremony = {
  /** The base64url challenge of the options. */
  challenge: string;
  /** The page's origin, written into clientDataJSON. */
  origin: string;
  /** The RP ID whose hash goes into the authenticator data; by default the origin's hostname. */
  rpId?: string;
  /** The signature counter to report; by default one more than the last one reported. */
  counter?: number;
  /** clientDataJSON's `type`; by default the ceremony's own. */
  type?: string;
};

export type SoftAuthenticator = ReturnType<typeof createSoftAuthenticator>;

/** One discoverable credential. `credentialId` may be given to make a second authenticator claim the same id. */
export function createSoftAuthenticator(options: { credentialId?: Buffer } = {}) {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const rawId = options.credentialId ?? randomBytes(16);
  const id = b64url(rawId);
  let counter = 0;
  /** The user handle the relying party gave at registration (the options' `user.id`). */
  let userHandle: string | undefined;

  // COSE_Key of an ES256 public key: kty EC2, alg ES256, crv P-256, x, y.
  const coseKey = cbor(
    new Map<number, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x as string, "base64url")],
      [-3, Buffer.from(jwk.y as string, "base64url")],
    ]),
  );

  function nextCounter(ceremony: Ceremony): number {
    counter = ceremony.counter ?? counter + 1;
    return counter;
  }

  function clientData(ceremony: Ceremony, type: string): string {
    return JSON.stringify({
      type: ceremony.type ?? type,
      challenge: ceremony.challenge,
      origin: ceremony.origin,
      crossOrigin: false,
    });
  }

  function authData(ceremony: Ceremony, flags: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(nextCounter(ceremony));
    const rpId = ceremony.rpId ?? new URL(ceremony.origin).hostname;
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  return {
    /** The credential id, base64url: the id of every response and the `user_handle` registration answers. */
    id,

    /** The answer of `navigator.credentials.create()` for creation options, as JSON. */
    register(ceremony: Ceremony & { userHandle: string }) {
      userHandle = ceremony.userHandle;
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(rawId.length);
      const aaguid = Buffer.alloc(16);
      const attested = Buffer.concat([aaguid, idLength, rawId, coseKey]);
      const attestationObject = cbor(
        new Map<string, Cbor>([
          ["fmt", "none"],
          ["attStmt", new Map()],
          ["authData", authData(ceremony, UP | UV | AT, attested)],
        ]),
      );
      return {
        id,
        rawId: id,
        type: "public-key",
        response: {
          clientDataJSON: b64url(clientData(ceremony, "webauthn.create")),
          attestationObject: b64url(attestationObject),
          transports: ["internal"],
        },
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
      };
    },

    /** The answer of `navigator.credentials.get()` for request options, as JSON: an ES256 signature over
     * authenticatorData ‖ SHA-256(clientDataJSON). */
    authenticate(ceremony: Ceremony) {
      const data = authData(ceremony, UP | UV);
      const clientDataJSON = clientData(ceremony, "webauthn.get");
      const signature = sign("sha256", Buffer.concat([data, sha256(clientDataJSON)]), privateKey);
      return {
        id,
        rawId: id,
        type: "public-key",
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(data),
          signature: b64url(signature),
          ...(userHandle ? { userHandle } : {}),
        },
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
      };
    },
  };
}
