// The provider table's profile readers (oauth/providers.ts) against sample answers shaped like each provider's
// documented API: which URLs they read, and how they map the account id, e-mail, its verified flag, the name and
// the picture. `get` answers the sample for each URL it is asked for (and fails for any other), so this tests our
// mapping, not the network.
import { describe, expect, it } from "vitest";
import { type JsonGetter, PROVIDERS, type ProviderProfile, profileFromClaims } from "./providers.ts";

type Payloads = Record<string, unknown>;

/** A getter serving `payloads` by URL, recording each call with its extra headers. */
function getter(payloads: Payloads) {
  const calls: { url: string; headers?: Record<string, string> }[] = [];
  const get: JsonGetter = async (url, headers) => {
    calls.push({ url, ...(headers ? { headers } : {}) });
    if (!(url in payloads)) throw new Error(`Unexpected request to ${url}`);
    return payloads[url];
  };
  return { get, calls };
}

async function profileOf(
  providerId: string,
  input: { payloads?: Payloads; idTokenClaims?: Record<string, unknown>; clientId?: string },
): Promise<ProviderProfile> {
  const definition = PROVIDERS[providerId];
  if (!definition) throw new Error(`No provider ${providerId}`);
  return definition.profile({
    get: getter(input.payloads ?? {}).get,
    idTokenClaims: input.idTokenClaims,
    clientId: input.clientId ?? "client-id",
  });
}

describe("GitHub", () => {
  const user = {
    login: "octocat",
    id: 583231,
    node_id: "MDQ6VXNlcjU4MzIzMQ==",
    avatar_url: "https://avatars.githubusercontent.com/u/583231?v=4",
    type: "User",
    name: "The Octocat",
    company: "@github",
    email: "octocat@github.com",
  };
  const emails = [
    { email: "octocat@users.noreply.github.com", primary: false, verified: true, visibility: null },
    { email: "octo@example.com", primary: true, verified: true, visibility: "private" },
  ];

  it("reads /user and the primary address of /user/emails", async () => {
    const { get, calls } = getter({
      "https://api.github.com/user": user,
      "https://api.github.com/user/emails": emails,
    });
    const profile = await PROVIDERS.github?.profile({ get, idTokenClaims: undefined, clientId: "c" });
    expect(profile).toEqual({
      accountId: "583231",
      email: "octo@example.com",
      emailVerified: true,
      displayName: "The Octocat",
      profileImageUrl: "https://avatars.githubusercontent.com/u/583231?v=4",
    });
    expect(calls.map((c) => c.url)).toEqual([
      "https://api.github.com/user",
      "https://api.github.com/user/emails",
    ]);
  });

  it("does not vouch for an unverified primary address, and falls back to the login and the public address", async () => {
    const unverified = await profileOf("github", {
      payloads: {
        "https://api.github.com/user": user,
        "https://api.github.com/user/emails": [{ email: "new@example.com", primary: true, verified: false }],
      },
    });
    expect(unverified).toMatchObject({ email: "new@example.com", emailVerified: false });
    const bare = await profileOf("github", {
      payloads: {
        "https://api.github.com/user": { ...user, name: null },
        "https://api.github.com/user/emails": [],
      },
    });
    expect(bare).toMatchObject({ email: "octocat@github.com", emailVerified: false, displayName: "octocat" });
  });
});

