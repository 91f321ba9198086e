// Stack's customer calls (users and teams are payments customers): billing, products, invoices, items, checkout
// and saved cards, with Stack's names. Gatehouse has no Stripe connection, so the server answers them as Stack does
// for a project without payments set up (empty billing and lists, ITEM_NOT_FOUND, "not set up" errors).
import { defined, jsonBody, type ObjectContext } from "./context.ts";
import { knownErrorIs } from "./errors.ts";

type Json = Record<string, unknown>;
type Page = { items: Json[]; pagination: { next_cursor: string | null } };
export type CustomerType = "user" | "team" | "custom";

export type CustomerDefaultPaymentMethod = {
  id: string;
  brand: string | null;
  last4: string | null;
  exp_month: number | null;
  exp_year: number | null;
} | null;
export type CustomerBilling = { hasCustomer: boolean; defaultPaymentMethod: CustomerDefaultPaymentMethod };
export type Item = { displayName: string; quantity: number; nonNegativeQuantity: number };
/** Stack's ServerItem: an item whose quantity a back end may change. */
export type ServerItem = Item & {
  increaseQuantity(delta: number): Promise<void>;
  /** Lowers the quantity, below zero if need be. */
  decreaseQuantity(delta: number): Promise<void>;
  /** Lowers the quantity unless that would take it below zero; answers whether it did. */
  tryDecreaseQuantity(delta: number): Promise<boolean>;
};
/** A product described in the call rather than configured (Stack's inline product). */
export type InlineProduct = Record<string, unknown>;
export type CustomerProduct = {
  id: string | null;
  quantity: number;
  displayName: string;
  customerType: CustomerType;
  isServerOnly: boolean;
  type?: "one_time" | "subscription";
  subscription: null | {
    subscriptionId: string | null;
    currentPeriodEnd: Date | null;
    cancelAtPeriodEnd: boolean;
    isCancelable: boolean;
  };
};
export type CustomerInvoice = {
  createdAt: Date;
  status: "draft" | "open" | "paid" | "uncollectible" | "void" | null;
  amountTotal: number;
  hostedInvoiceUrl: string | null;
};
export type ListWithCursor<T> = T[] & { nextCursor: string | null };
export type PageOptions = { cursor?: string; limit?: number };

const withCursor = <T>(items: T[], page: Page): ListWithCursor<T> =>
  Object.assign(items, { nextCursor: page.pagination.next_cursor });
const pageQuery = (o: PageOptions) => defined({ cursor: o.cursor, limit: o.limit?.toString() });

function productOf(json: Json): CustomerProduct {
  const product = (json.product ?? {}) as Json;
  const sub = json.subscription as Json | null | undefined;
  return {
    id: (json.id as string | null) ?? null,
    quantity: json.quantity as number,
    displayName: (product.display_name as string) ?? "",
    customerType: product.customer_type as CustomerType,
    isServerOnly: product.server_only === true,
    ...(json.type ? { type: json.type as "one_time" | "subscription" } : {}),
    subscription: sub
      ? {
          subscriptionId: (sub.subscription_id as string | null) ?? null,
          currentPeriodEnd: sub.current_period_end ? new Date(sub.current_period_end as string) : null,
          cancelAtPeriodEnd: sub.cancel_at_period_end === true,
          isCancelable: sub.is_cancelable === true,
        }
      : null,
  };
}

