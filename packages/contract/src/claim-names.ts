// The reserved access-token claim names, apart from the zod schemas of token-claims.ts so the client SDK can read
// them without bundling zod (issue 24: the SDK's first load).

/** The claims every access token carries (WIRE.md §3.1) and the JWT registered names: a template may not shadow them. */
export const RESERVED_CLAIM_NAMES: readonly string[] = [
  "iss",
  "sub",
  "aud",
  "exp",
  "nbf",
  "iat",
  "jti",
  "project_id",
  "branch_id",
  "refresh_token_id",
  "role",
  "name",
  "email",
  "email_verified",
  "selected_team_id",
  "signed_up_at",
  "is_anonymous",
  "is_restricted",
  "restricted_reason",
  "requires_totp_mfa",
  "teams",
  "permissions",
  "custom_claims_omitted",
];
