// The webhook management API's logic (WIRE.md §4.16): endpoints with their sealed secrets, rotation, the attempts
// log, test events, and the one-hour management tokens. Delivery itself is the worker's (worker.ts).
import { randomUUID } from "node:crypto";
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TEST_EVENT_TYPE,
  type WebhookAttempt,
  type WebhookEndpoint,
  type WebhookEventType,
} from "@gatehouse/contract";
import type { Clock } from "../clock.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import type { Db } from "../db/client.ts";
import {
  type AttemptRow,
  createWebhooksRepo,
  type EndpointChanges,
  type EndpointRow,
} from "../db/webhooks-repo.ts";
import type { Project } from "../services/projects.ts";
import { TextError } from "../text-error.ts";
import { isPublicUrl, NOT_PUBLIC_MESSAGE } from "./addresses.ts";
import { attemptRow, createWebhookSender } from "./sender.ts";
import { generateMessageId, generateWebhookSecret } from "./signing.ts";

export const MANAGEMENT_TOKEN_LIFETIME_MS = 60 * 60 * 1000;
export const ATTEMPTS_LISTED = 100;
export const ENDPOINT_NOT_FOUND = "Webhook endpoint not found.";
export const HTTPS_REQUIRED = "Webhook URL must use https in production mode.";

export type EndpointInput = {
  url?: string;
  description?: string | null;
  filter_types?: WebhookEventType[] | null;
  enabled?: boolean;
};

export type WebhookServiceOptions = {
  db: Db;
  clock: Clock;
  /** Seals endpoint secrets (purpose `webhooks`); the worker opens them with the same box. */
  box: SecretBox;
  /** Seals management tokens (its own purpose, so a token never opens as a secret or the other way round). */
  tokenBox: SecretBox;
  /** The server's public origin: management tokens name `{baseUrl}/api/v1/internal/webhooks`. */
  baseUrl: string;
  /** The operator's GATEHOUSE_WEBHOOK_ALLOW_PRIVATE_URLS. */
  allowPrivateUrls: boolean;
  timeoutMs?: number;
};

export function endpointItem(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    filter_types: row.filterTypes,
    enabled: row.enabled,
    created_at_millis: row.createdAt.getTime(),
    updated_at_millis: row.updatedAt.getTime(),
  };
}

export function attemptItem(row: AttemptRow): WebhookAttempt {
  return {
    id: row.id,
    endpoint_id: row.endpointId,
    message_id: row.messageId,
    event_type: row.eventType,
    attempt_number: row.attemptNumber,
    status: row.status,
    response_status_code: row.responseStatusCode,
    response_body_excerpt: row.responseBodyExcerpt,
    error: row.error,
    attempted_at_millis: row.attemptedAt.getTime(),
    duration_millis: row.durationMs,
    next_attempt_at_millis: row.nextAttemptAt ? row.nextAttemptAt.getTime() : null,
  };
}

/** A filter as stored: each type once, in the order given. */
const filterOf = (types: WebhookEventType[] | null | undefined) => (types ? [...new Set(types)] : null);

