// The dashboard's payments routes (Stack's `/internal/payments/…`): Stripe onboarding, the connected account, its
// payment methods, and the ledger. Without a Stripe connection the server answers them as Stack does for a project
// that never onboarded (STRIPE_ACCOUNT_INFO_NOT_FOUND, an empty ledger).
import { z } from "zod";
import { defineRoute, type RouteDefinition } from "../route.ts";
import { checkoutCodeBody, PAYMENTS_TAG, paymentsPageQuery, paymentsSuccessSchema } from "./payments.ts";

const ADMIN = ["admin"] as const;

export const paymentsSetupRoute = defineRoute({
  method: "POST",
  path: "/api/v1/internal/payments/setup",
  access: ADMIN,
  summary: "Starts Stripe onboarding for the project (needs a Stripe connection)",
  tag: PAYMENTS_TAG,
  body: z.strictObject({}).default({}),
  response: { status: 200, kind: "json", schema: z.object({ url: z.string() }) },
});

export const stripeAccountInfoRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/payments/stripe/account-info",
  access: ADMIN,
  summary: "The project's Stripe account; STRIPE_ACCOUNT_INFO_NOT_FOUND until onboarding",
  tag: PAYMENTS_TAG,
  response: { status: 200, kind: "json", schema: z.record(z.string(), z.unknown()) },
});

export const getPaymentMethodConfigsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/payments/method-configs",
  access: ADMIN,
  summary: "The payment methods enabled on the project's Stripe account",
  tag: PAYMENTS_TAG,
  response: { status: 200, kind: "json", schema: z.record(z.string(), z.unknown()) },
});

export const updatePaymentMethodConfigsRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/internal/payments/method-configs",
  access: ADMIN,
  summary: "Enables or disables payment methods on the project's Stripe account",
  tag: PAYMENTS_TAG,
  body: z.strictObject({ config_id: z.string(), updates: z.record(z.string(), z.unknown()) }),
  response: { status: 200, kind: "json", schema: paymentsSuccessSchema },
});

export const stripeAccountSessionRoute = defineRoute({
  method: "POST",
  path: "/api/v1/internal/payments/stripe-widgets/account-session",
  access: ADMIN,
  summary: "A session for Stripe's embedded dashboard widgets",
  tag: PAYMENTS_TAG,
  body: z.strictObject({}).default({}),
  response: { status: 200, kind: "json", schema: z.object({ client_secret: z.string() }) },
});

export const listPaymentTransactionsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/payments/transactions",
  access: ADMIN,
  summary: "The project's payment ledger, newest first",
  tag: PAYMENTS_TAG,
  query: paymentsPageQuery.extend({
    type: z.string().optional(),
    customer_type: z.enum(["user", "team", "custom"]).optional(),
    customer_id: z.string().optional(),
  }),
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ transactions: z.array(z.unknown()), next_cursor: z.string().nullable() }),
  },
});

export const refundTransactionRoute = defineRoute({
  method: "POST",
  path: "/api/v1/internal/payments/transactions/refund",
  access: ADMIN,
  summary: "Refunds a subscription or a one-time purchase",
  tag: PAYMENTS_TAG,
  body: z.strictObject({
    type: z.enum(["subscription", "one-time-purchase"]),
    id: z.string(),
    invoice_id: z.string().optional(),
    amount_usd: z.unknown().optional(),
    end_action: z.string().optional(),
    refund_entries: z.unknown().optional(),
  }),
  response: {
    status: 200,
    kind: "json",
    schema: paymentsSuccessSchema.extend({ refund_transaction_id: z.string().optional() }),
  },
});

export const testModePurchaseSessionRoute = defineRoute({
  method: "POST",
  path: "/api/v1/internal/payments/test-mode-purchase-session",
  access: ADMIN,
  summary: "Completes a checkout in test mode without charging",
  tag: PAYMENTS_TAG,
  body: checkoutCodeBody.extend({ price_id: z.string().optional(), quantity: z.number().optional() }),
  tolerateUnknownFields: true,
  response: { status: 200, kind: "json", schema: paymentsSuccessSchema },
});

/** The dashboard's payments routes. */
export const paymentAdminRoutes = [
  paymentsSetupRoute,
  stripeAccountInfoRoute,
  getPaymentMethodConfigsRoute,
  updatePaymentMethodConfigsRoute,
  stripeAccountSessionRoute,
  listPaymentTransactionsRoute,
  refundTransactionRoute,
  testModePurchaseSessionRoute,
] as const satisfies readonly RouteDefinition[];
