// Routes of Stack features that lean on an outside service (KMS data vault, AI models, ClickHouse analytics, managed
// e-mail domains, Stack's feedback inbox) or on Stack's own e-mail capacity system. Each answers as Stack's backend
// does when the feature is not set up; those that need no outside service (data vault, AI chat threads, delivery
// info, capacity boost, test webhooks, onboarding preview, project transfer) are served for real.
import { z } from "zod";
import { defineRoute, type RouteDefinition } from "../route.ts";
import { restrictedReasonSchema } from "../schemas/users.ts";

const SERVER = ["server", "admin"] as const;
const ADMIN = ["admin"] as const;

const dataVaultParams = z.strictObject({ id: z.string().min(1) });

export const getDataVaultValueRoute = defineRoute({
  method: "POST",
  path: "/api/v1/data-vault/stores/{id}/get",
  access: SERVER,
  summary: "Reads a value of a data vault store (stores are declared in config as code, `dataVault.stores`)",
  tag: "Data vault",
  params: dataVaultParams,
  body: z.strictObject({ hashed_key: z.string().min(1) }),
  response: { status: 200, kind: "json", schema: z.object({ encrypted_value: z.string() }) },
});

export const setDataVaultValueRoute = defineRoute({
  method: "POST",
  path: "/api/v1/data-vault/stores/{id}/set",
  access: SERVER,
  summary: "Writes a value of a data vault store",
  tag: "Data vault",
  params: dataVaultParams,
  body: z.strictObject({ hashed_key: z.string().min(1), encrypted_value: z.string() }),
  response: { status: 200, kind: "json", schema: z.object({ success: z.literal(true) }) },
});

const deliveryWindow = z.object({ sent: z.number(), bounced: z.number(), marked_as_spam: z.number() });

export const getEmailDeliveryInfoRoute = defineRoute({
  method: "GET",
  path: "/api/v1/emails/delivery-info",
  access: SERVER,
  summary: "E-mails sent in the last hour, day, week and month, and the sending capacity",
  tag: "Emails",
  response: {
    status: 200,
    kind: "json",
    schema: z.object({
      stats: z.object({
        hour: deliveryWindow,
        day: deliveryWindow,
        week: deliveryWindow,
        month: deliveryWindow,
      }),
      capacity: z.object({
        rate_per_second: z.number(),
        boost_multiplier: z.number(),
        penalty_factor: z.number(),
        is_boost_active: z.boolean(),
        boost_expires_at: z.string().nullable(),
      }),
    }),
  },
});

export const boostEmailCapacityRoute = defineRoute({
  method: "POST",
  path: "/api/v1/emails/capacity-boost",
  access: SERVER,
  summary: "Raises the project's e-mail sending capacity for a few hours",
  tag: "Emails",
  body: z.strictObject({}).default({}),
  response: { status: 200, kind: "json", schema: z.object({ expires_at: z.string() }) },
});

const threadParams = z.strictObject({ thread_id: z.string().min(1).max(256) });

export const getAiChatThreadRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/ai-chat/{thread_id}",
  access: ADMIN,
  summary: "The stored messages of a dashboard AI chat thread, oldest first",
  tag: "AI",
  params: threadParams,
  response: { status: 200, kind: "json", schema: z.object({ messages: z.array(z.unknown()) }) },
});

export const appendAiChatMessageRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/internal/ai-chat/{thread_id}",
  access: ADMIN,
  summary: "Stores one message of a dashboard AI chat thread",
  tag: "AI",
  params: threadParams,
  body: z.strictObject({ message: z.unknown().refine((m) => m !== undefined, "message is required") }),
  response: { status: 200, kind: "json", schema: z.object({}) },
});

export const listAiConversationsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/ai-conversations",
  access: "any",
  summary: "The operator's saved AI conversations (none: AI needs a model provider)",
  tag: "AI",
  query: z.object({ projectId: z.string().optional() }),
  tolerateUnknownFields: true,
  response: { status: 200, kind: "json", schema: z.object({ conversations: z.array(z.unknown()) }) },
});

const aiUnavailable = {
  access: "any",
  tag: "AI",
  body: z.unknown(),
  tolerateUnknownFields: true,
  response: { status: 200, kind: "json", schema: z.unknown() },
} as const;

export const createAiConversationRoute = defineRoute({
  ...aiUnavailable,
  method: "POST",
  path: "/api/v1/internal/ai-conversations",
  summary: "Saves an AI conversation (AI needs a model provider)",
});

export const aiQueryRoute = defineRoute({
  ...aiUnavailable,
  method: "POST",
  path: "/api/v1/ai/query/{mode}",
  summary: "Asks Stack's AI assistant (needs a model provider)",
  params: z.strictObject({ mode: z.enum(["stream", "generate"]) }),
});

/** The dev tool posts to `/api/latest`, Stack's alias of the current version. */
export const aiQueryLatestRoute = defineRoute({ ...aiQueryRoute, path: "/api/latest/ai/query/{mode}" });

export const rewriteTemplateSourceRoute = defineRoute({
  method: "POST",
  path: "/api/v1/internal/rewrite-template-source",
  access: ADMIN,
  summary: "Rewrites an e-mail template's TSX with AI (needs a model provider)",
  tag: "AI",
  body: z.strictObject({ template_tsx_source: z.string() }),
  response: { status: 200, kind: "json", schema: z.object({ tsx_source: z.string() }) },
});