/** The calls every customer object has; `server` adds grantProduct and the item quantity changes. */
export function customerCalls(ctx: ObjectContext, type: CustomerType, id: string) {
  const base = `/payments`;
  return {
    async getBilling(): Promise<CustomerBilling> {
      const json = await ctx.request<{
        has_customer: boolean;
        default_payment_method: CustomerDefaultPaymentMethod;
      }>(`${base}/billing/${type}/${encodeURIComponent(id)}`);
      return { hasCustomer: json.has_customer, defaultPaymentMethod: json.default_payment_method };
    },
    async listProducts(options: PageOptions = {}): Promise<ListWithCursor<CustomerProduct>> {
      const page = await ctx.request<Page>(`${base}/products/${type}/${encodeURIComponent(id)}`, {
        query: pageQuery(options),
      });
      return withCursor(page.items.map(productOf), page);
    },
    async listInvoices(options: PageOptions = {}): Promise<ListWithCursor<CustomerInvoice>> {
      const page = await ctx.request<Page>(`${base}/invoices/${type}/${encodeURIComponent(id)}`, {
        query: pageQuery(options),
      });
      const invoices = page.items.map((json) => ({
        createdAt: new Date(json.created_at_millis as number),
        status: json.status as CustomerInvoice["status"],
        amountTotal: json.amount_total as number,
        hostedInvoiceUrl: (json.hosted_invoice_url as string | null) ?? null,
      }));
      return withCursor(invoices, page);
    },
    async getItem(itemId: string): Promise<Item> {
      const json = await ctx.request<{ display_name: string; quantity: number }>(
        `${base}/items/${type}/${encodeURIComponent(id)}/${encodeURIComponent(itemId)}`,
      );
      return {
        displayName: json.display_name,
        quantity: json.quantity,
        nonNegativeQuantity: Math.max(0, json.quantity),
      };
    },
    async createCheckoutUrl(options: { productId: string; returnUrl?: string }): Promise<string> {
      const body = defined({
        customer_type: type,
        customer_id: id,
        product_id: options.productId,
        return_url: options.returnUrl,
      });
      return (await ctx.request<{ url: string }>(`${base}/purchases/create-purchase-url`, jsonBody(body)))
        .url;
    },
    async createPaymentMethodSetupIntent(): Promise<{ clientSecret: string; stripeAccountId: string }> {
      const path = `${base}/payment-method/${type}/${encodeURIComponent(id)}/setup-intent`;
      const json = await ctx.request<{ client_secret: string; stripe_account_id: string }>(
        path,
        jsonBody({}),
      );
      return { clientSecret: json.client_secret, stripeAccountId: json.stripe_account_id };
    },
    async setDefaultPaymentMethodFromSetupIntent(
      setupIntentId: string,
    ): Promise<CustomerDefaultPaymentMethod> {
      const path = `${base}/payment-method/${type}/${encodeURIComponent(id)}/set-default`;
      const json = await ctx.request<{ default_payment_method: CustomerDefaultPaymentMethod }>(
        path,
        jsonBody({ setup_intent_id: setupIntentId }),
      );
      return json.default_payment_method;
    },
    async switchSubscription(options: {
      fromProductId: string;
      toProductId: string;
      priceId?: string;
      quantity?: number;
    }): Promise<void> {
      const body = defined({
        from_product_id: options.fromProductId,
        to_product_id: options.toProductId,
        price_id: options.priceId,
        quantity: options.quantity,
      });
      await ctx.request(`${base}/products/${type}/${encodeURIComponent(id)}/switch`, jsonBody(body));
      ctx.invalidate();
    },
  };
}

/** What only a back end may do to a customer. */
export function serverCustomerCalls(ctx: ObjectContext, type: CustomerType, id: string) {
  const calls = customerCalls(ctx, type, id);
  const customerPath = `${type}/${encodeURIComponent(id)}`;
  return {
    ...calls,
    async getItem(itemId: string): Promise<ServerItem> {
      const item = await calls.getItem(itemId);
      const change = async (delta: number, allowNegative: boolean) => {
        const path = `/payments/items/${customerPath}/${encodeURIComponent(itemId)}/update-quantity`;
        await ctx.request(path, {
          method: "POST",
          query: { allow_negative: String(allowNegative) },
          body: { delta },
        });
        ctx.invalidate();
      };
      return {
        ...item,
        increaseQuantity: (delta) => change(delta, false),
        decreaseQuantity: (delta) => change(-delta, true),
        async tryDecreaseQuantity(delta) {
          try {
            await change(-delta, false);
            return true;
          } catch (error) {
            if (knownErrorIs(error, "ITEM_QUANTITY_INSUFFICIENT_AMOUNT")) return false;
            throw error;
          }
        },
      };
    },
    async grantProduct(
      options: ({ productId: string } | { product: InlineProduct }) & { quantity?: number },
    ): Promise<void> {
      const body = defined({
        product_id: "productId" in options ? options.productId : undefined,
        product_inline: "product" in options ? options.product : undefined,
        quantity: options.quantity,
      });
      await ctx.request(`/payments/products/${customerPath}`, jsonBody(body));
      ctx.invalidate();
    },
  };
}
