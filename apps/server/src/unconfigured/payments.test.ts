// Stack's payments routes over HTTP for a project without payments set up: who may ask about a customer, and the
// answer each route gives then (empty billing, empty lists, Stack's "not set up" texts and known errors).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueIp,
  withToken,
} from "../testing/test-server.ts";
import { PAYMENTS_NOT_SET_UP, STRIPE_UNAVAILABLE } from "./payments.ts";

let server: TestServer;
let keys: ProjectKeys;
let user: { userId: string; accessToken: string };
let other: { userId: string; accessToken: string };
let team: string;

type Who = "client" | "server" | "admin";
function call(who: Who, method: string, path: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = { ...accessHeaders(who, keys), "x-forwarded-for": uniqueIp() };
  if (token) Object.assign(headers, withToken(token));
  if (body !== undefined) headers["content-type"] = "application/json";
  return server.request(`/api/v1${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
const asUser = (method: string, path: string, body?: unknown) =>
  call("client", method, path, body, user.accessToken);

beforeAll(async () => {
  server = await createTestServer();
  ({ keys } = await server.createProject({ displayName: "Payments" }));
  user = await server.signIn(keys.projectId);
  other = await server.signIn(keys.projectId);
  const created = await call("server", "POST", "/teams", { display_name: "T", creator_user_id: user.userId });
  team = ((await expectJson(created, 201)) as { id: string }).id;
  await expectJson(await call("server", "POST", `/team-memberships/${team}/${other.userId}`), 201);
});
afterAll(() => server.close());

describe("customer access of client callers", () => {
  const billing = (type: string, id: string) => `/payments/billing/${type}/${id}`;
  const empty = { has_customer: false, default_payment_method: null };

  it("answers the signed-in user about themselves and about teams they administer", async () => {
    expect(await expectJson(await asUser("GET", billing("user", user.userId)))).toEqual(empty);
    expect(await expectJson(await asUser("GET", billing("team", team)))).toEqual(empty);
  });

  it("refuses other users, custom customers, and teams the user does not administer", async () => {
    const forbidden = "Clients can only manage their own billing.";
    await expectTextError(await asUser("GET", billing("user", other.userId)), 403, forbidden);
    await expectKnownError(
      await call("client", "GET", billing("team", team), undefined, other.accessToken),
      "TEAM_PERMISSION_REQUIRED",
      { team_id: team, user_id: other.userId, permission_id: "team_admin" },
    );
    const stranger = await server.signIn(keys.projectId);
    await expectKnownError(
      await call("client", "GET", billing("team", team), undefined, stranger.accessToken),
      "TEAM_MEMBERSHIP_NOT_FOUND",
    );
    await expectKnownError(await asUser("GET", billing("team", "not-a-team")), "TEAM_NOT_FOUND");
    await expectKnownError(
      await call("client", "GET", billing("user", user.userId)),
      "USER_AUTHENTICATION_REQUIRED",
    );
  });

  it("lets server callers ask about anyone, and validates the customer type", async () => {
    expect(await expectJson(await call("server", "GET", billing("user", other.userId)))).toEqual(empty);
    await expectKnownError(await call("server", "GET", billing("custom", "x")), "SCHEMA_ERROR");
  });
});

describe("a project without payments set up", () => {
  const emptyPage = { items: [], is_paginated: true, pagination: { next_cursor: null } };

  it("lists no invoices and no products, and knows no cursor", async () => {
    expect(await expectJson(await asUser("GET", `/payments/invoices/user/${user.userId}`))).toEqual(
      emptyPage,
    );
    expect(await expectJson(await asUser("GET", `/payments/products/user/${user.userId}?limit=5`))).toEqual(
      emptyPage,
    );
    expect(await expectJson(await call("server", "GET", "/payments/products/custom/c-1"))).toEqual(emptyPage);
    await expectTextError(
      await asUser("GET", `/payments/invoices/user/${user.userId}?cursor=x`),
      400,
      "Invalid cursor",
    );
    await expectKnownError(
      await call("server", "GET", `/payments/products/user/${crypto.randomUUID()}`),
      "USER_NOT_FOUND",
    );
  });

  it("has no items and no products to grant, cancel or switch", async () => {
    await expectKnownError(
      await asUser("GET", `/payments/items/user/${user.userId}/credits`),
      "ITEM_NOT_FOUND",
      {
        item_id: "credits",
      },
    );
    const update = `/payments/items/user/${user.userId}/credits/update-quantity?allow_negative=false`;
    await expectKnownError(await call("server", "POST", update, { delta: 1 }), "ITEM_NOT_FOUND");
    await expectKnownError(
      await call("server", "POST", `/payments/products/user/${user.userId}`, { product_id: "pro" }),
      "PRODUCT_DOES_NOT_EXIST",
      { product_id: "pro", context: null },
    );
    await expectTextError(
      await call("server", "POST", `/payments/products/user/${user.userId}`, {}),
      400,
      "Must specify either product_id or product_inline!",
    );
    await expectKnownError(
      await asUser("DELETE", `/payments/products/user/${user.userId}/pro`),
      "PRODUCT_DOES_NOT_EXIST",
    );
    const switched = { from_product_id: "a", to_product_id: "b" };
    await expectTextError(
      await asUser("POST", `/payments/products/user/${user.userId}/switch`, switched),
      400,
      "Product not found.",
    );
  });

  it("answers Stack's text where a Stripe account is needed, after the access check", async () => {
    await expectTextError(
      await asUser("POST", `/payments/payment-method/user/${user.userId}/setup-intent`, {}),
      400,
      PAYMENTS_NOT_SET_UP,
    );
    const setDefault = `/payments/payment-method/user/${user.userId}/set-default`;
    await expectTextError(
      await asUser("POST", setDefault, { setup_intent_id: "seti_1" }),
      400,
      PAYMENTS_NOT_SET_UP,
    );
    const purchase = { customer_type: "user", customer_id: user.userId, product_id: "pro" };
    await expectTextError(
      await asUser("POST", "/payments/purchases/create-purchase-url", purchase),
      400,
      PAYMENTS_NOT_SET_UP,
    );
    const foreign = { ...purchase, customer_id: other.userId };
    const res = await asUser("POST", "/payments/purchases/create-purchase-url", foreign);
    expect(res.status).toBe(403);
  });

  it("knows no checkout code", async () => {
    for (const path of ["/payments/purchases/purchase-session", "/payments/purchases/validate-code"])
      await expectKnownError(
        await call("client", "POST", path, { full_code: "abc", price_id: "p" }),
        "VERIFICATION_CODE_NOT_FOUND",
      );
  });
});

describe("the dashboard's payments pages", () => {
  it("shows no Stripe account, no payment methods and no transactions", async () => {
    await expectKnownError(
      await call("admin", "GET", "/internal/payments/stripe/account-info"),
      "STRIPE_ACCOUNT_INFO_NOT_FOUND",
    );
    await expectKnownError(
      await call("admin", "GET", "/internal/payments/method-configs"),
      "STRIPE_ACCOUNT_INFO_NOT_FOUND",
    );
    const patch = (updates: Record<string, unknown>) =>
      call("admin", "PATCH", "/internal/payments/method-configs", { config_id: "c", updates });
    expect(await expectJson(await patch({}))).toEqual({ success: true });
    await expectKnownError(await patch({ card: "on" }), "STRIPE_ACCOUNT_INFO_NOT_FOUND");
    expect(await expectJson(await call("admin", "GET", "/internal/payments/transactions?limit=10"))).toEqual({
      transactions: [],
      next_cursor: null,
    });
  });

  it("cannot onboard or refund", async () => {
    await expectTextError(
      await call("admin", "POST", "/internal/payments/setup", {}),
      400,
      STRIPE_UNAVAILABLE,
    );
    await expectTextError(
      await call("admin", "POST", "/internal/payments/stripe-widgets/account-session", {}),
      400,
      "Stripe account ID is not set",
    );
    await expectKnownError(
      await call("admin", "POST", "/internal/payments/transactions/refund", {
        type: "subscription",
        id: "s1",
      }),
      "SUBSCRIPTION_INVOICE_NOT_FOUND",
      { subscription_invoice_id: "s1" },
    );
    await expectKnownError(
      await call("admin", "POST", "/internal/payments/transactions/refund", {
        type: "one-time-purchase",
        id: "o1",
      }),
      "ONE_TIME_PURCHASE_NOT_FOUND",
    );
  });

  it("is for admins only", async () => {
    const res = await call("server", "GET", "/internal/payments/transactions");
    expect(res.status).toBe(401);
  });
});
