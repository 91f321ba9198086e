// Webhook routes (WIRE.md §4.16): the management token, and Gatehouse's own management API for a project's webhook
// endpoints, their secrets and delivery attempts. The management routes take either admin headers or the Bearer
// token from `POST /webhooks/svix-token`, so they declare access `any` and the server authorises them.
import { z } from "zod";
import { defineRoute } from "../route.ts";
import { urlSchema } from "../schemas/auth.ts";
import { listOf, successSchema } from "../schemas/common.ts";

/** Every event type a project's webhooks carry, in the order WIRE.md §4.16 lists them. */
export const WEBHOOK_EVENT_TYPES = [
  "user.created",
  "user.updated",
  "user.deleted",
  "team.created",
  "team.updated",
  "team.deleted",
  "team_membership.created",
  "team_membership.deleted",
  "team_permission.created",
  "team_permission.deleted",
  "project_permission.created",
  "project_permission.deleted",
  // [GO] Enterprise SSO (apps/server/src/sso/).
  "sso.connection.created",
  "sso.connection.updated",
  "sso.connection.deleted",
  "user.provisioned",
  // [GO] One per audit entry, when the project opts in (`audit_log_webhooks`).
  "audit_log.entry_created",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The type of the event `POST …/test` sends; it is not an event type endpoints can filter on. */
export const WEBHOOK_TEST_EVENT_TYPE = "webhook.test";

export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);

export const webhookEndpointSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    description: z.string().nullable(),
    filter_types: z.array(z.string()).nullable(),
    enabled: z.boolean(),
    created_at_millis: z.number(),
    updated_at_millis: z.number(),
  })
  .meta({ id: "WebhookEndpoint" });

export type WebhookEndpoint = z.output<typeof webhookEndpointSchema>;

export const webhookAttemptSchema = z
  .object({
    id: z.uuid(),
    endpoint_id: z.uuid(),
    message_id: z.string(),
    event_type: z.string(),
    attempt_number: z.number(),
    status: z.enum(["succeeded", "failed", "pending"]),
    response_status_code: z.number().nullable(),
    response_body_excerpt: z.string().nullable(),
    error: z.string().nullable(),
    attempted_at_millis: z.number(),
    duration_millis: z.number(),
    next_attempt_at_millis: z.number().nullable(),
  })
  .meta({ id: "WebhookAttempt" });

export type WebhookAttempt = z.output<typeof webhookAttemptSchema>;

const secretSchema = z.object({ secret: z.string() });

const endpointFields = {
  description: z.string().max(1000).nullable().optional(),
  /** Null or absent: every event type. */
  filter_types: z.array(webhookEventTypeSchema).nullable().optional(),
  enabled: z.boolean().optional(),
};

const endpointCreateSchema = z.strictObject({ url: urlSchema, ...endpointFields });
const endpointUpdateSchema = z.strictObject({ url: urlSchema.optional(), ...endpointFields }).default({});

const endpointParams = z.strictObject({ endpoint_id: z.uuid() });

const MANAGEMENT = "/api/v1/internal/webhooks";
/** How the management routes are authorised (they declare access `any`). */
const MANAGEMENT_ACCESS =
  "Admin headers, or `authorization: Bearer <token>` from `POST /webhooks/svix-token`.";
const TAG = "Webhooks";

export const createWebhookTokenRoute = defineRoute({
  method: "POST",
  path: "/api/v1/webhooks/svix-token",
  access: ["admin"],
  summary: "A token for the webhook management API, valid one hour, bound to the project",
  tag: TAG,
  response: { status: 201, kind: "json", schema: z.object({ token: z.string(), url: z.string() }) },
});

export const listWebhookEventTypesRoute = defineRoute({
  method: "GET",
  path: `${MANAGEMENT}/event-types`,
  access: "any",
  summary: `The event types endpoints can receive. ${MANAGEMENT_ACCESS}`,
  tag: TAG,
  response: { status: 200, kind: "json", schema: listOf(z.object({ type: z.string() })) },
});

