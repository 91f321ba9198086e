// The apps' payments calls that name their customer in the options (Stack's `{ userId } | { teamId } |
// { customCustomerId }`): items, products, invoices and cancelling on the client app, granting on the server app and
// item quantity changes on the admin app. They reuse the customer objects' calls of payments.ts.

import { USER_AUTHENTICATION_REQUIRED } from "@gatehouse/contract/client-errors";
import { defined, del, type ObjectContext } from "./context.ts";
import {
  type CustomerType,
  customerCalls,
  type InlineProduct,
  type PageOptions,
  serverCustomerCalls,
} from "./payments.ts";

export type CustomerOptions = { userId: string } | { teamId: string } | { customCustomerId: string };

function customerOf(options: CustomerOptions): [CustomerType, string] {
  if ("userId" in options) return ["user", options.userId];
  if ("teamId" in options) return ["team", options.teamId];
  return ["custom", options.customCustomerId];
}

/** The client app's calls; `ctx` is on the app's current session, `signedInUserId` reads who is signed in. */
export function clientAppPaymentCalls(
  ctx: () => ObjectContext,
  signedInUserId: () => Promise<string | null>,
) {
  const customer = (options: CustomerOptions) => customerCalls(ctx(), ...customerOf(options));
  return {
    getItem: (options: CustomerOptions & { itemId: string }) => customer(options).getItem(options.itemId),
    listProducts: (options: CustomerOptions & PageOptions) => customer(options).listProducts(options),
    listInvoices: (options: ({ userId: string } | { teamId: string }) & PageOptions) =>
      customer(options).listInvoices(options),
    /** Cancels a subscription of the signed-in user, or with `teamId` of that team. */
    async cancelSubscription(options: { productId: string; subscriptionId?: string; teamId?: string }) {
      const userId = await signedInUserId();
      if (!userId) throw USER_AUTHENTICATION_REQUIRED();
      const [type, id] = options.teamId ? ["team", options.teamId] : ["user", userId];
      const path = `/payments/products/${type}/${encodeURIComponent(id)}/${encodeURIComponent(options.productId)}`;
      await ctx().request(path, { ...del, query: defined({ subscription_id: options.subscriptionId }) });
    },
  };
}

export type GrantProductOptions = CustomerOptions &
  ({ productId: string } | { product: InlineProduct }) & { quantity?: number };

/** The server app's calls (with the server key); `getItem` answers Stack's ServerItem. */
export function serverAppPaymentCalls(ctx: ObjectContext) {
  const customer = (options: CustomerOptions) => serverCustomerCalls(ctx, ...customerOf(options));
  return {
    getItem: (options: CustomerOptions & { itemId: string }) => customer(options).getItem(options.itemId),
    listProducts: (options: CustomerOptions & PageOptions) => customer(options).listProducts(options),
    grantProduct: (options: GrantProductOptions) => customer(options).grantProduct(options),
  };
}

/** The admin app's item quantity change: any delta, below zero too, with an expiry and a note. */
export function adminAppPaymentCalls(request: ObjectContext["request"]) {
  return {
    async createItemQuantityChange(
      options: CustomerOptions & {
        itemId: string;
        quantity: number;
        expiresAt?: string;
        description?: string;
      },
    ): Promise<void> {
      const [type, id] = customerOf(options);
      await request(
        `/payments/items/${type}/${encodeURIComponent(id)}/${encodeURIComponent(options.itemId)}/update-quantity`,
        {
          method: "POST",
          query: { allow_negative: "true" },
          body: defined({
            delta: options.quantity,
            expires_at: options.expiresAt,
            description: options.description,
          }),
        },
      );
    },
  };
}
