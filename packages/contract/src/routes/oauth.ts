// OAuth routes (WIRE.md §4.5, §4.17): the authorize redirect, the provider callback, [GO] the development
// provider's sign-in page, and connected accounts. The token endpoint is in auth.ts.
import { z } from "zod";
import { defineRoute } from "../route.ts";
import { botChallengeFields } from "../schemas/auth.ts";
import { listOf, userIdOrMe } from "../schemas/common.ts";

const ANY_ACCESS = ["client", "server", "admin"] as const;
const TAG = "Auth: OAuth";

const providerParams = z.strictObject({ provider_id: z.string().min(1).max(64) });
const text = z.string().min(1).max(4096);

/** The query of `GET /auth/oauth/authorize/{provider_id}`; unknown parameters are tolerated (WIRE.md §1.6). */
export const oauthAuthorizeQuerySchema = z.object({
  client_id: text,
  client_secret: text,
  redirect_uri: text,
  scope: text,
  state: text,
  grant_type: z.literal("authorization_code"),
  code_challenge: z.string().min(43).max(128),
  // [GF] PKCE is mandatory and only S256 is accepted.
  code_challenge_method: z.literal("S256"),
  response_type: z.literal("code"),
  type: z.enum(["authenticate", "link"]).default("authenticate"),
  token: text.optional(),
  provider_scope: z.string().max(4096).optional(),
  error_redirect_uri: text.optional(),
  error_redirect_url: text.optional(),
  after_callback_redirect_url: text.optional(),
  stack_response_mode: z.enum(["redirect", "json"]).default("redirect"),
  ...botChallengeFields,
});

export type OAuthAuthorizeQuery = z.output<typeof oauthAuthorizeQuerySchema>;

export const oauthAuthorizeRoute = defineRoute({
  method: "GET",
  path: "/api/v1/auth/oauth/authorize/{provider_id}",
  access: "none",
  summary:
    "Starts an OAuth sign-in or link: checks the client and URLs, stores the request for 10 minutes and sends the " +
    "user to the provider (307, or `{location}` with `stack_response_mode=json`)",
  tag: TAG,
  params: providerParams,
  query: oauthAuthorizeQuerySchema,
  tolerateUnknownFields: true,
  response: { status: 307, kind: "redirect", description: "To the provider's authorization page" },
});

const callbackRoute = (method: "GET" | "POST") =>
  defineRoute({
    method,
    path: "/api/v1/auth/oauth/callback/{provider_id}",
    access: "none",
    summary:
      "Where the provider returns (`code` and `state`, or `error`): signs in, signs up or links, then sends the " +
      "user to the app's `redirect_uri` with an authorization code (303)",
    tag: TAG,
    params: providerParams,
    // Form-post providers (Apple) send the answer as the body.
    ...(method === "POST" ? { body: z.record(z.string(), z.unknown()).optional() } : {}),
    tolerateUnknownFields: true,
    response: { status: 303, kind: "redirect", description: "To the app's redirect URI" },
  });

export const oauthCallbackGetRoute = callbackRoute("GET");
/** Providers that answer by form POST (Apple). */
export const oauthCallbackPostRoute = callbackRoute("POST");

export const developmentProviderPageRoute = defineRoute({
  method: "GET",
  path: "/api/v1/auth/oauth/development/{provider_id}",
  access: "none",
  summary:
    "[GO] The development provider's sign-in page, standing in for a shared provider without instance keys: pick " +
    "a test identity",
  tag: TAG,
  params: providerParams,
  query: z.object({ state: text, code_challenge: text, redirect_uri: text }),
  tolerateUnknownFields: true,
  response: { status: 200, kind: "html", description: "HTML page" },
});

export const developmentProviderChooseRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/oauth/development/{provider_id}",
  access: "none",
  summary:
    "[GO] The development provider's form: answers the callback with a code for the identity, or a denial",
  tag: TAG,
  params: providerParams,
  body: z.object({
    state: text,
    code_challenge: text,
    redirect_uri: text,
    action: z.enum(["allow", "deny"]),
    email: z.string().max(254).optional(),
    display_name: z.string().max(256).optional(),
  }),
  tolerateUnknownFields: true,
  response: { status: 303, kind: "redirect", description: "To the OAuth callback" },
});

const connectedAccountSchema = z.object({
  user_id: z.string(),
  provider: z.string(),
  provider_account_id: z.string(),
});

const accessTokenBody = z.strictObject({ scope: z.string().max(4096).optional() });
const accessTokenResponse = {
  status: 201,
  kind: "json",
  schema: z.object({ access_token: z.string() }),
} as const;

export const listConnectedAccountsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/connected-accounts/{user_id}",
  access: ANY_ACCESS,
  summary: "Lists the user's linked provider accounts",
  tag: "Connected accounts",
  params: z.strictObject({ user_id: userIdOrMe }),
  response: { status: 200, kind: "json", schema: listOf(connectedAccountSchema) },
});

export const connectedAccountTokenRoute = defineRoute({
  method: "POST",
  path: "/api/v1/connected-accounts/{user_id}/{provider_id}/access-token",
  access: ANY_ACCESS,
  summary:
    "A provider access token of the user's account at the provider covering `scope`, refreshed when needed",
  tag: "Connected accounts",
  params: z.strictObject({ user_id: userIdOrMe, provider_id: z.string().min(1).max(64) }),
  body: accessTokenBody,
  response: accessTokenResponse,
});

export const connectedAccountByIdTokenRoute = defineRoute({
  method: "POST",
  path: "/api/v1/connected-accounts/{user_id}/{provider_id}/{provider_account_id}/access-token",
  access: ANY_ACCESS,
  summary: "The same for one of the user's accounts at the provider, named by its account id",
  tag: "Connected accounts",
  params: z.strictObject({
    user_id: userIdOrMe,
    provider_id: z.string().min(1).max(64),
    provider_account_id: z.string().min(1).max(256),
  }),
  body: accessTokenBody,
  response: accessTokenResponse,
});

export const oauthRoutes = [
  oauthAuthorizeRoute,
  oauthCallbackGetRoute,
  oauthCallbackPostRoute,
  developmentProviderPageRoute,
  developmentProviderChooseRoute,
  listConnectedAccountsRoute,
  connectedAccountTokenRoute,
  connectedAccountByIdTokenRoute,
] as const;
