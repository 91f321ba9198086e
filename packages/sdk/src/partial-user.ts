// getPartialUser({ from: "token" }): the signed-in user as their access token describes them, read without a request
// for the user (Stack's TokenPartialUser), for code that needs only who is signed in.
import type { CustomAccessTokenClaims } from "@gatehouse/contract";
import { customClaimsOf } from "./custom-claims.ts";
import { decodeJwtPayload } from "./session.ts";

export type RestrictedReason = { type: "anonymous" | "email_not_verified" | "restricted_by_administrator" };

export type TokenPartialUser = {
  id: string;
  displayName: string | null;
  primaryEmail: string | null;
  primaryEmailVerified: boolean;
  isAnonymous: boolean;
  isMultiFactorRequired: boolean;
  isRestricted: boolean;
  restrictedReason: RestrictedReason | null;
  /**
   * [GO] The claims the project's template adds (`teams`, `permissions`, metadata fields): what a back end reads
   * after verifying the token against the JWKS.
   */
  customClaims: CustomAccessTokenClaims;
};

export type GetPartialUserOptions = {
  from: "token";
  /** Anonymous users count as nobody unless `anonymous-if-exists` (as in Stack). */
  or?: "return-null" | "anonymous-if-exists";
};

/** The user an access token names, or null without one (or for an anonymous user, unless asked for). */
export function partialUserOf(
  accessToken: string | null,
  options: GetPartialUserOptions,
): TokenPartialUser | null {
  const claims = accessToken ? decodeJwtPayload(accessToken) : null;
  if (!claims || typeof claims.sub !== "string") return null;
  const isAnonymous = claims.is_anonymous === true;
  if (isAnonymous && options.or !== "anonymous-if-exists") return null;
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  return {
    id: claims.sub,
    displayName: text(claims.name),
    primaryEmail: text(claims.email),
    primaryEmailVerified: claims.email_verified === true,
    isAnonymous,
    isMultiFactorRequired: claims.requires_totp_mfa === true,
    isRestricted: claims.is_restricted === true,
    restrictedReason: (claims.restricted_reason as RestrictedReason | null | undefined) ?? null,
    customClaims: customClaimsOf(claims),
  };
}
