// Passkey routes (WIRE.md §4.4): registering the signed-in user's passkey and signing in with it. Each ceremony has
// two steps: initiate (WebAuthn options and a challenge code) and finish (the browser's response with that code).
// The WebAuthn responses are checked here only for their outline: the server verifies them, and browsers add fields
// of their own (`clientExtensionResults`, `authenticatorAttachment`), so unknown fields inside them are tolerated.
import { z } from "zod";
import { defineRoute } from "../route.ts";
import { signInWithNewUserResponseSchema } from "../schemas/auth.ts";
import { codeSchema } from "./codes.ts";

const ANY_ACCESS = ["client", "server", "admin"] as const;
const TAG = "Auth: passkeys";

/** The outline shared by both WebAuthn responses (base64url strings, as `PublicKeyCredential.toJSON()` gives). */
const credentialFields = {
  id: z.string(),
  rawId: z.string(),
  type: z.string(),
  authenticatorAttachment: z.string().nullish(),
  clientExtensionResults: z.record(z.string(), z.unknown()).optional(),
};

/** WebAuthn's RegistrationResponseJSON, the answer of `navigator.credentials.create()`. */
const registrationResponseSchema = z.looseObject({
  ...credentialFields,
  response: z.looseObject({
    clientDataJSON: z.string(),
    attestationObject: z.string(),
    transports: z.array(z.string()).optional(),
  }),
});

/** WebAuthn's AuthenticationResponseJSON, the answer of `navigator.credentials.get()`. */
const authenticationResponseSchema = z.looseObject({
  ...credentialFields,
  response: z.looseObject({
    clientDataJSON: z.string(),
    authenticatorData: z.string(),
    signature: z.string(),
    userHandle: z.string().nullish(),
  }),
});

/** `rp.id` (registration) and `rpId` (authentication) carry this; the SDK puts the page's hostname in its place. */
export const PASSKEY_RP_ID_PLACEHOLDER = "THIS_VALUE_WILL_BE_REPLACED.example.com";

const placeholderNote = `${PASSKEY_RP_ID_PLACEHOLDER}; the SDK replaces it with the page's hostname`;

/** A credential named in options: WebAuthn's PublicKeyCredentialDescriptorJSON. */
const credentialDescriptorSchema = z.object({
  id: z.string(),
  type: z.string(),
  transports: z.array(z.string()).optional(),
});

/**
 * WebAuthn's PublicKeyCredentialCreationOptionsJSON as Gatehouse fills it: a discoverable credential (resident key
 * required), no attestation, the user id's UTF-8 bytes as `user.id` (base64url).
 */
const registrationOptionsSchema = z.object({
  challenge: z.string(),
  rp: z.object({ id: z.string().optional().describe(placeholderNote), name: z.string() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.string() })),
  timeout: z.number().optional(),
  attestation: z.string().optional(),
  excludeCredentials: z.array(credentialDescriptorSchema).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.string().optional(),
      residentKey: z.string().optional(),
      requireResidentKey: z.boolean().optional(),
      userVerification: z.string().optional(),
    })
    .optional(),
  extensions: z.object({ credProps: z.boolean().optional() }).optional(),
});

/** WebAuthn's PublicKeyCredentialRequestOptionsJSON, naming no credential: the browser offers the site's passkeys. */
const authenticationOptionsSchema = z.object({
  challenge: z.string(),
  rpId: z.string().optional().describe(placeholderNote),
  allowCredentials: z.array(credentialDescriptorSchema).optional(),
  timeout: z.number().optional(),
  userVerification: z.string().optional(),
});

export const initiatePasskeyRegistrationRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/passkey/initiate-passkey-registration",
  access: ANY_ACCESS,
  user: "required",
  summary: "Starts registering a passkey for the user: WebAuthn creation options and a challenge code (65 s)",
  tag: TAG,
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ options_json: registrationOptionsSchema, code: z.string() }),
  },
});

export const registerPasskeyRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/passkey/register",
  access: ANY_ACCESS,
  user: "required",
  summary: "Stores the user's passkey from the browser's registration response, replacing an earlier one",
  tag: TAG,
  body: z.strictObject({ credential: registrationResponseSchema, code: codeSchema }),
  response: { status: 200, kind: "json", schema: z.object({ user_handle: z.string() }) },
});

export const initiatePasskeyAuthenticationRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/passkey/initiate-passkey-authentication",
  access: ANY_ACCESS,
  summary:
    "Starts a passkey sign-in: WebAuthn request options for a discoverable credential and a challenge code",
  tag: TAG,
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ options_json: authenticationOptionsSchema, code: z.string() }),
  },
});

export const passkeySignInRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/passkey/sign-in",
  access: ANY_ACCESS,
  summary:
    "Signs in with the browser's passkey assertion (a TOTP user gets MULTI_FACTOR_AUTHENTICATION_REQUIRED)",
  tag: TAG,
  body: z.strictObject({ authentication_response: authenticationResponseSchema, code: codeSchema }),
  response: { status: 200, kind: "json", schema: signInWithNewUserResponseSchema },
});

export const passkeyRoutes = [
  initiatePasskeyRegistrationRoute,
  registerPasskeyRoute,
  initiatePasskeyAuthenticationRoute,
  passkeySignInRoute,
] as const;
