// Drop-in scenarios for user and team API keys (issue 16 item 3): a user's and a team's keys made and listed
// through the user and team objects, revoked through the key object, and the server's getUser / getTeam by key.
import { expect } from "vitest";
import { type Context, type Scenario, signedUpUser, thrown } from "../scenarios.ts";

/** Stack's key text for a self-hosted secret key: `sk_`, secret, key id, type, flag `1`, marker, CRC-32. */
const SECRET_KEY = /^sk_[0-9a-z]{45}[0-9a-f]{32}(user|team)1574ck4u7h[0-9a-f]{8}$/;

/** Runs `action` with user and team API keys allowed on the project, then puts the flags back. */
async function withApiKeysAllowed(ctx: Context, action: () => Promise<void>): Promise<void> {
  const project = await ctx.adminApp().getProject();
  const { allowUserApiKeys, allowTeamApiKeys } = project.config;
  await project.update({ config: { allowUserApiKeys: true, allowTeamApiKeys: true } });
  try {
    await action();
  } finally {
    await project.update({ config: { allowUserApiKeys, allowTeamApiKeys } });
  }
}

export const userApiKeyScenarios: Scenario[] = [
  {
    name: "user API keys: created once in Stack's format, listed by last four, found by getUser, revoked",
    run: (ctx) =>
      withApiKeysAllowed(ctx, async () => {
        const log = ctx.log.mark();
        const { app, user } = await signedUpUser(ctx);
        expect((await app.getProject()).config.allowUserApiKeys, log.failures()).toBe(true);
        const created = await user.createApiKey({ description: "ci", expiresAt: null });
        expect(created.value, log.failures()).toMatch(SECRET_KEY);
        expect(created).toMatchObject({ description: "ci", type: "user", userId: user.id });
        expect(created.isValid()).toBe(true);

        const [listed, ...rest] = await user.listApiKeys();
        expect(rest, log.failures()).toEqual([]);
        expect(listed?.id).toBe(created.id);
        expect(listed?.value).toEqual({ lastFour: created.value.slice(-4) });

        const holder = await ctx.serverApp().getUser({ apiKey: created.value });
        expect(holder?.id, log.failures()).toBe(user.id);
        const onServer = await ctx.serverApp().getUser(user.id);
        expect((await onServer?.listApiKeys())?.map((k) => k.id)).toEqual([created.id]);

        await listed?.revoke();
        const [revoked] = await user.listApiKeys();
        expect(revoked?.whyInvalid(), log.failures()).toBe("manually-revoked");
        expect(revoked?.isValid()).toBe(false);
        expect(await ctx.serverApp().getUser({ apiKey: created.value }), log.failures()).toBeNull();

        const expired = await user.createApiKey({
          description: "old",
          expiresAt: new Date(Date.now() - 60_000),
        });
        expect(expired.whyInvalid()).toBe("expired");
        expect(await ctx.serverApp().getUser({ apiKey: expired.value }), log.failures()).toBeNull();
        expect(await ctx.serverApp().getUser({ apiKey: "sk_not_a_key" }), log.failures()).toBeNull();
      }),
  },
  {
    name: "team API keys: only with $manage_api_keys; getTeam finds the team by its key, getUser does not",
    run: (ctx) =>
      withApiKeysAllowed(ctx, async () => {
        const log = ctx.log.mark();
        const { user } = await signedUpUser(ctx);
        const made = await ctx
          .serverApp()
          .createTeam({ displayName: ctx.uniqueName("keys"), creatorUserId: user.id });
        const team = await user.getTeam(made.id);
        if (!team) throw new Error(`The creator does not see team ${made.id}: ${log.failures()}`);
        // The internal project's team_admin lacks $manage_api_keys: Stack answers API_KEY_NOT_FOUND, hiding the team.
        const options = { description: "deploy", expiresAt: null, isPublic: false };
        expect(await thrown(() => team.createApiKey(options)), log.failures()).toBe("API_KEY_NOT_FOUND");
        await (await ctx.serverApp().getUser(user.id))?.grantPermission(made, "$manage_api_keys");
        const created = await team.createApiKey(options);
        expect(created.value, log.failures()).toMatch(SECRET_KEY);
        expect(created).toMatchObject({ type: "team", teamId: made.id });
        expect(
          (await team.listApiKeys()).map((k) => k.id),
          log.failures(),
        ).toEqual([created.id]);

        const found = await ctx.serverApp().getTeam({ apiKey: created.value });
        expect(found?.id, log.failures()).toBe(made.id);
        expect(await ctx.serverApp().getUser({ apiKey: created.value }), log.failures()).toBeNull();

        const [listed] = await team.listApiKeys();
        await listed?.update({ description: "renamed" });
        const onServer = await ctx.serverApp().getTeam(made.id);
        expect(
          (await onServer?.listApiKeys())?.map((k) => k.description),
          log.failures(),
        ).toEqual(["renamed"]);
      }),
  },
];
