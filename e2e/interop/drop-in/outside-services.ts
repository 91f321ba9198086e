// Drop-in scenarios for Stack features that need an outside service (issue 16 items 1-2): a user's and a team's
// payments in a project without payments set up (Stack's account settings read them), the admin's payments pages,
// the dashboard's AI chat threads, analytics queries, managed e-mail domains, test webhooks, and the server's
// e-mail delivery stats and capacity boost.
import { expect } from "vitest";
import { type Scenario, settled, signedUpUser, thrown } from "../scenarios.ts";

const NOT_SET_UP = "Payments are not set up in this Stack Auth project.";

export const outsideServiceScenarios: Scenario[] = [
  {
    name: "payments: a user and their team have no billing, products, invoices or items, and cannot check out",
    async run(ctx) {
      const log = ctx.log.mark();
      const { user } = await signedUpUser(ctx);
      expect(await user.getBilling(), log.failures()).toEqual({
        hasCustomer: false,
        defaultPaymentMethod: null,
      });
      const products = await user.listProducts();
      expect([[...products], products.nextCursor], log.failures()).toEqual([[], null]);
      const invoices = await user.listInvoices();
      expect([[...invoices], invoices.nextCursor], log.failures()).toEqual([[], null]);
      expect(await thrown(() => user.getItem("credits")), log.failures()).toBe("ITEM_NOT_FOUND");
      expect(await thrown(() => user.createCheckoutUrl({ productId: "pro" })), log.failures()).toContain(
        NOT_SET_UP,
      );
      expect(await thrown(() => user.createPaymentMethodSetupIntent())).toContain(NOT_SET_UP);

      const team = await user.createTeam({ displayName: ctx.uniqueName("billed team") });
      expect(await team.getBilling(), log.failures()).toEqual({
        hasCustomer: false,
        defaultPaymentMethod: null,
      });
      expect(log.calls(), log.failures()).toContain(`GET /api/v1/payments/billing/team/${team.id} 200`);

      const serverUser = await ctx.serverApp().getUser(user.id);
      expect(await thrown(async () => serverUser?.grantProduct({ productId: "pro" }))).toBe(
        "PRODUCT_DOES_NOT_EXIST",
      );
    },
  },
  {
    name: "admin: no Stripe account or payment methods, AI chat threads kept, no analytics or managed domains",
    async run(ctx) {
      const log = ctx.log.mark();
      const admin = ctx.adminApp();
      expect(await admin.getPaymentMethodConfigs(), log.failures()).toBeNull();
      expect(await thrown(() => admin.setupPayments())).toContain("Stripe");

      const thread = crypto.randomUUID();
      await admin.saveChatMessage(thread, { role: "user", content: "How do I add OAuth?" });
      await admin.saveChatMessage(thread, { role: "assistant", content: "Open Auth methods." });
      expect((await admin.listChatMessages(thread)).messages, log.failures()).toEqual([
        { role: "user", content: "How do I add OAuth?" },
        { role: "assistant", content: "Open Auth methods." },
      ]);

      expect(await thrown(() => admin.queryAnalytics({ query: "select 1" })), log.failures()).toBe(
        "ANALYTICS_NOT_ENABLED",
      );
      expect(await admin.listManagedEmailDomains(), log.failures()).toEqual([]);
      const test = await admin.sendTestWebhook({ endpointId: crypto.randomUUID() });
      expect(test.status === "error" && test.error.errorMessage, log.failures()).toBe(
        "Endpoint not found. Make sure it still exists.",
      );
    },
  },
  {
    name: "server: e-mail delivery stats, and the capacity boost they report",
    async run(ctx) {
      const log = ctx.log.mark();
      const server = ctx.serverApp();
      const before = await server.getEmailDeliveryStats();
      expect(Object.keys(before.stats), log.failures()).toEqual(["hour", "day", "week", "month"]);
      expect(before.capacity.penalty_factor).toBe(1);
      // The boost is per project and the scenario runs once per SDK: a later run finds it already active.
      const boosted = await settled(() => server.activateEmailCapacityBoost());
      if (boosted && typeof boosted === "object" && "thrown" in boosted)
        expect(boosted.thrown, log.failures()).toBe("EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE");
      const after = await server.getEmailDeliveryStats();
      expect([after.capacity.is_boost_active, after.capacity.boost_multiplier], log.failures()).toEqual([
        true,
        4,
      ]);
    },
  },
];
