// The OAuth providers a project can offer (contract schemas/projects.ts): the standard ids, which of them may use
// the instance's shared development keys, generic OpenID Connect ids, and how a provider entry is written back.
import type { OAuthProviderConfig } from "./project-settings.ts";

export const STANDARD_PROVIDERS: { id: string; name: string }[] = [
  { id: "github", name: "GitHub" },
  { id: "google", name: "Google" },
  { id: "microsoft", name: "Microsoft" },
  { id: "facebook", name: "Facebook" },
  { id: "discord", name: "Discord" },
  { id: "gitlab", name: "GitLab" },
  { id: "bitbucket", name: "Bitbucket" },
  { id: "linkedin", name: "LinkedIn" },
  { id: "spotify", name: "Spotify" },
  { id: "twitch", name: "Twitch" },
  { id: "x", name: "X" },
  { id: "apple", name: "Apple" },
];

/** Providers that may use the instance's shared credentials (WIRE.md §7). */
export const SHARED_PROVIDER_IDS = ["google", "github", "microsoft", "spotify"];

export const OIDC = "oidc";
const OIDC_ID = /^oidc(-[a-z0-9][a-z0-9-]{0,40})?$/;
export const isOidc = (id: string) => OIDC_ID.test(id);
export const OIDC_NAME = /^[a-z0-9][a-z0-9-]{0,40}$/;

/**
 * The URL to register at the provider as the OAuth app's redirect (callback) URL: the server's callback route
 * (contract routes/oauth.ts) for this provider id, on the server's public address.
 */
export const callbackUrl = (serverUrl: string, providerId: string) =>
  `${serverUrl}/api/v1/auth/oauth/callback/${encodeURIComponent(providerId)}`;

export function providerName(id: string): string {
  if (isOidc(id)) return id === OIDC ? "OpenID Connect" : `OpenID Connect (${id.slice(5)})`;
  return STANDARD_PROVIDERS.find((p) => p.id === id)?.name ?? id;
}

/** The entry as written: without the read-only `providerConfigId`, and without keys for a shared one. */
export function providerToWrite(
  provider: OAuthProviderConfig & { providerConfigId?: string },
): OAuthProviderConfig {
  const { id, type, enabled } = provider;
  if (type === "shared") return { id, type, enabled };
  const entry: OAuthProviderConfig = {
    id,
    type,
    enabled,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
  };
  if (provider.microsoftTenantId) entry.microsoftTenantId = provider.microsoftTenantId;
  if (provider.facebookConfigId) entry.facebookConfigId = provider.facebookConfigId;
  if (provider.issuerUrl) entry.issuerUrl = provider.issuerUrl;
  return entry;
}

/** Whether `value` is an absolute http(s) URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
  } catch {
    return false;
  }
}