export const listWebhookEndpointsRoute = defineRoute({
  method: "GET",
  path: `${MANAGEMENT}/endpoints`,
  access: "any",
  summary: `The project's webhook endpoints, oldest first. ${MANAGEMENT_ACCESS}`,
  tag: TAG,
  response: { status: 200, kind: "json", schema: listOf(webhookEndpointSchema) },
});

export const createWebhookEndpointRoute = defineRoute({
  method: "POST",
  path: `${MANAGEMENT}/endpoints`,
  access: "any",
  summary: `Adds a webhook endpoint with a new signing secret. ${MANAGEMENT_ACCESS}`,
  tag: TAG,
  body: endpointCreateSchema,
  response: { status: 201, kind: "json", schema: webhookEndpointSchema },
});

export const getWebhookEndpointRoute = defineRoute({
  method: "GET",
  path: `${MANAGEMENT}/endpoints/{endpoint_id}`,
  access: "any",
  summary: `A webhook endpoint. ${MANAGEMENT_ACCESS}`,
  tag: TAG,
  params: endpointParams,
  response: { status: 200, kind: "json", schema: webhookEndpointSchema },
});

export const updateWebhookEndpointRoute = defineRoute({
  method: "PATCH",
  path: `${MANAGEMENT}/endpoints/{endpoint_id}`,
  access: "any",
  summary: `Updates a webhook endpoint; enabling it clears its failure record. ${MANAGEMENT_ACCESS}`,
  tag: TAG,
  params: endpointParams,
  body: endpointUpdateSchema,
  response: { status: 200, kind: "json", schema: webhookEndpointSchema },
});

export const deleteWebhookEndpointRoute = defineRoute({
  method: "DELETE",
  path: `${MANAGEMENT}/endpoints/{endpoint_id}`,
  access: "any",
  summary: `Deletes a webhook endpoint with its pending deliveries and attempts. ${MANAGEMENT_ACCESS}`,
  tag: TAG,
  params: endpointParams,
  response: { status: 200, kind: "json", schema: successSchema },
});

export const getWebhookSecretRoute = defineRoute({
  method: "GET",
  path: `${MANAGEMENT}/endpoints/{endpoint_id}/secret`,
  access: "any",
  summary: `The endpoint's signing secret (\`whsec_…\`). ${MANAGEMENT_ACCESS}`,
  tag: TAG,
  params: endpointParams,
  response: { status: 200, kind: "json", schema: secretSchema },
});

export const rotateWebhookSecretRoute = defineRoute({
  method: "POST",
  path: `${MANAGEMENT}/endpoints/{endpoint_id}/secret/rotate`,
  access: "any",
  summary: `A new signing secret; the old one also signs for 24 hours. ${MANAGEMENT_ACCESS}`,
  tag: TAG,
  params: endpointParams,
  response: { status: 200, kind: "json", schema: secretSchema },
});

export const listWebhookAttemptsRoute = defineRoute({
  method: "GET",
  path: `${MANAGEMENT}/endpoints/{endpoint_id}/attempts`,
  access: "any",
  summary: `The endpoint's last 100 delivery attempts, newest first (kept 30 days). ${MANAGEMENT_ACCESS}`,
  tag: TAG,
  params: endpointParams,
  response: { status: 200, kind: "json", schema: listOf(webhookAttemptSchema) },
});

export const testWebhookEndpointRoute = defineRoute({
  method: "POST",
  path: `${MANAGEMENT}/endpoints/{endpoint_id}/test`,
  access: "any",
  summary: `Sends a \`webhook.test\` event at once, whatever the filter, and answers the attempt. ${MANAGEMENT_ACCESS}`,
  tag: TAG,
  params: endpointParams,
  response: { status: 200, kind: "json", schema: webhookAttemptSchema },
});

/** The webhook routes, in the order the API reference lists them. */
export const webhookRoutes = [
  createWebhookTokenRoute,
  listWebhookEventTypesRoute,
  listWebhookEndpointsRoute,
  createWebhookEndpointRoute,
  getWebhookEndpointRoute,
  updateWebhookEndpointRoute,
  deleteWebhookEndpointRoute,
  getWebhookSecretRoute,
  rotateWebhookSecretRoute,
  listWebhookAttemptsRoute,
  testWebhookEndpointRoute,
] as const;
