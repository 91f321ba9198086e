// The OAuth providers Gatehouse knows, as data: where to send the user, where to exchange the code, which scopes to
// ask for, how the client authenticates, and how to read the user's profile. One flow (oauth/flow.ts) and one
// OAuth client (oauth/backends.ts) serve them all; a provider is only a row of this table.
//
// A profile reader gets `get`, an authorised JSON GET with the user's access token, and the token response's
// validated ID-token claims where the provider sends an ID token. It answers who the user is at the provider.

export type ProviderProfile = {
  /** The provider's stable id for the account (never the e-mail, which can change). */
  accountId: string;
  email: string | null;
  /** Only a provider that vouches for the address makes it verified; merging accounts relies on it (WIRE.md §7). */
  emailVerified: boolean;
  displayName: string | null;
  profileImageUrl: string | null;
};

export type JsonGetter = (url: string, headers?: Record<string, string>) => Promise<unknown>;

export type ProfileReader = (input: {
  get: JsonGetter;
  idTokenClaims: Record<string, unknown> | undefined;
  clientId: string;
}) => Promise<ProviderProfile>;

export type ProviderDefinition = {
  name: string;
  /** `{tenant}` is replaced with the Microsoft tenant id ("common" unless configured). */
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** The `iss` of its ID tokens, for providers that send them; otherwise an identifier for the library. */
  issuer: string;
  scopes: string[];
  /** How the client id and secret reach the token endpoint. */
  clientAuth: "post" | "basic";
  /** Extra authorization parameters (Apple returns by form POST, Google needs offline access for refresh). */
  authorizationParams?: Record<string, string>;
  profile: ProfileReader;
};

type Json = Record<string, unknown>;

const asObject = (value: unknown): Json =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : {};

/** A string field, or null when absent or empty. */
const text = (value: unknown): string | null =>
  typeof value === "string" && value !== "" ? value : typeof value === "number" ? String(value) : null;

/** The account id must exist: a profile without one cannot be linked to anything. */
function accountIdOf(value: unknown, provider: string): string {
  const id = text(value);
  if (id === null) throw new Error(`${provider} returned a profile without an account id`);
  return id;
}

/** Providers whose ID token (or OIDC userinfo) carries the standard claims. */
export function profileFromClaims(claims: Json, provider: string): ProviderProfile {
  return {
    accountId: accountIdOf(claims.sub, provider),
    email: text(claims.email),
    emailVerified: claims.email_verified === true || claims.email_verified === "true",
    displayName: text(claims.name) ?? text(claims.preferred_username),
    profileImageUrl: text(claims.picture),
  };
}

const github: ProviderDefinition = {
  name: "GitHub",
  authorizationEndpoint: "https://github.com/login/oauth/authorize",
  tokenEndpoint: "https://github.com/login/oauth/access_token",
  issuer: "https://github.com",
  scopes: ["user:email"],
  clientAuth: "post",
  async profile({ get }) {
    const user = asObject(await get("https://api.github.com/user"));
    // The profile's public e-mail may be absent or unverified; the e-mails endpoint says which one is primary.
    const emails = await get("https://api.github.com/user/emails");
    const primary = Array.isArray(emails) ? emails.map(asObject).find((e) => e.primary === true) : undefined;
    return {
      accountId: accountIdOf(user.id, "GitHub"),
      email: text(primary?.email) ?? text(user.email),
      emailVerified: primary?.verified === true,
      displayName: text(user.name) ?? text(user.login),
      profileImageUrl: text(user.avatar_url),
    };
  },
};

const google: ProviderDefinition = {
  name: "Google",
  authorizationEndpoint: "https://accounts.google.com/o/oauth2/v2/auth",
  tokenEndpoint: "https://oauth2.googleapis.com/token",
  issuer: "https://accounts.google.com",
  scopes: ["openid", "email", "profile"],
  clientAuth: "post",
  authorizationParams: { access_type: "offline", prompt: "consent" },
  async profile({ idTokenClaims }) {
    if (!idTokenClaims) throw new Error("Google returned no ID token");
    return profileFromClaims(idTokenClaims, "Google");
  },
};