describe("Google", () => {
  const claims = {
    iss: "https://accounts.google.com",
    azp: "1234.apps.googleusercontent.com",
    aud: "1234.apps.googleusercontent.com",
    sub: "110169484474386276334",
    email: "ada@gmail.com",
    email_verified: true,
    name: "Ada Lovelace",
    picture: "https://lh3.googleusercontent.com/a/photo=s96-c",
    given_name: "Ada",
    family_name: "Lovelace",
    iat: 1700000000,
    exp: 1700003600,
  };

  it("reads the ID token's claims and asks for no other URL", async () => {
    expect(await profileOf("google", { idTokenClaims: claims })).toEqual({
      accountId: "110169484474386276334",
      email: "ada@gmail.com",
      emailVerified: true,
      displayName: "Ada Lovelace",
      profileImageUrl: "https://lh3.googleusercontent.com/a/photo=s96-c",
    });
    expect(await profileOf("google", { idTokenClaims: { ...claims, email_verified: false } })).toMatchObject({
      emailVerified: false,
    });
  });

  it("fails without an ID token", async () => {
    await expect(profileOf("google", {})).rejects.toThrow("Google returned no ID token");
  });
});

describe("Apple", () => {
  it("reads the ID token, whose email_verified is a string", async () => {
    const claims = {
      iss: "https://appleid.apple.com",
      aud: "com.example.web",
      sub: "001234.abcdef0123456789abcdef0123456789.1234",
      email: "x7k2m9@privaterelay.appleid.com",
      email_verified: "true",
      is_private_email: "true",
      auth_time: 1700000000,
    };
    expect(await profileOf("apple", { idTokenClaims: claims })).toEqual({
      accountId: "001234.abcdef0123456789abcdef0123456789.1234",
      email: "x7k2m9@privaterelay.appleid.com",
      emailVerified: true,
      // Apple sends the name once, in the form post, not in the ID token.
      displayName: null,
      profileImageUrl: null,
    });
    expect(await profileOf("apple", { idTokenClaims: { ...claims, email_verified: "false" } })).toMatchObject(
      { emailVerified: false },
    );
    await expect(profileOf("apple", {})).rejects.toThrow("Apple returned no ID token");
  });
});

describe("Microsoft", () => {
  const me = {
    "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#users/$entity",
    businessPhones: [],
    displayName: "Adele Vance",
    givenName: "Adele",
    jobTitle: "Retail Manager",
    mail: "AdeleV@contoso.com",
    mobilePhone: null,
    officeLocation: "18/2111",
    preferredLanguage: "en-US",
    surname: "Vance",
    userPrincipalName: "AdeleV@contoso.onmicrosoft.com",
    id: "87d349ed-44d7-43e1-9a83-5f2406dee5bd",
  };

  it("reads Graph's /me and never vouches for the address", async () => {
    expect(await profileOf("microsoft", { payloads: { "https://graph.microsoft.com/v1.0/me": me } })).toEqual(
      {
        accountId: "87d349ed-44d7-43e1-9a83-5f2406dee5bd",
        email: "AdeleV@contoso.com",
        emailVerified: false,
        displayName: "Adele Vance",
        profileImageUrl: null,
      },
    );
  });

  it("falls back to the user principal name when there is no mail", async () => {
    const profile = await profileOf("microsoft", {
      payloads: { "https://graph.microsoft.com/v1.0/me": { ...me, mail: null } },
    });
    expect(profile.email).toBe("AdeleV@contoso.onmicrosoft.com");
  });
});

describe("Facebook", () => {
  const url = "https://graph.facebook.com/v19.0/me?fields=id,name,email,picture";
  const me = {
    id: "10158412345678901",
    name: "Mark Example",
    email: "mark@example.com",
    picture: {
      data: {
        height: 50,
        is_silhouette: false,
        url: "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10158412345678901",
        width: 50,
      },
    },
  };

  it("reads /me with the picture; an address Facebook returns is confirmed", async () => {
    expect(await profileOf("facebook", { payloads: { [url]: me } })).toEqual({
      accountId: "10158412345678901",
      email: "mark@example.com",
      emailVerified: true,
      displayName: "Mark Example",
      profileImageUrl: "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10158412345678901",
    });
  });

  it("has no address when the user declined the email permission", async () => {
    const { email: _email, ...withoutEmail } = me;
    expect(await profileOf("facebook", { payloads: { [url]: withoutEmail } })).toMatchObject({
      email: null,
      emailVerified: false,
    });
  });
});

