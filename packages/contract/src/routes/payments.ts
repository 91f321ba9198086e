// Payments routes (Stack's Stripe-backed `/payments/…` and `/internal/payments/…`). Gatehouse has no Stripe
// connection, so every project is one "without payments set up": the server answers each route as Stack's backend
// does for such a project (empty lists, `has_customer: false`, or the error Stack raises there).
import { z } from "zod";
import { defineRoute, type RouteDefinition } from "../route.ts";

const ANY_KEY = ["client", "server", "admin"] as const;
const SERVER = ["server", "admin"] as const;
export const PAYMENTS_TAG = "Payments";

/** Customers billed through Stripe are users and teams; items and products also know custom customers. */
const billedCustomer = z.strictObject({
  customer_type: z.enum(["user", "team"]),
  customer_id: z.string().min(1),
});
const anyCustomer = z.strictObject({
  customer_type: z.enum(["user", "team", "custom"]),
  customer_id: z.string().min(1),
});
export const paymentsPageQuery = z.strictObject({
  cursor: z.string().optional(),
  limit: z.string().optional(),
});
const paginated = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    is_paginated: z.literal(true),
    pagination: z.object({ next_cursor: z.string().nullable() }),
  });
export const paymentsSuccessSchema = z.object({ success: z.literal(true) });
/** An inline product definition (server callers only); its fields are Stack's and are not read here. */
const inlineProduct = z.record(z.string(), z.unknown());

export const getCustomerBillingRoute = defineRoute({
  method: "GET",
  path: "/api/v1/payments/billing/{customer_type}/{customer_id}",
  access: ANY_KEY,
  summary: "A customer's Stripe billing state: without payments set up, no customer and no payment method",
  tag: PAYMENTS_TAG,
  params: billedCustomer,
  response: {
    status: 200,
    kind: "json",
    schema: z.object({
      has_customer: z.boolean(),
      default_payment_method: z
        .object({
          id: z.string(),
          brand: z.string().nullable(),
          last4: z.string().nullable(),
          exp_month: z.number().nullable(),
          exp_year: z.number().nullable(),
        })
        .nullable(),
    }),
  },
});

export const listCustomerInvoicesRoute = defineRoute({
  method: "GET",
  path: "/api/v1/payments/invoices/{customer_type}/{customer_id}",
  access: ANY_KEY,
  summary: "A customer's subscription invoices, newest first",
  tag: PAYMENTS_TAG,
  params: billedCustomer,
  query: paymentsPageQuery,
  response: {
    status: 200,
    kind: "json",
    schema: paginated(
      z.object({
        created_at_millis: z.number(),
        status: z.enum(["draft", "open", "paid", "uncollectible", "void"]).nullable(),
        amount_total: z.number(),
        hosted_invoice_url: z.string().nullable(),
      }),
    ),
  },
});

export const getCustomerItemRoute = defineRoute({
  method: "GET",
  path: "/api/v1/payments/items/{customer_type}/{customer_id}/{item_id}",
  access: ANY_KEY,
  summary: "A customer's quantity of a configured item (credits, quotas…); no items are configured here",
  tag: PAYMENTS_TAG,
  params: anyCustomer.extend({ item_id: z.string().min(1) }),
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ id: z.string(), display_name: z.string(), quantity: z.number() }),
  },
});

export const updateItemQuantityRoute = defineRoute({
  method: "POST",
  path: "/api/v1/payments/items/{customer_type}/{customer_id}/{item_id}/update-quantity",
  access: SERVER,
  summary: "Changes a customer's quantity of a configured item",
  tag: PAYMENTS_TAG,
  params: anyCustomer.extend({ item_id: z.string().min(1) }),
  query: z.strictObject({ allow_negative: z.enum(["true", "false"]).optional() }),
  body: z.strictObject({
    delta: z.number().int(),
    expires_at: z.string().optional(),
    description: z.string().optional(),
  }),
  response: { status: 200, kind: "json", schema: z.object({}) },
});

export const listCustomerProductsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/payments/products/{customer_type}/{customer_id}",
  access: ANY_KEY,
  summary: "The products a customer owns",
  tag: PAYMENTS_TAG,
  params: anyCustomer,
  query: paymentsPageQuery,
  response: { status: 200, kind: "json", schema: paginated(z.record(z.string(), z.unknown())) },
});

export const grantProductRoute = defineRoute({
  method: "POST",
  path: "/api/v1/payments/products/{customer_type}/{customer_id}",
  access: SERVER,
  summary: "Grants a configured or inline product to a customer",
  tag: PAYMENTS_TAG,
  params: anyCustomer,
  body: z.strictObject({
    product_id: z.string().optional(),
    product_inline: inlineProduct.optional(),
    quantity: z.number().int().min(1).optional(),
  }),
  response: {
    status: 200,
    kind: "json",
    schema: paymentsSuccessSchema.extend({ subscription_id: z.string().optional() }),
  },
});

