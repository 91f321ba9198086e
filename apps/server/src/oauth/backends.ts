// The two kinds of OAuth backend behind one interface: a real provider reached with oauth4webapi (a standard
// provider of the table in providers.ts, or a generic OpenID Connect issuer found by discovery), and the
// development provider (oauth/development-provider.ts). The flow in oauth/flow.ts only ever talks to this interface.
import * as oauth from "oauth4webapi";
import { isLocalhost } from "../services/trusted-urls.ts";
import {
  type JsonGetter,
  type ProfileReader,
  type ProviderDefinition,
  type ProviderProfile,
  profileFromClaims,
} from "./providers.ts";

export type ProviderTokens = {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  /** What the provider granted, space-separated, or null when it did not say. */
  scope: string | null;
};

export type OAuthBackend = {
  /** Where to send the user: our PKCE challenge and inner state are in it. */
  authorizationUrl(input: {
    state: string;
    codeChallenge: string;
    redirectUri: string;
    extraScopes: string[];
  }): Promise<string>;
  /** Exchanges the callback's code (with our verifier) and reads the profile. */
  finish(input: {
    params: URLSearchParams;
    state: string;
    redirectUri: string;
    codeVerifier: string;
  }): Promise<{ tokens: ProviderTokens; profile: ProviderProfile }>;
  /** New tokens from a refresh token (connected accounts). */
  refresh(refreshToken: string): Promise<ProviderTokens>;
};

/** The provider could not be reached or answered nonsense: the user should simply try again. */
export class ProviderUnavailable extends Error {}

/** The provider refused the code or the refresh token: the grant is gone, retrying will not help. */
export class ProviderRefused extends Error {}

const PROVIDER_TIMEOUT_MS = 10_000;

/** Plain http is allowed only towards this machine (a local identity provider in development and tests). */
function requestOptions(url: string) {
  const insecure = new URL(url).protocol === "http:" && isLocalhost(new URL(url).hostname);
  return { signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS), [oauth.allowInsecureRequests]: insecure };
}

/** Turns the library's and the network's failures into our two kinds. */
async function talk<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof oauth.ResponseBodyError && error.error === "invalid_grant") {
      throw new ProviderRefused(error.error_description ?? error.error);
    }
    if (error instanceof ProviderRefused) throw error;
    throw new ProviderUnavailable(error instanceof Error ? error.message : String(error));
  }
}

const tokensOf = (response: oauth.TokenEndpointResponse, now: number): ProviderTokens => ({
  accessToken: response.access_token,
  refreshToken: response.refresh_token ?? null,
  expiresAt: typeof response.expires_in === "number" ? new Date(now + response.expires_in * 1000) : null,
  scope: typeof response.scope === "string" ? response.scope : null,
});

export type StandardBackendConfig = {
  definition: ProviderDefinition;
  clientId: string;
  clientSecret: string;
  /** Microsoft only. */
  tenantId?: string;
  /** Facebook Login for Business: the configuration replaces the scopes. */
  facebookConfigId?: string;
  /** A discovered issuer's metadata, used as it is (generic OpenID Connect). */
  server?: oauth.AuthorizationServer;
  now: () => number;
};

