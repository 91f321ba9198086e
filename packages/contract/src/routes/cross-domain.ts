// Cross-domain hand-off (Stack's `/auth/oauth/cross-domain/authorize`): a signed-in user on one trusted domain asks
// for a one-time authorization code for another trusted domain, which that domain exchanges (with its PKCE
// verifier) at `POST /auth/oauth/token` like an OAuth sign-in's code.
import { z } from "zod";
import { defineRoute } from "../route.ts";

export const crossDomainAuthorizeRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/oauth/cross-domain/authorize",
  access: ["client", "server", "admin"],
  user: "required",
  summary: "Creates a one-time authorization-code redirect that hands the session to another trusted domain",
  tag: "Auth: OAuth",
  body: z.strictObject({
    redirect_uri: z.url().max(4096),
    state: z.string().min(1).max(512),
    code_challenge: z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/),
    code_challenge_method: z.literal("S256").default("S256"),
    after_callback_redirect_url: z.url().max(4096).optional(),
  }),
  response: { status: 200, kind: "json", schema: z.object({ redirect_url: z.string() }) },
});

export const crossDomainRoutes = [crossDomainAuthorizeRoute] as const;
