// Webhook events (WIRE.md §4.16): each change records its event in the outbox inside the change's own transaction,
// so an event exists exactly when its change landed. Delivery (worker.ts) reads the outbox.
import { randomUUID } from "node:crypto";
// The event types are part of the wire (endpoint filters name them), so the contract owns their list.
import type { WebhookEventType } from "@gatehouse/contract";
import { asc, eq } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/client.ts";
import { webhookEvents } from "../db/schema.ts";

export type WebhookEvent = { type: WebhookEventType; data: Record<string, unknown> };

type EventRow = typeof webhookEvents.$inferInsert;

export function createWebhookEvents(deps: { db: Db; clock: Clock }) {
  /** Transactions inside `collect`: their events wait there and go in as one multi-row insert at its end. */
  const collecting = new WeakMap<Db, EventRow[]>();
  return {
    /** Records events in the caller's transaction, in the order given. */
    async record(tx: Db, projectId: string, ...events: WebhookEvent[]): Promise<void> {
      if (events.length === 0) return;
      const createdAt = deps.clock.now();
      const rows = events.map((e) => ({
        id: randomUUID(),
        projectId,
        type: e.type,
        data: e.data,
        createdAt,
      }));
      const pending = collecting.get(tx);
      if (pending) pending.push(...rows);
      else await tx.insert(webhookEvents).values(rows);
    },

    /**
     * Runs `work` in the caller's transaction with the events it records on `tx` held back, then inserts them in one
     * statement, in the order recorded (the outbox's sequence follows the row order). Same rows, same transaction,
     * fewer round trips: sign-up records three events. Work that throws records nothing (its transaction rolls back).
     */
    async collect<T>(tx: Db, work: () => Promise<T>): Promise<T> {
      if (collecting.has(tx)) return work();
      const pending: EventRow[] = [];
      collecting.set(tx, pending);
      let result: T;
      try {
        result = await work();
      } finally {
        collecting.delete(tx);
      }
      if (pending.length > 0) await tx.insert(webhookEvents).values(pending);
      return result;
    },

    /** A project's events in the order they were recorded. */
    async list(projectId: string): Promise<WebhookEvent[]> {
      const rows = await deps.db
        .select({ type: webhookEvents.type, data: webhookEvents.data })
        .from(webhookEvents)
        .where(eq(webhookEvents.projectId, projectId))
        .orderBy(asc(webhookEvents.seq));
      return rows as WebhookEvent[];
    },
  };
}

export type WebhookEvents = ReturnType<typeof createWebhookEvents>;
