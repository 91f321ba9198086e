// Drop-in scenarios for the flows group: CLI login (`/auth/cli*`, promptCliLogin), the cross-domain hand-off
// (`/auth/oauth/cross-domain/authorize`) and config as code (`/internal/config*`, the admin project's config methods).
// The browser's side of the CLI login and the hand-off (pages Stack's SDK drives from a window) are sent as those
// pages send them; everything else goes through each SDK's public API.
import { createHash, randomBytes } from "node:crypto";
import { expect } from "vitest";
import { type Context, errorCodeOf, type Scenario, signedUpUser, tokensOf } from "../scenarios.ts";

const APP_URL = "http://localhost:3000";

/** The client headers Stack's SDK sends for a signed-in user (both tokens, as its session requests do). */
function clientHeaders(ctx: Context, tokens?: { accessToken: string; refreshToken: string }) {
  return {
    "content-type": "application/json",
    "x-stack-access-type": "client",
    "x-stack-project-id": "internal",
    "x-stack-publishable-client-key": ctx.server.keys.pck,
    ...(tokens && {
      "x-stack-access-token": tokens.accessToken,
      "x-stack-refresh-token": tokens.refreshToken,
    }),
  };
}

/** The user id (`sub`) of the access token a refresh token gets at the token endpoint. */
async function userOfRefreshToken(ctx: Context, refreshToken: string): Promise<string> {
  const res = await ctx.refreshDirectly(refreshToken);
  const { access_token } = (await res.json()) as { access_token: string };
  const payload = JSON.parse(Buffer.from(access_token.split(".")[1] ?? "", "base64url").toString());
  return payload.sub as string;
}

export const flowScenarios: Scenario[] = [
  {
    name: "cli login: promptCliLogin waits for the browser's confirmation, then answers a session of that user",
    async run(ctx) {
      const log = ctx.log.mark();
      const { user } = await signedUpUser(ctx);
      const tokens = await tokensOf(user);
      let link = "";
      const outcome = ctx.clientApp().promptCliLogin({
        appUrl: APP_URL,
        promptLink: (url) => {
          link = url;
        },
      });
      await expect.poll(() => link).not.toBe("");
      const url = new URL(link);
      expect(url.origin + url.pathname).toBe(`${APP_URL}/handler/cli-auth-confirm`);
      // The confirmation page's call (Stack's page sends the browser session's refresh token).
      const confirmed = await fetch(`${ctx.server.baseUrl}/api/v1/auth/cli/complete`, {
        method: "POST",
        headers: clientHeaders(ctx),
        body: JSON.stringify({
          login_code: url.searchParams.get("login_code"),
          refresh_token: tokens.refreshToken,
        }),
      });
      expect(await confirmed.json()).toEqual({ success: true });
      const result = await outcome;
      if (result.status === "error") throw new Error(`${errorCodeOf(result)} ${log.failures()}`);
      expect(result.data).not.toBe(tokens.refreshToken);
      expect(await userOfRefreshToken(ctx, result.data)).toBe(user.id);
    },
  },
  {
    name: "cli login: an expired attempt is CLI_AUTH_EXPIRED_ERROR",
    async run(ctx) {
      const result = await ctx.clientApp().promptCliLogin({
        appUrl: APP_URL,
        expiresInMillis: 1,
        promptLink: () => {},
      });
      expect(errorCodeOf(result)).toBe("CLI_AUTH_EXPIRED_ERROR");
    },
  },
  {
    name: "cross-domain hand-off: a signed-in session gets a code for a trusted domain, exchanged with PKCE",
    async run(ctx) {
      const { user } = await signedUpUser(ctx);
      const tokens = await tokensOf(user);
      const verifier = randomBytes(32).toString("base64url");
      const redirectUri = `${APP_URL}/handler/oauth-callback?stack_cross_domain_auth=1`;
      const res = await fetch(`${ctx.server.baseUrl}/api/v1/auth/oauth/cross-domain/authorize`, {
        method: "POST",
        headers: clientHeaders(ctx, tokens),
        body: JSON.stringify({
          redirect_uri: redirectUri,
          state: "handoff-state",
          code_challenge: createHash("sha256").update(verifier).digest("base64url"),
          code_challenge_method: "S256",
        }),
      });
      const { redirect_url } = (await res.json()) as { redirect_url: string };
      const landed = new URL(redirect_url);
      expect(landed.searchParams.get("state")).toBe("handoff-state");
      const exchanged = await fetch(`${ctx.server.baseUrl}/api/v1/auth/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          client_id: "internal",
          client_secret: ctx.server.keys.pck,
          code: landed.searchParams.get("code") ?? "",
          redirect_uri: redirectUri,
          code_verifier: verifier,
        }),
      });
      const handed = (await exchanged.json()) as { refresh_token: string };
      expect(await userOfRefreshToken(ctx, handed.refresh_token)).toBe(user.id);
    },
  },
  {
    name: "config as code: updateConfig changes the project, getConfig renders it, reset-keys and the push source",
    async run(ctx) {
      const log = ctx.log.mark();
      const project = await ctx.adminApp().getProject();
      const id = ctx
        .uniqueName("cfg")
        .toLowerCase()
        .replace(/[^a-z0-9]/g, "");
      const domain = `https://${id}.example.com`;
      const domainsOf = async () => (await ctx.adminApp().getProject()).config.domains.map((d) => d.domain);
      await project.updateConfig({
        [`domains.trustedDomains.${id}`]: { baseUrl: domain, handlerPath: "/handler" },
        [`payments.items.${id}`]: { displayName: "kept, not acted on" },
      } as never);
      try {
        expect(await domainsOf(), log.failures()).toContain(domain);
        const config = (await project.getConfig()) as unknown as {
          domains: { trustedDomains: Record<string, { baseUrl: string }> };
          payments: { items: Record<string, unknown> };
        };
        expect(config.domains.trustedDomains[id]).toMatchObject({ baseUrl: domain });
        expect(config.payments.items[id]).toEqual({ displayName: "kept, not acted on" });
        expect(Object.keys(await project.getConfigOverride("environment"))).toContain(
          `domains.trustedDomains.${id}`,
        );
      } finally {
        await project.resetConfigOverrideKeys("environment", [
          `domains.trustedDomains.${id}`,
          `payments.items.${id}`,
        ]);
      }
      expect(await domainsOf(), log.failures()).not.toContain(domain);

      await project.pushConfig({}, { source: { type: "pushed-from-unknown" } });
      expect(await project.getPushedConfigSource()).toEqual({ type: "pushed-from-unknown" });
      await project.unlinkPushedConfigSource();
      expect(await project.getPushedConfigSource()).toEqual({ type: "unlinked" });
    },
  },
];