export function createWebhookService(options: WebhookServiceOptions) {
  const { clock, box, tokenBox } = options;
  const repo = createWebhooksRepo(options.db);
  const sender = createWebhookSender(options);

  /** https in production mode; a public address unless the operator allows private ones. */
  async function checkUrl(project: Project, url: string): Promise<void> {
    if (project.isProductionMode && new URL(url).protocol !== "https:")
      throw new TextError(400, HTTPS_REQUIRED);
    if (!options.allowPrivateUrls && !(await isPublicUrl(url))) throw new TextError(400, NOT_PUBLIC_MESSAGE);
  }

  async function endpointOf(project: Project, endpointId: string): Promise<EndpointRow> {
    const endpoint = await repo.findEndpoint(project.id, endpointId);
    if (!endpoint) throw new TextError(404, ENDPOINT_NOT_FOUND);
    return endpoint;
  }

  return {
    eventTypes: () => WEBHOOK_EVENT_TYPES.map((type) => ({ type })),

    async list(project: Project): Promise<WebhookEndpoint[]> {
      return (await repo.listEndpoints(project.id)).map(endpointItem);
    },

    async create(project: Project, input: EndpointInput & { url: string }): Promise<WebhookEndpoint> {
      await checkUrl(project, input.url);
      const now = clock.now();
      const row = await repo.insertEndpoint({
        id: randomUUID(),
        projectId: project.id,
        url: input.url,
        description: input.description ?? null,
        filterTypes: filterOf(input.filter_types),
        enabled: input.enabled ?? true,
        sealedSecret: box.seal(generateWebhookSecret()),
        createdAt: now,
        updatedAt: now,
      });
      return endpointItem(row);
    },

    async get(project: Project, endpointId: string): Promise<WebhookEndpoint> {
      return endpointItem(await endpointOf(project, endpointId));
    },

    /** Enabling an endpoint (again) starts its failure record afresh. */
    async update(project: Project, endpointId: string, input: EndpointInput): Promise<WebhookEndpoint> {
      const current = await endpointOf(project, endpointId);
      if (input.url !== undefined) await checkUrl(project, input.url);
      const changes: EndpointChanges = { updatedAt: clock.now() };
      if (input.url !== undefined) changes.url = input.url;
      if (input.description !== undefined) changes.description = input.description;
      if (input.filter_types !== undefined) changes.filterTypes = filterOf(input.filter_types);
      if (input.enabled !== undefined) changes.enabled = input.enabled;
      if (input.enabled && !current.enabled) changes.failingSince = null;
      const row = await repo.updateEndpoint(project.id, endpointId, changes);
      if (!row) throw new TextError(404, ENDPOINT_NOT_FOUND);
      return endpointItem(row);
    },

    async delete(project: Project, endpointId: string): Promise<void> {
      if (!(await repo.deleteEndpoint(project.id, endpointId))) throw new TextError(404, ENDPOINT_NOT_FOUND);
    },

    async secret(project: Project, endpointId: string): Promise<{ secret: string }> {
      return { secret: box.open((await endpointOf(project, endpointId)).sealedSecret) };
    },

    /** A new secret; the replaced one keeps signing beside it for 24 hours. */
    async rotateSecret(project: Project, endpointId: string): Promise<{ secret: string }> {
      const secret = generateWebhookSecret();
      const row = await repo.rotateSecret(project.id, endpointId, box.seal(secret), clock.now());
      if (!row) throw new TextError(404, ENDPOINT_NOT_FOUND);
      return { secret };
    },

    async attempts(project: Project, endpointId: string): Promise<WebhookAttempt[]> {
      const endpoint = await endpointOf(project, endpointId);
      return (await repo.listAttempts(endpoint.id, ATTEMPTS_LISTED)).map(attemptItem);
    },

    /**
     * Sends a `webhook.test` event at once, whatever the endpoint's filter, and records the attempt. A test is not
     * retried and does not count towards disabling the endpoint.
     */
    async test(project: Project, endpointId: string): Promise<WebhookAttempt> {
      const endpoint = await endpointOf(project, endpointId);
      const messageId = generateMessageId();
      const body = JSON.stringify({
        type: WEBHOOK_TEST_EVENT_TYPE,
        data: { sent_at_millis: clock.now().getTime() },
      });
      const result = await sender.send(endpoint, messageId, body);
      const message = { deliveryId: null, messageId, eventType: WEBHOOK_TEST_EVENT_TYPE, attemptNumber: 1 };
      return attemptItem(await repo.insertAttempt(options.db, attemptRow(endpoint, message, result, null)));
    },

    /** A management token for the project: opaque (sealed), valid one hour. */
    issueToken(projectId: string): { token: string; url: string } {
      const expiresAt = clock.now().getTime() + MANAGEMENT_TOKEN_LIFETIME_MS;
      return {
        token: tokenBox.seal(JSON.stringify({ project_id: projectId, expires_at_millis: expiresAt })),
        url: `${options.baseUrl}/api/v1/internal/webhooks`,
      };
    },

    /** The project a live management token was issued for; undefined for anything else. */
    projectOfToken(token: string): string | undefined {
      let claims: unknown;
      try {
        claims = JSON.parse(tokenBox.open(token));
      } catch {
        return undefined;
      }
      const { project_id, expires_at_millis } = (claims ?? {}) as Record<string, unknown>;
      if (typeof project_id !== "string" || typeof expires_at_millis !== "number") return undefined;
      return expires_at_millis > clock.now().getTime() ? project_id : undefined;
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
