// The OIDC relying party of an SSO connection, on openid-client: discovery from the issuer, the authorization URL
// with PKCE (S256), state and nonce, and the callback's code exchange, whose id_token openid-client validates
// (signature against the issuer's JWKS, issuer, audience, expiry, nonce) before any claim is read.
import { KnownErrors } from "@gatehouse/contract";
import type * as OpenIdClient from "openid-client";
import type { Clock } from "../clock.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import { isLocalhost } from "../services/trusted-urls.ts";
import { isPublicUrl } from "../webhooks/addresses.ts";
import type { OidcSettings } from "./connections.ts";

const TIMEOUT_SECONDS = 10;
/** Clocks of identity providers drift; a minute either way is what most relying parties accept. */
const CLOCK_TOLERANCE_SECONDS = 60;

/** What the identity provider says about the user, as claims (the id_token's, then userinfo's). */
export type IdentityClaims = Record<string, unknown> & { sub: string };

export type OidcRelyingPartyDeps = {
  clock: Clock;
  box: SecretBox;
  /** Whether the issuer and the endpoints it names may be loopback or private addresses (tests, development). */
  allowPrivateUrls: boolean;
};

/** openid-client loads with the first OIDC connection used, not at the server's start. */
let library: Promise<typeof OpenIdClient> | undefined;
const openIdClient = () => (library ??= import("openid-client"));

/** A request of the relying party towards our own network, refused before it is sent. */
class PrivateAddressRefused extends Error {}

export function createOidcRelyingParty(deps: OidcRelyingPartyDeps) {
  // Every request the relying party makes (discovery, JWKS, token, userinfo) goes to URLs a team admin typed or that
  // their issuer named: never towards our own network, as for SAML metadata and webhooks.
  const guardedFetch: OpenIdClient.CustomFetch = async (url, options) => {
    if (!deps.allowPrivateUrls && !(await isPublicUrl(url))) throw new PrivateAddressRefused(url);
    // The same options fetch takes; only the typings differ (a Uint8Array body, which Node's fetch accepts).
    return fetch(url, options as RequestInit);
  };

  async function configuration(
    client: typeof OpenIdClient,
    connectionId: string,
    settings: OidcSettings,
  ): Promise<OpenIdClient.Configuration> {
    const issuer = new URL(settings.issuer_url);
    // Plain http only towards this machine (a local identity provider in development and tests).
    const insecure = issuer.protocol === "http:" && isLocalhost(issuer.hostname);
    const secret = deps.box.open(settings.sealed_client_secret);
    try {
      const config = await client.discovery(
        issuer,
        settings.client_id,
        {
          client_secret: secret,
          // Validate the id_token's times against our clock (injected, so tests control it), with tolerance.
          [client.clockSkew]: Math.round((deps.clock.now().getTime() - Date.now()) / 1000),
          [client.clockTolerance]: CLOCK_TOLERANCE_SECONDS,
        },
        client.ClientSecretPost(secret),
        {
          timeout: TIMEOUT_SECONDS,
          [client.customFetch]: guardedFetch,
          ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
        },
      );
      return config;
    } catch (error) {
      throw failure(client, connectionId, error);
    }
  }

  return {
    async authorizationUrl(
      connectionId: string,
      settings: OidcSettings,
      input: { redirectUri: string; state: string; nonce: string; codeVerifier: string },
    ): Promise<string> {
      const client = await openIdClient();
      const config = await configuration(client, connectionId, settings);
      return client
        .buildAuthorizationUrl(config, {
          redirect_uri: input.redirectUri,
          scope: "openid email profile",
          response_type: "code",
          state: input.state,
          nonce: input.nonce,
          code_challenge: await client.calculatePKCECodeChallenge(input.codeVerifier),
          code_challenge_method: "S256",
        })
        .toString();
    },

    /** The callback: exchanges the code, checks state, PKCE and nonce, and answers the validated claims. */
    async finish(
      connectionId: string,
      settings: OidcSettings,
      input: { callbackUrl: URL; state: string; nonce: string; codeVerifier: string },
    ): Promise<IdentityClaims> {
      const client = await openIdClient();
      const config = await configuration(client, connectionId, settings);
      try {
        const tokens = await client.authorizationCodeGrant(config, input.callbackUrl, {
          pkceCodeVerifier: input.codeVerifier,
          expectedState: input.state,
          expectedNonce: input.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims)
          throw KnownErrors.SSO_IDENTITY_PROVIDER_ERROR({
            connection_id: connectionId,
            reason: "No id_token.",
          });
        // Userinfo adds what the id_token left out (many providers put only `sub` in it); its `sub` must match.
        const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub).catch(() => ({}));
        return { ...info, ...claims, sub: claims.sub };
      } catch (error) {
        throw failure(client, connectionId, error);
      }
    },
  };
}

/**
 * The identity provider's refusals and the id_token checks become SSO_IDENTITY_PROVIDER_ERROR with what failed
 * (shown on the error page: the administrator needs it); an unreachable provider, a temporary failure.
 */
function failure(client: typeof OpenIdClient, connectionId: string, error: unknown): unknown {
  const refused = [error, (error as { cause?: unknown } | undefined)?.cause].find(
    (e) => e instanceof PrivateAddressRefused,
  );
  if (refused) {
    return KnownErrors.SSO_IDENTITY_PROVIDER_ERROR({
      connection_id: connectionId,
      reason: "The identity provider's address is not a public one.",
    });
  }
  if (error && typeof error === "object" && "code" in error && typeof error.code === "string") {
    if (error instanceof client.AuthorizationResponseError && error.error === "access_denied") {
      return KnownErrors.OAUTH_PROVIDER_ACCESS_DENIED();
    }
    const message = error instanceof Error ? error.message : String(error);
    if (error.code === "OAUTH_TIMEOUT" || /fetch failed|ECONNREFUSED/i.test(message)) {
      return KnownErrors.OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE();
    }
    return KnownErrors.SSO_IDENTITY_PROVIDER_ERROR({ connection_id: connectionId, reason: message });
  }
  if (error instanceof TypeError) return KnownErrors.OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE();
  return error;
}

export type OidcRelyingParty = ReturnType<typeof createOidcRelyingParty>;
