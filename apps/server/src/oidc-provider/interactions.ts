// The sign-in and consent step of an authorization, driven by the handler pages for the signed-in Gatehouse user:
// what the app asks, then accept (log the user in at the OP and grant the scopes) or deny. Also the user's grants.
import { KnownErrors } from "@gatehouse/contract";
import { and, eq, gt, isNull, or } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/client.ts";
import { oidcPayloads } from "../db/schema.ts";
import { ACR_MULTI_FACTOR, acrOf } from "../services/amr.ts";
import { endUserGrants } from "./adapter.ts";
import type { OidcClientRow, OidcClients } from "./clients.ts";
import { type InteractionInstance, latestGrantId, type Provider, SCOPE_CLAIMS } from "./provider.ts";

type Deps = {
  db: Db;
  clock: Clock;
  clients: OidcClients;
  providerFor: (projectId: string) => Promise<Provider>;
  sessionOf: SessionLookup;
};

/**
 * When the user's Gatehouse session began (their real authentication time, epoch seconds), how they proved who they
 * are then (RFC 8176 method references), and whether they have a second factor to prove it with now.
 */
export type SessionLookup = (
  projectId: string,
  sessionId: string,
) => Promise<{ startedAt: number; amr: string[]; secondFactor: boolean } | undefined>;

/**
 * How firmly the app asks for a multi-factor sign-in: `acr_values` naming only the multi-factor class is a wish the
 * OP should try to meet (OpenID Connect Core §3.1.2.1); the claims parameter's id_token `acr` marked essential with
 * only that class is a demand (§5.5.1.1). Anything else accepts the one-factor class too.
 */
export function multiFactorDemand(params: Record<string, unknown>): "none" | "wished" | "essential" {
  const onlyMultiFactor = (values: unknown[]) =>
    values.length > 0 && values.every((value) => value === ACR_MULTI_FACTOR);
  const acr = claimsOf(params.claims)?.id_token?.acr;
  if (acr?.essential === true && onlyMultiFactor(acr.values ?? (acr.value === undefined ? [] : [acr.value])))
    return "essential";
  return onlyMultiFactor(
    String(params.acr_values ?? "")
      .split(" ")
      .filter(Boolean),
  )
    ? "wished"
    : "none";
}

