// Which backend serves a project's provider (WIRE.md §7 "OAuth providers"):
// - `standard`: the project's own client id and secret, against the provider of the table (providers.ts) or, for
//   `oidc`/`oidc-<name>`, the issuer found by discovery;
// - `shared` with instance credentials (GATEHOUSE_OAUTH_<PROVIDER>_CLIENT_ID/_SECRET): the real provider with them;
// - `shared` without: the development provider (test identities), only for the projects GATEHOUSE_DEVELOPMENT_OAUTH
//   names and never in production mode; otherwise OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED, as WIRE.md §7 says for a
//   shared provider the instance has no credentials for. A stand-in that nobody asked for would sign strangers in.
import { GENERIC_OIDC_PROVIDER_ID, KnownErrors } from "@gatehouse/contract";
import type { Clock } from "../clock.ts";
import type { Project, ProjectSecrets } from "../services/projects.ts";
import {
  createDiscovery,
  createStandardBackend,
  type OAuthBackend,
  oidcDefinition,
  ProviderUnavailable,
} from "./backends.ts";
import { type DevelopmentProvider, developmentProviderAllowed } from "./development-provider.ts";
import { PROVIDERS, providerName } from "./providers.ts";

export type OAuthCredentials = { clientId: string; clientSecret: string };

export type ResolvedProvider = {
  backend: OAuthBackend;
  /** Shared keys: no extra scopes and no connected-account tokens (WIRE.md §4.5, §4.17). */
  shared: boolean;
  /** The development provider: its identities are unverified and never join an existing account (oauth/flow.ts). */
  development: boolean;
  /** The URL the provider sends the user back to. */
  redirectUri: string;
};

export function createProviderDirectory(deps: {
  baseUrl: string;
  clock: Clock;
  secrets: ProjectSecrets;
  development: DevelopmentProvider;
  /** The instance's own credentials for shared providers, by provider id. */
  sharedCredentials: Record<string, OAuthCredentials>;
  /** GATEHOUSE_DEVELOPMENT_OAUTH: the project ids (or `*`) whose shared providers may use the development provider. */
  developmentProjects: readonly string[];
}) {
  const now = () => deps.clock.now().getTime();
  const discover = createDiscovery(now);
  /** The real provider on the instance's keys, when the instance has keys for it. */
  const sharedBackend = (providerId: string): OAuthBackend | undefined => {
    const credentials = deps.sharedCredentials[providerId];
    const definition = PROVIDERS[providerId];
    return credentials && definition ? createStandardBackend({ definition, ...credentials, now }) : undefined;
  };

  return {
    callbackUrl: (providerId: string) =>
      `${deps.baseUrl}/api/v1/auth/oauth/callback/${encodeURIComponent(providerId)}`,

    /** The project's enabled entry for this provider, without reaching the provider. */
    entry(project: Project, providerId: string) {
      const entry = project.config.oauth_providers.find((p) => p.id === providerId && p.enabled);
      if (!entry) throw KnownErrors.OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED();
      return entry;
    },

    /** Whether a shared provider can serve this project: with the instance's keys, or by the development switch. */
    sharedUsable(project: { id: string; isProductionMode: boolean }, providerId: string): boolean {
      return (
        Boolean(sharedBackend(providerId)) || developmentProviderAllowed(deps.developmentProjects, project)
      );
    },

    /** The project's enabled provider with this id, ready to use; OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED otherwise. */
    async resolve(project: Project, providerId: string): Promise<ResolvedProvider> {
      const entry = this.entry(project, providerId);
      const redirectUri = this.callbackUrl(providerId);
      const definition = PROVIDERS[providerId];

      if (entry.type === "shared") {
        const backend = sharedBackend(providerId);
        if (backend) return { backend, shared: true, development: false, redirectUri };
        // Test identities must never sign anyone in unless the operator asked for them for this project, and never
        // in a live product (production mode).
        if (!developmentProviderAllowed(deps.developmentProjects, project)) {
          throw KnownErrors.OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED();
        }
        return {
          backend: deps.development.backend(providerId),
          shared: true,
          development: true,
          redirectUri,
        };
      }

      const opened = deps.secrets.open(project.config).oauth_providers.find((p) => p.id === providerId);
      const clientId = opened?.client_id;
      const clientSecret = opened?.client_secret;
      // Settings validation requires both for standard providers; an old row without them is not usable.
      if (!clientId || !clientSecret) throw KnownErrors.OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED();
      const credentials = { clientId, clientSecret, now };
      if (GENERIC_OIDC_PROVIDER_ID.test(providerId) && opened.issuer_url) {
        try {
          const server = await discover(opened.issuer_url);
          const definition = oidcDefinition(server, providerName(providerId));
          return {
            backend: createStandardBackend({ definition, server, ...credentials }),
            shared: false,
            development: false,
            redirectUri,
          };
        } catch (error) {
          // The issuer is down or publishes no usable configuration: the user can only try again later.
          if (error instanceof ProviderUnavailable)
            throw KnownErrors.OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE();
          throw error;
        }
      }
      if (!definition) throw KnownErrors.OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED();
      const backend = createStandardBackend({
        definition,
        ...credentials,
        tenantId: opened.microsoft_tenant_id,
        facebookConfigId: opened.facebook_config_id,
      });
      return { backend, shared: false, development: false, redirectUri };
    },
  };
}

export type ProviderDirectory = ReturnType<typeof createProviderDirectory>;