const microsoft: ProviderDefinition = {
  name: "Microsoft",
  authorizationEndpoint: "https://login.microsoftonline.com/{tenant}/oauth2/v2.0/authorize",
  tokenEndpoint: "https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token",
  issuer: "https://login.microsoftonline.com/{tenant}/v2.0",
  // Graph's profile instead of an ID token: the multi-tenant issuer differs per tenant.
  scopes: ["User.Read", "offline_access"],
  clientAuth: "post",
  async profile({ get }) {
    const me = asObject(await get("https://graph.microsoft.com/v1.0/me"));
    return {
      accountId: accountIdOf(me.id, "Microsoft"),
      email: text(me.mail) ?? text(me.userPrincipalName),
      // Graph's `mail` is whatever the tenant's administrator typed: not proof of ownership.
      emailVerified: false,
      displayName: text(me.displayName),
      profileImageUrl: null,
    };
  },
};

const facebook: ProviderDefinition = {
  name: "Facebook",
  authorizationEndpoint: "https://www.facebook.com/v19.0/dialog/oauth",
  tokenEndpoint: "https://graph.facebook.com/v19.0/oauth/access_token",
  issuer: "https://www.facebook.com",
  scopes: ["public_profile", "email"],
  clientAuth: "post",
  async profile({ get }) {
    const me = asObject(await get("https://graph.facebook.com/v19.0/me?fields=id,name,email,picture"));
    const picture = asObject(asObject(me.picture).data);
    return {
      accountId: accountIdOf(me.id, "Facebook"),
      email: text(me.email),
      // Facebook only returns confirmed addresses.
      emailVerified: text(me.email) !== null,
      displayName: text(me.name),
      profileImageUrl: text(picture.url),
    };
  },
};

const discord: ProviderDefinition = {
  name: "Discord",
  authorizationEndpoint: "https://discord.com/oauth2/authorize",
  tokenEndpoint: "https://discord.com/api/oauth2/token",
  issuer: "https://discord.com",
  scopes: ["identify", "email"],
  clientAuth: "post",
  async profile({ get }) {
    const me = asObject(await get("https://discord.com/api/users/@me"));
    const id = accountIdOf(me.id, "Discord");
    const avatar = text(me.avatar);
    return {
      accountId: id,
      email: text(me.email),
      emailVerified: me.verified === true,
      displayName: text(me.global_name) ?? text(me.username),
      profileImageUrl: avatar && `https://cdn.discordapp.com/avatars/${id}/${avatar}.png`,
    };
  },
};

const gitlab: ProviderDefinition = {
  name: "GitLab",
  authorizationEndpoint: "https://gitlab.com/oauth/authorize",
  tokenEndpoint: "https://gitlab.com/oauth/token",
  issuer: "https://gitlab.com",
  scopes: ["read_user"],
  clientAuth: "post",
  async profile({ get }) {
    const me = asObject(await get("https://gitlab.com/api/v4/user"));
    return {
      accountId: accountIdOf(me.id, "GitLab"),
      email: text(me.email),
      emailVerified: text(me.confirmed_at) !== null,
      displayName: text(me.name) ?? text(me.username),
      profileImageUrl: text(me.avatar_url),
    };
  },
};

const bitbucket: ProviderDefinition = {
  name: "Bitbucket",
  authorizationEndpoint: "https://bitbucket.org/site/oauth2/authorize",
  tokenEndpoint: "https://bitbucket.org/site/oauth2/access_token",
  issuer: "https://bitbucket.org",
  scopes: ["account", "email"],
  clientAuth: "basic",
  async profile({ get }) {
    const me = asObject(await get("https://api.bitbucket.org/2.0/user"));
    const emails = asObject(await get("https://api.bitbucket.org/2.0/user/emails"));
    const list = Array.isArray(emails.values) ? emails.values.map(asObject) : [];
    const primary = list.find((e) => e.is_primary === true);
    return {
      accountId: accountIdOf(me.uuid ?? me.account_id, "Bitbucket"),
      email: text(primary?.email),
      emailVerified: primary?.is_confirmed === true,
      displayName: text(me.display_name) ?? text(me.username),
      profileImageUrl: text(asObject(asObject(me.links).avatar).href),
    };
  },
};