type AcrRequest = { essential?: unknown; value?: unknown; values?: unknown[] };
type ClaimsRequest = {
  id_token?: { acr?: AcrRequest } & Record<string, unknown>;
  userinfo?: Record<string, unknown>;
};
/** The claims parameter as oidc-provider keeps it in the interaction (a JSON string; it validated the shape). */
function claimsOf(raw: unknown): ClaimsRequest | undefined {
  if (typeof raw === "object" && raw !== null) return raw;
  if (typeof raw !== "string") return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** Every claim the claims parameter names, for the id_token or userinfo. */
function claimNames(raw: unknown): string[] {
  const claims = claimsOf(raw);
  return [...new Set([...Object.keys(claims?.id_token ?? {}), ...Object.keys(claims?.userinfo ?? {})])];
}

/** The signed-in user as the handler page's request names them: the user and their Gatehouse session. */
export type ConsentingUser = { id: string; sessionId: string };

export function createOidcInteractions(deps: Deps) {
  const { db, clock, clients } = deps;
  const epoch = () => Math.floor(clock.now().getTime() / 1000);
  // oidc-provider stamps an interaction's iat and exp with its own reading of the time (the system clock): its life
  // is measured on that clock, the user's sessions on ours.
  const providerEpoch = () => Math.floor(Date.now() / 1000);

  async function load(projectId: string, interactionId: string) {
    const provider = await deps.providerFor(projectId);
    const interaction = await provider.Interaction.find(interactionId);
    const client = interaction ? await clients.find(projectId, interaction.params.client_id) : undefined;
    if (!interaction || !client || interaction.exp <= providerEpoch())
      throw KnownErrors.OIDC_INTERACTION_NOT_FOUND({ interaction_id: interactionId });
    return { provider, interaction, client };
  }

  /** The scopes asked that this client may have (unknown and disallowed ones are dropped, as oidc-provider does). */
  const requested = (interaction: InteractionInstance, client: OidcClientRow) =>
    String(interaction.params.scope ?? "")
      .split(" ")
      .filter((scope) => client.allowedScopes.includes(scope));

  async function existingGrant(provider: Provider, projectId: string, userId: string, clientId: string) {
    const id = await latestGrantId(db, clock.now(), projectId, userId, clientId);
    return id ? provider.Grant.find(id) : undefined;
  }

  /**
   * The app's demand for a fresh sign-in, checked against when the user's session really began: prompt=login needs
   * a session begun after the request, max_age one no older than that. oidc-provider trusts our login result (its
   * `ts` becomes auth_time), so this check is ours.
   */
  async function authTime(projectId: string, user: ConsentingUser, interaction: InteractionInstance) {
    const session = await deps.sessionOf(projectId, user.sessionId);
    const startedAt = session?.startedAt ?? 0;
    const amr = session?.amr ?? [];
    const prompts = String(interaction.params.prompt ?? "").split(" ");
    const maxAge = Number(interaction.params.max_age);
    // A multi-factor sign-in asked of a session that had none: a user with a second factor signs in again (once: a
    // session begun after the request that still has one factor, say by passkey, is not sent round again).
    const demand = multiFactorDemand(interaction.params);
    const singleFactor = demand !== "none" && !amr.includes("mfa");
    const stepUp = singleFactor && session?.secondFactor === true && startedAt < interaction.iat;
    const stale =
      stepUp ||
      (prompts.includes("login") && startedAt < interaction.iat) ||
      (interaction.params.max_age !== undefined && Number.isFinite(maxAge) && startedAt + maxAge < epoch());
    // What cannot be met: the app demanded multi-factor and this sign-in cannot give it.
    const unmet = singleFactor && demand === "essential" && !stepUp;
    return { startedAt, stale, unmet, amr };
  }

  async function finish(interaction: InteractionInstance, result: Record<string, unknown>): Promise<string> {
    interaction.result = result;
    await interaction.save(Math.max(interaction.exp - providerEpoch(), 1));
    return interaction.returnTo;
  }

  return {
    async details(projectId: string, user: ConsentingUser, interactionId: string) {
      const { provider, interaction, client } = await load(projectId, interactionId);
      const grant = await existingGrant(provider, projectId, user.id, client.clientId);
      const granted = new Set(grant?.getOIDCScope().split(" ") ?? []);
      const missing = requested(interaction, client).filter((scope) => !granted.has(scope));
      return {
        interaction_id: interaction.uid,
        client: {
          client_id: client.clientId,
          display_name: client.displayName,
          logo_url: client.logoUrl,
          first_party: client.firstParty,
        },
        scopes: missing,
        consent_required: !client.firstParty && missing.length > 0,
        sign_in_required: (await authTime(projectId, user, interaction)).stale,
      };
    },

    /** Logs the user in at the OP and grants the asked scopes (a first-party client's need no consent page). */
    async accept(projectId: string, user: ConsentingUser, interactionId: string): Promise<string> {
      const { provider, interaction, client } = await load(projectId, interactionId);
      const { startedAt, stale, unmet, amr } = await authTime(projectId, user, interaction);
      if (stale) throw KnownErrors.OIDC_FRESH_SIGN_IN_REQUIRED();
      // The app hears it could not have what it demanded (OpenID Connect Unmet Authentication Requirements 1.0).
      if (unmet)
        return finish(interaction, {
          error: "unmet_authentication_requirements",
          error_description:
            "The app requires a multi-factor sign-in, and this account has no second factor.",
        });
      const userId = user.id;
      let grant = await existingGrant(provider, projectId, userId, client.clientId);
      if (!grant || grant.accountId !== userId)
        grant = new provider.Grant({ accountId: userId, clientId: client.clientId });
      const scopes = requested(interaction, client);
      grant.addOIDCScope(scopes.join(" "));
      // Claims named in the claims parameter: those the granted scopes release, and no others (the consent page
      // shows scopes; a claim outside them was never agreed to, and is marked refused so it is not asked again).
      const released = new Set(scopes.flatMap((scope) => SCOPE_CLAIMS[scope] ?? []));
      const named = claimNames(interaction.params.claims);
      grant.addOIDCClaims(named.filter((claim) => released.has(claim)));
      grant.rejectOIDCClaims(named.filter((claim) => !released.has(claim)));
      const grantId = await grant.save();
      return finish(interaction, {
        // A different user than the OP session's signs in: the OP session switches to them.
        // amr and acr go into the id_token as the session recorded them (none for a session nobody signed in to).
        login: {
          accountId: userId,
          ts: startedAt,
          remember: true,
          // Not oidc-provider's: the storage adapter links the OP session to this Gatehouse session (sign-out ends both).
          gatehouseSessionId: user.sessionId,
          ...(amr.length > 0 ? { amr, acr: acrOf(amr) } : {}),
        },
        consent: { grantId },
      });
    },

    async deny(projectId: string, interactionId: string): Promise<string> {
      const { interaction } = await load(projectId, interactionId);
      return finish(interaction, { error: "access_denied", error_description: "The user refused the app." });
    },

    /** The apps the user has granted, newest grant per client. */
    async grants(projectId: string, userId: string) {
      const rows = await db
        .select({ clientId: oidcPayloads.clientId, payload: oidcPayloads.payload })
        .from(oidcPayloads)
        .where(
          and(
            eq(oidcPayloads.projectId, projectId),
            eq(oidcPayloads.model, "Grant"),
            eq(oidcPayloads.accountId, userId),
            or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, clock.now())),
          ),
        );
      const byClient = new Map<string, Set<string>>();
      for (const row of rows) {
        if (!row.clientId) continue;
        const scopes = byClient.get(row.clientId) ?? new Set<string>();
        const openid = (row.payload as { openid?: { scope?: string } }).openid?.scope ?? "";
        for (const scope of openid.split(" ").filter(Boolean)) scopes.add(scope);
        byClient.set(row.clientId, scopes);
      }
      const items = [];
      for (const [clientId, scopes] of byClient) {
        const client = await clients.find(projectId, clientId);
        if (!client) continue;
        items.push({
          client_id: clientId,
          display_name: client.displayName,
          logo_url: client.logoUrl,
          scopes: [...scopes],
        });
      }
      return items;
    },

    async revoke(projectId: string, userId: string, clientId: string): Promise<void> {
      await clients.get(projectId, clientId);
      await endUserGrants(db, projectId, userId, clientId);
    },
  };
}