describe("Discord", () => {
  const url = "https://discord.com/api/users/@me";
  const me = {
    id: "80351110224678912",
    username: "nelly",
    discriminator: "0",
    global_name: "Nelly",
    avatar: "8342729096ea3675442027381ff50dfe",
    verified: true,
    email: "nelly@discord.com",
    flags: 64,
    mfa_enabled: false,
  };

  it("reads /users/@me and builds the avatar URL from its hash", async () => {
    expect(await profileOf("discord", { payloads: { [url]: me } })).toEqual({
      accountId: "80351110224678912",
      email: "nelly@discord.com",
      emailVerified: true,
      displayName: "Nelly",
      profileImageUrl:
        "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png",
    });
  });

  it("falls back to the username, has no picture without an avatar, and follows the verified flag", async () => {
    const profile = await profileOf("discord", {
      payloads: { [url]: { ...me, global_name: null, avatar: null, verified: false } },
    });
    expect(profile).toMatchObject({ displayName: "nelly", profileImageUrl: null, emailVerified: false });
  });
});

describe("GitLab", () => {
  const url = "https://gitlab.com/api/v4/user";
  const me = {
    id: 1,
    username: "john_smith",
    name: "John Smith",
    state: "active",
    avatar_url: "https://gitlab.com/uploads/-/system/user/avatar/1/index.jpg",
    web_url: "https://gitlab.com/john_smith",
    email: "john@example.com",
    confirmed_at: "2012-05-23T09:05:22Z",
  };

  it("reads /user; a confirmed address is verified", async () => {
    expect(await profileOf("gitlab", { payloads: { [url]: me } })).toEqual({
      accountId: "1",
      email: "john@example.com",
      emailVerified: true,
      displayName: "John Smith",
      profileImageUrl: "https://gitlab.com/uploads/-/system/user/avatar/1/index.jpg",
    });
    expect(
      await profileOf("gitlab", { payloads: { [url]: { ...me, confirmed_at: null, name: "" } } }),
    ).toMatchObject({ emailVerified: false, displayName: "john_smith" });
  });
});

describe("Bitbucket", () => {
  const user = {
    type: "user",
    uuid: "{d301aafa-d676-4ee0-88be-962be7417567}",
    account_id: "557058:ba8948b2-49da-43a9-9e8b-e7249b8e324a",
    display_name: "Erik van Zijst",
    username: "evzijst",
    links: {
      avatar: { href: "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/557058/a.png" },
    },
  };
  const emails = {
    pagelen: 10,
    page: 1,
    size: 2,
    values: [
      { type: "email", email: "old@example.com", is_primary: false, is_confirmed: true },
      { type: "email", email: "erik@example.com", is_primary: true, is_confirmed: true },
    ],
  };

  it("reads /user and the primary confirmed address of /user/emails", async () => {
    const { get, calls } = getter({
      "https://api.bitbucket.org/2.0/user": user,
      "https://api.bitbucket.org/2.0/user/emails": emails,
    });
    expect(await PROVIDERS.bitbucket?.profile({ get, idTokenClaims: undefined, clientId: "c" })).toEqual({
      accountId: "{d301aafa-d676-4ee0-88be-962be7417567}",
      email: "erik@example.com",
      emailVerified: true,
      displayName: "Erik van Zijst",
      profileImageUrl: "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/557058/a.png",
    });
    expect(calls.map((c) => c.url)).toEqual([
      "https://api.bitbucket.org/2.0/user",
      "https://api.bitbucket.org/2.0/user/emails",
    ]);
  });

  it("uses the account id without a uuid, and does not vouch for an unconfirmed address", async () => {
    const { uuid: _uuid, ...withoutUuid } = user;
    const profile = await profileOf("bitbucket", {
      payloads: {
        "https://api.bitbucket.org/2.0/user": withoutUuid,
        "https://api.bitbucket.org/2.0/user/emails": {
          values: [{ email: "erik@example.com", is_primary: true, is_confirmed: false }],
        },
      },
    });
    expect(profile).toMatchObject({
      accountId: "557058:ba8948b2-49da-43a9-9e8b-e7249b8e324a",
      email: "erik@example.com",
      emailVerified: false,
    });
  });
});

