// The custom claims of an access token (the project's template: `teams`, `permissions`, metadata fields), apart from
// the partial user (partial-user.ts, loaded on use) since the package exports them: a module the package entry
// exports is in every page's first load once anything uses it.
import type { CustomAccessTokenClaims } from "@gatehouse/contract";
// The subpath, not the package root: the root brings zod's schemas into the browser bundle.
import { RESERVED_CLAIM_NAMES } from "@gatehouse/contract/claim-names";

/** The custom claims of a token's payload: everything but the standard claims, plus `teams` and `permissions`. */
export function customClaimsOf(claims: Record<string, unknown>): CustomAccessTokenClaims {
  const custom: CustomAccessTokenClaims = Object.fromEntries(
    Object.entries(claims).filter(([name]) => !RESERVED_CLAIM_NAMES.includes(name)),
  );
  if (Array.isArray(claims.teams)) custom.teams = claims.teams as CustomAccessTokenClaims["teams"];
  if (Array.isArray(claims.permissions)) custom.permissions = claims.permissions as string[];
  if (claims.custom_claims_omitted === true) custom.custom_claims_omitted = true;
  return custom;
}
