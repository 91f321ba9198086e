// One oidc-provider instance per project (issuer `<base>/api/v1/projects/<id>/oidc`), configured for Gatehouse:
// our storage adapter, the project's ES256 keys (and an RS256 one), our users as accounts, our handler pages for
// sign-in and consent.
/// <reference path="./oidc-provider.d.ts" />
import { createHmac } from "node:crypto";
import { and, desc, eq, gt, isNull, or } from "drizzle-orm";
import type { InteractionInstance, KoaContextWithOIDC, default as Provider } from "oidc-provider";
import type { Clock } from "../clock.ts";
import { constantTimeEqual, sha256Hex } from "../crypto/hash.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import type { Db } from "../db/client.ts";
import { oidcPayloads } from "../db/schema.ts";
import type { TeamsRepo } from "../db/teams-repo.ts";
import type { UsersRepo } from "../db/users-repo.ts";
import { ACR_MULTI_FACTOR, ACR_SINGLE_FACTOR } from "../services/amr.ts";
import type { SigningKeyService } from "../services/signing-keys.ts";
import { isPublicUrl } from "../webhooks/addresses.ts";
import { createAdapterClass } from "./adapter.ts";
import { type OidcClients, toProviderMetadata } from "./clients.ts";
import { loadOidcProvider } from "./library.ts";
import { ID_TOKEN_TTL_S, rsaPrivateJwks } from "./rsa-key.ts";

export const OIDC_SCOPES = ["openid", "offline_access", "profile", "email", "team"];

/**
 * The claims each scope releases. How the user signed in (services/amr.ts): oidc-provider puts acr and amr in an
 * id_token only when the app asks for them by the claims parameter; under `openid` they are in every id_token
 * (userinfo has neither).
 */
export const SCOPE_CLAIMS: Record<string, string[]> = {
  openid: ["sub", "acr", "amr"],
  profile: ["name", "picture"],
  email: ["email", "email_verified"],
  team: ["teams"],
};

export type ProviderDeps = {
  db: Db;
  clock: Clock;
  secret: string;
  baseUrl: string;
  trustProxy: boolean;
  clients: OidcClients;
  usersRepo: UsersRepo;
  teamsRepo: TeamsRepo;
  signingKeys: SigningKeyService;
  /** Seals the project's RS256 key. */
  box: SecretBox;
  /** Whether the provider's own requests (a client's jwks_uri, back-channel logout) may reach private addresses. */
  allowPrivateUrls: boolean;
  /** Where the project's handler pages are (sign-in, then consent): undefined when the project has no domain. */
  consentPageUrl: (projectId: string, interactionId: string) => Promise<string | undefined>;
};

export const mountPathOf = (projectId: string) => `/api/v1/projects/${encodeURIComponent(projectId)}/oidc`;

/** The newest live grant a user gave a client: consent is remembered across OP sessions. */
export async function latestGrantId(
  db: Db,
  now: Date,
  projectId: string,
  accountId: string,
  clientId: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ id: oidcPayloads.id })
    .from(oidcPayloads)
    .where(
      and(
        eq(oidcPayloads.projectId, projectId),
        eq(oidcPayloads.model, "Grant"),
        eq(oidcPayloads.accountId, accountId),
        eq(oidcPayloads.clientId, clientId),
        or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, now)),
      ),
    )
    .orderBy(desc(oidcPayloads.expiresAt))
    .limit(1);
  return row?.id;
}

type PageContext = { type: string; body: string };
const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

/** RP-initiated logout asks first (a link alone must not sign anyone out); `form` is oidc-provider's, with its xsrf. */
async function logoutSource(ctx: PageContext, form: string) {
  ctx.type = "html";
  ctx.body = page(
    "Sign out?",
    `${form}<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button> <button type="submit" form="op.logoutForm">No, stay signed in</button>`,
  );
}

async function postLogoutSuccessSource(ctx: PageContext) {
  ctx.type = "html";
  ctx.body = page("Signed out", "<p>You are signed out. You can close this window.</p>");
}

const ownTokenOnly = async (_ctx: unknown, client: { clientId: string }, token: { clientId?: string }) =>
  token.clientId === client.clientId;

