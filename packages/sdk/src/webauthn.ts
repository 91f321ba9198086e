// The browser half of passkeys (WIRE.md §4.4): the server's options JSON turned into a WebAuthn call and the
// credential turned back into JSON, as @simplewebauthn/browser does, in a few lines instead of a dependency. The
// server sends a placeholder RP id; it is replaced with the page's hostname, and any other value is a server bug.
import { KnownError } from "@gatehouse/contract/known-error";
import { StackAssertionError } from "./errors.ts";

export const RP_ID_PLACEHOLDER = "THIS_VALUE_WILL_BE_REPLACED.example.com";

type Json = Record<string, unknown>;
type CredentialsContainerLike = Pick<CredentialsContainer, "create" | "get">;

const toBase64Url = (buffer: ArrayBuffer | ArrayBufferView) => {
  const bytes =
    buffer instanceof ArrayBuffer
      ? new Uint8Array(buffer)
      : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
};

const fromBase64Url = (text: string): ArrayBuffer => {
  const base64 = text
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(text.length / 4) * 4, "=");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer;
};

const credentialDescriptors = (list: unknown) =>
  ((list as { id: string; type: string; transports?: string[] }[] | undefined) ?? []).map((c) => ({
    ...c,
    id: fromBase64Url(c.id),
  })) as PublicKeyCredentialDescriptor[];

/** What the browser's refusal becomes (the user cancelled, no authenticator…): the SDK's own known error. */
function webAuthnError(error: unknown): KnownError {
  const name = error instanceof Error ? error.name : "Error";
  const message = error instanceof Error ? error.message : String(error);
  return new KnownError("PASSKEY_WEBAUTHN_ERROR", 400, message, { message, code: name }, []);
}

/** Runs the browser's ceremony; a refusal becomes PASSKEY_WEBAUTHN_ERROR. */
async function ceremony(run: () => Promise<Credential | null>): Promise<PublicKeyCredential> {
  try {
    return (await run()) as PublicKeyCredential;
  } catch (error) {
    throw webAuthnError(error);
  }
}

/** The credential as the server reads it (WebAuthn's JSON encoding), around its response's fields. */
const credentialJson = (credential: PublicKeyCredential, response: Record<string, unknown>) => ({
  id: credential.id,
  rawId: toBase64Url(credential.rawId),
  type: credential.type,
  response: { clientDataJSON: toBase64Url(credential.response.clientDataJSON), ...response },
  clientExtensionResults: credential.getClientExtensionResults(),
  authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
});

function assertPlaceholder(rpId: unknown): void {
  if (rpId !== RP_ID_PLACEHOLDER) {
    throw new StackAssertionError(
      `Expected returned RP ID from server to equal sentinel, but found ${String(rpId)}`,
    );
  }
}

/** Runs navigator.credentials.create with the server's registration options; answers RegistrationResponseJSON. */
export async function createPasskey(
  optionsJson: Json,
  hostname: string,
  credentials: CredentialsContainerLike,
) {
  const rp = optionsJson.rp as Json;
  assertPlaceholder(rp.id);
  const user = optionsJson.user as Json;
  const publicKey = {
    ...optionsJson,
    rp: { ...rp, id: hostname },
    challenge: fromBase64Url(optionsJson.challenge as string),
    user: { ...user, id: fromBase64Url(user.id as string) },
    excludeCredentials: credentialDescriptors(optionsJson.excludeCredentials),
  } as unknown as PublicKeyCredentialCreationOptions;
  const credential = await ceremony(() => credentials.create({ publicKey }));
  const response = credential.response as AuthenticatorAttestationResponse;
  return credentialJson(credential, {
    attestationObject: toBase64Url(response.attestationObject),
    transports: response.getTransports?.() ?? [],
  });
}

/** Runs navigator.credentials.get with the server's authentication options; answers AuthenticationResponseJSON. */
export async function usePasskey(optionsJson: Json, hostname: string, credentials: CredentialsContainerLike) {
  assertPlaceholder(optionsJson.rpId);
  const publicKey = {
    ...optionsJson,
    rpId: hostname,
    challenge: fromBase64Url(optionsJson.challenge as string),
    allowCredentials: credentialDescriptors(optionsJson.allowCredentials),
  } as unknown as PublicKeyCredentialRequestOptions;
  const credential = await ceremony(() => credentials.get({ publicKey }));
  const response = credential.response as AuthenticatorAssertionResponse;
  return credentialJson(credential, {
    authenticatorData: toBase64Url(response.authenticatorData),
    signature: toBase64Url(response.signature),
    userHandle: response.userHandle ? toBase64Url(response.userHandle) : undefined,
  });
}

/** The page's WebAuthn API and hostname, or an error saying passkeys need a browser. */
export function browserWebAuthn(): { credentials: CredentialsContainerLike; hostname: string } {
  const g = globalThis as {
    navigator?: { credentials?: CredentialsContainerLike };
    location?: { hostname?: string };
  };
  if (!g.navigator?.credentials || !g.location?.hostname) {
    throw new StackAssertionError("Passkeys need a browser with WebAuthn.");
  }
  return { credentials: g.navigator.credentials, hostname: g.location.hostname };
}
