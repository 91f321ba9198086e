// Header names of the wire (WIRE.md §1.2, §1.5). Every Gatehouse header exists as x-stack-* and x-hexclave-*.

export const HEADER_PREFIXES = ["x-stack-", "x-hexclave-"] as const;

/** Request header suffixes a client may send; each is accepted under both prefixes. */
export const REQUEST_HEADER_SUFFIXES = [
  "project-id",
  "branch-id",
  "access-type",
  "publishable-client-key",
  "secret-server-key",
  "super-secret-admin-key",
  "admin-access-token",
  "access-token",
  "refresh-token",
  "allow-anonymous-user",
  "allow-restricted-user",
  "override-error-status",
  "client-version",
  "random-nonce",
] as const;

export type RequestHeaderSuffix = (typeof REQUEST_HEADER_SUFFIXES)[number];

/** Both spellings of a header, e.g. `bothSpellings("known-error")` → x-stack-known-error, x-hexclave-known-error. */
export function bothSpellings(suffix: string): [string, string] {
  return [`${HEADER_PREFIXES[0]}${suffix}`, `${HEADER_PREFIXES[1]}${suffix}`];
}

export const ACCESS_TYPES = ["client", "server", "admin"] as const;
export type AccessType = (typeof ACCESS_TYPES)[number];

/**
 * The OAuth `client_secret` of a client without a publishable key (WIRE.md §3.5, §4.5), accepted where the project
 * does not require publishable keys.
 */
export const PUBLIC_CLIENT_SECRET = "__stack_public_client__";