describe("LinkedIn", () => {
  it("reads the OpenID userinfo endpoint", async () => {
    const info = {
      sub: "782bbtaQ",
      name: "John Doe",
      given_name: "John",
      family_name: "Doe",
      picture:
        "https://media.licdn-ei.com/dms/image/C5F03AQHqK8v7tB1HCQ/profile-displayphoto-shrink_100_100/0/",
      locale: "en-US",
      email: "doe@email.com",
      email_verified: true,
    };
    expect(
      await profileOf("linkedin", { payloads: { "https://api.linkedin.com/v2/userinfo": info } }),
    ).toEqual({
      accountId: "782bbtaQ",
      email: "doe@email.com",
      emailVerified: true,
      displayName: "John Doe",
      profileImageUrl:
        "https://media.licdn-ei.com/dms/image/C5F03AQHqK8v7tB1HCQ/profile-displayphoto-shrink_100_100/0/",
    });
  });
});

describe("Spotify", () => {
  it("reads /me with its first image, and never vouches for the address", async () => {
    const me = {
      country: "SE",
      display_name: "JM Wizzler",
      email: "email@example.com",
      external_urls: { spotify: "https://open.spotify.com/user/wizzler" },
      id: "wizzler",
      images: [
        { height: 300, url: "https://i.scdn.co/image/ab6775700000ee85large", width: 300 },
        { height: 64, url: "https://i.scdn.co/image/ab67757000003b82small", width: 64 },
      ],
      product: "premium",
      type: "user",
      uri: "spotify:user:wizzler",
    };
    expect(await profileOf("spotify", { payloads: { "https://api.spotify.com/v1/me": me } })).toEqual({
      accountId: "wizzler",
      email: "email@example.com",
      emailVerified: false,
      displayName: "JM Wizzler",
      profileImageUrl: "https://i.scdn.co/image/ab6775700000ee85large",
    });
    expect(
      await profileOf("spotify", { payloads: { "https://api.spotify.com/v1/me": { ...me, images: [] } } }),
    ).toMatchObject({ profileImageUrl: null });
  });
});

describe("Twitch", () => {
  it("reads the first user of /helix/users, sending the client id Twitch requires", async () => {
    const users = {
      data: [
        {
          id: "141981764",
          login: "twitchdev",
          display_name: "TwitchDev",
          type: "",
          broadcaster_type: "partner",
          description: "Supporting third-party developers building Twitch integrations.",
          profile_image_url:
            "https://static-cdn.jtvnw.net/jtv_user_pictures/8a6381c7-d0c0-4576-b179-38bd5ce1d6af-profile_image-300x300.png",
          email: "not-real@email.com",
          created_at: "2016-12-14T20:32:28Z",
        },
      ],
    };
    const { get, calls } = getter({ "https://api.twitch.tv/helix/users": users });
    expect(
      await PROVIDERS.twitch?.profile({ get, idTokenClaims: undefined, clientId: "twitch-client" }),
    ).toEqual({
      accountId: "141981764",
      email: "not-real@email.com",
      emailVerified: true,
      displayName: "TwitchDev",
      profileImageUrl:
        "https://static-cdn.jtvnw.net/jtv_user_pictures/8a6381c7-d0c0-4576-b179-38bd5ce1d6af-profile_image-300x300.png",
    });
    expect(calls).toEqual([
      { url: "https://api.twitch.tv/helix/users", headers: { "client-id": "twitch-client" } },
    ]);
  });

  it("fails when Twitch answers no user", async () => {
    await expect(
      profileOf("twitch", { payloads: { "https://api.twitch.tv/helix/users": { data: [] } } }),
    ).rejects.toThrow("Twitch returned a profile without an account id");
  });
});

