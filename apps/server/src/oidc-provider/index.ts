// Gatehouse as an OpenID Provider, built once in deps.ts: the OAuth clients, one oidc-provider per project (rebuilt
// now and then so rotated signing keys are picked up), the consent step, and the Node handler the route mounts.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { endUserGrants } from "./adapter.ts";
import { createBackchannelSender } from "./backchannel.ts";
import { createOidcClients } from "./clients.ts";
import { createOidcInteractions, type SessionLookup } from "./interactions.ts";
import { buildProvider, mountPathOf, type Provider, type ProviderDeps } from "./provider.ts";
import { rotateRsaKeys } from "./rsa-key.ts";

/** Keys are published an hour before they sign, so a provider rebuilt every ten minutes never signs with a stale one. */
const PROVIDER_MAX_AGE_MS = 10 * 60 * 1000;

export type OidcProviderDeps = Omit<ProviderDeps, "clients"> & {
  sessionOf: SessionLookup;
  logger: Logger;
};

export function createOidcProvider(deps: OidcProviderDeps) {
  const clients = createOidcClients({ db: deps.db, clock: deps.clock });
  const providers = new Map<string, { provider: Promise<Provider>; builtAt: number }>();

  function providerFor(projectId: string): Promise<Provider> {
    const now = Date.now();
    const cached = providers.get(projectId);
    if (cached && now - cached.builtAt < PROVIDER_MAX_AGE_MS) return cached.provider;
    const provider = buildProvider({ ...deps, clients }, projectId);
    providers.set(projectId, { provider, builtAt: now });
    // A failed build (a database hiccup) is not cached.
    provider.catch(() => providers.delete(projectId));
    return provider;
  }

  return {
    clients,
    interactions: createOidcInteractions({
      db: deps.db,
      clock: deps.clock,
      clients,
      providerFor,
      sessionOf: deps.sessionOf,
    }),
    mountPathOf,
    /** The project's provider (the routes mount it; tests build interactions with it). */
    providerFor,

    /** Hands a request under the project's mount path to its provider; resolves when the answer is sent. */
    async handle(projectId: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
      const provider = await providerFor(projectId);
      const mount = mountPathOf(projectId);
      const url = req.url ?? "/";
      // oidc-provider derives its mount path from originalUrl minus url, as behind Express's app.use(path, …).
      Object.assign(req, { originalUrl: url, url: url.slice(mount.length) || "/" });
      await new Promise<void>((resolve) => {
        res.once("close", resolve);
        res.once("finish", resolve);
        provider.callback()(req, res);
      });
    },

    /** Back-channel logout notices and the sweep of expired records (main starts its worker). */
    backchannel: createBackchannelSender({
      db: deps.db,
      clock: deps.clock,
      logger: deps.logger,
      providerFor,
    }),

    /**
     * A signing-key rotation's part here, in its transaction: a new RS256 key, and the superseded ones that can go.
     * This process's provider is rebuilt at its next request, so the new key is published at once (others within
     * PROVIDER_MAX_AGE_MS, well inside the hour before it signs).
     */
    async rotateKeys(tx: Db, projectId: string) {
      const rotated = await rotateRsaKeys(tx, deps.box, deps.clock, projectId);
      providers.delete(projectId);
      return rotated;
    },

    /** Ending a user's sessions or banning them ends what they hold at the OP (sessions, grants, tokens). */
    endUserGrants: (projectId: string, userId: string) => endUserGrants(deps.db, projectId, userId),
  };
}

export type OidcProvider = ReturnType<typeof createOidcProvider>;
