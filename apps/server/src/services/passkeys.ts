// Passkeys (WIRE.md §4.4): a user registers one passkey (a discoverable WebAuthn credential) and signs in with it
// without naming an account. Both ceremonies run in two steps. Initiate answers WebAuthn options and a challenge
// code (WIRE.md §5.1: 65 seconds, data: the challenge and, for registration, the user); the finishing step uses that
// code once and verifies the browser's response with @simplewebauthn/server.
//
// RP ID. Gatehouse does not know the app's domain, so the options carry a placeholder RP ID that the SDK replaces
// with the page's hostname. The finishing step reads the page's origin from the response's clientDataJSON, accepts
// it only if the project trusts it (WIRE.md §7, like every callback URL), and verifies the response against that
// origin and its hostname as RP ID.
//
// Failures are PASSKEY_REGISTRATION_FAILED / PASSKEY_AUTHENTICATION_FAILED with a `message` saying why; a failed
// verification leaves the code unused (its submissions still count against its attempt limit). Sign-in opens the
// session through the MFA gate (services/mfa.ts), so a TOTP user gets MULTI_FACTOR_AUTHENTICATION_REQUIRED.
import { KnownErrors, PASSKEY_RP_ID_PLACEHOLDER } from "@gatehouse/contract";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/client.ts";
import { constraintOf } from "../db/errors.ts";
import { createPasskeysRepo } from "../db/passkeys-repo.ts";
import type { UserRecord, UsersRepo } from "../db/users-repo.ts";
import type { MfaService } from "./mfa.ts";
import type { Project } from "./projects.ts";
import { signInResponse } from "./sessions.ts";
import { isTrustedUrl } from "./trusted-urls.ts";
import type { VerificationCodeService } from "./verification-codes.ts";

type WebAuthn = typeof import("@simplewebauthn/server") & typeof import("@simplewebauthn/server/helpers");
let webauthnLoaded: Promise<WebAuthn> | undefined;
/** @simplewebauthn/server (about 30 MiB resident with its CBOR and ASN.1 parsers) loads with the first ceremony. */
function webauthn(): Promise<WebAuthn> {
  webauthnLoaded ??= Promise.all([
    import("@simplewebauthn/server"),
    import("@simplewebauthn/server/helpers"),
  ]).then(([server, helpers]) => ({ ...server, ...helpers }));
  return webauthnLoaded;
}

/** How long the browser may take; the challenge code lives 5 seconds longer (VERIFICATION_CODE_PURPOSES). */
const CEREMONY_TIMEOUT_MS = 60_000;

/**
 * What the routes hand over. The contract checks only the outline of the browser's JSON; the verification below
 * checks the rest and answers a known error for anything malformed.
 */
export type PasskeyRegistrationInput = { credential: Record<string, unknown>; code: string };
export type PasskeySignInInput = { authentication_response: Record<string, unknown>; code: string };

type Failure = (message: string) => Error;
const registrationFailed: Failure = (message) => KnownErrors.PASSKEY_REGISTRATION_FAILED({ message });
const authenticationFailed: Failure = (message) => KnownErrors.PASSKEY_AUTHENTICATION_FAILED({ message });

function assertEnabled(project: Project): void {
  if (!project.config.passkey_enabled) throw KnownErrors.PASSKEY_AUTHENTICATION_NOT_ENABLED();
}

function assertCanRegister(user: UserRecord): void {
  if (user.isAnonymous) throw registrationFailed("Anonymous users cannot register a passkey.");
}

/**
 * The origin of the page that ran the ceremony, from the response's clientDataJSON, and its hostname as RP ID;
 * `fail` unless the project trusts it.
 */
async function trustedOrigin(project: Project, clientDataJSON: string, fail: Failure) {
  const { decodeClientDataJSON } = await webauthn();
  let origin: unknown;
  try {
    origin = decodeClientDataJSON(clientDataJSON).origin;
  } catch {
    throw fail("The passkey response's client data could not be read.");
  }
  if (typeof origin !== "string" || !isTrustedUrl(project.config, origin)) {
    throw fail(`The origin ${String(origin)} is not a trusted domain of this project.`);
  }
  const url = new URL(origin);
  return { origin: url.origin, rpId: url.hostname };
}

