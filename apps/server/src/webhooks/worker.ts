// The webhook delivery worker (WIRE.md §4.16). Each run: purges old attempts (hourly), fans recorded events out into
// one delivery per matching enabled endpoint (or forwards them to Svix when one is configured), then claims the due
// deliveries, sends them signed, records every attempt, schedules retries, and disables endpoints failing for 5 days.
// Everything it needs is in rows, so a restarted process carries on where the last one stopped.
import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import { type Db, inTransaction } from "../db/client.ts";
import {
  createWebhooksRepo,
  type DeliveryRow,
  type EndpointRow,
  type EventRow,
  type NewDeliveryRow,
} from "../db/webhooks-repo.ts";
import type { Logger } from "../logger.ts";
import { createPoller } from "../poller.ts";
import { attemptRow, createWebhookSender, SEND_TIMEOUT_MS, type WebhookSender } from "./sender.ts";
import { generateMessageId } from "./signing.ts";
import { forwardToSvix, type SvixSettings } from "./svix.ts";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The wait after each failed attempt; one more attempt than waits, so 8 in all. */
export const RETRY_DELAYS_MS = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** An endpoint whose every attempt has failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * DAY;
export const ATTEMPT_RETENTION_MS = 30 * DAY;
const PURGE_EVERY_MS = HOUR;

export type WebhookWorkerOptions = {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** Opens the endpoints' sealed secrets (the management service's box). */
  box: SecretBox;
  /** The operator's GATEHOUSE_WEBHOOK_ALLOW_PRIVATE_URLS. */
  allowPrivateUrls: boolean;
  /** When set, events go to this Svix server instead of the project's endpoints. */
  svix?: SvixSettings;
  pollMs?: number;
  batchSize?: number;
  /** How long a claimed delivery is reserved; must exceed the send timeout so no two workers send it at once. */
  leaseMs?: number;
  timeoutMs?: number;
  /** The sender to use (deps wraps it in a span when tracing is on); one of the worker's own otherwise. */
  sender?: WebhookSender;
};

const matches = (endpoint: EndpointRow, event: EventRow) =>
  endpoint.projectId === event.projectId &&
  (endpoint.filterTypes === null || endpoint.filterTypes.includes(event.type));