export const cancelProductRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/payments/products/{customer_type}/{customer_id}/{product_id}",
  access: ANY_KEY,
  summary: "Cancels a customer's subscription to a product",
  tag: PAYMENTS_TAG,
  params: anyCustomer.extend({ product_id: z.string().min(1) }),
  query: z.strictObject({ subscription_id: z.string().optional() }),
  response: { status: 200, kind: "json", schema: paymentsSuccessSchema },
});

export const switchProductRoute = defineRoute({
  method: "POST",
  path: "/api/v1/payments/products/{customer_type}/{customer_id}/switch",
  access: ANY_KEY,
  summary: "Switches a customer's subscription to another product of the same line",
  tag: PAYMENTS_TAG,
  params: billedCustomer,
  body: z.strictObject({
    from_product_id: z.string(),
    to_product_id: z.string(),
    price_id: z.string().optional(),
    quantity: z.number().int().min(1).optional(),
  }),
  response: { status: 200, kind: "json", schema: paymentsSuccessSchema },
});

export const createPaymentSetupIntentRoute = defineRoute({
  method: "POST",
  path: "/api/v1/payments/payment-method/{customer_type}/{customer_id}/setup-intent",
  access: ANY_KEY,
  summary: "Starts saving a card for a customer (a Stripe setup intent)",
  tag: PAYMENTS_TAG,
  params: billedCustomer,
  body: z.strictObject({}).default({}),
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ client_secret: z.string(), stripe_account_id: z.string() }),
  },
});

export const setDefaultPaymentMethodRoute = defineRoute({
  method: "POST",
  path: "/api/v1/payments/payment-method/{customer_type}/{customer_id}/set-default",
  access: ANY_KEY,
  summary: "Makes the card of a succeeded setup intent the customer's default",
  tag: PAYMENTS_TAG,
  params: billedCustomer,
  body: z.strictObject({ setup_intent_id: z.string() }),
  response: { status: 200, kind: "json", schema: z.object({ default_payment_method: z.unknown() }) },
});

const purchaseBody = z.strictObject({
  customer_type: z.enum(["user", "team", "custom"]),
  customer_id: z.string(),
  product_id: z.string().optional(),
  product_inline: inlineProduct.optional(),
  return_url: z.string().optional(),
});

export const createPurchaseUrlRoute = defineRoute({
  method: "POST",
  path: "/api/v1/payments/purchases/create-purchase-url",
  access: ANY_KEY,
  summary: "A checkout URL for a product",
  tag: PAYMENTS_TAG,
  body: purchaseBody,
  response: { status: 200, kind: "json", schema: z.object({ url: z.string() }) },
});

/** Checkout-code bodies; the fields besides `full_code` (price, quantity, return URL) are Stack's and tolerated. */
export const checkoutCodeBody = z.object({ full_code: z.string() }).loose();

export const purchaseSessionRoute = defineRoute({
  method: "POST",
  path: "/api/v1/payments/purchases/purchase-session",
  access: "any",
  summary: "Turns a checkout code into a Stripe payment session",
  tag: PAYMENTS_TAG,
  body: checkoutCodeBody,
  tolerateUnknownFields: true,
  response: { status: 200, kind: "json", schema: z.object({ client_secret: z.string() }) },
});

export const validatePurchaseCodeRoute = defineRoute({
  method: "POST",
  path: "/api/v1/payments/purchases/validate-code",
  access: "any",
  summary: "Checks a checkout code and returns its product",
  tag: PAYMENTS_TAG,
  body: checkoutCodeBody,
  tolerateUnknownFields: true,
  response: { status: 200, kind: "json", schema: z.record(z.string(), z.unknown()) },
});

export const getPurchaseCodeRoute = defineRoute({
  method: "GET",
  path: "/api/v1/payments/purchases/validate-code",
  access: "any",
  summary: "Checks a checkout code given in the query",
  tag: PAYMENTS_TAG,
  query: z.object({ full_code: z.string(), return_url: z.string().optional() }),
  tolerateUnknownFields: true,
  response: { status: 200, kind: "json", schema: z.record(z.string(), z.unknown()) },
});

/** The payments routes customers and back ends call; the dashboard's are in payments-admin.ts. */
export const paymentRoutes = [
  getCustomerBillingRoute,
  listCustomerInvoicesRoute,
  getCustomerItemRoute,
  updateItemQuantityRoute,
  listCustomerProductsRoute,
  grantProductRoute,
  cancelProductRoute,
  switchProductRoute,
  createPaymentSetupIntentRoute,
  setDefaultPaymentMethodRoute,
  createPurchaseUrlRoute,
  purchaseSessionRoute,
  validatePurchaseCodeRoute,
  getPurchaseCodeRoute,
] as const satisfies readonly RouteDefinition[];