/** Runs a @simplewebauthn verification; whatever it rejects becomes `fail` with its reason. */
async function verifying<T>(fail: Failure, verify: () => Promise<T>): Promise<T> {
  try {
    return await verify();
  } catch (error) {
    throw fail(
      `The passkey could not be verified: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

export function createPasskeyService(deps: {
  db: Db;
  clock: Clock;
  codes: VerificationCodeService;
  usersRepo: UsersRepo;
  mfa: MfaService;
}) {
  const repo = createPasskeysRepo();

  return {
    /** Creation options for a discoverable credential bound to the user's id, and the challenge code. */
    async initiateRegistration(project: Project, user: UserRecord) {
      assertEnabled(project);
      assertCanRegister(user);
      const name = user.primaryEmail?.value ?? user.id;
      const { generateRegistrationOptions, isoUint8Array } = await webauthn();
      const options = await generateRegistrationOptions({
        rpName: project.displayName,
        rpID: PASSKEY_RP_ID_PLACEHOLDER,
        // The browser keeps one passkey per user id and RP ID, so a new registration replaces the old one there too.
        userID: isoUint8Array.fromUTF8String(user.id),
        userName: name,
        userDisplayName: user.displayName ?? name,
        authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
        timeout: CEREMONY_TIMEOUT_MS,
      });
      const { code } = await deps.codes.create(deps.db, {
        projectId: project.id,
        purpose: "passkey_registration",
        data: { challenge: options.challenge, user_id: user.id },
      });
      return { options_json: options, code };
    },

    /** Verifies the browser's registration response and stores the passkey, replacing the user's earlier one. */
    async register(project: Project, user: UserRecord, input: PasskeyRegistrationInput) {
      assertEnabled(project);
      assertCanRegister(user);
      const response = input.credential as unknown as RegistrationResponseJSON;
      try {
        return await deps.codes.use(
          { projectId: project.id, purpose: "passkey_registration", code: input.code },
          async (tx, row) => {
            if (row.data.user_id !== user.id)
              throw registrationFailed("This passkey registration was started by another user.");
            const { origin, rpId } = await trustedOrigin(
              project,
              response.response.clientDataJSON,
              registrationFailed,
            );
            const { verifyRegistrationResponse, isoBase64URL } = await webauthn();
            const verification = await verifying(registrationFailed, () =>
              verifyRegistrationResponse({
                response,
                expectedChallenge: String(row.data.challenge),
                expectedOrigin: origin,
                expectedRPID: rpId,
                requireUserVerification: false,
              }),
            );
            if (!verification.verified) throw registrationFailed("The passkey's attestation is not valid.");
            const { credential } = verification.registrationInfo;
            // Held until commit: a deletion of the user meanwhile is a clean USER_NOT_FOUND.
            if (!(await deps.usersRepo.lockUser(tx, project.id, user.id))) throw KnownErrors.USER_NOT_FOUND();
            await repo.replace(tx, {
              projectId: project.id,
              userId: user.id,
              credentialId: credential.id,
              publicKey: isoBase64URL.fromBuffer(credential.publicKey),
              counter: credential.counter,
              transports: credential.transports ?? [],
              createdAt: deps.clock.now(),
            });
            return { user_handle: credential.id };
          },
        );
      } catch (error) {
        // Credential ids are unique per project, so a discoverable sign-in finds one user.
        if (constraintOf(error) === "passkeys_credential_idx")
          throw registrationFailed("This passkey is already registered to another user.");
        throw error;
      }
    },

    /** Request options for any discoverable credential of the site (no account named), and the challenge code. */
    async initiateAuthentication(project: Project) {
      assertEnabled(project);
      const { generateAuthenticationOptions } = await webauthn();
      const options = await generateAuthenticationOptions({
        rpID: PASSKEY_RP_ID_PLACEHOLDER,
        allowCredentials: [],
        userVerification: "preferred",
        timeout: CEREMONY_TIMEOUT_MS,
      });
      const { code } = await deps.codes.create(deps.db, {
        projectId: project.id,
        purpose: "passkey_authentication",
        data: { challenge: options.challenge },
      });
      return { options_json: options, code };
    },

    /** Verifies the browser's assertion against the stored passkey and opens a session through the MFA gate. */
    async signIn(project: Project, input: PasskeySignInInput) {
      assertEnabled(project);
      const response = input.authentication_response as unknown as AuthenticationResponseJSON;
      const opened = await deps.codes.use(
        { projectId: project.id, purpose: "passkey_authentication", code: input.code },
        async (tx, row) => {
          const { origin, rpId } = await trustedOrigin(
            project,
            response.response.clientDataJSON,
            authenticationFailed,
          );
          const { verifyAuthenticationResponse, isoBase64URL } = await webauthn();
          const passkey = await repo.findByCredentialId(tx, project.id, response.id);
          if (!passkey) throw authenticationFailed("This passkey is not registered with this project.");
          const verification = await verifying(authenticationFailed, () =>
            verifyAuthenticationResponse({
              response,
              expectedChallenge: String(row.data.challenge),
              expectedOrigin: origin,
              expectedRPID: rpId,
              credential: {
                id: passkey.credentialId,
                publicKey: isoBase64URL.toBuffer(passkey.publicKey),
                counter: passkey.counter,
                transports: passkey.transports,
              },
              requireUserVerification: false,
            }),
          );
          if (!verification.verified) throw authenticationFailed("The passkey's signature is not valid.");
          await repo.recordUse(tx, passkey.id, verification.authenticationInfo.newCounter, deps.clock.now());
          const user = await deps.usersRepo.find(project.id, passkey.userId, tx);
          // Passkeys go with their user (foreign key), so this is a user deleted while we looked.
          if (!user) throw authenticationFailed("This passkey is not registered with this project.");
          return deps.mfa.open(tx, user, { isNewUser: false, method: "passkey" });
        },
      );
      return signInResponse(await deps.mfa.issue(opened), false);
    },
  };
}

export type PasskeyService = ReturnType<typeof createPasskeyService>;
