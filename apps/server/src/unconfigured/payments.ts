// Stack's payments routes for a project without payments set up, which every Gatehouse project is (there is no
// Stripe connection): the same checks first, then the answer Stack's handlers give when the project has no Stripe
// account and no products or items configured, so Stack's account settings and dashboard render their empty state.
import {
  cancelProductRoute,
  createPaymentSetupIntentRoute,
  createPurchaseUrlRoute,
  getCustomerBillingRoute,
  getCustomerItemRoute,
  getPaymentMethodConfigsRoute,
  getPurchaseCodeRoute,
  grantProductRoute,
  KnownErrors,
  listCustomerInvoicesRoute,
  listCustomerProductsRoute,
  listPaymentTransactionsRoute,
  paymentsSetupRoute,
  purchaseSessionRoute,
  refundTransactionRoute,
  setDefaultPaymentMethodRoute,
  stripeAccountInfoRoute,
  stripeAccountSessionRoute,
  switchProductRoute,
  testModePurchaseSessionRoute,
  updateItemQuantityRoute,
  updatePaymentMethodConfigsRoute,
  validatePurchaseCodeRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { projectOf } from "../routes/auth.ts";
import { TextError } from "../text-error.ts";
import { requireCustomerAccess, requireCustomerExists } from "./customers.ts";

/** Stack's text where a handler needs the project's Stripe account (lib/stripe getStripeForAccount). */
export const PAYMENTS_NOT_SET_UP =
  "Payments are not set up in this Stack Auth project. Please go to the Stack Auth dashboard and complete the Payments onboarding.";
/** Onboarding creates a Stripe Connect account, which needs Stripe's API. */
export const STRIPE_UNAVAILABLE = "Payments need a Stripe connection, which this server does not have.";

const emptyPage = () => ({ items: [], is_paginated: true as const, pagination: { next_cursor: null } });
/** With nothing listed, every cursor points at nothing (Stack: 400 `Invalid cursor`). */
const noCursor = (cursor: string | undefined) => {
  if (cursor !== undefined) throw new TextError(400, "Invalid cursor");
};

export function registerPaymentRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, getCustomerBillingRoute, async ({ params }, { caller }) => {
    await requireCustomerAccess(deps, caller, params, "Clients can only manage their own billing.");
    return { has_customer: false, default_payment_method: null };
  });

  bindRoute(app, deps, listCustomerInvoicesRoute, async ({ params, query }, { caller }) => {
    await requireCustomerAccess(deps, caller, params, "Clients can only manage their own billing.");
    noCursor(query.cursor);
    return emptyPage();
  });

  bindRoute(app, deps, getCustomerItemRoute, async ({ params }, { caller }) => {
    await requireCustomerAccess(
      deps,
      caller,
      params,
      "Clients can only access their own user or team items.",
    );
    throw KnownErrors.ITEM_NOT_FOUND({ item_id: params.item_id });
  });

  bindRoute(app, deps, updateItemQuantityRoute, async ({ params }) => {
    throw KnownErrors.ITEM_NOT_FOUND({ item_id: params.item_id });
  });

  bindRoute(app, deps, listCustomerProductsRoute, async ({ params, query }, { caller }) => {
    await requireCustomerAccess(
      deps,
      caller,
      params,
      "Clients can only access their own user or team products.",
    );
    await requireCustomerExists(deps, projectOf(caller).id, params);
    noCursor(query.cursor);
    return emptyPage();
  });

  bindRoute(app, deps, grantProductRoute, async ({ params, body }, { caller }) => {
    await requireCustomerExists(deps, projectOf(caller).id, params);
    if (body.product_id !== undefined && body.product_inline !== undefined)
      throw new TextError(400, "Cannot specify both product_id and product_inline!");
    if (body.product_id === undefined && body.product_inline === undefined)
      throw new TextError(400, "Must specify either product_id or product_inline!");
    if (body.product_id !== undefined)
      throw KnownErrors.PRODUCT_DOES_NOT_EXIST({ product_id: body.product_id, context: null });
    // Stack records inline grants in its payments ledger; Gatehouse keeps none.
    throw new TextError(400, PAYMENTS_NOT_SET_UP);
  });

  bindRoute(app, deps, cancelProductRoute, async ({ params, query }, { caller }) => {
    const message =
      params.customer_type === "custom"
        ? "Clients can only cancel user or team subscriptions they control."
        : "Clients can only cancel their own subscriptions.";
    await requireCustomerAccess(deps, caller, params, message);
    await requireCustomerExists(deps, projectOf(caller).id, params);
    if (query.subscription_id !== undefined)
      throw new TextError(400, "No active subscription found with this ID for the given customer.");
    throw KnownErrors.PRODUCT_DOES_NOT_EXIST({ product_id: params.product_id, context: null });
  });

  bindRoute(app, deps, switchProductRoute, async ({ params }, { caller }) => {
    await requireCustomerAccess(deps, caller, params, "Clients can only manage their own subscriptions.");
    throw new TextError(400, "Product not found.");
  });

  for (const route of [createPaymentSetupIntentRoute, setDefaultPaymentMethodRoute]) {
    bindRoute(app, deps, route, async ({ params }, { caller }) => {
      await requireCustomerAccess(deps, caller, params, "Clients can only manage their own billing.");
      throw new TextError(400, PAYMENTS_NOT_SET_UP);
    });
  }

  bindRoute(app, deps, createPurchaseUrlRoute, async ({ body }, { caller }) => {
    const forbidden =
      "Clients can only create purchase URLs for their own user or teams they have admin access to.";
    await requireCustomerAccess(deps, caller, body, forbidden);
    throw new TextError(400, PAYMENTS_NOT_SET_UP);
  });

  // Checkout codes are only issued by create-purchase-url, so none exists.
  for (const route of [
    purchaseSessionRoute,
    validatePurchaseCodeRoute,
    getPurchaseCodeRoute,
    testModePurchaseSessionRoute,
  ]) {
    bindRoute(app, deps, route, async () => {
      throw KnownErrors.VERIFICATION_CODE_NOT_FOUND();
    });
  }

  bindRoute(app, deps, paymentsSetupRoute, async () => {
    throw new TextError(400, STRIPE_UNAVAILABLE);
  });

  for (const route of [stripeAccountInfoRoute, getPaymentMethodConfigsRoute]) {
    bindRoute(app, deps, route, async () => {
      throw KnownErrors.STRIPE_ACCOUNT_INFO_NOT_FOUND();
    });
  }

  bindRoute(app, deps, updatePaymentMethodConfigsRoute, async ({ body }) => {
    // Stack acknowledges an empty change before it looks for the Stripe account.
    if (Object.keys(body.updates).length === 0) return { success: true as const };
    throw KnownErrors.STRIPE_ACCOUNT_INFO_NOT_FOUND();
  });

  bindRoute(app, deps, stripeAccountSessionRoute, async () => {
    throw new TextError(400, "Stripe account ID is not set");
  });

  bindRoute(app, deps, listPaymentTransactionsRoute, async ({ query }) => {
    noCursor(query.cursor);
    return { transactions: [], next_cursor: null };
  });

  bindRoute(app, deps, refundTransactionRoute, async ({ body }) => {
    if (body.type === "subscription")
      throw KnownErrors.SUBSCRIPTION_INVOICE_NOT_FOUND({ subscription_invoice_id: body.id });
    throw KnownErrors.ONE_TIME_PURCHASE_NOT_FOUND({ one_time_purchase_id: body.id });
  });
}
