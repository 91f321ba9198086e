// Sign-in routes: password, multi-factor, anonymous, the OAuth token endpoint and sessions (WIRE.md §3.5, §4.1,
// §4.3, §4.6, §4.7).
import { z } from "zod";
import { defineRoute } from "../route.ts";
import {
  botChallengeFields,
  emailSchema,
  passwordSchema,
  sessionSchema,
  signInResponseSchema,
  signInWithNewUserResponseSchema,
  urlSchema,
} from "../schemas/auth.ts";
import { listOf, successSchema } from "../schemas/common.ts";
import { codeSchema } from "./codes.ts";

const ANY_ACCESS = ["client", "server", "admin"] as const;
const SERVER_ACCESS = ["server", "admin"] as const;

export const passwordSignUpRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/password/sign-up",
  access: ANY_ACCESS,
  summary: "Creates a user with an e-mail and a password (or upgrades the anonymous caller) and signs in",
  tag: "Auth: password",
  body: z.strictObject({
    email: emailSchema,
    password: passwordSchema,
    verification_callback_url: urlSchema.optional(),
    ...botChallengeFields,
  }),
  response: { status: 200, kind: "json", schema: signInResponseSchema },
});

export const passwordSignInRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/password/sign-in",
  access: ANY_ACCESS,
  summary: "Signs in with an e-mail and a password",
  tag: "Auth: password",
  // [GO] The bot fields here too: a project with bot protection guards password guessing as well.
  body: z.strictObject({ email: emailSchema, password: passwordSchema, ...botChallengeFields }),
  response: { status: 200, kind: "json", schema: signInResponseSchema },
});

export const mfaSignInRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/mfa/sign-in",
  access: ANY_ACCESS,
  summary:
    "Completes a sign-in paused by MULTI_FACTOR_AUTHENTICATION_REQUIRED: the `attempt_code` with a TOTP value, or " +
    "[GO] with a recovery code (`type: recovery_code`)",
  tag: "Auth: multi-factor",
  body: z.discriminatedUnion("type", [
    z.strictObject({ code: codeSchema, type: z.literal("totp"), totp: z.string() }),
    z.strictObject({ code: codeSchema, type: z.literal("recovery_code"), recovery_code: z.string() }),
  ]),
  response: { status: 200, kind: "json", schema: signInWithNewUserResponseSchema },
});

export const mfaRecoveryCodesRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/mfa/recovery-codes",
  access: ANY_ACCESS,
  user: "required",
  summary:
    "[GO] Makes ten single-use recovery codes for the user's TOTP secret, replacing earlier ones; shown only here",
  tag: "Auth: multi-factor",
  response: { status: 200, kind: "json", schema: z.object({ recovery_codes: z.array(z.string()) }) },
});

export const anonymousSignUpRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/anonymous/sign-up",
  access: ANY_ACCESS,
  summary: "Creates an anonymous user and signs in",
  tag: "Auth: anonymous",
  response: { status: 200, kind: "json", schema: signInResponseSchema },
});

export const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal("Bearer"),
  expires_in: z.number(),
  scope: z.literal("legacy"),
  refresh_token: z.string(),
  is_new_user: z.boolean().optional(),
  newUser: z.boolean().optional(),
  after_callback_redirect_url: z.string().nullable().optional(),
  afterCallbackRedirectUrl: z.string().nullable().optional(),
});

export const tokenRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/oauth/token",
  access: "none",
  summary: "OAuth token endpoint: `refresh_token` and `authorization_code` grants (form-encoded or JSON)",
  tag: "Tokens",
  body: z.record(z.string(), z.unknown()).optional(),
  tolerateUnknownFields: true,
  response: { status: 200, kind: "json", schema: tokenResponseSchema },
});

export const createSessionRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/sessions",
  access: SERVER_ACCESS,
  summary: "Creates a session for a user",
  tag: "Auth: sessions",
  body: z.strictObject({
    user_id: z.string(),
    expires_in_millis: z.number().int().min(1).max(31_708_800_000).optional(),
    is_impersonation: z.boolean().optional(),
  }),
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ refresh_token: z.string(), access_token: z.string() }),
  },
});

export const listSessionsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/auth/sessions",
  access: ANY_ACCESS,
  summary: "Lists a user's sessions, newest first",
  tag: "Auth: sessions",
  query: z.strictObject({ user_id: z.string() }),
  response: { status: 200, kind: "json", schema: listOf(sessionSchema) },
});

export const endCurrentSessionRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/auth/sessions/current",
  access: ANY_ACCESS,
  user: "required",
  summary: "Signs out: ends the session of the access token",
  tag: "Auth: sessions",
  response: { status: 200, kind: "json", schema: successSchema },
});

export const endSessionRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/auth/sessions/{session_id}",
  access: ANY_ACCESS,
  summary: "Ends one of a user's sessions",
  tag: "Auth: sessions",
  params: z.strictObject({ session_id: z.string() }),
  query: z.strictObject({ user_id: z.string() }),
  response: { status: 200, kind: "json", schema: successSchema },
});

export const refreshCurrentSessionRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/sessions/current/refresh",
  access: ANY_ACCESS,
  summary: "Mints a new access token from the refresh token in the `refresh-token` header",
  tag: "Auth: sessions",
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ access_token: z.string(), refresh_token: z.string().optional() }),
  },
});

export const updatePasswordRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/password/update",
  access: ANY_ACCESS,
  user: "required",
  summary: "Changes the password and ends every other session of the user",
  tag: "Auth: password",
  body: z.strictObject({ old_password: passwordSchema, new_password: passwordSchema }),
  response: { status: 200, kind: "json", schema: successSchema },
});

export const setPasswordRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/password/set",
  access: ANY_ACCESS,
  user: "required",
  summary: "Sets a password for a user who has none",
  tag: "Auth: password",
  body: z.strictObject({ password: passwordSchema }),
  response: { status: 200, kind: "json", schema: successSchema },
});