/** A provider reached over the network with the project's (or the instance's) client id and secret. */
export function createStandardBackend(config: StandardBackendConfig): OAuthBackend {
  const tenant = (url: string) => url.replaceAll("{tenant}", config.tenantId ?? "common");
  const { definition } = config;
  const as: oauth.AuthorizationServer = config.server ?? {
    issuer: tenant(definition.issuer),
    authorization_endpoint: tenant(definition.authorizationEndpoint),
    token_endpoint: tenant(definition.tokenEndpoint),
  };
  const client: oauth.Client = { client_id: config.clientId };
  const auth =
    definition.clientAuth === "basic"
      ? oauth.ClientSecretBasic(config.clientSecret)
      : oauth.ClientSecretPost(config.clientSecret);

  const get: (accessToken: string) => JsonGetter = (accessToken) => async (url, headers) => {
    const response = await oauth.protectedResourceRequest(
      accessToken,
      "GET",
      new URL(url),
      new Headers({ accept: "application/json", ...headers }),
      null,
      requestOptions(url),
    );
    if (!response.ok) throw new ProviderUnavailable(`${url} answered ${response.status}`);
    return response.json();
  };

  return {
    async authorizationUrl({ state, codeChallenge, redirectUri, extraScopes }) {
      const url = new URL(as.authorization_endpoint ?? "");
      const scopes = [...definition.scopes, ...extraScopes];
      const params: Record<string, string> = {
        client_id: config.clientId,
        redirect_uri: redirectUri,
        response_type: "code",
        state,
        code_challenge: codeChallenge,
        code_challenge_method: "S256",
        ...definition.authorizationParams,
        ...(config.facebookConfigId ? { config_id: config.facebookConfigId } : { scope: scopes.join(" ") }),
      };
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      return url.toString();
    },

    async finish({ params, state, redirectUri, codeVerifier }) {
      return talk(async () => {
        const validated = oauth.validateAuthResponse(as, client, params, state);
        const response = await oauth.authorizationCodeGrantRequest(
          as,
          client,
          auth,
          validated,
          redirectUri,
          codeVerifier,
          requestOptions(as.token_endpoint ?? ""),
        );
        const result = await oauth.processAuthorizationCodeResponse(as, client, response);
        const claims = oauth.getValidatedIdTokenClaims(result);
        const profile = await definition.profile({
          get: get(result.access_token),
          idTokenClaims: claims as Record<string, unknown> | undefined,
          clientId: config.clientId,
        });
        return { tokens: tokensOf(result, config.now()), profile };
      });
    },

    async refresh(refreshToken) {
      return talk(async () => {
        const response = await oauth.refreshTokenGrantRequest(
          as,
          client,
          auth,
          refreshToken,
          requestOptions(as.token_endpoint ?? ""),
        );
        const result = await oauth.processRefreshTokenResponse(as, client, response);
        // A provider that does not rotate refresh tokens keeps the old one valid.
        const tokens = tokensOf(result, config.now());
        return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
      });
    },
  };
}

const DISCOVERY_TTL_MS = 10 * 60 * 1000;

/**
 * Generic OpenID Connect issuers, found by discovery. Discovery documents are cached for ten minutes per issuer, so
 * sign-ins do not fetch one each, while a changed issuer configuration is picked up soon.
 */
export function createDiscovery(now: () => number) {
  const cache = new Map<string, { server: oauth.AuthorizationServer; fetchedAt: number }>();
  return async function discover(issuerUrl: string): Promise<oauth.AuthorizationServer> {
    const cached = cache.get(issuerUrl);
    if (cached && now() - cached.fetchedAt < DISCOVERY_TTL_MS) return cached.server;
    const server = await talk(async () => {
      const issuer = new URL(issuerUrl);
      const response = await oauth.discoveryRequest(issuer, requestOptions(issuerUrl));
      return oauth.processDiscoveryResponse(issuer, response);
    });
    cache.set(issuerUrl, { server, fetchedAt: now() });
    return server;
  };
}

/** The standard claims, from the ID token or else from the userinfo endpoint. */
function oidcProfile(server: oauth.AuthorizationServer, name: string): ProfileReader {
  return async ({ get, idTokenClaims }) => {
    const claims = { ...idTokenClaims };
    if (server.userinfo_endpoint && (claims.email === undefined || claims.name === undefined)) {
      const info = (await get(server.userinfo_endpoint)) as Record<string, unknown>;
      // Userinfo about someone else than the ID token's subject is ignored.
      if (claims.sub === undefined || info.sub === claims.sub) Object.assign(claims, info);
    }
    return profileFromClaims(claims, name);
  };
}

/** A generic OpenID Connect provider, as a table row built from its discovery document. */
export function oidcDefinition(server: oauth.AuthorizationServer, name: string): ProviderDefinition {
  if (!server.authorization_endpoint || !server.token_endpoint) {
    throw new ProviderUnavailable(`${server.issuer} publishes no authorization or token endpoint`);
  }
  const basicOnly =
    server.token_endpoint_auth_methods_supported?.includes("client_secret_basic") &&
    !server.token_endpoint_auth_methods_supported.includes("client_secret_post");
  return {
    name,
    issuer: server.issuer,
    authorizationEndpoint: server.authorization_endpoint,
    tokenEndpoint: server.token_endpoint,
    scopes: ["openid", "email", "profile"],
    clientAuth: basicOnly ? "basic" : "post",
    profile: oidcProfile(server, name),
  };
}
