// A project's OAuth clients (admin API): confidential ones get a random secret shown once and stored as its SHA-256
// hash; public ones have none and must use PKCE. Also what oidc-provider reads as a client's metadata.
import { randomBytes, randomUUID } from "node:crypto";
import { KnownErrors, type OidcClient } from "@gatehouse/contract";
import { and, asc, eq } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import { sha256Hex } from "../crypto/hash.ts";
import type { Db } from "../db/client.ts";
import { oidcClients } from "../db/schema.ts";
import { endClientGrants } from "./adapter.ts";

export type OidcClientRow = typeof oidcClients.$inferSelect;

type ClientInput = {
  display_name: string;
  type: "confidential" | "public";
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  allowed_scopes: string[];
  logo_url: string | null;
  first_party: boolean;
  token_endpoint_auth_method: "client_secret_basic" | "client_secret_post" | "private_key_jwt";
  jwks: { keys: Record<string, unknown>[] } | null;
  jwks_uri: string | null;
  id_token_signed_response_alg: "ES256" | "RS256";
  backchannel_logout_uri: string | null;
};
type ClientChanges = Partial<Omit<ClientInput, "type">>;

export function toWire(row: OidcClientRow): OidcClient {
  return {
    client_id: row.clientId,
    display_name: row.displayName,
    type: row.clientType,
    redirect_uris: row.redirectUris,
    post_logout_redirect_uris: row.postLogoutRedirectUris,
    allowed_scopes: row.allowedScopes,
    logo_url: row.logoUrl,
    first_party: row.firstParty,
    token_endpoint_auth_method: row.clientType === "confidential" ? row.tokenEndpointAuthMethod : "none",
    jwks: row.jwks,
    jwks_uri: row.jwksUri,
    id_token_signed_response_alg: row.idTokenSignedResponseAlg,
    backchannel_logout_uri: row.backchannelLogoutUri,
    created_at_millis: row.createdAt.getTime(),
  };
}

/**
 * The client as oidc-provider sees it. `client_secret` carries the hash, never the secret: provider.ts makes the
 * provider compare hashes, and only secret-based methods that need no plain secret (basic, post) are allowed.
 * private_key_jwt clients carry their public keys instead; oidc-provider checks their assertions.
 */
export function toProviderMetadata(row: OidcClientRow): Record<string, unknown> {
  const confidential = row.clientType === "confidential";
  return {
    client_id: row.clientId,
    client_name: row.displayName,
    ...(row.logoUrl ? { logo_uri: row.logoUrl } : {}),
    ...(confidential && row.secretHash && row.tokenEndpointAuthMethod !== "private_key_jwt"
      ? { client_secret: row.secretHash }
      : {}),
    token_endpoint_auth_method: confidential ? row.tokenEndpointAuthMethod : "none",
    ...(row.jwks ? { jwks: row.jwks } : {}),
    ...(row.jwksUri ? { jwks_uri: row.jwksUri } : {}),
    ...(row.backchannelLogoutUri
      ? { backchannel_logout_uri: row.backchannelLogoutUri, backchannel_logout_session_required: true }
      : {}),
    redirect_uris: row.redirectUris,
    post_logout_redirect_uris: row.postLogoutRedirectUris,
    grant_types: row.allowedScopes.includes("offline_access")
      ? ["authorization_code", "refresh_token"]
      : ["authorization_code"],
    response_types: ["code"],
    scope: row.allowedScopes.join(" "),
    id_token_signed_response_alg: row.idTokenSignedResponseAlg,
    // Relying parties that check max_age or show "signed in at" need auth_time in every id_token.
    require_auth_time: true,
  };
}

