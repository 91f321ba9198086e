// [GO] Custom access-token claims (issue 21 item 4): a project's claim template, validated on save, and the shape
// of the claims it adds, which back ends read from a token verified against the JWKS without a call to Gatehouse.
import { z } from "zod";
import { RESERVED_CLAIM_NAMES } from "../claim-names.ts";

export { RESERVED_CLAIM_NAMES } from "../claim-names.ts";

/** The JSON size (bytes) the added claims may take in one token; above it they are left out (`custom_claims_omitted`). */
export const MAX_CUSTOM_CLAIMS_BYTES = 4096;

const claimNameSchema = z
  .string()
  .regex(
    /^[a-z][a-z0-9_]{0,63}$/,
    "must be lower-case letters, digits and _ (at most 64), starting with a letter",
  )
  .refine((name) => !RESERVED_CLAIM_NAMES.includes(name), "must not be a standard claim name");

/** One metadata field copied into a claim: a top-level key of one of the user's three metadata objects. */
const metadataClaimSchema = z.strictObject({
  claim: claimNameSchema,
  source: z.enum(["client_metadata", "client_read_only_metadata", "server_metadata"]),
  key: z.string().min(1).max(128),
});

/**
 * `metadata`: fields copied from the user's metadata; `teams`: a `teams` claim listing the user's teams (`ids`:
 * `[{ id }]`; `permissions`: `[{ id, permissions }]` with every team permission held, contained ones included);
 * `project_permissions`: a `permissions` claim with the user's project permission ids.
 */
export const accessTokenClaimsSchema = z
  .strictObject({
    metadata: z.array(metadataClaimSchema).max(20).default([]),
    teams: z.enum(["off", "ids", "permissions"]).default("off"),
    project_permissions: z.boolean().default(false),
  })
  .refine(
    (t) => new Set(t.metadata.map((m) => m.claim)).size === t.metadata.length,
    "metadata must not name a claim twice",
  );

export type AccessTokenClaimsTemplate = z.output<typeof accessTokenClaimsSchema>;

/** The claims a template adds to a token. */
export type CustomAccessTokenClaims = {
  teams?: { id: string; permissions?: string[] }[];
  permissions?: string[];
  custom_claims_omitted?: true;
  [metadataClaim: string]: unknown;
};
