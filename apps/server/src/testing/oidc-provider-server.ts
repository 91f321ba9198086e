// A real OpenID Connect provider for tests (the `oidc-provider` package), run as its own process on loopback:
//   PORT=4000 CLIENT_ID=gatehouse CLIENT_SECRET=s3cret node --conditions=gatehouse-source --import tsx apps/server/src/testing/oidc-provider-server.ts
// One confidential client (client_secret_post, code + refresh_token grants, PKCE required) that may return to the
// test server's callback for `oidc` and to any REDIRECT_URIS (comma-separated). Accounts exist for any login typed
// at the built-in login page: `<login>@oidc.example.com`, verified unless the login starts with "unverified-".
// Access tokens live ACCESS_TOKEN_TTL seconds (default 3600). Everything is kept in memory.
// Started and driven by testing/oidc-provider-process.ts.

/// <reference path="../oidc-provider/oidc-provider.d.ts" />
import Provider from "oidc-provider";

const port = Number(process.env.PORT ?? process.argv[2]);
const clientId = process.env.CLIENT_ID ?? "gatehouse";
const clientSecret = process.env.CLIENT_SECRET ?? "gatehouse-secret";
const accessTokenTtl = Number(process.env.ACCESS_TOKEN_TTL ?? 3600);
const extraRedirectUris = (process.env.REDIRECT_URIS ?? "").split(",").filter(Boolean);
if (!Number.isInteger(port) || port <= 0) throw new Error("Give the port as PORT or the first argument.");

const issuer = `http://localhost:${port}`;

/** The claims of the account a login name stands for. */
function claimsOf(login: string) {
  return {
    sub: login,
    email: `${login}@oidc.example.com`,
    email_verified: !login.startsWith("unverified-"),
    name: `OIDC ${login}`,
    picture: `${issuer}/pictures/${encodeURIComponent(login)}.png`,
  };
}

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: ["http://localhost:8102/api/v1/auth/oauth/callback/oidc", ...extraRedirectUris],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_post",
    },
  ],
  // PKCE for every client, not only public ones: Gatehouse always sends S256.
  pkce: { required: () => true },
  scopes: ["openid", "email", "profile", "offline_access"],
  claims: {
    openid: ["sub"],
    email: ["email", "email_verified"],
    profile: ["name", "picture"],
  },
  async findAccount(_ctx: unknown, sub: string) {
    return { accountId: sub, claims: async () => claimsOf(sub) };
  },
  // Refresh tokens without asking for offline_access: Gatehouse only asks for openid, email and profile.
  async issueRefreshToken(_ctx: unknown, client: { grantTypeAllowed(grant: string): boolean }) {
    return client.grantTypeAllowed("refresh_token");
  },
  ttl: { AccessToken: accessTokenTtl },
  features: {
    devInteractions: { enabled: true },
    revocation: { enabled: true },
  },
});

provider.listen(port, "127.0.0.1", () => {
  console.log(`oidc-provider listening on ${issuer}`);
});