export function createWebhookWorker(options: WebhookWorkerOptions) {
  const { db, clock, logger } = options;
  const pollMs = options.pollMs ?? 1000;
  const batchSize = options.batchSize ?? 50;
  const leaseMs = options.leaseMs ?? 4 * (options.timeoutMs ?? SEND_TIMEOUT_MS);
  const repo = createWebhooksRepo(db);
  const sender = options.sender ?? createWebhookSender(options);

  let lastPurgeAt: number | undefined;

  /**
   * Fans one batch of events out into deliveries and marks them dispatched, in one transaction: an event becomes
   * its deliveries exactly once. The body is serialised once per event; every endpoint gets the same message id.
   */
  function dispatchBatch(): Promise<number> {
    return inTransaction(db, async (tx) => {
      const events = await repo.takeUndispatched(tx, batchSize);
      if (events.length === 0) return 0;
      const now = clock.now();
      const endpoints = await repo.enabledEndpointsOf(tx, [...new Set(events.map((e) => e.projectId))]);
      const deliveries = events.flatMap((event): NewDeliveryRow[] => {
        const targets = endpoints.filter((endpoint) => matches(endpoint, event));
        if (targets.length === 0) return [];
        const messageId = generateMessageId();
        const body = JSON.stringify({ type: event.type, data: event.data });
        return targets.map((endpoint) => ({
          id: randomUUID(),
          projectId: event.projectId,
          endpointId: endpoint.id,
          eventId: event.id,
          messageId,
          eventType: event.type,
          body,
          status: "pending",
          attempts: 0,
          nextAttemptAt: now,
          createdAt: now,
        }));
      });
      await repo.insertDeliveries(tx, deliveries);
      const eventIds = events.map((e) => e.id);
      await repo.markDispatched(tx, eventIds, now);
      return events.length;
    });
  }

  /** Forwards one batch of events to Svix; answers whether more may be waiting. Stops at the first failure. */
  async function forwardBatch(svix: SvixSettings): Promise<boolean> {
    const events = await repo.listUndispatched(batchSize);
    for (const event of events) {
      const result = await forwardToSvix(svix, event);
      if (!result.ok) {
        logger.warn("webhook forwarding to Svix failed", { event_id: event.id, error: result.error });
        return false;
      }
      await repo.markDispatched(db, [event.id], clock.now());
    }
    return events.length === batchSize;
  }

  async function deliver(row: DeliveryRow, endpoint: EndpointRow | undefined): Promise<void> {
    // A disabled endpoint receives nothing: what was still pending for it is dropped.
    if (!endpoint?.enabled) {
      await repo.settleDelivery(db, row.id, {
        status: "failed",
        attempts: row.attempts,
        nextAttemptAt: null,
      });
      return;
    }
    const result = await sender.send(endpoint, row.messageId, row.body);
    const attemptNumber = row.attempts + 1;
    const retry = !result.ok && attemptNumber < MAX_ATTEMPTS;
    const nextAttemptAt = retry
      ? new Date(result.attemptedAt.getTime() + (RETRY_DELAYS_MS[attemptNumber - 1] ?? 0))
      : null;
    const message = { deliveryId: row.id, messageId: row.messageId, eventType: row.eventType, attemptNumber };
    const disabled = await inTransaction(db, async (tx) => {
      await repo.settleDelivery(tx, row.id, {
        status: result.ok ? "succeeded" : retry ? "pending" : "failed",
        attempts: attemptNumber,
        nextAttemptAt,
      });
      await repo.insertAttempt(tx, attemptRow(endpoint, message, result, nextAttemptAt));
      if (result.ok) {
        await repo.recordEndpointSuccess(tx, endpoint.id);
        return false;
      }
      const failingSince = new Date(result.attemptedAt.getTime() - DISABLE_AFTER_FAILING_MS);
      return repo.recordEndpointFailure(tx, endpoint.id, result.attemptedAt, failingSince);
    });
    if (result.ok) return;
    logger.warn("webhook delivery failed", {
      project_id: row.projectId,
      endpoint_id: endpoint.id,
      message_id: row.messageId,
      attempt: attemptNumber,
      error: result.error,
      will_retry: retry,
    });
    if (disabled) {
      logger.warn("webhook endpoint disabled: every attempt failed for 5 days", {
        project_id: row.projectId,
        endpoint_id: endpoint.id,
      });
    }
  }

  async function drain(): Promise<void> {
    const now = clock.now().getTime();
    if (lastPurgeAt === undefined || now - lastPurgeAt >= PURGE_EVERY_MS) {
      lastPurgeAt = now;
      await repo.purgeAttempts(new Date(now - ATTEMPT_RETENTION_MS));
    }
    const { svix } = options;
    if (svix) while (await forwardBatch(svix));
    else while ((await dispatchBatch()) === batchSize);
    for (;;) {
      const claimedAt = clock.now();
      const rows = await repo.claimDue(claimedAt, new Date(claimedAt.getTime() + leaseMs), batchSize);
      const endpoints = await repo.endpointsByIds([...new Set(rows.map((r) => r.endpointId))]);
      const byId = new Map(endpoints.map((e) => [e.id, e]));
      await Promise.all(rows.map((row) => deliver(row, byId.get(row.endpointId))));
      if (rows.length < batchSize) return;
    }
  }

  const poller = createPoller({ name: "webhook worker", pollMs, logger, drain });
  return {
    start: poller.start,
    /** Stops polling and waits for the batch in flight. */
    async stop(): Promise<void> {
      await poller.stop();
    },
    /** Runs one batch now (tests call this instead of waiting for the poll). */
    runOnce: poller.runOnce,
  };
}

export type WebhookWorker = ReturnType<typeof createWebhookWorker>;