export const analyticsQueryRoute = defineRoute({
  method: "POST",
  path: "/api/v1/internal/analytics/query",
  access: ADMIN,
  summary: "Runs a ClickHouse SQL query over the project's analytics (needs ClickHouse)",
  tag: "Analytics",
  body: z.strictObject({
    include_all_branches: z.boolean().optional(),
    query: z.string().min(1),
    params: z.record(z.string(), z.unknown()).optional(),
    timeout_ms: z.number().int().min(1000).optional(),
  }),
  response: { status: 200, kind: "json", schema: z.object({ result: z.unknown(), query_id: z.string() }) },
});

const managedStatus = z.enum(["pending_dns", "pending_verification", "verified", "applied", "failed"]);
const managed = (path: string, summary: string, body: z.ZodType, schema: z.ZodType) =>
  defineRoute({
    method: "POST",
    path: `/api/v1/internal/emails/managed-onboarding/${path}`,
    access: ADMIN,
    summary,
    tag: "Emails",
    body,
    response: { status: 200, kind: "json", schema },
  });

export const listManagedEmailDomainsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/internal/emails/managed-onboarding/list",
  access: ADMIN,
  summary: "The project's managed e-mail sending domains (none: they need Stack's hosted e-mail service)",
  tag: "Emails",
  response: { status: 200, kind: "json", schema: z.object({ items: z.array(z.unknown()) }) },
});

const domainBody = z.strictObject({ subdomain: z.string(), sender_local_part: z.string() });
export const setupManagedEmailDomainRoute = managed(
  "setup",
  "Starts a managed sending domain",
  domainBody,
  z.object({ domain_id: z.string(), status: managedStatus }).loose(),
);
export const checkManagedEmailDomainRoute = managed(
  "check",
  "Checks a managed sending domain's DNS",
  domainBody.extend({ domain_id: z.string() }),
  z.object({ status: managedStatus }),
);
export const applyManagedEmailDomainRoute = managed(
  "apply",
  "Makes a verified managed domain the project's sender",
  z.strictObject({ domain_id: z.string() }),
  z.object({ status: z.literal("applied") }),
);
export const deleteManagedEmailDomainRoute = managed(
  "delete",
  "Removes a managed sending domain",
  z.strictObject({ resend_domain_id: z.string() }),
  z.object({ success: z.literal(true) }),
);

export const sendTestWebhookRoute = defineRoute({
  method: "POST",
  path: "/api/v1/internal/send-test-webhook",
  access: ADMIN,
  summary: "Sends a test event to one of the project's webhook endpoints and reports whether it was accepted",
  tag: "Webhooks",
  body: z.strictObject({ endpoint_id: z.string() }),
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ success: z.boolean(), error_message: z.string().optional() }),
  },
});

export const previewAffectedUsersRoute = defineRoute({
  method: "POST",
  path: "/api/v1/internal/onboarding/preview-affected-users",
  access: ADMIN,
  summary: "The users an onboarding change (requiring verified e-mails) would restrict",
  tag: "Projects",
  query: z.strictObject({ limit: z.string().regex(/^\d+$/).optional() }),
  body: z.strictObject({
    onboarding: z.strictObject({ require_email_verification: z.boolean().optional() }),
  }),
  response: {
    status: 200,
    kind: "json",
    schema: z.object({
      affected_users: z.array(
        z.object({
          id: z.string(),
          display_name: z.string().nullable(),
          primary_email: z.string().nullable(),
          restricted_reason: restrictedReasonSchema,
        }),
      ),
      total_affected_count: z.number(),
    }),
  },
});

export const transferProjectRoute = defineRoute({
  method: "POST",
  path: "/api/v1/internal/projects/transfer",
  access: ["client"],
  user: "required",
  summary: "Moves a project to another team of the operator (internal project only)",
  tag: "Projects",
  body: z.strictObject({ project_id: z.string(), new_team_id: z.string() }),
  response: { status: 200, kind: "json", schema: z.object({ success: z.literal("true") }) },
});

export const sendFeedbackRoute = defineRoute({
  method: "POST",
  path: "/api/latest/internal/feedback",
  access: "any",
  summary: "The dev tool's feedback form, which Stack forwards to its own team",
  tag: "Meta",
  body: z.unknown(),
  tolerateUnknownFields: true,
  response: { status: 200, kind: "json", schema: z.object({ success: z.literal(true) }) },
});

/** The routes of features that need an outside service, in the order above. */
export const outsideServiceRoutes = [
  getDataVaultValueRoute,
  setDataVaultValueRoute,
  getEmailDeliveryInfoRoute,
  boostEmailCapacityRoute,
  getAiChatThreadRoute,
  appendAiChatMessageRoute,
  listAiConversationsRoute,
  createAiConversationRoute,
  aiQueryRoute,
  aiQueryLatestRoute,
  rewriteTemplateSourceRoute,
  analyticsQueryRoute,
  listManagedEmailDomainsRoute,
  setupManagedEmailDomainRoute,
  checkManagedEmailDomainRoute,
  applyManagedEmailDomainRoute,
  deleteManagedEmailDomainRoute,
  sendTestWebhookRoute,
  previewAffectedUsersRoute,
  transferProjectRoute,
  sendFeedbackRoute,
] as const satisfies readonly RouteDefinition[];
