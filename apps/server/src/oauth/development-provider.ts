// The development provider [GO]: what a "shared" OAuth provider is when the instance has no credentials of its own
// for it. Instead of GitHub's or Google's sign-in page the user sees Gatehouse's own page, picks a test identity (or
// types one), and comes back through the same callback, code exchange and account rules as with the real provider.
// So every OAuth button works on a fresh install with no keys at all. The flow refuses it in production mode.
//
// Its authorization codes are sealed with the server secret and carry the chosen identity, the PKCE challenge and a
// 5-minute expiry, so the provider needs no storage; the flow's inner state (single use) makes each one usable once.
import { constantTimeEqual, pkceChallenge } from "../crypto/hash.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
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

/** The same e-mail is the same account at the same provider, as it would be at the real one. */
export function developmentProfile(identity: DevelopmentIdentity): ProviderProfile {
  return {
    accountId: identity.email.toLowerCase(),
    email: identity.email,
    emailVerified: true,
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
