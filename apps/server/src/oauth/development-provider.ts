// The development provider [GO]: a test stand-in for a "shared" OAuth provider (GitHub, Google…) when the instance has
// no credentials of its own for it. Instead of the provider's sign-in page the user sees Gatehouse's own page, picks a
// test identity (or types one), and comes back through the same callback, code exchange and account rules.
//
// Nobody is checked on that page, so a development identity proves nothing: it is offered only where the instance
// says so (GATEHOUSE_DEVELOPMENT_OAUTH), never in production, its e-mail arrives unverified, and it never joins an
// existing account (oauth/flow.ts). Keycloak links automatically only for an identity provider marked "Trust Email"
// (otherwise the owner must sign in first), Ory Kratos refuses a duplicate address until the owner signs in, and
// Auth0 links accounts only on verified addresses: an identity nobody checked gets no account but its own.
//
// Its authorization codes are sealed with the server secret and carry the chosen identity, the PKCE challenge and a
// 5-minute expiry, so the provider needs no storage; the flow's inner state (single use) makes each one usable once.
import { KnownErrors } from "@gatehouse/contract";
import { constantTimeEqual, pkceChallenge } from "../crypto/hash.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import { INTERNAL_PROJECT_ID } from "../services/seed.ts";
import { TextError } from "../text-error.ts";
import { type OAuthBackend, ProviderRefused } from "./backends.ts";
import type { ProviderProfile } from "./providers.ts";

export type DevelopmentIdentity = { email: string; displayName: string };

/** The identities offered with one click; any other can be typed in. */
export const DEVELOPMENT_IDENTITIES: DevelopmentIdentity[] = [
  { email: "ada@example.com", displayName: "Ada Lovelace" },
  { email: "grace@example.com", displayName: "Grace Hopper" },
  { email: "alan@example.com", displayName: "Alan Turing" },
];

const CODE_LIFETIME_MS = 5 * 60 * 1000;

type SealedCode = {
  provider: string;
  email: string;
  name: string;
  challenge: string;
  redirectUri: string;
  expiresAt: number;
};

/** GATEHOUSE_DEVELOPMENT_OAUTH's value meaning "every project but the internal one". */
const ALL_PROJECTS = "*";

/**
 * Whether the instance lets this project's shared providers fall back to the development provider: the project is
 * named in GATEHOUSE_DEVELOPMENT_OAUTH, or `*` is and it is not the internal project. The internal project's users
 * administer the instance (its first user becomes the operator), so a wildcard never covers it: it must be named.
 * A production-mode project never gets test identities, whatever the switch says.
 */
export function developmentProviderAllowed(
  switchedOn: readonly string[],
  project: { id: string; isProductionMode: boolean },
): boolean {
  if (project.isProductionMode) return false;
  if (switchedOn.includes(project.id)) return true;
  return switchedOn.includes(ALL_PROJECTS) && project.id !== INTERNAL_PROJECT_ID;
}

/**
 * `link` attaches the provider account to the signed-in user, after which the account signs that user in. A
 * development identity is anyone who types its address, so linking one would open the account to all of them: the
 * stand-in refuses, as a provider refusing access would.
 */
export function refuseDevelopmentLink(type: "authenticate" | "link", development: boolean): void {
  if (type === "link" && development) throw KnownErrors.OAUTH_PROVIDER_ACCESS_DENIED();
}

/**
 * The same e-mail is the same account at the same provider, as it would be at the real one. The address is never
 * verified: anyone can type any address on the page, so it vouches for nothing.
 */
export function developmentProfile(identity: DevelopmentIdentity): ProviderProfile {
  return {
    accountId: identity.email.toLowerCase(),
    email: identity.email,
    emailVerified: false,
    displayName: identity.displayName || null,
    profileImageUrl: null,
  };
}

export function createDevelopmentProvider(deps: { box: SecretBox; baseUrl: string; now: () => number }) {
  const pageUrl = (providerId: string) =>
    `${deps.baseUrl}/api/v1/auth/oauth/development/${encodeURIComponent(providerId)}`;

  return {
    pageUrl,

    /** The page's answer once an identity is chosen: a code for the callback. */
    issueCode(input: {
      providerId: string;
      identity: DevelopmentIdentity;
      codeChallenge: string;
      redirectUri: string;
    }): string {
      const code: SealedCode = {
        provider: input.providerId,
        email: input.identity.email,
        name: input.identity.displayName,
        challenge: input.codeChallenge,
        redirectUri: input.redirectUri,
        expiresAt: deps.now() + CODE_LIFETIME_MS,
      };
      return deps.box.seal(JSON.stringify(code));
    },

    backend(providerId: string): OAuthBackend {
      return {
        async authorizationUrl({ state, codeChallenge, redirectUri }) {
          const url = new URL(pageUrl(providerId));
          url.searchParams.set("state", state);
          url.searchParams.set("code_challenge", codeChallenge);
          url.searchParams.set("redirect_uri", redirectUri);
          return url.toString();
        },

        async finish({ params, redirectUri, codeVerifier }) {
          let code: SealedCode;
          try {
            code = JSON.parse(deps.box.open(params.get("code") ?? "")) as SealedCode;
          } catch {
            throw new ProviderRefused("The development provider's code is not valid.");
          }
          const valid =
            code.provider === providerId &&
            code.redirectUri === redirectUri &&
            code.expiresAt > deps.now() &&
            constantTimeEqual(code.challenge, pkceChallenge(codeVerifier));
          if (!valid) throw new ProviderRefused("The development provider's code is not valid.");
          return {
            tokens: { accessToken: "", refreshToken: null, expiresAt: null, scope: null },
            profile: developmentProfile({ email: code.email, displayName: code.name }),
          };
        },

        async refresh() {
          // Shared providers never hand out connected-account tokens (WIRE.md §4.17); the flow checks first.
          throw new TextError(400, "The development provider has no tokens to refresh.");
        },
      };
    },
  };
}

export type DevelopmentProvider = ReturnType<typeof createDevelopmentProvider>;