const linkedin: ProviderDefinition = {
  name: "LinkedIn",
  authorizationEndpoint: "https://www.linkedin.com/oauth/v2/authorization",
  tokenEndpoint: "https://www.linkedin.com/oauth/v2/accessToken",
  issuer: "https://www.linkedin.com/oauth",
  scopes: ["openid", "profile", "email"],
  clientAuth: "post",
  async profile({ get }) {
    return profileFromClaims(asObject(await get("https://api.linkedin.com/v2/userinfo")), "LinkedIn");
  },
};

const spotify: ProviderDefinition = {
  name: "Spotify",
  authorizationEndpoint: "https://accounts.spotify.com/authorize",
  tokenEndpoint: "https://accounts.spotify.com/api/token",
  issuer: "https://accounts.spotify.com",
  scopes: ["user-read-email", "user-read-private"],
  clientAuth: "basic",
  async profile({ get }) {
    const me = asObject(await get("https://api.spotify.com/v1/me"));
    const images = Array.isArray(me.images) ? me.images.map(asObject) : [];
    return {
      accountId: accountIdOf(me.id, "Spotify"),
      email: text(me.email),
      // Spotify does not say whether the address was confirmed.
      emailVerified: false,
      displayName: text(me.display_name),
      profileImageUrl: text(images[0]?.url),
    };
  },
};

const twitch: ProviderDefinition = {
  name: "Twitch",
  authorizationEndpoint: "https://id.twitch.tv/oauth2/authorize",
  tokenEndpoint: "https://id.twitch.tv/oauth2/token",
  issuer: "https://id.twitch.tv/oauth2",
  scopes: ["user:read:email"],
  clientAuth: "post",
  async profile({ get, clientId }) {
    const users = asObject(await get("https://api.twitch.tv/helix/users", { "client-id": clientId }));
    const me = asObject(Array.isArray(users.data) ? users.data[0] : undefined);
    return {
      accountId: accountIdOf(me.id, "Twitch"),
      email: text(me.email),
      // Twitch only hands out verified addresses with user:read:email.
      emailVerified: text(me.email) !== null,
      displayName: text(me.display_name) ?? text(me.login),
      profileImageUrl: text(me.profile_image_url),
    };
  },
};

const x: ProviderDefinition = {
  name: "X",
  authorizationEndpoint: "https://x.com/i/oauth2/authorize",
  tokenEndpoint: "https://api.x.com/2/oauth2/token",
  issuer: "https://x.com",
  scopes: ["users.read", "tweet.read", "offline.access"],
  clientAuth: "basic",
  async profile({ get }) {
    const body = asObject(await get("https://api.x.com/2/users/me?user.fields=profile_image_url"));
    const me = asObject(body.data);
    return {
      accountId: accountIdOf(me.id, "X"),
      // X does not share e-mail addresses through this API.
      email: null,
      emailVerified: false,
      displayName: text(me.name) ?? text(me.username),
      profileImageUrl: text(me.profile_image_url),
    };
  },
};

const apple: ProviderDefinition = {
  name: "Apple",
  authorizationEndpoint: "https://appleid.apple.com/auth/authorize",
  tokenEndpoint: "https://appleid.apple.com/auth/token",
  issuer: "https://appleid.apple.com",
  scopes: ["name", "email"],
  clientAuth: "post",
  // With scopes, Apple only answers by form POST to the callback.
  authorizationParams: { response_mode: "form_post" },
  async profile({ idTokenClaims }) {
    if (!idTokenClaims) throw new Error("Apple returned no ID token");
    return profileFromClaims(idTokenClaims, "Apple");
  },
};

/** The standard providers by id (WIRE.md §7, plus Apple). Generic OpenID Connect providers are built from discovery. */
export const PROVIDERS: Record<string, ProviderDefinition> = {
  github,
  google,
  microsoft,
  facebook,
  discord,
  gitlab,
  bitbucket,
  linkedin,
  spotify,
  twitch,
  x,
  apple,
};

/** The display name of any provider id, for pages and messages. */
export function providerName(id: string): string {
  return PROVIDERS[id]?.name ?? (id === "oidc" ? "OpenID Connect" : id.replace(/^oidc-/, ""));
}
