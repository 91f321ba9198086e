// Drop-in scenarios for project permissions (`/project-permissions`, `/project-permission-definitions`) and OAuth
// provider records (`/oauth-providers`), driven through each SDK's public API.
import { expect } from "vitest";
import { type Context, errorCodeOf, type Scenario, signedUpUser, signIn } from "../scenarios.ts";

/** A permission id this run alone uses: Stack's ids are lowercase letters, digits, `_` and `:`. */
const permissionId = (ctx: Context, what: string) =>
  ctx
    .uniqueName(what)
    .toLowerCase()
    .replace(/[^a-z0-9_:]/g, "_");

/**
 * Runs `action` while the project has a `github` provider configuration (records name one), then puts the project's
 * providers back. The test server's internal project has none; a standard one with made-up keys is never used here.
 */
export async function withGithubProvider(ctx: Context, action: () => Promise<void>): Promise<void> {
  const project = await ctx.adminApp().getProject();
  // Written back as written, not as read (the read shape has keys an update refuses).
  const before = project.config.oauthProviders.map((p) =>
    p.type === "shared"
      ? { id: p.id, type: p.type }
      : { id: p.id, type: p.type, clientId: p.clientId, clientSecret: p.clientSecret },
  );
  const others = before.filter((p) => p.id !== "github");
  const github = { id: "github", type: "standard" as const, clientId: "interop", clientSecret: "interop" };
  await project.update({ config: { oauthProviders: [...others, github] } });
  try {
    await action();
  } finally {
    await project.update({ config: { oauthProviders: before } });
  }
}

export const projectPermissionOAuthProviderScenarios: Scenario[] = [
  {
    name: "project permissions: admin defines, server grants, the client checks without a team, server revokes",
    async run(ctx) {
      const admin = ctx.adminApp();
      const log = ctx.log.mark();
      const read = permissionId(ctx, "pp_read");
      const manage = permissionId(ctx, "pp_manage");
      await admin.createProjectPermissionDefinition({ id: read, containedPermissionIds: [] });
      await admin.createProjectPermissionDefinition({
        id: manage,
        description: "All",
        containedPermissionIds: [read],
      });
      try {
        const listed = await admin.listProjectPermissionDefinitions();
        expect(
          listed.find((d) => d.id === manage),
          log.failures(),
        ).toMatchObject({
          id: manage,
          containedPermissionIds: [read],
        });

        const { user, email } = await signedUpUser(ctx);
        const onServer = await ctx.serverApp().getUser(user.id);
        await onServer?.grantPermission(manage);

        // A fresh sign-in, so nothing read before the grant is reused.
        const app = ctx.clientApp();
        expect((await signIn(app, email)).status).toBe("ok");
        const client = await app.getUser({ or: "throw" });
        expect(await client.hasPermission(manage), log.failures()).toBe(true);
        expect(await client.hasPermission(read), log.failures()).toBe(true);
        expect(await client.getPermission(read), log.failures()).toMatchObject({ id: read });
        expect((await client.listPermissions()).map((p) => p.id).sort()).toEqual([manage, read].sort());
        expect((await client.listPermissions({ recursive: false })).map((p) => p.id)).toEqual([manage]);

        await onServer?.revokePermission(manage);
        const again = await ctx.serverApp().getUser(user.id);
        expect(await again?.hasPermission(manage), log.failures()).toBe(false);
        expect(await again?.listPermissions()).toEqual([]);
      } finally {
        await admin.deleteProjectPermissionDefinition(manage);
        await admin.deleteProjectPermissionDefinition(read);
      }
      expect((await admin.listProjectPermissionDefinitions()).map((d) => d.id)).not.toContain(read);
    },
  },
  {
    name: "oauth providers: the server links accounts, the user lists, changes and unlinks them",
    run: (ctx) => withGithubProvider(ctx, () => oauthProviderScenario(ctx)),
  },
];

async function oauthProviderScenario(ctx: Context): Promise<void> {
  const server = ctx.serverApp();
  const log = ctx.log.mark();
  const { user } = await signedUpUser(ctx);
  const other = await signedUpUser(ctx);
  const third = await signedUpUser(ctx);
  const accountId = ctx.uniqueName("gh-account");
  const link = (userId: string, allowSignIn: boolean) =>
    server.createOAuthProvider({
      userId,
      providerConfigId: "github",
      accountId,
      email: "linked@example.com",
      allowSignIn,
      allowConnectedAccounts: true,
    });

  const created = await link(user.id, true);
  expect(created.status, log.failures()).toBe("ok");
  // The same provider account may be linked again only without sign-in.
  expect(errorCodeOf(await link(other.user.id, true)), log.failures()).toBe(
    "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN",
  );
  expect((await link(third.user.id, false)).status, log.failures()).toBe("ok");

  const [provider, ...rest] = await user.listOAuthProviders();
  expect(rest).toEqual([]);
  expect(provider, log.failures()).toMatchObject({
    type: "github",
    userId: user.id,
    email: "linked@example.com",
    allowSignIn: true,
    allowConnectedAccounts: true,
  });
  expect((await user.getOAuthProvider(provider!.id))?.id).toBe(provider!.id);

  const changed = await provider!.update({ allowConnectedAccounts: false });
  expect(changed.status, log.failures()).toBe("ok");
  const onServer = await server.getUser(user.id);
  const [serverView] = (await onServer?.listOAuthProviders()) ?? [];
  expect(serverView, log.failures()).toMatchObject({
    accountId,
    allowConnectedAccounts: false,
    allowSignIn: true,
  });

  // The third user's record cannot start signing in while the first one does.
  const [thirds] = (await (await server.getUser(third.user.id))?.listOAuthProviders()) ?? [];
  expect(errorCodeOf(await thirds!.update({ allowSignIn: true })), log.failures()).toBe(
    "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN",
  );

  await provider!.delete();
  expect(
    await ctx
      .serverApp()
      .getUser(user.id)
      .then((u) => u?.listOAuthProviders()),
    log.failures(),
  ).toEqual([]);
}
