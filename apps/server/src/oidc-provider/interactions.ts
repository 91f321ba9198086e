// The sign-in and consent step of an authorization, driven by the handler pages for the signed-in Gatehouse user:
// what the app asks, then accept (log the user in at the OP and grant the scopes) or deny. Also the user's grants.
import { KnownErrors } from "@gatehouse/contract";
import { and, eq, gt, isNull, or } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/client.ts";
import { oidcPayloads } from "../db/schema.ts";
import { acrOf } from "../services/amr.ts";
import { endUserGrants } from "./adapter.ts";
import type { OidcClientRow, OidcClients } from "./clients.ts";
import { type InteractionInstance, latestGrantId, type Provider } from "./provider.ts";

type Deps = {
  db: Db;
  clock: Clock;
  clients: OidcClients;
  providerFor: (projectId: string) => Promise<Provider>;
  sessionOf: SessionLookup;
};

/**
 * When the user's Gatehouse session began (their real authentication time, epoch seconds) and how they proved who
 * they are then (RFC 8176 method references).
 */
export type SessionLookup = (
  projectId: string,
  sessionId: string,
) => Promise<{ startedAt: number; amr: string[] } | undefined>;

/** The signed-in user as the handler page's request names them: the user and their Gatehouse session. */
export type ConsentingUser = { id: string; sessionId: string };

export function createOidcInteractions(deps: Deps) {
  const { db, clock, clients } = deps;
  const epoch = () => Math.floor(clock.now().getTime() / 1000);

  async function load(projectId: string, interactionId: string) {
    const provider = await deps.providerFor(projectId);
    const interaction = await provider.Interaction.find(interactionId);
    const client = interaction ? await clients.find(projectId, interaction.params.client_id) : undefined;
    if (!interaction || !client || interaction.exp <= epoch())
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
    const prompts = String(interaction.params.prompt ?? "").split(" ");
    const maxAge = Number(interaction.params.max_age);
    const stale =
      (prompts.includes("login") && startedAt < interaction.iat) ||
      (interaction.params.max_age !== undefined && Number.isFinite(maxAge) && startedAt + maxAge < epoch());
    return { startedAt, stale, amr: session?.amr ?? [] };
  }

  async function finish(interaction: InteractionInstance, result: Record<string, unknown>): Promise<string> {
    interaction.result = result;
    await interaction.save(Math.max(interaction.exp - epoch(), 1));
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
      const { startedAt, stale, amr } = await authTime(projectId, user, interaction);
      if (stale) throw KnownErrors.OIDC_FRESH_SIGN_IN_REQUIRED();
      const userId = user.id;
      let grant = await existingGrant(provider, projectId, userId, client.clientId);
      if (!grant || grant.accountId !== userId)
        grant = new provider.Grant({ accountId: userId, clientId: client.clientId });
      grant.addOIDCScope(requested(interaction, client).join(" "));
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