describe("X", () => {
  it("reads /2/users/me, which shares no address", async () => {
    const body = {
      data: {
        id: "2244994945",
        name: "X Dev",
        username: "XDevelopers",
        profile_image_url: "https://pbs.twimg.com/profile_images/1683325380441128960/yRsRRjGO_normal.jpg",
      },
    };
    const url = "https://api.x.com/2/users/me?user.fields=profile_image_url";
    expect(await profileOf("x", { payloads: { [url]: body } })).toEqual({
      accountId: "2244994945",
      email: null,
      emailVerified: false,
      displayName: "X Dev",
      profileImageUrl: "https://pbs.twimg.com/profile_images/1683325380441128960/yRsRRjGO_normal.jpg",
    });
    expect(await profileOf("x", { payloads: { [url]: { data: { ...body.data, name: "" } } } })).toMatchObject(
      { displayName: "XDevelopers" },
    );
  });
});

describe("generic OpenID Connect claims", () => {
  it("map sub, email, email_verified, name (or preferred_username) and picture", () => {
    expect(
      profileFromClaims(
        {
          sub: "248289761001",
          email: "janedoe@example.com",
          email_verified: true,
          preferred_username: "j.doe",
          picture: "http://example.com/janedoe/me.jpg",
        },
        "Example",
      ),
    ).toEqual({
      accountId: "248289761001",
      email: "janedoe@example.com",
      emailVerified: true,
      displayName: "j.doe",
      profileImageUrl: "http://example.com/janedoe/me.jpg",
    });
    // Missing or odd claims: nothing is vouched for and nothing invented.
    expect(profileFromClaims({ sub: "1", email: "", email_verified: "yes", name: 5 }, "Example")).toEqual({
      accountId: "1",
      email: null,
      emailVerified: false,
      displayName: "5",
      profileImageUrl: null,
    });
  });
});

describe("a profile without an account id", () => {
  const cases: [string, Parameters<typeof profileOf>[1]][] = [
    ["google", { idTokenClaims: { email: "a@example.com", email_verified: true } }],
    ["apple", { idTokenClaims: { sub: "" } }],
    [
      "github",
      {
        payloads: {
          "https://api.github.com/user": { login: "ghost", id: null },
          "https://api.github.com/user/emails": [],
        },
      },
    ],
    ["microsoft", { payloads: { "https://graph.microsoft.com/v1.0/me": { displayName: "No Id" } } }],
    ["facebook", { payloads: { "https://graph.facebook.com/v19.0/me?fields=id,name,email,picture": {} } }],
    ["discord", { payloads: { "https://discord.com/api/users/@me": { username: "x" } } }],
    ["gitlab", { payloads: { "https://gitlab.com/api/v4/user": { username: "x" } } }],
    [
      "bitbucket",
      {
        payloads: {
          "https://api.bitbucket.org/2.0/user": { display_name: "x" },
          "https://api.bitbucket.org/2.0/user/emails": { values: [] },
        },
      },
    ],
    ["linkedin", { payloads: { "https://api.linkedin.com/v2/userinfo": { name: "x" } } }],
    ["spotify", { payloads: { "https://api.spotify.com/v1/me": { display_name: "x" } } }],
    ["twitch", { payloads: { "https://api.twitch.tv/helix/users": { data: [{ login: "x" }] } } }],
    ["x", { payloads: { "https://api.x.com/2/users/me?user.fields=profile_image_url": { errors: [] } } }],
  ];

  it.each(cases)("is an error for %s", async (providerId, input) => {
    const name = PROVIDERS[providerId]?.name;
    await expect(profileOf(providerId, input)).rejects.toThrow(
      `${name} returned a profile without an account id`,
    );
  });

  it("covers every provider of the table", () => {
    expect(cases.map(([id]) => id).sort()).toEqual(Object.keys(PROVIDERS).sort());
  });
});