export async function buildProvider(deps: ProviderDeps, projectId: string): Promise<Provider> {
  const { db, clock } = deps;
  const issuer = `${deps.baseUrl.replace(/\/$/, "")}${mountPathOf(projectId)}`;
  // The ES256 key signing now comes first: oidc-provider signs with the first key of an algorithm.
  const keys = [
    ...(await deps.signingKeys.privateJwks(projectId)),
    ...(await rsaPrivateJwks(db, deps.box, clock, projectId)),
  ];
  // Cookie names carry the project so two projects' OP sessions on one host never read each other's cookies.
  const suffix = sha256Hex(projectId).slice(0, 12);
  const findClient = async (p: string, clientId: string) => {
    const row = await deps.clients.find(p, clientId);
    return row ? toProviderMetadata(row) : undefined;
  };

  const { default: OidcProvider, errors } = await loadOidcProvider();
  const provider = new OidcProvider(issuer, {
    adapter: createAdapterClass(db, clock, projectId, findClient),
    jwks: { keys },
    cookies: {
      keys: [
        createHmac("sha256", deps.secret).update(`oidc-provider-cookies:${projectId}`).digest("base64url"),
      ],
      names: { session: `_gh_op_${suffix}`, interaction: `_gh_op_i_${suffix}`, resume: `_gh_op_r_${suffix}` },
    },
    scopes: OIDC_SCOPES,
    acrValues: [ACR_SINGLE_FACTOR, ACR_MULTI_FACTOR],
    claims: { amr: null, ...SCOPE_CLAIMS },
    async findAccount(_ctx: unknown, sub: string) {
      const user = await deps.usersRepo.find(projectId, sub).catch(() => undefined);
      // A banned (restricted) user has no account here: their tokens stop working at userinfo and refresh.
      if (!user || user.restrictedByAdmin) return undefined;
      return {
        accountId: user.id,
        async claims(_use: string, scope: string) {
          const scopes = new Set(scope.split(" "));
          return {
            sub: user.id,
            name: user.displayName ?? undefined,
            picture: user.profileImageUrl ?? undefined,
            email: user.primaryEmail?.value,
            email_verified: user.primaryEmail ? user.primaryEmail.isVerified : undefined,
            ...(scopes.has("team") ? { teams: await deps.teamsRepo.teamIdsOf(db, user.id) } : {}),
          };
        },
      };
    },
    features: {
      devInteractions: { enabled: false },
      // A client may introspect or revoke only its own tokens (the default lets any client ask about any token).
      revocation: { enabled: true, allowedPolicy: ownTokenOnly },
      introspection: { enabled: true, allowedPolicy: ownTokenOnly },
      // The claims parameter (OpenID Connect Core §5.5): how an app demands a multi-factor sign-in (an essential acr,
      // interactions.ts). The claims it names are granted only as far as the consented scopes release them.
      claimsParameter: { enabled: true },
      // Our own plain pages: the package's defaults load web fonts from a third party.
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
      userinfo: { enabled: true },
      // Apps with a backchannel_logout_uri hear when the user's session ends, here or at Gatehouse (backchannel.ts).
      backchannelLogout: { enabled: true },
    },
    // Every request the provider makes itself (a client's jwks_uri, back-channel logout) goes to public addresses
    // only, as webhooks do; oidc-provider's own special-use address check stays on unless private ones are allowed.
    async fetch(url: URL | string, options: RequestInit & { dispatcher?: unknown }) {
      if (!deps.allowPrivateUrls && !(await isPublicUrl(String(url))))
        throw new Error("The address is not a public one.");
      if (deps.allowPrivateUrls) delete options.dispatcher;
      return globalThis.fetch(url, options);
    },
    enabledJWA: {
      idTokenSigningAlgValues: ["ES256", "RS256"],
      userinfoSigningAlgValues: ["ES256", "RS256"],
      introspectionSigningAlgValues: ["ES256", "RS256"],
      // Secrets are stored hashed, so client_secret_jwt (an HMAC keyed with the plain secret) cannot be offered.
      clientAuthSigningAlgValues: ["ES256", "RS256", "PS256", "EdDSA"],
    },
    clientAuthMethods: ["client_secret_basic", "client_secret_post", "private_key_jwt", "none"],
    // RFC 9700: redirect_uri is always sent and matched exactly, even for a client with one registered.
    allowOmittingSingleRegisteredRedirectUri: false,
    // Refresh tokens rotate on every use; a used one presented again revokes the whole grant (reuse detection).
    rotateRefreshToken: true,
    async issueRefreshToken(
      _ctx: unknown,
      client: { grantTypeAllowed(g: string): boolean },
      code: { scopes: Set<string> },
    ) {
      return client.grantTypeAllowed("refresh_token") && code.scopes.has("offline_access");
    },
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      IdToken: ID_TOKEN_TTL_S,
      Interaction: 3600,
      Session: 14 * 24 * 3600,
      Grant: 365 * 24 * 3600,
      RefreshToken: 30 * 24 * 3600,
    },
    interactions: {
      async url(_ctx: unknown, interaction: { uid: string }) {
        return (
          (await deps.consentPageUrl(projectId, interaction.uid)) ?? `${mountPathOf(projectId)}/no-handler`
        );
      },
    },
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session, result } = ctx.oidc;
      if (!client) return undefined;
      const grantId =
        result?.consent?.grantId ??
        session?.grantIdFor(client.clientId) ??
        (session?.accountId
          ? await latestGrantId(db, clock.now(), projectId, session.accountId, client.clientId)
          : undefined);
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    async renderError(ctx: { type: string; body: string }, out: Record<string, string>) {
      ctx.type = "text/plain; charset=utf-8";
      ctx.body = `${out.error ?? "error"}: ${out.error_description ?? ""}\n`;
    },
  });
  provider.proxy = deps.trustProxy;
  // The client's `client_secret` metadata is the SHA-256 of the secret (clients.ts): compare hashes, in constant time.
  provider.Client.prototype.compareClientSecret = function compare(
    this: { clientSecret?: string; tokenEndpointAuthMethod?: string },
    actual: string,
  ) {
    // oidc-provider takes a secret in either place for a secret-based client; the registered method is the only one
    // accepted (RFC 7591 §2), so a secret sent where the client said it would not be is refused as invalid_client.
    const inBody = OidcProvider.ctx?.oidc.params?.client_secret !== undefined;
    if (inBody !== (this.tokenEndpointAuthMethod === "client_secret_post"))
      throw new errors.InvalidClientAuth(
        `the client must authenticate with ${this.tokenEndpointAuthMethod ?? "its registered method"}`,
      );
    return this.clientSecret !== undefined && constantTimeEqual(sha256Hex(actual), this.clientSecret);
  };
  return provider;
}

export type { InteractionInstance, Provider };
