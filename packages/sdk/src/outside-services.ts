// Stack's admin and server methods for features that need an outside service (Stripe, AI models, ClickHouse,
// managed e-mail domains) or Stack's e-mail capacity, with Stack's names and results. Gatehouse's server answers
// most of them as "not set up" (null, empty lists, or the error Stack gives), which these methods pass on as Stack's do.
import { defined, jsonBody, patch } from "./context.ts";
import { expectingErrors, Result } from "./errors.ts";
import type { RequestOptions } from "./transport.ts";

type Request = <T>(path: string, options?: RequestOptions) => Promise<T>;
type Json = Record<string, unknown>;

export type ManagedEmailStatus = "pending_dns" | "pending_verification" | "verified" | "applied" | "failed";
export type PaymentMethodConfigs = {
  configId: string;
  methods: Array<{ id: string; name: string; enabled: boolean; available: boolean; overridable: boolean }>;
};
export type EmailDeliveryInfo = {
  stats: Record<"hour" | "day" | "week" | "month", { sent: number; bounced: number; marked_as_spam: number }>;
  capacity: {
    rate_per_second: number;
    boost_multiplier: number;
    penalty_factor: number;
    is_boost_active: boolean;
    boost_expires_at: string | null;
  };
};

/** The admin app's methods; `request` sends with the admin key. */
export function outsideServiceAdminCalls(request: Request) {
  /** `null` where Stack's SDK catches STRIPE_ACCOUNT_INFO_NOT_FOUND (no Stripe account onboarded). */
  const orNullWithoutStripe = async <T>(path: string): Promise<T | null> => {
    const result = await expectingErrors(["STRIPE_ACCOUNT_INFO_NOT_FOUND"], () => request<T>(path));
    return result.status === "ok" ? result.data : null;
  };
  return {
    setupPayments: () => request<{ url: string }>("/internal/payments/setup", jsonBody({})),
    createStripeWidgetAccountSession: () =>
      request<{ client_secret: string }>("/internal/payments/stripe-widgets/account-session", jsonBody({})),
    getStripeAccountInfo: () => orNullWithoutStripe<Json>("/internal/payments/stripe/account-info"),
    async getPaymentMethodConfigs(): Promise<PaymentMethodConfigs | null> {
      const json = await orNullWithoutStripe<{ config_id: string; methods: PaymentMethodConfigs["methods"] }>(
        "/internal/payments/method-configs",
      );
      return json && { configId: json.config_id, methods: json.methods };
    },
    async updatePaymentMethodConfigs(configId: string, updates: Record<string, "on" | "off">): Promise<void> {
      await request("/internal/payments/method-configs", patch({ config_id: configId, updates }));
    },
    async listTransactions(
      params: {
        cursor?: string;
        limit?: number;
        type?: string;
        customerType?: string;
        customerId?: string;
      } = {},
    ): Promise<{ transactions: unknown[]; nextCursor: string | null }> {
      const query = defined({
        cursor: params.cursor,
        limit: params.limit,
        type: params.type,
        customer_type: params.customerType,
        customer_id: params.customerId,
      });
      const json = await request<{ transactions: unknown[]; next_cursor: string | null }>(
        "/internal/payments/transactions",
        { query },
      );
      return { transactions: json.transactions, nextCursor: json.next_cursor };
    },
    async refundTransaction(options: {
      type: "subscription" | "one-time-purchase";
      id: string;
      invoiceId?: string;
      amountUsd: unknown;
      endAction?: "now" | "at-period-end";
    }): Promise<{ refundTransactionId: string }> {
      const body = defined({
        type: options.type,
        id: options.id,
        invoice_id: options.invoiceId,
        amount_usd: options.amountUsd,
        end_action: options.endAction,
      });
      const json = await request<{ refund_transaction_id: string }>(
        "/internal/payments/transactions/refund",
        jsonBody(body),
      );
      return { refundTransactionId: json.refund_transaction_id };
    },
    async saveChatMessage(threadId: string, message: unknown): Promise<void> {
      await request(`/internal/ai-chat/${encodeURIComponent(threadId)}`, patch({ message }));
    },
    listChatMessages: (threadId: string) =>
      request<{ messages: unknown[] }>(`/internal/ai-chat/${encodeURIComponent(threadId)}`),
    async rewriteTemplateSourceWithAI(templateTsxSource: string): Promise<{ tsxSource: string }> {
      const body = { template_tsx_source: templateTsxSource };
      return {
        tsxSource: (
          await request<{ tsx_source: string }>("/internal/rewrite-template-source", jsonBody(body))
        ).tsx_source,
      };
    },
    /** A failed delivery is a Result error with the reason, as in Stack's SDK. */
    async sendTestWebhook(options: {
      endpointId: string;
    }): Promise<Result<undefined, { errorMessage: string }>> {
      const json = await request<{ success: boolean; error_message?: string }>(
        "/internal/send-test-webhook",
        jsonBody({ endpoint_id: options.endpointId }),
      );
      if (json.success) return Result.ok(undefined);
      return Result.error({ errorMessage: json.error_message ?? "The test webhook failed." });
    },
    queryAnalytics: (options: {
      query: string;
      params?: Json;
      timeout_ms?: number;
      include_all_branches?: boolean;
    }) =>
      request<{ result: unknown; query_id: string }>(
        "/internal/analytics/query",
        jsonBody({
          query: options.query,
          params: options.params ?? {},
          timeout_ms: options.timeout_ms ?? 1000,
          include_all_branches: options.include_all_branches ?? false,
        }),
      ),
    async listManagedEmailDomains() {
      const json = await request<{ items: Json[] }>("/internal/emails/managed-onboarding/list");
      return json.items.map((item) => ({
        domainId: item.domain_id as string,
        subdomain: item.subdomain as string,
        senderLocalPart: item.sender_local_part as string,
        status: item.status as ManagedEmailStatus,
        nameServerRecords: item.name_server_records as string[],
      }));
    },
    async setupManagedEmailProvider(options: { subdomain: string; senderLocalPart: string }) {
      const body = { subdomain: options.subdomain, sender_local_part: options.senderLocalPart };
      const json = await request<Json>("/internal/emails/managed-onboarding/setup", jsonBody(body));
      return {
        domainId: json.domain_id as string,
        subdomain: json.subdomain as string,
        senderLocalPart: json.sender_local_part as string,
        nameServerRecords: json.name_server_records as string[],
        status: json.status as ManagedEmailStatus,
      };
    },
    async checkManagedEmailStatus(options: { domainId: string; subdomain: string; senderLocalPart: string }) {
      const body = {
        domain_id: options.domainId,
        subdomain: options.subdomain,
        sender_local_part: options.senderLocalPart,
      };
      return request<{ status: ManagedEmailStatus }>(
        "/internal/emails/managed-onboarding/check",
        jsonBody(body),
      );
    },
    applyManagedEmailProvider: (options: { domainId: string }) =>
      request<{ status: "applied" }>(
        "/internal/emails/managed-onboarding/apply",
        jsonBody({ domain_id: options.domainId }),
      ),
    deleteManagedEmailDomain: (options: { resendDomainId: string }) =>
      request<{ status: "deleted" }>(
        "/internal/emails/managed-onboarding/delete",
        jsonBody({ resend_domain_id: options.resendDomainId }),
      ),
    async previewAffectedUsersByOnboardingChange(
      onboarding: { requireEmailVerification?: boolean },
      limit?: number,
    ) {
      const json = await request<{
        affected_users: {
          id: string;
          display_name: string | null;
          primary_email: string | null;
          restricted_reason: { type: string };
        }[];
        total_affected_count: number;
      }>("/internal/onboarding/preview-affected-users", {
        method: "POST",
        query: defined({ limit }),
        body: { onboarding: defined({ require_email_verification: onboarding.requireEmailVerification }) },
      });
      return {
        affectedUsers: json.affected_users.map((u) => ({
          id: u.id,
          displayName: u.display_name,
          primaryEmail: u.primary_email,
          restrictedReason: u.restricted_reason,
        })),
        totalAffectedCount: json.total_affected_count,
      };
    },
  };
}

/** The server app's e-mail capacity methods; `request` sends with the secret server key. */
export function outsideServiceServerCalls(request: Request) {
  return {
    getEmailDeliveryStats: () => request<EmailDeliveryInfo>("/emails/delivery-info"),
    async activateEmailCapacityBoost(): Promise<void> {
      await request("/emails/capacity-boost", jsonBody({}));
    },
  };
}
