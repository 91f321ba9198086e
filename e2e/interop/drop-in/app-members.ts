// Drop-in scenarios for the members of Stack's apps and users that name a customer, a team or a store in their
// options (issue 16, the member comparison's last gaps): payments without payments set up, every member's team
// permissions at once, a page of team permission definitions, a data vault store (its values readable by the other
// SDK, the format being Stack's), and a user's connected accounts on the server and the client.
import { StackServerApp as StacksServerApp } from "@stackframe/js";
import { expect } from "vitest";
import { type Context, errorCodeOf, type Scenario, settled, signedUpUser, thrown } from "../scenarios.ts";
import { withGithubProvider } from "./project-permissions-oauth-providers.ts";

/** Stack's own server app on the same project, for values that must read back across SDKs. */
const stacksServerApp = (ctx: Context) =>
  new StacksServerApp({
    baseUrl: ctx.server.baseUrl,
    projectId: "internal",
    publishableClientKey: ctx.server.keys.pck,
    secretServerKey: ctx.server.keys.ssk,
    tokenStore: "memory",
    redirectMethod: "none",
    noAutomaticPrefetch: true,
  });

export const appMemberScenarios: Scenario[] = [
  {
    name: "payments on the apps: no items, products or invoices by customer; nothing to grant, change or cancel",
    async run(ctx) {
      const log = ctx.log.mark();
      const { app, user } = await signedUpUser(ctx);
      const server = ctx.serverApp();
      expect(await thrown(() => app.getItem({ userId: user.id, itemId: "credits" })), log.failures()).toBe(
        "ITEM_NOT_FOUND",
      );
      const products = await app.listProducts({ userId: user.id });
      expect([[...products], products.nextCursor], log.failures()).toEqual([[], null]);
      const invoices = await app.listInvoices({ userId: user.id });
      expect([[...invoices], invoices.nextCursor], log.failures()).toEqual([[], null]);
      expect(await thrown(() => app.cancelSubscription({ productId: "pro" })), log.failures()).toBe(
        "PRODUCT_DOES_NOT_EXIST",
      );
      expect(await thrown(() => ctx.clientApp().cancelSubscription({ productId: "pro" }))).toBe(
        "USER_AUTHENTICATION_REQUIRED",
      );

      expect(await thrown(() => server.getItem({ userId: user.id, itemId: "credits" }))).toBe(
        "ITEM_NOT_FOUND",
      );
      const serverProducts = await server.listProducts({ userId: user.id });
      expect([...serverProducts], log.failures()).toEqual([]);
      expect(await thrown(() => server.grantProduct({ userId: user.id, productId: "pro" }))).toBe(
        "PRODUCT_DOES_NOT_EXIST",
      );
      const change = { userId: user.id, itemId: "credits", quantity: -3, description: "refund" };
      expect(await thrown(() => ctx.adminApp().createItemQuantityChange(change)), log.failures()).toBe(
        "ITEM_NOT_FOUND",
      );
    },
  },
  {
    name: "team permissions: every member's grants of a team in one request, and definitions a page at a time",
    async run(ctx) {
      const log = ctx.log.mark();
      const { user } = await signedUpUser(ctx);
      const team = await user.createTeam({ displayName: ctx.uniqueName("roster") });
      const server = ctx.serverApp();
      const direct = await server.listTeamMemberPermissions(team.id);
      const recursive = await server.listTeamMemberPermissions(team.id, { recursive: true });
      const own = (await user.listPermissions(team, { recursive: true })).map((p) => p.id).sort();
      expect(
        recursive
          .filter((p) => p.userId === user.id)
          .map((p) => p.permissionId)
          .sort(),
        log.failures(),
      ).toEqual(own);
      expect(direct.length).toBeGreaterThan(0);
      expect(direct.length).toBeLessThanOrEqual(recursive.length);

      const admin = ctx.adminApp();
      const all = (await admin.listTeamPermissionDefinitions()).map((d) => d.id);
      const first = await admin.listTeamPermissionDefinitionsPaginated({ limit: 2 });
      expect(
        first.items.map((d) => d.id),
        log.failures(),
      ).toEqual([...all].sort().slice(0, 2));
      expect(first.nextCursor).toBe(first.items[1]?.id);
      const rest = await admin.listTeamPermissionDefinitionsPaginated({
        limit: 1000,
        cursor: first.nextCursor!,
      });
      expect([...first.items, ...rest.items].map((d) => d.id)).toEqual([...all].sort());
      expect(rest.nextCursor).toBeNull();
      const members = await admin.listTeamPermissionDefinitionsPaginated({ limit: 10, query: "MEMBERS" });
      expect(members.items.length, log.failures()).toBeGreaterThan(0);
      for (const d of members.items)
        expect(`${d.id} ${d.description ?? ""}`.toLowerCase()).toContain("members");
      await admin.refreshEmailDrafts();
    },
  },
  {
    name: "data vault: a store declared in config keeps values only its secret reads, in Stack's format",
    async run(ctx) {
      const log = ctx.log.mark();
      const storeId = ctx.uniqueName("vault").replace(/[^a-zA-Z0-9_-]/g, "_");
      const project = await ctx.adminApp().getProject();
      await project.updateConfig({ [`dataVault.stores.${storeId}`]: { displayName: "Interop" } });
      const store = await ctx.serverApp().getDataVaultStore(storeId);
      expect(store.id).toBe(storeId);
      await store.setValue("api-token", "s3cret value ✓", { secret: "app secret" });
      expect(await store.getValue("api-token", { secret: "app secret" }), log.failures()).toBe(
        "s3cret value ✓",
      );
      expect(await store.getValue("other key", { secret: "app secret" })).toBeNull();
      // Another secret hashes the key differently: the value is not found under it.
      expect(await store.getValue("api-token", { secret: "wrong secret" })).toBeNull();
      // Stack's SDK reads what this SDK wrote and the other way round.
      const stacks = await stacksServerApp(ctx).getDataVaultStore(storeId);
      expect(await stacks.getValue("api-token", { secret: "app secret" }), log.failures()).toBe(
        "s3cret value ✓",
      );
      await stacks.setValue("from-stack", "written by Stack's SDK", { secret: "app secret" });
      expect(await store.getValue("from-stack", { secret: "app secret" })).toBe("written by Stack's SDK");
      const undeclared = await ctx.serverApp().getDataVaultStore(`${storeId}_undeclared`);
      expect(await thrown(() => undeclared.getValue("k", { secret: "s" }))).toBe(
        "DATA_VAULT_STORE_DOES_NOT_EXIST",
      );
    },
  },
  {
    name: "connected accounts: listed and found by account on the server and the client; linking is the client's",
    run: (ctx) =>
      withGithubProvider(ctx, async () => {
        const log = ctx.log.mark();
        const { user } = await signedUpUser(ctx);
        const server = ctx.serverApp();
        const accountId = ctx.uniqueName("gh-connected");
        const created = await server.createOAuthProvider({
          userId: user.id,
          providerConfigId: "github",
          accountId,
          email: "connected@example.com",
          allowSignIn: false,
          allowConnectedAccounts: true,
        });
        expect(created.status, log.failures()).toBe("ok");
        const serverUser = await server.getUser(user.id);
        const listed = await serverUser!.listConnectedAccounts();
        expect(
          listed.map((a) => [a.provider, a.providerAccountId]),
          log.failures(),
        ).toEqual([["github", accountId]]);
        const found = await serverUser!.getConnectedAccount({
          provider: "github",
          providerAccountId: accountId,
        });
        expect(found?.providerAccountId).toBe(accountId);
        expect(
          await serverUser!.getConnectedAccount({ provider: "github", providerAccountId: "nobody" }),
        ).toBeNull();
        // A record made by the server holds no provider token (2.8.102 throws where later versions return it).
        const token = await settled(() => found!.getAccessToken());
        const tokenError = "thrown" in token ? token.thrown : errorCodeOf(token);
        expect(tokenError, log.failures()).toBe("OAUTH_ACCESS_TOKEN_NOT_AVAILABLE");
        expect(await settled(() => serverUser!.linkConnectedAccount("github"))).toMatchObject({
          thrown: expect.stringContaining("not available for server users"),
        });

        const own = await user.listConnectedAccounts();
        expect(
          own.map((a) => a.providerAccountId),
          log.failures(),
        ).toEqual([accountId]);
        expect(
          await user.getConnectedAccount({ provider: "github", providerAccountId: accountId }),
        ).not.toBeNull();
      }),
  },
];