export function createOidcClients(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  async function find(projectId: string, clientId: string): Promise<OidcClientRow | undefined> {
    const [row] = await db
      .select()
      .from(oidcClients)
      .where(and(eq(oidcClients.projectId, projectId), eq(oidcClients.clientId, clientId)));
    return row;
  }

  async function get(projectId: string, clientId: string): Promise<OidcClientRow> {
    const row = await find(projectId, clientId);
    if (!row) throw KnownErrors.OIDC_CLIENT_NOT_FOUND({ client_id: clientId });
    return row;
  }

  return {
    find,
    get,

    async list(projectId: string): Promise<OidcClientRow[]> {
      return db
        .select()
        .from(oidcClients)
        .where(eq(oidcClients.projectId, projectId))
        .orderBy(asc(oidcClients.createdAt), asc(oidcClients.clientId));
    },

    async create(
      projectId: string,
      input: ClientInput,
    ): Promise<{ row: OidcClientRow; secret: string | null }> {
      checkKeys(input.type, input.token_endpoint_auth_method, input.jwks, input.jwks_uri);
      const secretBased =
        input.type === "confidential" && input.token_endpoint_auth_method !== "private_key_jwt";
      const secret = secretBased ? randomBytes(32).toString("base64url") : null;
      const [row] = await db
        .insert(oidcClients)
        .values({
          clientId: `ghc_${randomUUID().replaceAll("-", "")}`,
          projectId,
          displayName: input.display_name,
          clientType: input.type,
          secretHash: secret === null ? null : sha256Hex(secret),
          redirectUris: input.redirect_uris,
          postLogoutRedirectUris: input.post_logout_redirect_uris,
          allowedScopes: withOpenid(input.allowed_scopes),
          logoUrl: input.logo_url,
          firstParty: input.first_party,
          tokenEndpointAuthMethod: input.token_endpoint_auth_method,
          jwks: input.jwks,
          jwksUri: input.jwks_uri,
          idTokenSignedResponseAlg: input.id_token_signed_response_alg,
          backchannelLogoutUri: input.backchannel_logout_uri,
          createdAt: clock.now(),
        })
        .returning();
      if (!row) throw new Error("insert returned no row");
      return { row, secret };
    },

    async update(projectId: string, clientId: string, changes: ClientChanges): Promise<OidcClientRow> {
      const before = await get(projectId, clientId);
      const method = changes.token_endpoint_auth_method ?? before.tokenEndpointAuthMethod;
      checkKeys(
        before.clientType,
        method,
        changes.jwks === undefined ? before.jwks : changes.jwks,
        changes.jwks_uri === undefined ? before.jwksUri : changes.jwks_uri,
      );
      // A secret is made only at creation: a keys-based client cannot switch to a secret it never had.
      if (method !== "private_key_jwt" && before.clientType === "confidential" && !before.secretHash)
        throw KnownErrors.SCHEMA_ERROR({
          message: "This client has no secret: it must keep using private_key_jwt.",
        });
      const [row] = await db
        .update(oidcClients)
        .set({
          displayName: changes.display_name,
          redirectUris: changes.redirect_uris,
          postLogoutRedirectUris: changes.post_logout_redirect_uris,
          allowedScopes: changes.allowed_scopes ? withOpenid(changes.allowed_scopes) : undefined,
          logoUrl: changes.logo_url,
          firstParty: changes.first_party,
          tokenEndpointAuthMethod: changes.token_endpoint_auth_method,
          jwks: changes.jwks,
          jwksUri: changes.jwks_uri,
          idTokenSignedResponseAlg: changes.id_token_signed_response_alg,
          backchannelLogoutUri: changes.backchannel_logout_uri,
        })
        .where(and(eq(oidcClients.projectId, projectId), eq(oidcClients.clientId, clientId)))
        .returning();
      if (!row) throw KnownErrors.OIDC_CLIENT_NOT_FOUND({ client_id: clientId });
      return row;
    },

    async delete(projectId: string, clientId: string): Promise<void> {
      await get(projectId, clientId);
      await endClientGrants(db, projectId, clientId);
      await db
        .delete(oidcClients)
        .where(and(eq(oidcClients.projectId, projectId), eq(oidcClients.clientId, clientId)));
    },
  };
}

/** private_key_jwt needs exactly one of jwks and jwks_uri; keys mean nothing for other methods or public clients. */
function checkKeys(
  type: "confidential" | "public",
  method: string,
  jwks: unknown,
  jwksUri: string | null | undefined,
): void {
  const keys = (jwks ? 1 : 0) + (jwksUri ? 1 : 0);
  const wanted = type === "confidential" && method === "private_key_jwt";
  if (wanted && keys !== 1)
    throw KnownErrors.SCHEMA_ERROR({
      message: "private_key_jwt needs either jwks or jwks_uri (one of them).",
    });
  if (!wanted && keys > 0)
    throw KnownErrors.SCHEMA_ERROR({ message: "jwks and jwks_uri are only for private_key_jwt clients." });
}

/** Every client may ask for `openid`: without it, it is not an OpenID Connect client. */
function withOpenid(scopes: string[]): string[] {
  return [...new Set(["openid", ...scopes])];
}

export type OidcClients = ReturnType<typeof createOidcClients>;
